output "url" {
  description = "The site's address"
  value       = "http://${aws_instance.web_vm.public_ip}:${var.http_port}/"
}
