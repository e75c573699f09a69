resource "kubernetes_persistent_volume_claim_v1" "data" {
  metadata {
    name      = "data"
    namespace = var.kube_namespace
  }

  spec {
    access_modes = ["ReadWriteOnce"]

    resources {
      requests = {
        storage = "50Gi"
      }
    }
  }

  wait_until_bound = false
}

resource "kubernetes_config_map_v1" "server_scripts" {
  metadata {
    name      = "server-scripts"
    namespace = var.kube_namespace
  }

  data = {
    "01-app-create.sh" = file("${path.module}/artifacts/scripts/install_app.sh")
    "02-app-start.sh"  = file("${path.module}/artifacts/scripts/start_app.sh")
  }
}

# The scripts' inputs, which may carry secrets, as env files in a Secret (never a ConfigMap).
resource "kubernetes_secret_v1" "server_script_env" {
  metadata {
    name      = "server-script-env"
    namespace = var.kube_namespace
  }

  data = {
    "02-app-start.env" = join("\n", ["export APP_PORT='${replace(var.app_port, "'", "'\\''")}'", ""])
  }
}

resource "kubernetes_deployment_v1" "server" {
  metadata {
    name      = "server"
    namespace = var.kube_namespace
    labels = {
      app = "server"
    }
  }

  spec {
    replicas = 1

    selector {
      match_labels = {
        app = "server"
      }
    }

    template {
      metadata {
        labels = {
          app = "server"
        }
      }

      spec {
        container {
          name    = "server"
          image   = "ubuntu:22.04"
          command = ["/bin/sh", "-c", "(exec /opt/toscana/01-app-create.sh) && (. /opt/toscana-env/02-app-start.env && exec /opt/toscana/02-app-start.sh) && exec sleep infinity"]

          resources {
            requests = {
              cpu    = "2"
              memory = "7630Mi"
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
            name       = "data"
            mount_path = "/var/lib/app"
          }
        }

        volume {
          name = "scripts"

          config_map {
            name         = kubernetes_config_map_v1.server_scripts.metadata[0].name
            default_mode = "0755"
          }
        }

        volume {
          name = "script-env"

          secret {
            secret_name  = kubernetes_secret_v1.server_script_env.metadata[0].name
            default_mode = "0400"
          }
        }

        volume {
          name = "data"

          persistent_volume_claim {
            claim_name = kubernetes_persistent_volume_claim_v1.data.metadata[0].name
          }
        }
      }
    }
  }
}
