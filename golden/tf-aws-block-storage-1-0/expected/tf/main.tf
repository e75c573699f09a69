data "aws_availability_zones" "available" {
  state = "available"
}

resource "aws_ebs_volume" "data_volume" {
  availability_zone = data.aws_availability_zones.available.names[0]
  size              = 47
  snapshot_id       = var.data_snapshot
  type              = "gp3"
  encrypted         = true

  tags = {
    Name = "data_volume"
  }
}

resource "aws_volume_attachment" "data_volume_db_server" {
  device_name = "/dev/sdf"
  volume_id   = aws_ebs_volume.data_volume.id
  instance_id = aws_instance.db_server.id
}

data "aws_ami" "db_server" {
  most_recent = true
  owners      = ["099720109477"]

  filter {
    name   = "name"
    values = ["ubuntu/images/hvm-ssd-gp3/ubuntu-noble-24.04-amd64-server-*"]
  }
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
      "/bin/sh /opt/toscana-volumes/mount-volume '/var/lib/data' /dev/disk/by-id/nvme-Amazon_Elastic_Block_Store_${replace(aws_ebs_volume.data_volume.id, "-", "")} '/dev/sdf' '/dev/xvdf' || exit 1",
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

resource "aws_instance" "db_server" {
  ami                         = data.aws_ami.db_server.id
  instance_type               = "t3.medium"
  availability_zone           = data.aws_availability_zones.available.names[0]
  user_data                   = data.cloudinit_config.db_server.rendered
  user_data_replace_on_change = true

  # Encrypted with the account's default EBS key, as every volume toscana creates.
  root_block_device {
    encrypted = true
  }

  # Instance metadata only through IMDSv2 session tokens (no IMDSv1).
  metadata_options {
    http_tokens = "required"
  }

  tags = {
    Name = "db_server"
  }
}
