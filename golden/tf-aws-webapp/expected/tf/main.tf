data "aws_availability_zones" "available" {
  state = "available"
}

resource "aws_ebs_volume" "data_disk" {
  availability_zone = data.aws_availability_zones.available.names[0]
  size              = ceil(tonumber(regex("^\\s*([0-9.]+(?:[eE][-+]?[0-9]+)?)", var.data_size)[0]) * { b = 1, kb = 1000, kib = 1024, mb = 1000000, mib = 1048576, gb = 1000000000, gib = 1073741824, tb = 1000000000000, tib = 1099511627776 }[lower(regex("([A-Za-z]+)\\s*$", var.data_size)[0])] / 1073741824)
  type              = "gp3"
  encrypted         = true

  tags = {
    Name = "webapp-data"
  }
}

resource "aws_volume_attachment" "data_disk_web_vm" {
  device_name = "/dev/sdf"
  volume_id   = aws_ebs_volume.data_disk.id
  instance_id = aws_instance.web_vm.id
}

data "aws_ami" "web_vm" {
  most_recent = true
  owners      = ["099720109477"]

  filter {
    name   = "name"
    values = ["ubuntu/images/hvm-ssd-gp3/ubuntu-noble-24.04-amd64-server-*"]
  }
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
      "/bin/sh /opt/toscana-volumes/mount-volume '/srv/www' /dev/disk/by-id/nvme-Amazon_Elastic_Block_Store_${replace(aws_ebs_volume.data_disk.id, "-", "")} '/dev/sdf' '/dev/xvdf' || exit 1",
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

resource "aws_instance" "web_vm" {
  ami                         = data.aws_ami.web_vm.id
  instance_type               = "t3.medium"
  availability_zone           = data.aws_availability_zones.available.names[0]
  user_data                   = data.cloudinit_config.web_vm.rendered
  user_data_replace_on_change = true

  # Encrypted with the account's default EBS key, as every volume toscana creates.
  root_block_device {
    encrypted   = true
    volume_size = 28
  }

  # Instance metadata only through IMDSv2 session tokens (no IMDSv1).
  metadata_options {
    http_tokens = "required"
  }

  tags = {
    Name = "web_vm"
  }
}
