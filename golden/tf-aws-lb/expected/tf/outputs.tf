output "bucket" {
  value = aws_s3_bucket.images.bucket
}

output "machines" {
  description = "The private addresses of both machines"
  value       = "${aws_instance.web_vm.private_ip}, ${aws_instance.db_vm.private_ip}"
}

output "shop_url" {
  description = "The shop's address"
  value       = "http://${aws_lb.lb.dns_name}/shop"
}
