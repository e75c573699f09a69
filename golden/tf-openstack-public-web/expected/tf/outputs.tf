output "url" {
  description = "The site's address"
  value       = "http://${openstack_networking_floatingip_v2.web_port.address}:${var.http_port}/"
}
