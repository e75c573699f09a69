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

# The machines in this network run scripts, which download packages: an internet gateway and
# a default route to it for the subnet of the NAT gateway below; the machines' subnet stays
# private.
resource "aws_internet_gateway" "net" {
  vpc_id = aws_vpc.net.id

  tags = {
    Name = "app-net"
  }
}

resource "aws_route_table" "net" {
  vpc_id = aws_vpc.net.id

  tags = {
    Name = "app-net"
  }
}

resource "aws_route" "net_internet" {
  route_table_id         = aws_route_table.net.id
  destination_cidr_block = "0.0.0.0/0"
  gateway_id             = aws_internet_gateway.net.id
}

# The machines in this network run scripts, which download packages, and nothing makes it
# public: a NAT gateway in a public subnet gives them a route out that lets nothing in.
resource "aws_vpc_ipv4_cidr_block_association" "net_nat" {
  vpc_id     = aws_vpc.net.id
  cidr_block = "100.64.0.0/24"
}

resource "aws_subnet" "net_nat" {
  vpc_id     = aws_vpc_ipv4_cidr_block_association.net_nat.vpc_id
  cidr_block = aws_vpc_ipv4_cidr_block_association.net_nat.cidr_block

  tags = {
    Name = "app-net"
  }
}

resource "aws_route_table_association" "net_nat" {
  subnet_id      = aws_subnet.net_nat.id
  route_table_id = aws_route_table.net.id
}

resource "aws_eip" "net_nat_gateway" {
  domain = "vpc"

  depends_on = [aws_internet_gateway.net]
}

resource "aws_nat_gateway" "net_nat_gateway" {
  allocation_id = aws_eip.net_nat_gateway.id
  subnet_id     = aws_subnet.net_nat.id

  tags = {
    Name = "app-net"
  }

  depends_on = [aws_internet_gateway.net]
}

resource "aws_route_table" "net_private" {
  vpc_id = aws_vpc.net.id

  tags = {
    Name = "app-net"
  }
}

resource "aws_route" "net_out" {
  route_table_id         = aws_route_table.net_private.id
  destination_cidr_block = "0.0.0.0/0"
  nat_gateway_id         = aws_nat_gateway.net_nat_gateway.id
}

resource "aws_route_table_association" "net_private" {
  subnet_id      = aws_subnet.net.id
  route_table_id = aws_route_table.net_private.id
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

  depends_on = [aws_route.net_out]
}

resource "aws_network_interface" "server_port" {
  subnet_id = aws_subnet.net.id

  tags = {
    Name = "server_port"
  }
}
