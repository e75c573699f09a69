variable "web_cpus" {
  type        = number
  description = "CPUs of each web instance"
  default     = 2
}

variable "web_memory" {
  type        = string
  description = "Memory of each web instance"
  default     = "4 GB"
}

variable "web_vm_flavor" {
  type        = string
  description = "The flavor of web_vm: m1.medium is the first of the backend's sizes that fits its host capability (num_cpus from input web_cpus, mem_size from input web_memory) as the inputs were at translation"
  default     = "m1.medium"
}
