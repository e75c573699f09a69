data "openstack_networking_network_v2" "default" {
  name = var.openstack_network
}

# The project network's IPv4 subnet: a load balancer's VIP and amphora ports are on it, so a
# machine it routes to outside the template's networks admits the subnet's range on that port.
data "openstack_networking_subnet_v2" "default" {
  network_id = data.openstack_networking_network_v2.default.id
  ip_version = 4
}

data "openstack_networking_secgroup_v2" "default" {
  name = "default"
}

data "openstack_images_image_v2" "db_vm" {
  name        = "Ubuntu 24.04"
  most_recent = true
}

# The lifecycle scripts, unchanged, and their inputs as env files; cloud-init writes them
# and runs them in deployment order, each with its own interpreter.
locals {
  db_vm_cloud_config = {
    write_files = [
      {
        path        = "/opt/toscana/01-postgres-create.sh"
        permissions = "0755"
        content     = file("${path.module}/artifacts/scripts/install_postgres.sh")
      },
      {
        path        = "/opt/toscana/02-catalogue-db-create.sh"
        permissions = "0755"
        content     = file("${path.module}/artifacts/scripts/create_database.sh")
      },
      {
        path        = "/opt/toscana-env/02-catalogue-db-create.env"
        permissions = "0600"
        content     = join("\n", ["export DB_NAME='catalogue'", "export DB_PASSWORD='${replace(var.db_password, "'", "'\\''")}'", "export DB_USER='shop'", ""])
      },
    ]
    runcmd = [
      ["/bin/sh", "-c", "exec /opt/toscana/01-postgres-create.sh"],
      ["/bin/sh", "-c", ". /opt/toscana-env/02-catalogue-db-create.env && exec /opt/toscana/02-catalogue-db-create.sh"],
    ]
  }
}

data "cloudinit_config" "db_vm" {
  gzip          = false
  base64_encode = false

  part {
    filename     = "toscana.cfg"
    content_type = "text/cloud-config"
    content      = "#cloud-config\n${yamlencode(local.db_vm_cloud_config)}"
  }
}

resource "openstack_compute_instance_v2" "db_vm" {
  name        = "db_vm"
  image_id    = data.openstack_images_image_v2.db_vm.id
  flavor_name = "m1.xlarge"
  user_data   = data.cloudinit_config.db_vm.rendered

  network {
    name = var.openstack_network
  }
}

resource "openstack_objectstorage_container_v1" "images" {
  name = "shop-product-images"
}

resource "openstack_lb_loadbalancer_v2" "lb" {
  name           = "lb"
  vip_network_id = data.openstack_networking_network_v2.default.id
}

resource "openstack_lb_listener_v2" "lb" {
  name            = "lb"
  protocol        = "HTTP"
  protocol_port   = 80
  loadbalancer_id = openstack_lb_loadbalancer_v2.lb.id
}

resource "openstack_lb_pool_v2" "lb" {
  name        = "lb"
  protocol    = "HTTP"
  lb_method   = "LEAST_CONNECTIONS"
  listener_id = openstack_lb_listener_v2.lb.id
}

resource "openstack_lb_member_v2" "lb_web_vm" {
  pool_id       = openstack_lb_pool_v2.lb.id
  address       = openstack_compute_instance_v2.web_vm.access_ip_v4
  protocol_port = var.storefront_port
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
        path        = "/opt/toscana/01-storefront-create.sh"
        permissions = "0755"
        content     = file("${path.module}/artifacts/scripts/install_storefront.sh")
      },
      {
        path        = "/opt/toscana/02-storefront-start.sh"
        permissions = "0755"
        content     = file("${path.module}/artifacts/scripts/start_storefront.sh")
      },
      {
        path        = "/opt/toscana-env/02-storefront-start.env"
        permissions = "0600"
        content     = join("\n", ["export DB_HOST='${replace(openstack_compute_instance_v2.db_vm.access_ip_v4, "'", "'\\''")}'", "export DB_PASSWORD='${replace(var.db_password, "'", "'\\''")}'", "export PORT='${replace(var.storefront_port, "'", "'\\''")}'", ""])
      },
    ]
    runcmd = [
      ["/bin/sh", "-c", "exec /opt/toscana/01-storefront-create.sh"],
      ["/bin/sh", "-c", ". /opt/toscana-env/02-storefront-start.env && exec /opt/toscana/02-storefront-start.sh"],
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
  name            = "web_vm"
  image_id        = data.openstack_images_image_v2.web_vm.id
  flavor_name     = "m1.medium"
  user_data       = data.cloudinit_config.web_vm.rendered
  security_groups = [openstack_networking_secgroup_v2.web_vm.name, "default"]

  network {
    name = var.openstack_network
  }
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

resource "openstack_networking_secgroup_rule_v2" "web_vm_tcp_8080_private" {
  security_group_id = openstack_networking_secgroup_v2.web_vm.id
  description       = "storefront app_endpoint (tcp), open to the project network, where its load balancer is"
  direction         = "ingress"
  ethertype         = "IPv4"
  protocol          = "tcp"
  port_range_min    = var.storefront_port
  port_range_max    = var.storefront_port
  remote_ip_prefix  = data.openstack_networking_subnet_v2.default.cidr
}
