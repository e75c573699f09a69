resource "kubernetes_config_map_v1" "db_vm_scripts" {
  metadata {
    name      = "db-vm-scripts"
    namespace = var.kube_namespace
  }

  data = {
    "01-collector-configure.py" = file("${path.module}/artifacts/scripts/configure_collector.py")
    "02-mysql-create.sh"        = file("${path.module}/artifacts/scripts/install_mysql.sh")
    "03-mysql-configure.sh"     = file("${path.module}/artifacts/scripts/configure_mysql.sh")
  }
}

# The scripts' inputs, which may carry secrets, as env files in a Secret (never a ConfigMap).
resource "kubernetes_secret_v1" "db_vm_script_env" {
  metadata {
    name      = "db-vm-script-env"
    namespace = var.kube_namespace
  }

  data = {
    "01-collector-configure.env" = join("\n", ["export API_TOKEN='${replace(var.ingest_api_token, "'", "'\\''")}'", "export DB_PORT='${replace(var.db_port, "'", "'\\''")}'", ""])
    "03-mysql-configure.env"     = join("\n", ["export port='${replace(var.db_port, "'", "'\\''")}'", "export root_password='${replace(var.db_root_password, "'", "'\\''")}'", ""])
  }
}

resource "kubernetes_deployment_v1" "db_vm" {
  metadata {
    name      = "db-vm"
    namespace = var.kube_namespace
    labels = {
      app = "db-vm"
    }
  }

  spec {
    replicas = 1

    selector {
      match_labels = {
        app = "db-vm"
      }
    }

    template {
      metadata {
        labels = {
          app = "db-vm"
        }
      }

      spec {
        container {
          name    = "db-vm"
          image   = "ubuntu:24.04"
          command = ["/bin/sh", "-c", "(. /opt/toscana-env/01-collector-configure.env && exec /opt/toscana/01-collector-configure.py) && (exec /opt/toscana/02-mysql-create.sh) && (. /opt/toscana-env/03-mysql-configure.env && exec /opt/toscana/03-mysql-configure.sh) && exec sleep infinity"]

          resources {
            requests = {
              cpu    = "2"
              memory = "3815Mi"
            }
          }

          volume_mount {
            name       = "scripts"
            mount_path = "/opt/toscana"
          }

          volume_mount {
            name       = "script-env"
            mount_path = "/opt/toscana-env"
          }
        }

        volume {
          name = "scripts"

          config_map {
            name         = kubernetes_config_map_v1.db_vm_scripts.metadata[0].name
            default_mode = "0755"
          }
        }

        volume {
          name = "script-env"

          secret {
            secret_name  = kubernetes_secret_v1.db_vm_script_env.metadata[0].name
            default_mode = "0400"
          }
        }
      }
    }
  }
}
