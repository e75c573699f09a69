variable "app_port" {
  type        = number
  description = "The port the application listens on"
  default     = 8000

  validation {
    condition     = (var.app_port >= 1024 && var.app_port < 65536)
    error_message = "The value of app_port must satisfy var.app_port >= 1024 && var.app_port < 65536."
  }
}

variable "tier" {
  type    = string
  default = "small"

  validation {
    condition     = contains(["small", "large"], var.tier)
    error_message = "The value of tier must satisfy contains([\"small\", \"large\"], var.tier)."
  }
}
