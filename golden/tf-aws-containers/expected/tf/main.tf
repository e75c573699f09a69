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

resource "aws_s3_bucket" "uploads" {
  bucket = "shop-uploads"

  tags = {
    Name = "uploads"
  }
}

resource "aws_lb" "web_lb" {
  load_balancer_type = "application"
  subnets            = data.aws_subnets.default.ids
  security_groups    = [aws_security_group.web_lb_lb.id, data.aws_security_group.default.id]
  # Requests with malformed headers are dropped, not passed to the machines.
  drop_invalid_header_fields = true

  tags = {
    Name = "web_lb"
  }
}

# The listener's port, open to the world: an application load balancer is internet-facing.
# The load balancer stays in the VPC's default group too, which its targets admit and whose
# rules let it reach them.
resource "aws_security_group" "web_lb_lb" {
  name_prefix = "web_lb-"
  description = "The listener of web_lb"
  vpc_id      = data.aws_vpc.default.id

  tags = {
    Name = "web_lb"
  }
}

resource "aws_vpc_security_group_ingress_rule" "web_lb_lb_listener" {
  security_group_id = aws_security_group.web_lb_lb.id
  description       = "The listener of the load balancer, open to the world"
  ip_protocol       = "tcp"
  from_port         = 80
  to_port           = 80
  cidr_ipv4         = "0.0.0.0/0"
}

resource "aws_lb_target_group" "web_lb" {
  port     = 80
  protocol = "HTTP"
  vpc_id   = data.aws_vpc.default.id
}

resource "aws_lb_listener" "web_lb" {
  load_balancer_arn = aws_lb.web_lb.arn
  port              = 80
  protocol          = "HTTP"

  default_action {
    type             = "forward"
    target_group_arn = aws_lb_target_group.web_lb.arn
  }
}
