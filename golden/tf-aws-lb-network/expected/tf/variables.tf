variable "shop_port" {
  type        = number
  description = "The port the shop listens on"
  default     = 8080
}
