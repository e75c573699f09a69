output "first_label_part" {
  value = element(split("-", var.instance_name), 0)
}

output "greeting" {
  description = "A line built from an input and a property"
  value       = "Hello from ${var.instance_name} in ${var.environment}"
}

output "host_and_zone" {
  value = "${aws_instance.app_vm.private_ip}/${aws_instance.app_vm.id}"
}

output "token_copy" {
  description = "Shows a sensitive input, so Terraform must mark it sensitive too"
  value       = var.api_token
  sensitive   = true
}
