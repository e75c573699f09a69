output "bucket" {
  value = openstack_objectstorage_container_v1.images.name
}

output "machines" {
  description = "The private addresses of both machines"
  value       = "${openstack_compute_instance_v2.web_vm.access_ip_v4}, ${openstack_compute_instance_v2.db_vm.access_ip_v4}"
}

output "shop_url" {
  description = "The shop's address"
  value       = "http://${openstack_lb_loadbalancer_v2.lb.vip_address}/shop"
}
