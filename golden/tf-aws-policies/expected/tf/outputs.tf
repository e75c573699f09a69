output "shop_address" {
  description = "Where the shop answers"
  value       = aws_lb.front.dns_name
}
