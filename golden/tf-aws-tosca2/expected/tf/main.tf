resource "aws_ebs_volume" "data" {
  availability_zone = aws_subnet.net.availability_zone
  size              = 50
  type              = "gp3"
  encrypted         = true

  tags = {
    Name = "data"
  }
}

resource "aws_volume_attachment" "data_server" {
  device_name = "/dev/sdf"
  volume_id   = aws_ebs_volume.data.id
  instance_id = aws_instance.server.id
}

resource "aws_vpc" "net" {
  cidr_block = "172.16.0.0/24"

  tags = {
    Name = "app-net"
  }
}

resource "aws_subnet" "net" {
  vpc_id     = aws_vpc.net.id
  cidr_block = aws_vpc.net.cidr_block

  tags = {
    Name = "app-net"
  }
}

data "aws_ami" "server" {
  most_recent = true
  owners      = ["099720109477"]

  filter {
    name   = "name"
    values = ["ubuntu/images/hvm-ssd/ubuntu-jammy-22.04-amd64-server-*"]
  }
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
      "/bin/sh /opt/toscana-volumes/mount-volume '/var/lib/app' /dev/disk/by-id/nvme-Amazon_Elastic_Block_Store_${replace(aws_ebs_volume.data.id, "-", "")} '/dev/sdf' '/dev/xvdf' || exit 1",
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

resource "aws_instance" "server" {
  ami                         = data.aws_ami.server.id
  instance_type               = "t3.large"
  user_data                   = data.cloudinit_config.server.rendered
  user_data_replace_on_change = true

  # The first port is the machine's own interface, in its network's subnet.
  primary_network_interface {
    network_interface_id = aws_network_interface.server_port.id
  }

  # Encrypted with the account's default EBS key, as every volume toscana creates.
  root_block_device {
    encrypted = true
  }

  # Instance metadata only through IMDSv2 session tokens (no IMDSv1).
  metadata_options {
    http_tokens = "required"
  }

  tags = {
    Name = "server"
  }
}

resource "aws_network_interface" "server_port" {
  subnet_id = aws_subnet.net.id

  tags = {
    Name = "server_port"
  }
}
