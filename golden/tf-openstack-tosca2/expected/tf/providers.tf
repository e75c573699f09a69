variable "openstack_cloud" {
  type        = string
  description = "The entry of clouds.yaml with the OpenStack credentials"
  default     = "openstack"
}

variable "openstack_external_network" {
  type        = string
  description = "The external network that routers take their gateway from and floating IPs their addresses"
  default     = "public"
}

provider "openstack" {
  cloud = var.openstack_cloud
}
