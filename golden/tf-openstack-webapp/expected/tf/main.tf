data "openstack_images_image_v2" "web_vm" {
  name        = "Ubuntu 24.04"
  most_recent = true
}

data "cloudinit_config" "web_vm" {
  gzip          = false
  base64_encode = false

  part {
    filename     = "01-web-create.sh"
    content_type = "text/x-shellscript"
    content      = file("${path.module}/artifacts/webapp/install_nginx.sh")
  }

  part {
    filename     = "02-web-configure.sh"
    content_type = "text/x-shellscript"
    content      = join("\n", ["#!/bin/sh", "export HTTP_PORT='${replace(var.http_port, "'", "'\\''")}'", "export SITE_NAME='${replace(var.site_name, "'", "'\\''")}'", file("${path.module}/artifacts/webapp/configure_site.sh")])
  }
}

resource "openstack_compute_instance_v2" "web_vm" {
  name        = "web_vm"
  image_id    = data.openstack_images_image_v2.web_vm.id
  flavor_name = "m1.medium"
  user_data   = data.cloudinit_config.web_vm.rendered

  network {
    name = var.openstack_network
  }
}

resource "openstack_blockstorage_volume_v3" "data_disk" {
  name = "webapp-data"
  size = 19
}

resource "openstack_compute_volume_attach_v2" "data_disk_web_vm" {
  instance_id = openstack_compute_instance_v2.web_vm.id
  volume_id   = openstack_blockstorage_volume_v3.data_disk.id
  device      = "/dev/sdf"
}
