resource "openstack_blockstorage_volume_v3" "data_disk" {
  name = "webapp-data"
  size = ceil(tonumber(regex("^\\s*([0-9.]+(?:[eE][-+]?[0-9]+)?)", var.data_size)[0]) * { b = 1, kb = 1000, kib = 1024, mb = 1000000, mib = 1048576, gb = 1000000000, gib = 1073741824, tb = 1000000000000, tib = 1099511627776 }[lower(regex("([A-Za-z]+)\\s*$", var.data_size)[0])] / 1073741824)
}

resource "openstack_compute_volume_attach_v2" "data_disk_web_vm" {
  instance_id = openstack_compute_instance_v2.web_vm.id
  volume_id   = openstack_blockstorage_volume_v3.data_disk.id
  device      = "/dev/sdf"
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
        path        = "/opt/toscana/01-web-create.sh"
        permissions = "0755"
        content     = file("${path.module}/artifacts/webapp/install_nginx.sh")
      },
      {
        path        = "/opt/toscana/02-web-configure.sh"
        permissions = "0755"
        content     = file("${path.module}/artifacts/webapp/configure_site.sh")
      },
      {
        path        = "/opt/toscana-env/02-web-configure.env"
        permissions = "0600"
        content     = join("\n", ["export HTTP_PORT='${replace(var.http_port, "'", "'\\''")}'", "export SITE_NAME='${replace(var.site_name, "'", "'\\''")}'", ""])
      },
    ]
    runcmd = [
      "/bin/sh /opt/toscana-volumes/mount-volume '/srv/www' /dev/disk/by-id/virtio-${substr(openstack_blockstorage_volume_v3.data_disk.id, 0, 20)} '/dev/sdf' || exit 1",
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
  flavor_name = "m1.medium"
  user_data   = data.cloudinit_config.web_vm.rendered

  network {
    name = var.openstack_network
  }
}
