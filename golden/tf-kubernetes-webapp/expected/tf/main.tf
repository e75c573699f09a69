resource "kubernetes_persistent_volume_claim_v1" "data_disk" {
  metadata {
    name      = "data-disk"
    namespace = var.kube_namespace
  }

  spec {
    access_modes = ["ReadWriteOnce"]

    resources {
      requests = {
        storage = "19Gi"
      }
    }
  }

  wait_until_bound = false
}

resource "kubernetes_config_map_v1" "web_vm_scripts" {
  metadata {
    name      = "web-vm-scripts"
    namespace = var.kube_namespace
  }

  data = {
    "01-web-create.sh"    = file("${path.module}/artifacts/webapp/install_nginx.sh")
    "02-web-configure.sh" = file("${path.module}/artifacts/webapp/configure_site.sh")
  }
}

# The scripts' inputs, which may carry secrets, as env files in a Secret (never a ConfigMap).
resource "kubernetes_secret_v1" "web_vm_script_env" {
  metadata {
    name      = "web-vm-script-env"
    namespace = var.kube_namespace
  }

  data = {
    "02-web-configure.env" = join("\n", ["export HTTP_PORT='${replace(var.http_port, "'", "'\\''")}'", "export SITE_NAME='${replace(var.site_name, "'", "'\\''")}'", ""])
  }
}

resource "kubernetes_deployment_v1" "web_vm" {
  metadata {
    name      = "web-vm"
    namespace = var.kube_namespace
    labels = {
      app = "web-vm"
    }
  }

  spec {
    replicas = 1

    selector {
      match_labels = {
        app = "web-vm"
      }
    }

    template {
      metadata {
        labels = {
          app = "web-vm"
        }
      }

      spec {
        container {
          name    = "web-vm"
          image   = "ubuntu:24.04"
          command = ["/bin/sh", "-c", "(exec /opt/toscana/01-web-create.sh) && (. /opt/toscana-env/02-web-configure.env && exec /opt/toscana/02-web-configure.sh) && exec sleep infinity"]

          resources {
            requests = {
              cpu               = "2"
              memory            = "3815Mi"
              ephemeral-storage = "28Gi"
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

          volume_mount {
            name       = "data-disk"
            mount_path = "/srv/www"
          }
        }

        volume {
          name = "scripts"

          config_map {
            name         = kubernetes_config_map_v1.web_vm_scripts.metadata[0].name
            default_mode = "0755"
          }
        }

        volume {
          name = "script-env"

          secret {
            secret_name  = kubernetes_secret_v1.web_vm_script_env.metadata[0].name
            default_mode = "0400"
          }
        }

        volume {
          name = "data-disk"

          persistent_volume_claim {
            claim_name = kubernetes_persistent_volume_claim_v1.data_disk.metadata[0].name
          }
        }
      }
    }
  }
}
