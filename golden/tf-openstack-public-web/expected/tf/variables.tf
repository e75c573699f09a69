variable "http_port" {
  type        = number
  description = "The port nginx listens on"
  default     = 8080
}
