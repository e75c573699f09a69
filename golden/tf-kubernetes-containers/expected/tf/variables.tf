variable "replicas" {
  type        = number
  description = "How many front-end containers run"
  default     = 3

  validation {
    condition     = var.replicas >= 1
    error_message = "The value of replicas must be at least 1."
  }

  validation {
    condition     = var.replicas <= 10
    error_message = "The value of replicas must be at most 10."
  }
}
