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
        path        = "/opt/toscana/01-collector-configure.py"
        permissions = "0755"
        content     = file("${path.module}/artifacts/scripts/configure_collector.py")
      },
      {
        path        = "/opt/toscana-env/01-collector-configure.env"
        permissions = "0600"
        content     = join("\n", ["export API_TOKEN='${replace(var.ingest_api_token, "'", "'\\''")}'", "export DB_PORT='${replace(var.db_port, "'", "'\\''")}'", ""])
      },
      {
        path        = "/opt/toscana/02-mysql-create.sh"
        permissions = "0755"
        content     = file("${path.module}/artifacts/scripts/install_mysql.sh")
      },
      {
        path        = "/opt/toscana/03-mysql-configure.sh"
        permissions = "0755"
        content     = file("${path.module}/artifacts/scripts/configure_mysql.sh")
      },
      {
        path        = "/opt/toscana-env/03-mysql-configure.env"
        permissions = "0600"
        content     = join("\n", ["export port='${replace(var.db_port, "'", "'\\''")}'", "export root_password='${replace(var.db_root_password, "'", "'\\''")}'", ""])
      },
    ]
    runcmd = [
      ["/bin/sh", "-c", ". /opt/toscana-env/01-collector-configure.env && exec /opt/toscana/01-collector-configure.py"],
      ["/bin/sh", "-c", "exec /opt/toscana/02-mysql-create.sh"],
      ["/bin/sh", "-c", ". /opt/toscana-env/03-mysql-configure.env && exec /opt/toscana/03-mysql-configure.sh"],
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
  instance_type               = "t3.medium"
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
