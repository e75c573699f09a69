resource "aws_ebs_volume" "data_volume" {
  availability_zone = aws_instance.db_server.availability_zone
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

resource "aws_instance" "db_server" {
  ami           = data.aws_ami.db_server.id
  instance_type = "t3.medium"

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
