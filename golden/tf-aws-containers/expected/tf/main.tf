data "aws_vpc" "default" {
  default = true
}

data "aws_subnets" "default" {
  filter {
    name   = "vpc-id"
    values = [data.aws_vpc.default.id]
  }
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
  # Requests with malformed headers are dropped, not passed to the machines.
  drop_invalid_header_fields = true

  tags = {
    Name = "web_lb"
  }
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
