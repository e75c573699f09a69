output "volume_id" {
  description = "The volume restored from the snapshot"
  value       = openstack_blockstorage_volume_v3.data_volume.id
}
