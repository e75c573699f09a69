resource "kubernetes_secret_v1" "db_container_secret" {
  data = {
    MYSQL_ROOT_PASSWORD = var.db_root_password
  }
  type = "Opaque"

  metadata {
    name = "db-container-secret"
    labels = {
      "app.kubernetes.io/component"  = "application"
      "app.kubernetes.io/instance"   = "input"
      "app.kubernetes.io/managed-by" = "toscana"
      "app.kubernetes.io/name"       = "db-container"
    }
    annotations = {
      "toscana.io/node"   = "db_container"
      "toscana.io/source" = "golden/tf-kubernetes-docker-mysql/input.yaml:21"
    }
    namespace = var.kube_namespace
  }
}

resource "kubernetes_service_v1" "db_container" {
  metadata {
    name = "db-container"
    labels = {
      "app.kubernetes.io/component"  = "application"
      "app.kubernetes.io/instance"   = "input"
      "app.kubernetes.io/managed-by" = "toscana"
      "app.kubernetes.io/name"       = "db-container"
    }
    annotations = {
      "toscana.io/node"   = "db_container"
      "toscana.io/source" = "golden/tf-kubernetes-docker-mysql/input.yaml:21"
    }
    namespace = var.kube_namespace
  }

  spec {
    type       = "ClusterIP"
    cluster_ip = "None"
    selector = {
      "app.kubernetes.io/instance" = "input"
      "app.kubernetes.io/name"     = "db-container"
    }
  }
}

resource "kubernetes_stateful_set_v1" "db_container" {
  metadata {
    name = "db-container"
    labels = {
      "app.kubernetes.io/component"  = "application"
      "app.kubernetes.io/instance"   = "input"
      "app.kubernetes.io/managed-by" = "toscana"
      "app.kubernetes.io/name"       = "db-container"
    }
    annotations = {
      "toscana.io/node"         = "db_container"
      "toscana.io/pod-security" = "baseline"
      "toscana.io/source"       = "golden/tf-kubernetes-docker-mysql/input.yaml:21"
    }
    namespace = var.kube_namespace
  }

  spec {
    replicas     = 1
    service_name = kubernetes_service_v1.db_container.metadata[0].name

    selector {
      match_labels = {
        "app.kubernetes.io/instance" = "input"
        "app.kubernetes.io/name"     = "db-container"
      }
    }

    template {
      metadata {
        labels = {
          "app.kubernetes.io/component"  = "application"
          "app.kubernetes.io/instance"   = "input"
          "app.kubernetes.io/managed-by" = "toscana"
          "app.kubernetes.io/name"       = "db-container"
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
          name  = "db-container"
          image = "mysql:8.4"

          env {
            name = "MYSQL_ROOT_PASSWORD"

            value_from {
              secret_key_ref {
                name = kubernetes_secret_v1.db_container_secret.metadata[0].name
                key  = "MYSQL_ROOT_PASSWORD"
              }
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
