output "back_address" {
  value = aws_instance.back.private_ip
}

output "front_private_ip" {
  value = aws_network_interface.front_port.private_ip
}

output "network_id" {
  description = "The private network"
  value       = aws_vpc.private_net.id
}
