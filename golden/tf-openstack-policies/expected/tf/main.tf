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

data "openstack_images_image_v2" "batch_1" {
  name        = "Ubuntu 24.04"
  most_recent = true
}

resource "openstack_compute_instance_v2" "batch_1" {
  name              = "batch_1"
  image_id          = data.openstack_images_image_v2.batch_1.id
  flavor_name       = "m1.large"
  availability_zone = "az-1"

  network {
    name = var.openstack_network
  }
}

data "openstack_images_image_v2" "batch_2" {
  name        = "Ubuntu 24.04"
  most_recent = true
}

resource "openstack_compute_instance_v2" "batch_2" {
  name              = "batch_2"
  image_id          = data.openstack_images_image_v2.batch_2.id
  flavor_name       = "m1.large"
  availability_zone = "az-2"

  network {
    name = var.openstack_network
  }
}

data "openstack_images_image_v2" "cache" {
  name        = "Ubuntu 24.04"
  most_recent = true
}

resource "openstack_compute_instance_v2" "cache" {
  name        = "cache"
  image_id    = data.openstack_images_image_v2.cache.id
  flavor_name = "m1.medium"

  network {
    name = var.openstack_network
  }

  # Placement policy cache_near_worker.
  scheduler_hints {
    group = openstack_compute_servergroup_v2.cache_near_worker.id
  }
}

data "openstack_images_image_v2" "db_primary" {
  name        = "Ubuntu 24.04"
  most_recent = true
}

resource "openstack_compute_instance_v2" "db_primary" {
  name        = "db_primary"
  image_id    = data.openstack_images_image_v2.db_primary.id
  flavor_name = "m1.xlarge"

  network {
    name = var.openstack_network
  }

  # Placement policy databases_apart.
  scheduler_hints {
    group = openstack_compute_servergroup_v2.databases_apart.id
  }
}

data "openstack_images_image_v2" "db_replica" {
  name        = "Ubuntu 24.04"
  most_recent = true
}

resource "openstack_compute_instance_v2" "db_replica" {
  name        = "db_replica"
  image_id    = data.openstack_images_image_v2.db_replica.id
  flavor_name = "m1.xlarge"

  network {
    name = var.openstack_network
  }

  # Placement policy databases_apart.
  scheduler_hints {
    group = openstack_compute_servergroup_v2.databases_apart.id
  }
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

resource "openstack_lb_member_v2" "front_web_vm" {
  pool_id       = openstack_lb_pool_v2.front.id
  address       = openstack_compute_instance_v2.web_vm.access_ip_v4
  protocol_port = 8080
}

resource "openstack_blockstorage_volume_v3" "web_cache" {
  name = "shop-cache"
  size = 20
}

resource "openstack_compute_volume_attach_v2" "web_cache_web_vm" {
  instance_id = openstack_compute_instance_v2.web_vm.id
  volume_id   = openstack_blockstorage_volume_v3.web_cache.id
}

data "openstack_images_image_v2" "web_vm" {
  name        = "Ubuntu 24.04"
  most_recent = true
}

# The attached volumes are mounted at their locations first (formatted only when they hold
# no filesystem); a mount that fails stops the scripts after it.
# The lifecycle scripts, unchanged, and their inputs as env files; cloud-init writes them
# and runs them in deployment order, each with its own interpreter.
locals {
  web_vm_cloud_config = {
    write_files = [
      {
        path        = "/opt/toscana-volumes/mount-volume"
        permissions = "0755"
        content     = file("${path.module}/toscana/mount-volume.sh")
      },
      {
        path        = "/opt/toscana/01-shop-create.sh"
        permissions = "0755"
        content     = file("${path.module}/artifacts/scripts/install_shop.sh")
      },
    ]
    runcmd = [
      "/bin/sh /opt/toscana-volumes/mount-volume '/var/cache/shop' /dev/disk/by-id/virtio-${substr(openstack_blockstorage_volume_v3.web_cache.id, 0, 20)} || exit 1",
      ["/bin/sh", "-c", "exec /opt/toscana/01-shop-create.sh"],
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
  flavor_name     = var.web_vm_flavor
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
  description       = "shop data_endpoint (http), open to the project network, where its load balancer is"
  direction         = "ingress"
  ethertype         = "IPv4"
  protocol          = "tcp"
  port_range_min    = 8080
  port_range_max    = 8080
  remote_ip_prefix  = data.openstack_networking_subnet_v2.default.cidr
}

data "openstack_images_image_v2" "worker" {
  name        = "Ubuntu 24.04"
  most_recent = true
}

resource "openstack_compute_instance_v2" "worker" {
  name        = "worker"
  image_id    = data.openstack_images_image_v2.worker.id
  flavor_name = "m1.medium"

  network {
    name = var.openstack_network
  }

  # Placement policy cache_near_worker.
  scheduler_hints {
    group = openstack_compute_servergroup_v2.cache_near_worker.id
  }
}

# Placement policy databases_apart: the scheduler keeps its machines on different hosts.
resource "openstack_compute_servergroup_v2" "databases_apart" {
  name     = "databases_apart"
  policies = ["anti-affinity"]
}

# Placement policy cache_near_worker: the scheduler keeps its machines on one host.
resource "openstack_compute_servergroup_v2" "cache_near_worker" {
  name     = "cache_near_worker"
  policies = ["affinity"]
}
