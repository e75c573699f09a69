output "disk_id" {
  description = "The data disk's volume ID"
  value       = aws_ebs_volume.data_disk.id
}

output "site_url" {
  description = "The address of the site"
  value       = "http://${aws_instance.web_vm.public_ip}:${var.http_port}/"
}
