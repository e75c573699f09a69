//! The provider schema checker (`tests/checkers/terraform_schema.rs`, issue 27 scope 7) finds
//! what `terraform validate` would: shown here on a configuration with one mistake of each kind,
//! and on a correct one. (`tests/golden.rs` and `tests/tf_corpus.rs` run it on every output.)

// Only the provider schema check of the external checkers is used here.
#[allow(dead_code)]
mod checkers;

use checkers::terraform_schema::check_dir;

fn problems_of(main_tf: &str) -> Vec<String> {
    let dir = tempfile::tempdir().expect("a temporary folder");
    std::fs::write(dir.path().join("main.tf"), main_tf).expect("writable");
    let prefix = format!("{}/", dir.path().display());
    match check_dir(dir.path()) {
        Ok(()) => Vec::new(),
        Err(report) => report
            .lines()
            .skip(1)
            .map(|l| l.replace(&prefix, ""))
            .collect(),
    }
}

#[test]
fn a_correct_configuration_passes() {
    let problems = problems_of(
        r#"
provider "aws" {
  region = "eu-west-1"
}

resource "aws_vpc" "main" {
  cidr_block = "10.0.0.0/16"
}

resource "aws_subnet" "main" {
  vpc_id     = aws_vpc.main.id
  cidr_block = "10.0.1.0/24"
}

resource "aws_instance" "web" {
  count         = 2
  ami           = data.aws_ami.ubuntu.id
  instance_type = "t3.micro"
  subnet_id     = aws_subnet.main.id
  root_block_device {
    volume_size = 8
  }
  dynamic "ebs_block_device" {
    for_each = []
    content {
      device_name = "/dev/sdf"
    }
  }
  lifecycle {
    create_before_destroy = true
  }
  depends_on = [aws_subnet.main]
}

data "aws_ami" "ubuntu" {
  most_recent = true
  owners      = ["099720109477"]
}

output "ips" {
  value = "${aws_instance.web[0].public_ip} ${join(",", aws_instance.web[*].private_ip)}"
}
"#,
    );
    assert_eq!(problems, Vec::<String>::new());
}

#[test]
fn each_kind_of_mistake_is_found_with_its_place() {
    let problems = problems_of(
        r#"provider "aws" {
  regoin = "x"
}

resource "aws_instance" "web" {
  subnet_id         = aws_subnet.main.idd
  root_block_device = {}
  dynamic "ebs_block_device" {
    for_each = []
    content {
      volume_size = 1
    }
  }
}

resource "aws_subnet" "main" {
  vpc_id     = "vpc-1"
  cidr_block = "10.0.0.0/24"
}

resource "aws_nothing" "x" {}

data "aws_ami" "u" {}

output "ip" {
  value = "${aws_instance.other.id} ${data.aws_ami.u.nope}"
}
"#,
    );
    let expect = [
        "main.tf:2:3: provider aws: hashicorp/aws 6.69.1 knows no argument `regoin` here",
        "main.tf:7:3: aws_instance.web: `root_block_device` is a nested block in hashicorp/aws 6.69.1, not an argument",
        "main.tf:8:3: aws_instance.web.ebs_block_device: hashicorp/aws 6.69.1 requires `device_name` here, which is missing",
        "main.tf:21:1: resource `aws_nothing`: hashicorp/aws 6.69.1 has no resource of this type",
        "main.tf:6:23: reference to aws_subnet.main.idd: hashicorp/aws 6.69.1 exports no attribute `idd` of aws_subnet",
        "main.tf:26:14: reference to aws_instance.other, which the configuration does not declare",
        "main.tf:26:39: reference to data.aws_ami.u.nope: hashicorp/aws 6.69.1 exports no attribute `nope` of aws_ami",
    ];
    for e in expect {
        assert!(
            problems.iter().any(|p| p.starts_with(e)),
            "expected a problem starting {e:?}, got:\n{}",
            problems.join("\n")
        );
    }
    assert_eq!(problems.len(), expect.len(), "\n{}", problems.join("\n"));
}
