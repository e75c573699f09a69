data "openstack_networking_network_v2" "external" {
  name     = var.openstack_external_network
  external = true
}

resource "openstack_blockstorage_volume_v3" "data" {
  name = "data"
  size = 50
}

resource "openstack_compute_volume_attach_v2" "data_server" {
  instance_id = openstack_compute_instance_v2.server.id
  volume_id   = openstack_blockstorage_volume_v3.data.id
}

resource "openstack_networking_network_v2" "net" {
  name           = "app-net"
  admin_state_up = true
}

resource "openstack_networking_subnet_v2" "net" {
  name        = "net"
  network_id  = openstack_networking_network_v2.net.id
  cidr        = "172.16.0.0/24"
  ip_version  = 4
  enable_dhcp = false
}

# The machines in this network run scripts, which download packages: a router joins the
# subnet to the external network (outbound only: no floating IP, nothing comes in).
resource "openstack_networking_router_v2" "net" {
  name                = "net"
  admin_state_up      = true
  external_network_id = data.openstack_networking_network_v2.external.id
}

resource "openstack_networking_router_interface_v2" "net" {
  router_id = openstack_networking_router_v2.net.id
  subnet_id = openstack_networking_subnet_v2.net.id
}

data "openstack_images_image_v2" "server" {
  name        = "Ubuntu 22.04"
  most_recent = true
}

# The attached volumes are mounted at their locations first (formatted only when they hold
# no filesystem); a mount that fails stops the scripts after it.
# The lifecycle scripts, unchanged, and their inputs as env files; cloud-init writes them
# and runs them in deployment order, each with its own interpreter.
locals {
  server_cloud_config = {
    write_files = [
      {
        path        = "/opt/toscana-volumes/mount-volume"
        permissions = "0755"
        content     = file("${path.module}/toscana/mount-volume.sh")
      },
      {
        path        = "/opt/toscana/01-app-create.sh"
        permissions = "0755"
        content     = file("${path.module}/artifacts/scripts/install_app.sh")
      },
      {
        path        = "/opt/toscana/02-app-start.sh"
        permissions = "0755"
        content     = file("${path.module}/artifacts/scripts/start_app.sh")
      },
      {
        path        = "/opt/toscana-env/02-app-start.env"
        permissions = "0600"
        content     = join("\n", ["export APP_PORT='${replace(var.app_port, "'", "'\\''")}'", ""])
      },
    ]
    runcmd = [
      "/bin/sh /opt/toscana-volumes/mount-volume '/var/lib/app' /dev/disk/by-id/virtio-${substr(openstack_blockstorage_volume_v3.data.id, 0, 20)} || exit 1",
      ["/bin/sh", "-c", "exec /opt/toscana/01-app-create.sh"],
      ["/bin/sh", "-c", ". /opt/toscana-env/02-app-start.env && exec /opt/toscana/02-app-start.sh"],
    ]
  }
}

data "cloudinit_config" "server" {
  gzip          = false
  base64_encode = false

  part {
    filename     = "toscana.cfg"
    content_type = "text/cloud-config"
    content      = "#cloud-config\n${yamlencode(local.server_cloud_config)}"
  }
}

resource "openstack_compute_instance_v2" "server" {
  name        = "server"
  image_id    = data.openstack_images_image_v2.server.id
  flavor_name = "m1.large"
  user_data   = data.cloudinit_config.server.rendered

  network {
    port = openstack_networking_port_v2.server_port.id
  }

  depends_on = [openstack_networking_router_interface_v2.net]
}

resource "openstack_networking_port_v2" "server_port" {
  name           = "server_port"
  network_id     = openstack_networking_network_v2.net.id
  admin_state_up = true

  fixed_ip {
    subnet_id = openstack_networking_subnet_v2.net.id
  }
}
