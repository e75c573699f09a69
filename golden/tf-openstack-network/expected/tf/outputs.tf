output "back_address" {
  value = openstack_compute_instance_v2.back.access_ip_v4
}

output "front_private_ip" {
  value = openstack_networking_port_v2.front_port.all_fixed_ips[0]
}

output "network_id" {
  description = "The private network"
  value       = openstack_networking_network_v2.private_net.id
}
