output "volume_id" {
  description = "The volume restored from the snapshot"
  value       = aws_ebs_volume.data_volume.id
}
