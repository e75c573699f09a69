variable "kube_config_path" {
  type        = string
  description = "The kubeconfig file with the cluster's credentials"
  default     = "~/.kube/config"
}

variable "kube_context" {
  type        = string
  description = "The kubeconfig context to use (null: the current one)"
  default     = null
}

variable "kube_namespace" {
  type        = string
  description = "The namespace every object is created in"
  default     = "default"
}

provider "kubernetes" {
  config_path    = var.kube_config_path
  config_context = var.kube_context
}
