output "frontend_address" {
  description = "The public address of the front end"
  value       = "http://${kubernetes_service_v1.web_lb.status[0].load_balancer[0].ingress[0].ip}:80"
}
