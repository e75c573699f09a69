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

provider "openstack" {
  cloud = var.openstack_cloud
}
