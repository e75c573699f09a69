data "aws_ami" "back" {
  most_recent = true
  owners      = ["136693071363"]

  filter {
    name   = "name"
    values = ["debian-12-amd64-*"]
  }
}

resource "aws_instance" "back" {
  ami           = data.aws_ami.back.id
  instance_type = "t3.xlarge"

  # The first port is the machine's own interface, in its network's subnet.
  primary_network_interface {
    network_interface_id = aws_network_interface.back_port.id
  }

  # Encrypted with the account's default EBS key, as every volume toscana creates.
  root_block_device {
    encrypted   = true
    volume_size = 75
  }

  # Instance metadata only through IMDSv2 session tokens (no IMDSv1).
  metadata_options {
    http_tokens = "required"
  }

  tags = {
    Name = "back"
  }
}

resource "aws_network_interface" "back_port" {
  subnet_id = aws_subnet.private_net.id

  tags = {
    Name = "back_port"
  }
}

data "aws_ami" "front" {
  most_recent = true
  owners      = ["099720109477"]

  filter {
    name   = "name"
    values = ["ubuntu/images/hvm-ssd-gp3/ubuntu-noble-24.04-amd64-server-*"]
  }
}

resource "aws_instance" "front" {
  ami           = data.aws_ami.front.id
  instance_type = "t3.micro"

  # The first port is the machine's own interface, in its network's subnet.
  primary_network_interface {
    network_interface_id = aws_network_interface.front_port.id
  }

  # Encrypted with the account's default EBS key, as every volume toscana creates.
  root_block_device {
    encrypted   = true
    volume_size = 10
  }

  # Instance metadata only through IMDSv2 session tokens (no IMDSv1).
  metadata_options {
    http_tokens = "required"
  }

  tags = {
    Name = "front"
  }

  depends_on = [aws_instance.back]
}

resource "aws_network_interface" "front_port" {
  subnet_id   = aws_subnet.private_net.id
  private_ips = ["10.10.0.20"]

  tags = {
    Name = "front_port"
  }
}

resource "aws_vpc" "private_net" {
  cidr_block = var.private_cidr

  tags = {
    Name = "shop-private"
  }
}

resource "aws_subnet" "private_net" {
  vpc_id     = aws_vpc.private_net.id
  cidr_block = aws_vpc.private_net.cidr_block

  tags = {
    Name = "shop-private"
  }
}
