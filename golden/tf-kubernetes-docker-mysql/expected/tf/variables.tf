variable "db_root_password" {
  type        = string
  description = "The MySQL root password"
  sensitive   = true
}
