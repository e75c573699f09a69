output "shop_url" {
  description = "The shop's address"
  value       = "http://${openstack_lb_loadbalancer_v2.front.vip_address}/"
}
