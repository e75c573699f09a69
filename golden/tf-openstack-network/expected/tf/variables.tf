variable "private_cidr" {
  type        = string
  description = "The address range of the private network"
  default     = "10.10.0.0/24"

  validation {
    condition     = can(regex("^(?:[0-9./]+)$", var.private_cidr))
    error_message = "The value of private_cidr must match the pattern [0-9./]+."
  }
}
