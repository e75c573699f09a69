data "aws_availability_zones" "available" {
  state = "available"
}

resource "aws_lb" "front" {
  load_balancer_type = "application"
  subnets            = [aws_subnet.shop_net_lb_1.id, aws_subnet.shop_net_lb_2.id]
  security_groups    = [aws_security_group.front_lb.id, aws_vpc.shop_net.default_security_group_id]
  # Requests with malformed headers are dropped, not passed to the machines.
  drop_invalid_header_fields = true

  tags = {
    Name = "front"
  }

  # An internet-facing load balancer is created only in a VPC with an internet gateway.
  depends_on = [aws_internet_gateway.shop_net]
}

# The listener's port, open to the world: an application load balancer is internet-facing.
# The load balancer stays in the VPC's default group too, which its targets admit and whose
# rules let it reach them.
resource "aws_security_group" "front_lb" {
  name_prefix = "front-"
  description = "The listener of front"
  vpc_id      = aws_vpc.shop_net.id

  tags = {
    Name = "front"
  }
}

resource "aws_vpc_security_group_ingress_rule" "front_lb_listener" {
  security_group_id = aws_security_group.front_lb.id
  description       = "The listener of the load balancer, open to the world"
  ip_protocol       = "tcp"
  from_port         = 80
  to_port           = 80
  cidr_ipv4         = "0.0.0.0/0"
}

resource "aws_lb_target_group" "front" {
  port     = var.shop_port
  protocol = "HTTP"
  vpc_id   = aws_vpc.shop_net.id
}

resource "aws_lb_listener" "front" {
  load_balancer_arn = aws_lb.front.arn
  port              = 80
  protocol          = "HTTP"

  default_action {
    type             = "forward"
    target_group_arn = aws_lb_target_group.front.arn
  }
}

resource "aws_lb_target_group_attachment" "front_vm_1" {
  target_group_arn = aws_lb_target_group.front.arn
  target_id        = aws_instance.vm_1.id
  port             = var.shop_port
}

resource "aws_lb_target_group_attachment" "front_vm_2" {
  target_group_arn = aws_lb_target_group.front.arn
  target_id        = aws_instance.vm_2.id
  port             = var.shop_port
}

resource "aws_network_interface" "port_1" {
  subnet_id       = aws_subnet.shop_net.id
  security_groups = [aws_security_group.vm_1.id, aws_vpc.shop_net.default_security_group_id]

  tags = {
    Name = "port_1"
  }
}

resource "aws_network_interface" "port_2" {
  subnet_id       = aws_subnet.shop_net.id
  security_groups = [aws_security_group.vm_2.id, aws_vpc.shop_net.default_security_group_id]

  tags = {
    Name = "port_2"
  }
}

resource "aws_vpc" "shop_net" {
  cidr_block = "10.10.0.0/16"

  tags = {
    Name = "shop"
  }
}

resource "aws_subnet" "shop_net" {
  vpc_id     = aws_vpc.shop_net.id
  cidr_block = aws_vpc.shop_net.cidr_block

  tags = {
    Name = "shop"
  }
}

# A load balancer routes to machines in this network: an internet gateway and a default route
# to it for the load balancer's subnets; the machines' subnet stays private.
resource "aws_internet_gateway" "shop_net" {
  vpc_id = aws_vpc.shop_net.id

  tags = {
    Name = "shop"
  }
}

resource "aws_route_table" "shop_net" {
  vpc_id = aws_vpc.shop_net.id

  tags = {
    Name = "shop"
  }
}

resource "aws_route" "shop_net_internet" {
  route_table_id         = aws_route_table.shop_net.id
  destination_cidr_block = "0.0.0.0/0"
  gateway_id             = aws_internet_gateway.shop_net.id
}

# An application load balancer needs subnets in two zones, and this network's subnet spans the
# whole VPC: the load balancers in it share two public subnets of their own, in the region's
# first two zones, from a range added to the VPC (away from the network's range).
resource "aws_vpc_ipv4_cidr_block_association" "shop_net_lb" {
  vpc_id     = aws_vpc.shop_net.id
  cidr_block = "100.64.0.0/24"
}

resource "aws_subnet" "shop_net_lb_1" {
  vpc_id            = aws_vpc_ipv4_cidr_block_association.shop_net_lb.vpc_id
  cidr_block        = cidrsubnet(aws_vpc_ipv4_cidr_block_association.shop_net_lb.cidr_block, 1, 0)
  availability_zone = data.aws_availability_zones.available.names[0]

  tags = {
    Name = "shop"
  }
}

resource "aws_route_table_association" "shop_net_lb_1" {
  subnet_id      = aws_subnet.shop_net_lb_1.id
  route_table_id = aws_route_table.shop_net.id
}

resource "aws_subnet" "shop_net_lb_2" {
  vpc_id            = aws_vpc_ipv4_cidr_block_association.shop_net_lb.vpc_id
  cidr_block        = cidrsubnet(aws_vpc_ipv4_cidr_block_association.shop_net_lb.cidr_block, 1, 1)
  availability_zone = data.aws_availability_zones.available.names[1]

  tags = {
    Name = "shop"
  }
}

resource "aws_route_table_association" "shop_net_lb_2" {
  subnet_id      = aws_subnet.shop_net_lb_2.id
  route_table_id = aws_route_table.shop_net.id
}

# The machines in this network run scripts, which download packages, and nothing makes it
# public: a NAT gateway in a public subnet gives them a route out that lets nothing in.
resource "aws_eip" "shop_net_nat_gateway" {
  domain = "vpc"

  depends_on = [aws_internet_gateway.shop_net]
}

resource "aws_nat_gateway" "shop_net_nat_gateway" {
  allocation_id = aws_eip.shop_net_nat_gateway.id
  subnet_id     = aws_subnet.shop_net_lb_1.id

  tags = {
    Name = "shop"
  }

  depends_on = [aws_internet_gateway.shop_net]
}

resource "aws_route_table" "shop_net_private" {
  vpc_id = aws_vpc.shop_net.id

  tags = {
    Name = "shop"
  }
}

resource "aws_route" "shop_net_out" {
  route_table_id         = aws_route_table.shop_net_private.id
  destination_cidr_block = "0.0.0.0/0"
  nat_gateway_id         = aws_nat_gateway.shop_net_nat_gateway.id
}

resource "aws_route_table_association" "shop_net_private" {
  subnet_id      = aws_subnet.shop_net.id
  route_table_id = aws_route_table.shop_net_private.id
}

data "aws_ami" "vm_1" {
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
  vm_1_cloud_config = {
    write_files = [
      {
        path        = "/opt/toscana/01-shop-1-create.sh"
        permissions = "0755"
        content     = file("${path.module}/artifacts/scripts/install_shop.sh")
      },
      {
        path        = "/opt/toscana-env/01-shop-1-create.env"
        permissions = "0600"
        content     = join("\n", ["export PORT='${replace(var.shop_port, "'", "'\\''")}'", ""])
      },
    ]
    runcmd = [
      ["/bin/sh", "-c", ". /opt/toscana-env/01-shop-1-create.env && exec /opt/toscana/01-shop-1-create.sh"],
    ]
  }
}

data "cloudinit_config" "vm_1" {
  gzip          = false
  base64_encode = false

  part {
    filename     = "toscana.cfg"
    content_type = "text/cloud-config"
    content      = "#cloud-config\n${yamlencode(local.vm_1_cloud_config)}"
  }
}

resource "aws_instance" "vm_1" {
  ami                         = data.aws_ami.vm_1.id
  instance_type               = "t3.medium"
  user_data                   = data.cloudinit_config.vm_1.rendered
  user_data_replace_on_change = true

  # The first port is the machine's own interface, in its network's subnet.
  primary_network_interface {
    network_interface_id = aws_network_interface.port_1.id
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
    Name = "vm_1"
  }

  depends_on = [aws_route.shop_net_out]
}

# The ports of the endpoints the machine and its software expose, open to the world when
# public and to the network otherwise. The machine stays in its VPC's default group too, so
# the connections between the template's machines that no endpoint declares still work.
resource "aws_security_group" "vm_1" {
  name_prefix = "vm_1-"
  description = "The endpoints of vm_1"
  vpc_id      = aws_vpc.shop_net.id

  tags = {
    Name = "vm_1"
  }
}

resource "aws_vpc_security_group_ingress_rule" "vm_1_tcp_8080_private" {
  security_group_id = aws_security_group.vm_1.id
  description       = "shop_1 app_endpoint (tcp), open to its network"
  ip_protocol       = "tcp"
  from_port         = var.shop_port
  to_port           = var.shop_port
  cidr_ipv4         = aws_vpc.shop_net.cidr_block
}

resource "aws_vpc_security_group_ingress_rule" "vm_1_tcp_8080_private_lb" {
  security_group_id = aws_security_group.vm_1.id
  description       = "shop_1 app_endpoint (tcp), open to its load balancers' subnets"
  ip_protocol       = "tcp"
  from_port         = var.shop_port
  to_port           = var.shop_port
  cidr_ipv4         = aws_vpc_ipv4_cidr_block_association.shop_net_lb.cidr_block
}

# Scripts download packages; without this rule the group would let nothing out.
resource "aws_vpc_security_group_egress_rule" "vm_1_egress" {
  security_group_id = aws_security_group.vm_1.id
  description       = "Everything out: scripts download packages"
  ip_protocol       = "-1"
  cidr_ipv4         = "0.0.0.0/0"
}

data "aws_ami" "vm_2" {
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
  vm_2_cloud_config = {
    write_files = [
      {
        path        = "/opt/toscana/01-shop-2-create.sh"
        permissions = "0755"
        content     = file("${path.module}/artifacts/scripts/install_shop.sh")
      },
      {
        path        = "/opt/toscana-env/01-shop-2-create.env"
        permissions = "0600"
        content     = join("\n", ["export PORT='${replace(var.shop_port, "'", "'\\''")}'", ""])
      },
    ]
    runcmd = [
      ["/bin/sh", "-c", ". /opt/toscana-env/01-shop-2-create.env && exec /opt/toscana/01-shop-2-create.sh"],
    ]
  }
}

data "cloudinit_config" "vm_2" {
  gzip          = false
  base64_encode = false

  part {
    filename     = "toscana.cfg"
    content_type = "text/cloud-config"
    content      = "#cloud-config\n${yamlencode(local.vm_2_cloud_config)}"
  }
}

resource "aws_instance" "vm_2" {
  ami                         = data.aws_ami.vm_2.id
  instance_type               = "t3.medium"
  user_data                   = data.cloudinit_config.vm_2.rendered
  user_data_replace_on_change = true

  # The first port is the machine's own interface, in its network's subnet.
  primary_network_interface {
    network_interface_id = aws_network_interface.port_2.id
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
    Name = "vm_2"
  }

  depends_on = [aws_route.shop_net_out]
}

# The ports of the endpoints the machine and its software expose, open to the world when
# public and to the network otherwise. The machine stays in its VPC's default group too, so
# the connections between the template's machines that no endpoint declares still work.
resource "aws_security_group" "vm_2" {
  name_prefix = "vm_2-"
  description = "The endpoints of vm_2"
  vpc_id      = aws_vpc.shop_net.id

  tags = {
    Name = "vm_2"
  }
}

resource "aws_vpc_security_group_ingress_rule" "vm_2_tcp_8080_private" {
  security_group_id = aws_security_group.vm_2.id
  description       = "shop_2 app_endpoint (tcp), open to its network"
  ip_protocol       = "tcp"
  from_port         = var.shop_port
  to_port           = var.shop_port
  cidr_ipv4         = aws_vpc.shop_net.cidr_block
}

resource "aws_vpc_security_group_ingress_rule" "vm_2_tcp_8080_private_lb" {
  security_group_id = aws_security_group.vm_2.id
  description       = "shop_2 app_endpoint (tcp), open to its load balancers' subnets"
  ip_protocol       = "tcp"
  from_port         = var.shop_port
  to_port           = var.shop_port
  cidr_ipv4         = aws_vpc_ipv4_cidr_block_association.shop_net_lb.cidr_block
}

# Scripts download packages; without this rule the group would let nothing out.
resource "aws_vpc_security_group_egress_rule" "vm_2_egress" {
  security_group_id = aws_security_group.vm_2.id
  description       = "Everything out: scripts download packages"
  ip_protocol       = "-1"
  cidr_ipv4         = "0.0.0.0/0"
}
