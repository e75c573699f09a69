variable "data_snapshot" {
  type        = string
  description = "The snapshot the data volume starts from"
  default     = "snap-0a1b2c3d4e5f67890"
}
