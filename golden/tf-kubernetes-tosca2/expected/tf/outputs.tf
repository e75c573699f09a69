output "volume" {
  value = kubernetes_persistent_volume_claim_v1.data.metadata[0].name
}
