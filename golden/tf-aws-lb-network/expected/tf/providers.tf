variable "aws_region" {
  type        = string
  description = "The AWS region to deploy into"
  default     = "us-east-1"
}

provider "aws" {
  region = var.aws_region
}
