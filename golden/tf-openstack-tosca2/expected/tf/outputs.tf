output "app_url" {
  description = "Where the application answers"
  value       = "http://${openstack_compute_instance_v2.server.access_ip_v4}:8000"
}

output "volume" {
  value = openstack_blockstorage_volume_v3.data.id
}
