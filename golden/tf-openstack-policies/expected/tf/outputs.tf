output "shop_address" {
  description = "Where the shop answers"
  value       = openstack_compute_instance_v2.web_vm.access_ip_v4
}
