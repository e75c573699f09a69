resource "openstack_blockstorage_volume_v3" "data_volume" {
  name        = "data_volume"
  size        = 47
  snapshot_id = var.data_snapshot
}

resource "openstack_compute_volume_attach_v2" "data_volume_db_server" {
  instance_id = openstack_compute_instance_v2.db_server.id
  volume_id   = openstack_blockstorage_volume_v3.data_volume.id
  device      = "/dev/sdf"
}

data "openstack_images_image_v2" "db_server" {
  name        = "Ubuntu 24.04"
  most_recent = true
}

# The attached volumes are mounted at their locations first (formatted only when they hold
# no filesystem); a mount that fails stops the scripts after it.
locals {
  db_server_cloud_config = {
    write_files = [
      {
        path        = "/opt/toscana-volumes/mount-volume"
        permissions = "0755"
        content     = file("${path.module}/toscana/mount-volume.sh")
      },
    ]
    runcmd = [
      "/bin/sh /opt/toscana-volumes/mount-volume '/var/lib/data' /dev/disk/by-id/virtio-${substr(openstack_blockstorage_volume_v3.data_volume.id, 0, 20)} '/dev/sdf' || exit 1",
    ]
  }
}

data "cloudinit_config" "db_server" {
  gzip          = false
  base64_encode = false

  part {
    filename     = "toscana.cfg"
    content_type = "text/cloud-config"
    content      = "#cloud-config\n${yamlencode(local.db_server_cloud_config)}"
  }
}

resource "openstack_compute_instance_v2" "db_server" {
  name        = "db_server"
  image_id    = data.openstack_images_image_v2.db_server.id
  flavor_name = "m1.medium"
  user_data   = data.cloudinit_config.db_server.rendered

  network {
    name = var.openstack_network
  }
}
