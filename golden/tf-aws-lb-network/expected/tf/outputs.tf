output "shop_url" {
  description = "The shop's address"
  value       = "http://${aws_lb.front.dns_name}/"
}
