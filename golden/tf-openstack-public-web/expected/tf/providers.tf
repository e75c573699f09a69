variable "openstack_cloud" {
  type        = string
  description = "The entry of clouds.yaml with the OpenStack credentials"
  default     = "openstack"
}

provider "openstack" {
  cloud = var.openstack_cloud
}
