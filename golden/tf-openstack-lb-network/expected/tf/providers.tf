variable "openstack_cloud" {
  type        = string
  description = "The entry of clouds.yaml with the OpenStack credentials"
  default     = "openstack"
}

variable "openstack_network" {
  type        = string
  description = "The network of machines that have no port of their own, and of load balancer addresses"
  default     = "public"
}

variable "openstack_external_network" {
  type        = string
  description = "The external network that routers take their gateway from and floating IPs their addresses"
  default     = "public"
}

provider "openstack" {
  cloud = var.openstack_cloud
}
