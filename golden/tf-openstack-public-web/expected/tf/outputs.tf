output "url" {
  description = "The site's address"
  value       = "http://${openstack_compute_instance_v2.web_vm.access_ip_v4}:${var.http_port}/"
}
