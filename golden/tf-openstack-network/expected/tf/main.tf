data "openstack_images_image_v2" "back" {
  name        = "Debian 12"
  most_recent = true
}

resource "openstack_compute_instance_v2" "back" {
  name        = "back"
  image_id    = data.openstack_images_image_v2.back.id
  flavor_name = "m1.large"

  network {
    port = openstack_networking_port_v2.back_port.id
  }
}

resource "openstack_networking_port_v2" "back_port" {
  name           = "back_port"
  network_id     = openstack_networking_network_v2.private_net.id
  admin_state_up = true

  fixed_ip {
    subnet_id = openstack_networking_subnet_v2.private_net.id
  }
}

data "openstack_images_image_v2" "front" {
  name        = "Ubuntu 24.04"
  most_recent = true
}

resource "openstack_compute_instance_v2" "front" {
  name        = "front"
  image_id    = data.openstack_images_image_v2.front.id
  flavor_name = "m1.small"

  network {
    port = openstack_networking_port_v2.front_port.id
  }

  depends_on = [openstack_compute_instance_v2.back]
}

resource "openstack_networking_port_v2" "front_port" {
  name           = "front_port"
  network_id     = openstack_networking_network_v2.private_net.id
  admin_state_up = true

  fixed_ip {
    subnet_id  = openstack_networking_subnet_v2.private_net.id
    ip_address = "10.10.0.20"
  }
}

resource "openstack_networking_network_v2" "private_net" {
  name           = "shop-private"
  admin_state_up = true
}

resource "openstack_networking_subnet_v2" "private_net" {
  name        = "private_net"
  network_id  = openstack_networking_network_v2.private_net.id
  cidr        = var.private_cidr
  ip_version  = 4
  gateway_ip  = "10.10.0.1"
  enable_dhcp = true

  allocation_pool {
    start = "10.10.0.10"
    end   = "10.10.0.200"
  }
}
