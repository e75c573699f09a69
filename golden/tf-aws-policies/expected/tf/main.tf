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

data "aws_ami" "batch_1" {
  most_recent = true
  owners      = ["099720109477"]

  filter {
    name   = "name"
    values = ["ubuntu/images/hvm-ssd-gp3/ubuntu-noble-24.04-amd64-server-*"]
  }
}

resource "aws_instance" "batch_1" {
  ami               = data.aws_ami.batch_1.id
  instance_type     = "t3.large"
  availability_zone = "eu-west-1a"

  # Encrypted with the account's default EBS key, as every volume toscana creates.
  root_block_device {
    encrypted = true
  }

  # Instance metadata only through IMDSv2 session tokens (no IMDSv1).
  metadata_options {
    http_tokens = "required"
  }

  tags = {
    Name = "batch_1"
  }
}

data "aws_ami" "batch_2" {
  most_recent = true
  owners      = ["099720109477"]

  filter {
    name   = "name"
    values = ["ubuntu/images/hvm-ssd-gp3/ubuntu-noble-24.04-amd64-server-*"]
  }
}

resource "aws_instance" "batch_2" {
  ami               = data.aws_ami.batch_2.id
  instance_type     = "t3.large"
  availability_zone = "eu-west-1b"

  # Encrypted with the account's default EBS key, as every volume toscana creates.
  root_block_device {
    encrypted = true
  }

  # Instance metadata only through IMDSv2 session tokens (no IMDSv1).
  metadata_options {
    http_tokens = "required"
  }

  tags = {
    Name = "batch_2"
  }
}

data "aws_ami" "cache" {
  most_recent = true
  owners      = ["099720109477"]

  filter {
    name   = "name"
    values = ["ubuntu/images/hvm-ssd-gp3/ubuntu-noble-24.04-amd64-server-*"]
  }
}

resource "aws_instance" "cache" {
  ami             = data.aws_ami.cache.id
  instance_type   = "m6i.large"
  placement_group = aws_placement_group.cache_near_worker.id

  # Encrypted with the account's default EBS key, as every volume toscana creates.
  root_block_device {
    encrypted = true
  }

  # Instance metadata only through IMDSv2 session tokens (no IMDSv1).
  metadata_options {
    http_tokens = "required"
  }

  tags = {
    Name = "cache"
  }
}

data "aws_ami" "db_primary" {
  most_recent = true
  owners      = ["099720109477"]

  filter {
    name   = "name"
    values = ["ubuntu/images/hvm-ssd-gp3/ubuntu-noble-24.04-amd64-server-*"]
  }
}

resource "aws_instance" "db_primary" {
  ami             = data.aws_ami.db_primary.id
  instance_type   = "t3.xlarge"
  placement_group = aws_placement_group.databases_apart.id

  # Encrypted with the account's default EBS key, as every volume toscana creates.
  root_block_device {
    encrypted = true
  }

  # Instance metadata only through IMDSv2 session tokens (no IMDSv1).
  metadata_options {
    http_tokens = "required"
  }

  tags = {
    Name = "db_primary"
  }
}

data "aws_ami" "db_replica" {
  most_recent = true
  owners      = ["099720109477"]

  filter {
    name   = "name"
    values = ["ubuntu/images/hvm-ssd-gp3/ubuntu-noble-24.04-amd64-server-*"]
  }
}

resource "aws_instance" "db_replica" {
  ami             = data.aws_ami.db_replica.id
  instance_type   = "t3.xlarge"
  placement_group = aws_placement_group.databases_apart.id

  # Encrypted with the account's default EBS key, as every volume toscana creates.
  root_block_device {
    encrypted = true
  }

  # Instance metadata only through IMDSv2 session tokens (no IMDSv1).
  metadata_options {
    http_tokens = "required"
  }

  tags = {
    Name = "db_replica"
  }
}

resource "aws_lb" "front" {
  load_balancer_type = "application"
  subnets            = data.aws_subnets.default.ids
  security_groups    = [aws_security_group.front_lb.id, data.aws_security_group.default.id]
  # Requests with malformed headers are dropped, not passed to the machines.
  drop_invalid_header_fields = true

  tags = {
    Name = "front"
  }
}

# The listener's port, open to the world: an application load balancer is internet-facing.
# The load balancer stays in the VPC's default group too, which its targets admit and whose
# rules let it reach them.
resource "aws_security_group" "front_lb" {
  name_prefix = "front-"
  description = "The listener of front"
  vpc_id      = data.aws_vpc.default.id

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
  port     = 8080
  protocol = "HTTP"
  vpc_id   = data.aws_vpc.default.id
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
        path        = "/opt/toscana/01-shop-create.sh"
        permissions = "0755"
        content     = file("${path.module}/artifacts/scripts/install_shop.sh")
      },
    ]
    runcmd = [
      "/bin/sh /opt/toscana-volumes/mount-volume '/var/cache/shop' '/dev/sdf' '/dev/xvdf' || exit 1",
      "/bin/sh /opt/toscana-volumes/mount-volume '/srv/media' '/dev/sdg' '/dev/xvdg' || exit 1",
      ["/bin/sh", "-c", "exec /opt/toscana/01-shop-create.sh"],
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

# The default VPC's subnets in the zones of placement policy web_zones.
data "aws_subnets" "web_vm_zones" {
  filter {
    name   = "vpc-id"
    values = [data.aws_vpc.default.id]
  }

  filter {
    name   = "availability-zone"
    values = ["eu-west-1a", "eu-west-1b"]
  }
}

# Scaled by policy autoscale: its instances are launched from this template by the
# autoscaling group below, not created one by one.
resource "aws_launch_template" "web_vm" {
  name_prefix            = "web_vm-"
  image_id               = data.aws_ami.web_vm.id
  instance_type          = var.web_vm_instance_type
  user_data              = base64encode(data.cloudinit_config.web_vm.rendered)
  vpc_security_group_ids = [aws_security_group.web_vm.id, data.aws_security_group.default.id]

  # Encrypted with the account's default EBS key, as every volume toscana creates.
  block_device_mappings {
    device_name = data.aws_ami.web_vm.root_device_name

    ebs {
      encrypted = true
    }
  }

  # Volume web_cache: each instance gets one of its own (a volume attaches to one instance),
  # deleted with the instance; keep data that must outlive an instance elsewhere.
  block_device_mappings {
    device_name = "/dev/sdf"

    ebs {
      volume_size           = 20
      volume_type           = "gp3"
      encrypted             = true
      delete_on_termination = true
    }
  }

  # Volume web_media: each instance gets one of its own (a volume attaches to one instance),
  # deleted with the instance; keep data that must outlive an instance elsewhere.
  block_device_mappings {
    device_name = "/dev/sdg"

    ebs {
      snapshot_id           = "snap-0a1b2c3d4e5f60718"
      volume_type           = "gp3"
      encrypted             = true
      delete_on_termination = true
    }
  }

  # Instance metadata only through IMDSv2 session tokens (no IMDSv1).
  metadata_options {
    http_endpoint               = "enabled"
    http_tokens                 = "required"
    http_put_response_hop_limit = 1
  }

  tag_specifications {
    resource_type = "instance"

    tags = {
      Name = "web_vm"
    }
  }
}

resource "aws_autoscaling_group" "web_vm" {
  name_prefix         = "web_vm-"
  min_size            = 2
  max_size            = 6
  desired_capacity    = 2
  vpc_zone_identifier = data.aws_subnets.web_vm_zones.ids
  target_group_arns   = [aws_lb_target_group.front.arn]
  # An instance the load balancer finds unhealthy is replaced.
  health_check_type = "ELB"

  launch_template {
    id      = aws_launch_template.web_vm.id
    version = aws_launch_template.web_vm.latest_version
  }

  # A new launch template version replaces the instances a few at a time.
  instance_refresh {
    strategy = "Rolling"
  }

  tag {
    key                 = "Name"
    value               = "web_vm"
    propagate_at_launch = true
  }

  # The scaling policy moves the desired capacity; a later apply must not reset it.
  lifecycle {
    ignore_changes = [desired_capacity]
  }
}

resource "aws_autoscaling_policy" "web_vm" {
  name                      = "web_vm-cpu"
  autoscaling_group_name    = aws_autoscaling_group.web_vm.name
  policy_type               = "TargetTrackingScaling"
  estimated_instance_warmup = 180

  # The group keeps the average CPU utilization of its instances at the policy's threshold.
  target_tracking_configuration {
    target_value = 60

    predefined_metric_specification {
      predefined_metric_type = "ASGAverageCPUUtilization"
    }
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
  description       = "shop data_endpoint (http), open to its network"
  ip_protocol       = "tcp"
  from_port         = 8080
  to_port           = 8080
  cidr_ipv4         = data.aws_vpc.default.cidr_block
}

# Scripts download packages; without this rule the group would let nothing out.
resource "aws_vpc_security_group_egress_rule" "web_vm_egress" {
  security_group_id = aws_security_group.web_vm.id
  description       = "Everything out: scripts download packages"
  ip_protocol       = "-1"
  cidr_ipv4         = "0.0.0.0/0"
}

data "aws_ami" "worker" {
  most_recent = true
  owners      = ["099720109477"]

  filter {
    name   = "name"
    values = ["ubuntu/images/hvm-ssd-gp3/ubuntu-noble-24.04-amd64-server-*"]
  }
}

resource "aws_instance" "worker" {
  ami             = data.aws_ami.worker.id
  instance_type   = "m6i.large"
  placement_group = aws_placement_group.cache_near_worker.id

  # Encrypted with the account's default EBS key, as every volume toscana creates.
  root_block_device {
    encrypted = true
  }

  # Instance metadata only through IMDSv2 session tokens (no IMDSv1).
  metadata_options {
    http_tokens = "required"
  }

  tags = {
    Name = "worker"
  }
}

# Placement policy databases_apart: its machines apart, each on hardware of its own.
resource "aws_placement_group" "databases_apart" {
  name     = "databases_apart"
  strategy = "spread"

  tags = {
    Name = "databases_apart"
  }
}

# Placement policy cache_near_worker: its machines together, on one rack of one zone.
resource "aws_placement_group" "cache_near_worker" {
  name     = "cache_near_worker"
  strategy = "cluster"

  tags = {
    Name = "cache_near_worker"
  }
}
