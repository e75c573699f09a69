output "frontend_address" {
  description = "The public address of the front end"
  value       = "http://${aws_lb.web_lb.dns_name}:80"
}
