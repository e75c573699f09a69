variable "data_size" {
  type        = string
  description = "Size of the data disk"
  default     = "20 GB"
}

variable "http_port" {
  type        = number
  description = "The port nginx listens on"
  default     = 80

  validation {
    condition     = var.http_port >= 1 && var.http_port <= 65535
    error_message = "The value of http_port must be between 1 and 65535."
  }
}

variable "site_name" {
  type        = string
  description = "The site's name, shown on its home page"
  default     = "example"

  validation {
    condition     = can(regex("^(?:[a-z][a-z0-9-]*)$", var.site_name))
    error_message = "The value of site_name must match the pattern [a-z][a-z0-9-]*."
  }

  validation {
    condition     = length(var.site_name) <= 40
    error_message = "The length of site_name must be at most 40."
  }
}
