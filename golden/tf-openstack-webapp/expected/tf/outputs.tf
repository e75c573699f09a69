output "disk_id" {
  description = "The data disk's volume ID"
  value       = openstack_blockstorage_volume_v3.data_disk.id
}

output "site_url" {
  description = "The address of the site"
  value       = "http://${openstack_compute_instance_v2.web_vm.access_ip_v4}:${var.http_port}/"
}
