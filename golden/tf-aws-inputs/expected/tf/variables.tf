variable "admin_cidrs" {
  type        = list(string)
  description = "Address ranges that may reach the admin port"

  validation {
    condition     = length(var.admin_cidrs) >= 1
    error_message = "The length of admin_cidrs must be at least 1."
  }
}

variable "api_token" {
  type        = string
  description = "Token for the deployment API"
  sensitive   = true

  validation {
    condition     = length(var.api_token) == 40
    error_message = "The length of api_token must be 40."
  }
}

variable "contact" {
  type    = object({ email = string, pager = bool })
  default = { email = "ops@example.com", pager = true }
}

variable "cpus" {
  type    = number
  default = 2

  validation {
    condition     = var.cpus >= 1 && var.cpus <= 16
    error_message = "The value of cpus must be between 1 and 16."
  }
}

variable "debug" {
  type    = bool
  default = false
}

variable "environment" {
  type        = string
  description = "Where this copy runs"

  validation {
    condition     = contains(["dev", "staging", "production"], var.environment)
    error_message = "The value of environment must be one of: dev, staging, production."
  }
}

variable "extra_ports" {
  type        = list(number)
  description = "More ports to open; typed by the entry schema alone"
  default     = null
}

variable "instance_name" {
  type    = string
  default = "app-01"

  validation {
    condition     = can(regex("^(?:[a-z]+-[0-9]{2})$", var.instance_name))
    error_message = "The value of instance_name must match the pattern [a-z]+-[0-9]{2}."
  }

  validation {
    condition     = length(var.instance_name) >= 4
    error_message = "The length of instance_name must be at least 4."
  }

  validation {
    condition     = length(var.instance_name) <= 32
    error_message = "The length of instance_name must be at most 32."
  }
}

variable "labels" {
  type    = map(string)
  default = { team = "shop", tier = "web" }
}

variable "login" {
  type        = object({ protocol = optional(string), token_type = optional(string), token = string, keys = optional(map(string)), user = optional(string) })
  description = "A credential, typed as an object from its data type"
  default     = null
  sensitive   = true
}

variable "memory" {
  type    = string
  default = "2 GB"
}

variable "ratio" {
  type    = number
  default = null

  validation {
    condition     = var.ratio == null ? true : var.ratio > 0
    error_message = "The value of ratio must be greater than 0."
  }

  validation {
    condition     = var.ratio == null ? true : var.ratio < 1
    error_message = "The value of ratio must be less than 1."
  }
}

variable "version_pin" {
  type    = string
  default = "1.10.2"

  validation {
    condition     = var.version_pin == "1.10.2"
    error_message = "The value of version_pin must be equal to 1.10.2."
  }
}

variable "app_vm_instance_type" {
  type        = string
  description = "The instance type of app_vm: t3.small is the first of the backend's sizes that fits its host capability (num_cpus from input cpus, mem_size from input memory) as the inputs were at translation"
  default     = "t3.small"
}
