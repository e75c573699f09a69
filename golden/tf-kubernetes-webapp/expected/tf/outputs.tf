output "disk_id" {
  description = "The data disk's volume ID"
  value       = kubernetes_persistent_volume_claim_v1.data_disk.metadata[0].name
}
