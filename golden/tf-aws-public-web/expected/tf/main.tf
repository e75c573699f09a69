resource "aws_vpc" "web_net" {
  cidr_block = "10.20.0.0/16"

  tags = {
    Name = "web"
  }
}

resource "aws_subnet" "web_net" {
  vpc_id     = aws_vpc.web_net.id
  cidr_block = aws_vpc.web_net.cidr_block

  tags = {
    Name = "web"
  }
}

# A machine in this network exposes a public endpoint: the subnet is public, with an internet
# gateway and a default route to it, and each such machine's interface has an Elastic IP (the
# subnet's automatic public addresses go only to interfaces made with their machine).
resource "aws_internet_gateway" "web_net" {
  vpc_id = aws_vpc.web_net.id

  tags = {
    Name = "web"
  }
}

resource "aws_route_table" "web_net" {
  vpc_id = aws_vpc.web_net.id

  tags = {
    Name = "web"
  }
}

resource "aws_route" "web_net_internet" {
  route_table_id         = aws_route_table.web_net.id
  destination_cidr_block = "0.0.0.0/0"
  gateway_id             = aws_internet_gateway.web_net.id
}

resource "aws_route_table_association" "web_net" {
  subnet_id      = aws_subnet.web_net.id
  route_table_id = aws_route_table.web_net.id
}

# An interface made before its machine gets no address from the subnet: an Elastic IP.
resource "aws_eip" "web_port" {
  domain            = "vpc"
  network_interface = aws_network_interface.web_port.id

  depends_on = [aws_internet_gateway.web_net]
}

resource "aws_network_interface" "web_port" {
  subnet_id       = aws_subnet.web_net.id
  security_groups = [aws_security_group.web_vm.id, aws_vpc.web_net.default_security_group_id]

  tags = {
    Name = "web_port"
  }
}

data "aws_ami" "web_vm" {
  most_recent = true
  owners      = ["099720109477"]

  filter {
    name   = "name"
    values = ["ubuntu/images/hvm-ssd-gp3/ubuntu-noble-24.04-amd64-server-*"]
  }
}

# The lifecycle scripts, unchanged, and their inputs as env files; cloud-init writes them
# and runs them in deployment order, each with its own interpreter.
locals {
  web_vm_cloud_config = {
    write_files = [
      {
        path        = "/opt/toscana/01-web-create.sh"
        permissions = "0755"
        content     = file("${path.module}/artifacts/scripts/install_nginx.sh")
      },
      {
        path        = "/opt/toscana/02-web-configure.sh"
        permissions = "0755"
        content     = file("${path.module}/artifacts/scripts/configure_nginx.sh")
      },
      {
        path        = "/opt/toscana-env/02-web-configure.env"
        permissions = "0600"
        content     = join("\n", ["export HTTP_PORT='${replace(var.http_port, "'", "'\\''")}'", ""])
      },
    ]
    runcmd = [
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
  instance_type               = "t3.micro"
  user_data                   = data.cloudinit_config.web_vm.rendered
  user_data_replace_on_change = true

  # The first port is the machine's own interface, in its network's subnet.
  primary_network_interface {
    network_interface_id = aws_network_interface.web_port.id
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
    Name = "web_vm"
  }

  depends_on = [aws_eip.web_port, aws_route.web_net_internet, aws_route_table_association.web_net]
}

# The ports of the endpoints the machine and its software expose, open to the world when
# public and to the network otherwise. The machine stays in its VPC's default group too, so
# the connections between the template's machines that no endpoint declares still work.
resource "aws_security_group" "web_vm" {
  name_prefix = "web_vm-"
  description = "The endpoints of web_vm"
  vpc_id      = aws_vpc.web_net.id

  tags = {
    Name = "web_vm"
  }
}

resource "aws_vpc_security_group_ingress_rule" "web_vm_tcp_22_private" {
  security_group_id = aws_security_group.web_vm.id
  description       = "web_vm endpoint (ssh), open to its network"
  ip_protocol       = "tcp"
  from_port         = 22
  to_port           = 22
  cidr_ipv4         = aws_vpc.web_net.cidr_block
}

resource "aws_vpc_security_group_ingress_rule" "web_vm_tcp_8080" {
  security_group_id = aws_security_group.web_vm.id
  description       = "web data_endpoint (http), open to everyone"
  ip_protocol       = "tcp"
  from_port         = var.http_port
  to_port           = var.http_port
  cidr_ipv4         = "0.0.0.0/0"
}

# Scripts download packages; without this rule the group would let nothing out.
resource "aws_vpc_security_group_egress_rule" "web_vm_egress" {
  security_group_id = aws_security_group.web_vm.id
  description       = "Everything out: scripts download packages"
  ip_protocol       = "-1"
  cidr_ipv4         = "0.0.0.0/0"
}
