variable "db_password" {
  type        = string
  description = "Password of the catalogue database"
  sensitive   = true

  validation {
    condition     = length(var.db_password) >= 12
    error_message = "The length of db_password must be at least 12."
  }
}

variable "storefront_port" {
  type    = number
  default = 8080

  validation {
    condition     = contains([8080, 8443], var.storefront_port)
    error_message = "The value of storefront_port must be one of: 8080, 8443."
  }
}
