output "app_url" {
  description = "Where the application answers"
  value       = "http://${aws_instance.server.public_ip}:8000"
}

output "volume" {
  value = aws_ebs_volume.data.id
}
