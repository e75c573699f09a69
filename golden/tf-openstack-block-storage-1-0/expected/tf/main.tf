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

resource "openstack_compute_instance_v2" "db_server" {
  name        = "db_server"
  image_id    = data.openstack_images_image_v2.db_server.id
  flavor_name = "m1.medium"

  network {
    name = var.openstack_network
  }
}
