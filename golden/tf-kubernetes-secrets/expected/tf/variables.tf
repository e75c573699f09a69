variable "db_port" {
  type    = number
  default = 3306
}

variable "db_root_password" {
  type        = string
  description = "Root password of the MySQL server"
  sensitive   = true
}

variable "ingest_api_token" {
  type        = string
  description = "Token the collector sends with every batch"
  sensitive   = true
}
