resource "kubernetes_secret_v1" "db_vm_secret" {
  data = {
    API_TOKEN = var.ingest_api_token
  }
  type = "Opaque"

  metadata {
    name = "db-vm-secret"
    labels = {
      "app.kubernetes.io/component"  = "server"
      "app.kubernetes.io/instance"   = "stack"
      "app.kubernetes.io/managed-by" = "toscana"
      "app.kubernetes.io/name"       = "db-vm"
    }
    annotations = {
      "toscana.io/node"   = "db_vm"
      "toscana.io/source" = "golden/tf-kubernetes-secrets/input/stack.yaml:25"
    }
    namespace = var.kube_namespace
  }
}

resource "kubernetes_secret_v1" "mysql_secret" {
  data = {
    MYSQL_ROOT_PASSWORD = var.db_root_password
  }
  type = "Opaque"

  metadata {
    name = "mysql-secret"
    labels = {
      "app.kubernetes.io/component"  = "database"
      "app.kubernetes.io/instance"   = "stack"
      "app.kubernetes.io/managed-by" = "toscana"
      "app.kubernetes.io/name"       = "mysql"
    }
    annotations = {
      "toscana.io/node"   = "mysql"
      "toscana.io/source" = "golden/tf-kubernetes-secrets/input/stack.yaml:37"
    }
    namespace = var.kube_namespace
  }
}

resource "kubernetes_config_map_v1" "db_vm_scripts" {
  data = {
    "entrypoint.sh"            = "#!/bin/sh\n# Runs the lifecycle operations of the stack in deployment order, then keeps the\n# container running as the server did.\nset -e\n# Installs a package the next script's interpreter comes in, with the image's package manager.\ntoscana_install() {\n  echo \"toscana: installing $1\"\n  if command -v apt-get >/dev/null 2>&1; then\n    apt-get update -q && apt-get install -y -q --no-install-recommends \"$1\"\n  elif command -v dnf >/dev/null 2>&1; then dnf install -y -q \"$1\"\n  elif command -v microdnf >/dev/null 2>&1; then microdnf install -y \"$1\"\n  elif command -v yum >/dev/null 2>&1; then yum install -y -q \"$1\"\n  elif command -v apk >/dev/null 2>&1; then apk add --no-cache -q \"$1\"\n  elif command -v zypper >/dev/null 2>&1; then zypper --non-interactive install \"$1\"\n  else echo \"toscana: no package manager installs $1 here\" >&2; return 1\n  fi\n}\ncd /toscana/files\ncommand -v python3 >/dev/null 2>&1 || toscana_install 'python3'\necho \"toscana: collector configure\"\npython3 'scripts/configure_collector.py'\nexec sleep infinity\n"
    "1-configure_collector.py" = "#!/usr/bin/python3\n\"\"\"Writes the collector's configuration from its inputs, read from the environment.\"\"\"\nimport json\nimport os\n\nconfig = {\"token\": os.environ[\"API_TOKEN\"], \"database\": \"127.0.0.1:\" + os.environ[\"DB_PORT\"]}\nwith open(\"/etc/collector.json\", \"w\", encoding=\"utf-8\") as out:\n    json.dump(config, out)\n"
  }

  metadata {
    name = "db-vm-scripts"
    labels = {
      "app.kubernetes.io/component"  = "server"
      "app.kubernetes.io/instance"   = "stack"
      "app.kubernetes.io/managed-by" = "toscana"
      "app.kubernetes.io/name"       = "db-vm"
    }
    annotations = {
      "toscana.io/node"   = "db_vm"
      "toscana.io/source" = "golden/tf-kubernetes-secrets/input/stack.yaml:25"
    }
    namespace = var.kube_namespace
  }
}

resource "kubernetes_service_v1" "mysql" {
  metadata {
    name = "mysql"
    labels = {
      "app.kubernetes.io/component"  = "database"
      "app.kubernetes.io/instance"   = "stack"
      "app.kubernetes.io/managed-by" = "toscana"
      "app.kubernetes.io/name"       = "mysql"
    }
    annotations = {
      "toscana.io/node"   = "mysql"
      "toscana.io/source" = "golden/tf-kubernetes-secrets/input/stack.yaml:37"
    }
    namespace = var.kube_namespace
  }

  spec {
    type       = "ClusterIP"
    cluster_ip = "None"
    selector = {
      "app.kubernetes.io/instance" = "stack"
      "app.kubernetes.io/name"     = "mysql"
    }

    port {
      name        = "mysql"
      port        = var.db_port
      target_port = 3306
      protocol    = "TCP"
    }
  }
}

resource "kubernetes_deployment_v1" "db_vm" {
  metadata {
    name = "db-vm"
    labels = {
      "app.kubernetes.io/component"  = "server"
      "app.kubernetes.io/instance"   = "stack"
      "app.kubernetes.io/managed-by" = "toscana"
      "app.kubernetes.io/name"       = "db-vm"
    }
    annotations = {
      "toscana.io/node"         = "db_vm"
      "toscana.io/pod-security" = "baseline"
      "toscana.io/source"       = "golden/tf-kubernetes-secrets/input/stack.yaml:25"
    }
    namespace = var.kube_namespace
  }

  spec {
    replicas = 1

    selector {
      match_labels = {
        "app.kubernetes.io/instance" = "stack"
        "app.kubernetes.io/name"     = "db-vm"
      }
    }

    template {
      metadata {
        labels = {
          "app.kubernetes.io/component"  = "server"
          "app.kubernetes.io/instance"   = "stack"
          "app.kubernetes.io/managed-by" = "toscana"
          "app.kubernetes.io/name"       = "db-vm"
        }
      }

      spec {
        automount_service_account_token = false

        security_context {
          seccomp_profile {
            type = "RuntimeDefault"
          }
        }

        container {
          name    = "db-vm"
          image   = "ubuntu:24.04"
          command = ["/bin/sh", "/toscana/entrypoint.sh"]

          env {
            name = "API_TOKEN"

            value_from {
              secret_key_ref {
                name = kubernetes_secret_v1.db_vm_secret.metadata[0].name
                key  = "API_TOKEN"
              }
            }
          }

          env {
            name  = "DB_PORT"
            value = tostring(var.db_port)
          }

          env {
            name  = "DEBIAN_FRONTEND"
            value = "noninteractive"
          }

          resources {
            limits = {
              cpu    = "2"
              memory = "4G"
            }
            requests = {
              cpu    = "2"
              memory = "4G"
            }
          }

          security_context {
            allow_privilege_escalation = false
          }

          volume_mount {
            name       = "scripts"
            mount_path = "/toscana"
            read_only  = true
          }
        }

        volume {
          name = "scripts"

          config_map {
            name         = kubernetes_config_map_v1.db_vm_scripts.metadata[0].name
            default_mode = "0555"

            items {
              key  = "entrypoint.sh"
              path = "entrypoint.sh"
            }

            items {
              key  = "1-configure_collector.py"
              path = "files/scripts/configure_collector.py"
            }
          }
        }
      }
    }
  }
}

resource "kubernetes_stateful_set_v1" "mysql" {
  metadata {
    name = "mysql"
    labels = {
      "app.kubernetes.io/component"  = "database"
      "app.kubernetes.io/instance"   = "stack"
      "app.kubernetes.io/managed-by" = "toscana"
      "app.kubernetes.io/name"       = "mysql"
    }
    annotations = {
      "toscana.io/node"         = "mysql"
      "toscana.io/pod-security" = "baseline"
      "toscana.io/source"       = "golden/tf-kubernetes-secrets/input/stack.yaml:37"
    }
    namespace = var.kube_namespace
  }

  spec {
    replicas     = 1
    service_name = kubernetes_service_v1.mysql.metadata[0].name

    selector {
      match_labels = {
        "app.kubernetes.io/instance" = "stack"
        "app.kubernetes.io/name"     = "mysql"
      }
    }

    template {
      metadata {
        labels = {
          "app.kubernetes.io/component"  = "database"
          "app.kubernetes.io/instance"   = "stack"
          "app.kubernetes.io/managed-by" = "toscana"
          "app.kubernetes.io/name"       = "mysql"
        }
      }

      spec {
        automount_service_account_token = false

        security_context {
          seccomp_profile {
            type = "RuntimeDefault"
          }
        }

        container {
          name  = "mysql"
          image = "mysql:8.4"

          port {
            name           = "mysql"
            container_port = 3306
            protocol       = "TCP"
          }

          env {
            name = "MYSQL_ROOT_PASSWORD"

            value_from {
              secret_key_ref {
                name = kubernetes_secret_v1.mysql_secret.metadata[0].name
                key  = "MYSQL_ROOT_PASSWORD"
              }
            }
          }

          startup_probe {
            period_seconds    = 10
            failure_threshold = 30

            tcp_socket {
              port = "mysql"
            }
          }

          readiness_probe {
            period_seconds = 10

            tcp_socket {
              port = "mysql"
            }
          }

          liveness_probe {
            period_seconds = 10

            tcp_socket {
              port = "mysql"
            }
          }

          security_context {
            allow_privilege_escalation = false
          }

          volume_mount {
            name       = "data"
            mount_path = "/var/lib/mysql"
            sub_path   = "mysql"
          }
        }
      }
    }

    volume_claim_template {
      metadata {
        name = "data"
      }

      spec {
        access_modes = ["ReadWriteOnce"]

        resources {
          requests = {
            storage = "8Gi"
          }
        }
      }
    }
  }
}
