output "db_credentials" {
  description = "The root login, which must stay sensitive in Terraform too"
  value       = "root:${var.db_root_password}"
  sensitive   = true
}

output "db_port" {
  description = "The port the database listens on"
  value       = var.db_port
}
