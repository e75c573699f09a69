resource "kubernetes_service_v1" "frontend" {
  metadata {
    name = "frontend"
    labels = {
      "app.kubernetes.io/component"  = "application"
      "app.kubernetes.io/instance"   = "input"
      "app.kubernetes.io/managed-by" = "toscana"
      "app.kubernetes.io/name"       = "frontend"
    }
    annotations = {
      "toscana.io/node"   = "frontend"
      "toscana.io/source" = "golden/tf-kubernetes-containers/input.yaml:29"
    }
    namespace = var.kube_namespace
  }

  spec {
    type = "ClusterIP"
    selector = {
      "app.kubernetes.io/instance" = "input"
      "app.kubernetes.io/name"     = "frontend"
    }

    port {
      name        = "web"
      port        = 8080
      target_port = 8080
      protocol    = "TCP"
    }
  }
}

resource "kubernetes_service_v1" "web_lb" {
  metadata {
    name = "web-lb"
    labels = {
      "app.kubernetes.io/component"  = "load-balancer"
      "app.kubernetes.io/instance"   = "input"
      "app.kubernetes.io/managed-by" = "toscana"
      "app.kubernetes.io/name"       = "web-lb"
    }
    annotations = {
      "toscana.io/node"   = "web_lb"
      "toscana.io/source" = "golden/tf-kubernetes-containers/input.yaml:53"
    }
    namespace = var.kube_namespace
  }

  spec {
    type = "LoadBalancer"
    selector = {
      "app.kubernetes.io/instance" = "input"
      "app.kubernetes.io/name"     = "frontend"
    }

    port {
      name        = "web"
      port        = 8080
      target_port = 8080
      protocol    = "TCP"
    }
  }
}

resource "kubernetes_deployment_v1" "api" {
  metadata {
    name = "api"
    labels = {
      "app.kubernetes.io/component"  = "application"
      "app.kubernetes.io/instance"   = "input"
      "app.kubernetes.io/managed-by" = "toscana"
      "app.kubernetes.io/name"       = "api"
    }
    annotations = {
      "toscana.io/node"         = "api"
      "toscana.io/pod-security" = "baseline"
      "toscana.io/source"       = "golden/tf-kubernetes-containers/input.yaml:44"
    }
    namespace = var.kube_namespace
  }

  spec {
    replicas = 1

    selector {
      match_labels = {
        "app.kubernetes.io/instance" = "input"
        "app.kubernetes.io/name"     = "api"
      }
    }

    template {
      metadata {
        labels = {
          "app.kubernetes.io/component"  = "application"
          "app.kubernetes.io/instance"   = "input"
          "app.kubernetes.io/managed-by" = "toscana"
          "app.kubernetes.io/name"       = "api"
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
          name  = "api"
          image = "ghcr.io/example/shop-api:2.4.1"

          security_context {
            allow_privilege_escalation = false
          }
        }
      }
    }
  }
}

resource "kubernetes_deployment_v1" "frontend" {
  metadata {
    name = "frontend"
    labels = {
      "app.kubernetes.io/component"  = "application"
      "app.kubernetes.io/instance"   = "input"
      "app.kubernetes.io/managed-by" = "toscana"
      "app.kubernetes.io/name"       = "frontend"
    }
    annotations = {
      "toscana.io/node"         = "frontend"
      "toscana.io/pod-security" = "restricted"
      "toscana.io/source"       = "golden/tf-kubernetes-containers/input.yaml:29"
    }
    namespace = var.kube_namespace
  }

  spec {
    replicas = var.replicas

    selector {
      match_labels = {
        "app.kubernetes.io/instance" = "input"
        "app.kubernetes.io/name"     = "frontend"
      }
    }

    template {
      metadata {
        labels = {
          "app.kubernetes.io/component"  = "application"
          "app.kubernetes.io/instance"   = "input"
          "app.kubernetes.io/managed-by" = "toscana"
          "app.kubernetes.io/name"       = "frontend"
        }
      }

      spec {
        automount_service_account_token = false

        security_context {
          run_as_non_root = true
          run_as_user     = 101

          seccomp_profile {
            type = "RuntimeDefault"
          }
        }

        container {
          name  = "frontend"
          image = "nginxinc/nginx-unprivileged:1.27"

          port {
            name           = "web"
            container_port = 8080
            protocol       = "TCP"
          }

          startup_probe {
            period_seconds    = 10
            failure_threshold = 30

            tcp_socket {
              port = "web"
            }
          }

          readiness_probe {
            period_seconds = 10

            tcp_socket {
              port = "web"
            }
          }

          liveness_probe {
            period_seconds = 10

            tcp_socket {
              port = "web"
            }
          }

          security_context {
            allow_privilege_escalation = false

            capabilities {
              drop = ["ALL"]
            }
          }
        }
      }
    }
  }
}
