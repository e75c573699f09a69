data "openstack_networking_network_v2" "external" {
  name     = var.openstack_external_network
  external = true
}

data "openstack_networking_secgroup_v2" "default" {
  name = "default"
}

resource "openstack_networking_network_v2" "web_net" {
  name           = "web"
  admin_state_up = true
}

resource "openstack_networking_subnet_v2" "web_net" {
  name        = "web_net"
  network_id  = openstack_networking_network_v2.web_net.id
  cidr        = "10.20.0.0/16"
  ip_version  = 4
  enable_dhcp = true
}

# A machine in this network exposes a public endpoint: a router joins the subnet to the
# external network, and each such machine's port has a floating IP from it.
resource "openstack_networking_router_v2" "web_net" {
  name                = "web_net"
  admin_state_up      = true
  external_network_id = data.openstack_networking_network_v2.external.id
}

resource "openstack_networking_router_interface_v2" "web_net" {
  router_id = openstack_networking_router_v2.web_net.id
  subnet_id = openstack_networking_subnet_v2.web_net.id
}

resource "openstack_networking_floatingip_v2" "web_port" {
  pool = data.openstack_networking_network_v2.external.name
}

resource "openstack_networking_floatingip_associate_v2" "web_port" {
  floating_ip = openstack_networking_floatingip_v2.web_port.address
  port_id     = openstack_networking_port_v2.web_port.id

  # The port is reachable from the external network only through the router.
  depends_on = [openstack_networking_router_interface_v2.web_net]
}

resource "openstack_networking_port_v2" "web_port" {
  name               = "web_port"
  network_id         = openstack_networking_network_v2.web_net.id
  admin_state_up     = true
  security_group_ids = [openstack_networking_secgroup_v2.web_vm.id, data.openstack_networking_secgroup_v2.default.id]

  fixed_ip {
    subnet_id = openstack_networking_subnet_v2.web_net.id
  }
}

data "openstack_images_image_v2" "web_vm" {
  name        = "Ubuntu 24.04"
  most_recent = true
}

# The lifecycle scripts, unchanged, and their inputs as env files; cloud-init writes them
# and runs them in deployment order, each with its own interpreter.
locals {
  web_vm_cloud_config = {
    write_files = [
      {
        path        = "/opt/toscana/01-web-create.sh"
        permissions = "0755"
        content     = file("${path.module}/artifacts/scripts/install_nginx.sh")
      },
      {
        path        = "/opt/toscana/02-web-configure.sh"
        permissions = "0755"
        content     = file("${path.module}/artifacts/scripts/configure_nginx.sh")
      },
      {
        path        = "/opt/toscana-env/02-web-configure.env"
        permissions = "0600"
        content     = join("\n", ["export HTTP_PORT='${replace(var.http_port, "'", "'\\''")}'", ""])
      },
    ]
    runcmd = [
      ["/bin/sh", "-c", "exec /opt/toscana/01-web-create.sh"],
      ["/bin/sh", "-c", ". /opt/toscana-env/02-web-configure.env && exec /opt/toscana/02-web-configure.sh"],
    ]
  }
}

data "cloudinit_config" "web_vm" {
  gzip          = false
  base64_encode = false

  part {
    filename     = "toscana.cfg"
    content_type = "text/cloud-config"
    content      = "#cloud-config\n${yamlencode(local.web_vm_cloud_config)}"
  }
}

resource "openstack_compute_instance_v2" "web_vm" {
  name        = "web_vm"
  image_id    = data.openstack_images_image_v2.web_vm.id
  flavor_name = "m1.small"
  user_data   = data.cloudinit_config.web_vm.rendered

  network {
    port = openstack_networking_port_v2.web_port.id
  }

  depends_on = [openstack_networking_router_interface_v2.web_net]
}

# The ports of the endpoints the machine and its software expose and of its load balancers'
# members, open to the world when public and otherwise to its network (in no network of the
# template: to the members of the project's default group, and a load balancer's port to the
# project network, where the load balancer's addresses are). The group keeps OpenStack's
# default egress rules, and the machine stays in the default group too.
resource "openstack_networking_secgroup_v2" "web_vm" {
  name        = "web_vm"
  description = "The endpoints of web_vm"
}

resource "openstack_networking_secgroup_rule_v2" "web_vm_tcp_22_private" {
  security_group_id = openstack_networking_secgroup_v2.web_vm.id
  description       = "web_vm endpoint (ssh), open to its network"
  direction         = "ingress"
  ethertype         = "IPv4"
  protocol          = "tcp"
  port_range_min    = 22
  port_range_max    = 22
  remote_ip_prefix  = openstack_networking_subnet_v2.web_net.cidr
}

resource "openstack_networking_secgroup_rule_v2" "web_vm_tcp_8080" {
  security_group_id = openstack_networking_secgroup_v2.web_vm.id
  description       = "web data_endpoint (http), open to everyone"
  direction         = "ingress"
  ethertype         = "IPv4"
  protocol          = "tcp"
  port_range_min    = var.http_port
  port_range_max    = var.http_port
  remote_ip_prefix  = "0.0.0.0/0"
}
