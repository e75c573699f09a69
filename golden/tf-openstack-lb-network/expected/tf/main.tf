data "openstack_networking_network_v2" "default" {
  name = var.openstack_network
}

data "openstack_networking_network_v2" "external" {
  name     = var.openstack_external_network
  external = true
}

data "openstack_networking_secgroup_v2" "default" {
  name = "default"
}

resource "openstack_lb_loadbalancer_v2" "front" {
  name           = "front"
  vip_network_id = data.openstack_networking_network_v2.default.id
}

resource "openstack_lb_listener_v2" "front" {
  name            = "front"
  protocol        = "HTTP"
  protocol_port   = 80
  loadbalancer_id = openstack_lb_loadbalancer_v2.front.id
}

resource "openstack_lb_pool_v2" "front" {
  name        = "front"
  protocol    = "HTTP"
  lb_method   = "ROUND_ROBIN"
  listener_id = openstack_lb_listener_v2.front.id
}

resource "openstack_lb_member_v2" "front_vm_1" {
  pool_id       = openstack_lb_pool_v2.front.id
  address       = openstack_compute_instance_v2.vm_1.access_ip_v4
  subnet_id     = openstack_networking_subnet_v2.shop_net.id
  protocol_port = var.shop_port
}

resource "openstack_lb_member_v2" "front_vm_2" {
  pool_id       = openstack_lb_pool_v2.front.id
  address       = openstack_compute_instance_v2.vm_2.access_ip_v4
  subnet_id     = openstack_networking_subnet_v2.shop_net.id
  protocol_port = var.shop_port
}

resource "openstack_networking_port_v2" "port_1" {
  name               = "port_1"
  network_id         = openstack_networking_network_v2.shop_net.id
  admin_state_up     = true
  security_group_ids = [openstack_networking_secgroup_v2.vm_1.id, data.openstack_networking_secgroup_v2.default.id]

  fixed_ip {
    subnet_id = openstack_networking_subnet_v2.shop_net.id
  }
}

resource "openstack_networking_port_v2" "port_2" {
  name               = "port_2"
  network_id         = openstack_networking_network_v2.shop_net.id
  admin_state_up     = true
  security_group_ids = [openstack_networking_secgroup_v2.vm_2.id, data.openstack_networking_secgroup_v2.default.id]

  fixed_ip {
    subnet_id = openstack_networking_subnet_v2.shop_net.id
  }
}

resource "openstack_networking_network_v2" "shop_net" {
  name           = "shop"
  admin_state_up = true
}

resource "openstack_networking_subnet_v2" "shop_net" {
  name        = "shop_net"
  network_id  = openstack_networking_network_v2.shop_net.id
  cidr        = "10.10.0.0/16"
  ip_version  = 4
  enable_dhcp = true
}

# The machines in this network run scripts, which download packages: a router joins the
# subnet to the external network (outbound only: no floating IP, nothing comes in).
resource "openstack_networking_router_v2" "shop_net" {
  name                = "shop_net"
  admin_state_up      = true
  external_network_id = data.openstack_networking_network_v2.external.id
}

resource "openstack_networking_router_interface_v2" "shop_net" {
  router_id = openstack_networking_router_v2.shop_net.id
  subnet_id = openstack_networking_subnet_v2.shop_net.id
}

data "openstack_images_image_v2" "vm_1" {
  name        = "Ubuntu 24.04"
  most_recent = true
}

# The lifecycle scripts, unchanged, and their inputs as env files; cloud-init writes them
# and runs them in deployment order, each with its own interpreter.
locals {
  vm_1_cloud_config = {
    write_files = [
      {
        path        = "/opt/toscana/01-shop-1-create.sh"
        permissions = "0755"
        content     = file("${path.module}/artifacts/scripts/install_shop.sh")
      },
      {
        path        = "/opt/toscana-env/01-shop-1-create.env"
        permissions = "0600"
        content     = join("\n", ["export PORT='${replace(var.shop_port, "'", "'\\''")}'", ""])
      },
    ]
    runcmd = [
      ["/bin/sh", "-c", ". /opt/toscana-env/01-shop-1-create.env && exec /opt/toscana/01-shop-1-create.sh"],
    ]
  }
}

data "cloudinit_config" "vm_1" {
  gzip          = false
  base64_encode = false

  part {
    filename     = "toscana.cfg"
    content_type = "text/cloud-config"
    content      = "#cloud-config\n${yamlencode(local.vm_1_cloud_config)}"
  }
}

resource "openstack_compute_instance_v2" "vm_1" {
  name        = "vm_1"
  image_id    = data.openstack_images_image_v2.vm_1.id
  flavor_name = "m1.medium"
  user_data   = data.cloudinit_config.vm_1.rendered

  network {
    port = openstack_networking_port_v2.port_1.id
  }

  depends_on = [openstack_networking_router_interface_v2.shop_net]
}

# The ports of the endpoints the machine and its software expose and of its load balancers'
# members, open to the world when public and otherwise to its network (in no network of the
# template: to the members of the project's default group, and a load balancer's port to the
# project network, where the load balancer's addresses are). The group keeps OpenStack's
# default egress rules, and the machine stays in the default group too.
resource "openstack_networking_secgroup_v2" "vm_1" {
  name        = "vm_1"
  description = "The endpoints of vm_1"
}

resource "openstack_networking_secgroup_rule_v2" "vm_1_tcp_8080_private" {
  security_group_id = openstack_networking_secgroup_v2.vm_1.id
  description       = "shop_1 app_endpoint (tcp), open to its network"
  direction         = "ingress"
  ethertype         = "IPv4"
  protocol          = "tcp"
  port_range_min    = var.shop_port
  port_range_max    = var.shop_port
  remote_ip_prefix  = openstack_networking_subnet_v2.shop_net.cidr
}

data "openstack_images_image_v2" "vm_2" {
  name        = "Ubuntu 24.04"
  most_recent = true
}

# The lifecycle scripts, unchanged, and their inputs as env files; cloud-init writes them
# and runs them in deployment order, each with its own interpreter.
locals {
  vm_2_cloud_config = {
    write_files = [
      {
        path        = "/opt/toscana/01-shop-2-create.sh"
        permissions = "0755"
        content     = file("${path.module}/artifacts/scripts/install_shop.sh")
      },
      {
        path        = "/opt/toscana-env/01-shop-2-create.env"
        permissions = "0600"
        content     = join("\n", ["export PORT='${replace(var.shop_port, "'", "'\\''")}'", ""])
      },
    ]
    runcmd = [
      ["/bin/sh", "-c", ". /opt/toscana-env/01-shop-2-create.env && exec /opt/toscana/01-shop-2-create.sh"],
    ]
  }
}

data "cloudinit_config" "vm_2" {
  gzip          = false
  base64_encode = false

  part {
    filename     = "toscana.cfg"
    content_type = "text/cloud-config"
    content      = "#cloud-config\n${yamlencode(local.vm_2_cloud_config)}"
  }
}

resource "openstack_compute_instance_v2" "vm_2" {
  name        = "vm_2"
  image_id    = data.openstack_images_image_v2.vm_2.id
  flavor_name = "m1.medium"
  user_data   = data.cloudinit_config.vm_2.rendered

  network {
    port = openstack_networking_port_v2.port_2.id
  }

  depends_on = [openstack_networking_router_interface_v2.shop_net]
}

# The ports of the endpoints the machine and its software expose and of its load balancers'
# members, open to the world when public and otherwise to its network (in no network of the
# template: to the members of the project's default group, and a load balancer's port to the
# project network, where the load balancer's addresses are). The group keeps OpenStack's
# default egress rules, and the machine stays in the default group too.
resource "openstack_networking_secgroup_v2" "vm_2" {
  name        = "vm_2"
  description = "The endpoints of vm_2"
}

resource "openstack_networking_secgroup_rule_v2" "vm_2_tcp_8080_private" {
  security_group_id = openstack_networking_secgroup_v2.vm_2.id
  description       = "shop_2 app_endpoint (tcp), open to its network"
  direction         = "ingress"
  ethertype         = "IPv4"
  protocol          = "tcp"
  port_range_min    = var.shop_port
  port_range_max    = var.shop_port
  remote_ip_prefix  = openstack_networking_subnet_v2.shop_net.cidr
}
