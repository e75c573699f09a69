data "aws_vpc" "default" {
  default = true
}

data "aws_subnets" "default" {
  filter {
    name   = "vpc-id"
    values = [data.aws_vpc.default.id]
  }
}

data "aws_security_group" "default" {
  vpc_id = data.aws_vpc.default.id
  name   = "default"
}

data "aws_ami" "db_vm" {
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
  db_vm_cloud_config = {
    write_files = [
      {
        path        = "/opt/toscana/01-postgres-create.sh"
        permissions = "0755"
        content     = file("${path.module}/artifacts/scripts/install_postgres.sh")
      },
      {
        path        = "/opt/toscana/02-catalogue-db-create.sh"
        permissions = "0755"
        content     = file("${path.module}/artifacts/scripts/create_database.sh")
      },
      {
        path        = "/opt/toscana-env/02-catalogue-db-create.env"
        permissions = "0600"
        content     = join("\n", ["export DB_NAME='catalogue'", "export DB_PASSWORD='${replace(var.db_password, "'", "'\\''")}'", "export DB_USER='shop'", ""])
      },
    ]
    runcmd = [
      ["/bin/sh", "-c", "exec /opt/toscana/01-postgres-create.sh"],
      ["/bin/sh", "-c", ". /opt/toscana-env/02-catalogue-db-create.env && exec /opt/toscana/02-catalogue-db-create.sh"],
    ]
  }
}

data "cloudinit_config" "db_vm" {
  gzip          = false
  base64_encode = false

  part {
    filename     = "toscana.cfg"
    content_type = "text/cloud-config"
    content      = "#cloud-config\n${yamlencode(local.db_vm_cloud_config)}"
  }
}

resource "aws_instance" "db_vm" {
  ami                         = data.aws_ami.db_vm.id
  instance_type               = "t3.xlarge"
  user_data                   = data.cloudinit_config.db_vm.rendered
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
    Name = "db_vm"
  }
}

resource "aws_s3_bucket" "images" {
  bucket = "shop-product-images"

  tags = {
    Name = "images"
  }
}

resource "aws_lb" "lb" {
  load_balancer_type = "application"
  subnets            = data.aws_subnets.default.ids
  security_groups    = [aws_security_group.lb_lb.id, data.aws_security_group.default.id]
  # Requests with malformed headers are dropped, not passed to the machines.
  drop_invalid_header_fields = true

  tags = {
    Name = "lb"
  }
}

# The listener's port, open to the world: an application load balancer is internet-facing.
# The load balancer stays in the VPC's default group too, which its targets admit and whose
# rules let it reach them.
resource "aws_security_group" "lb_lb" {
  name_prefix = "lb-"
  description = "The listener of lb"
  vpc_id      = data.aws_vpc.default.id

  tags = {
    Name = "lb"
  }
}

resource "aws_vpc_security_group_ingress_rule" "lb_lb_listener" {
  security_group_id = aws_security_group.lb_lb.id
  description       = "The listener of the load balancer, open to the world"
  ip_protocol       = "tcp"
  from_port         = 80
  to_port           = 80
  cidr_ipv4         = "0.0.0.0/0"
}

resource "aws_lb_target_group" "lb" {
  port                          = var.storefront_port
  protocol                      = "HTTP"
  vpc_id                        = data.aws_vpc.default.id
  load_balancing_algorithm_type = "least_outstanding_requests"
}

resource "aws_lb_listener" "lb" {
  load_balancer_arn = aws_lb.lb.arn
  port              = 80
  protocol          = "HTTP"

  default_action {
    type             = "forward"
    target_group_arn = aws_lb_target_group.lb.arn
  }
}

resource "aws_lb_target_group_attachment" "lb_web_vm" {
  target_group_arn = aws_lb_target_group.lb.arn
  target_id        = aws_instance.web_vm.id
  port             = var.storefront_port
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
        path        = "/opt/toscana/01-storefront-create.sh"
        permissions = "0755"
        content     = file("${path.module}/artifacts/scripts/install_storefront.sh")
      },
      {
        path        = "/opt/toscana/02-storefront-start.sh"
        permissions = "0755"
        content     = file("${path.module}/artifacts/scripts/start_storefront.sh")
      },
      {
        path        = "/opt/toscana-env/02-storefront-start.env"
        permissions = "0600"
        content     = join("\n", ["export DB_HOST='${replace(aws_instance.db_vm.private_ip, "'", "'\\''")}'", "export DB_PASSWORD='${replace(var.db_password, "'", "'\\''")}'", "export PORT='${replace(var.storefront_port, "'", "'\\''")}'", ""])
      },
    ]
    runcmd = [
      ["/bin/sh", "-c", "exec /opt/toscana/01-storefront-create.sh"],
      ["/bin/sh", "-c", ". /opt/toscana-env/02-storefront-start.env && exec /opt/toscana/02-storefront-start.sh"],
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
  instance_type               = "t3.small"
  user_data                   = data.cloudinit_config.web_vm.rendered
  user_data_replace_on_change = true
  vpc_security_group_ids      = [aws_security_group.web_vm.id, data.aws_security_group.default.id]

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
}

# The ports of the endpoints the machine and its software expose, open to the world when
# public and to the network otherwise. The machine stays in its VPC's default group too, so
# the connections between the template's machines that no endpoint declares still work.
resource "aws_security_group" "web_vm" {
  name_prefix = "web_vm-"
  description = "The endpoints of web_vm"
  vpc_id      = data.aws_vpc.default.id

  tags = {
    Name = "web_vm"
  }
}

resource "aws_vpc_security_group_ingress_rule" "web_vm_tcp_8080_private" {
  security_group_id = aws_security_group.web_vm.id
  description       = "storefront app_endpoint (tcp), open to its network"
  ip_protocol       = "tcp"
  from_port         = var.storefront_port
  to_port           = var.storefront_port
  cidr_ipv4         = data.aws_vpc.default.cidr_block
}

# Scripts download packages; without this rule the group would let nothing out.
resource "aws_vpc_security_group_egress_rule" "web_vm_egress" {
  security_group_id = aws_security_group.web_vm.id
  description       = "Everything out: scripts download packages"
  ip_protocol       = "-1"
  cidr_ipv4         = "0.0.0.0/0"
}
