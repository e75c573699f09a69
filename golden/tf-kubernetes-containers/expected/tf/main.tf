resource "kubernetes_deployment_v1" "api" {
  metadata {
    name      = "api"
    namespace = var.kube_namespace
    labels = {
      app = "api"
    }
  }

  spec {
    replicas = 1

    selector {
      match_labels = {
        app = "api"
      }
    }

    template {
      metadata {
        labels = {
          app = "api"
        }
      }

      spec {
        container {
          name  = "api"
          image = "ghcr.io/example/shop-api:2.4.1"
        }
      }
    }
  }
}

resource "kubernetes_deployment_v1" "frontend" {
  metadata {
    name      = "frontend"
    namespace = var.kube_namespace
    labels = {
      app = "frontend"
    }
  }

  spec {
    replicas = var.replicas

    selector {
      match_labels = {
        app = "frontend"
      }
    }

    template {
      metadata {
        labels = {
          app = "frontend"
        }
      }

      spec {
        container {
          name  = "frontend"
          image = "nginxinc/nginx-unprivileged:1.27"

          port {
            container_port = 8080
          }
        }
      }
    }
  }

  depends_on = [kubernetes_deployment_v1.api]
}

resource "kubernetes_service_v1" "frontend" {
  metadata {
    name      = "frontend"
    namespace = var.kube_namespace
  }

  spec {
    selector = {
      app = "frontend"
    }

    port {
      name        = "port-8080"
      port        = 8080
      target_port = 8080
    }
  }
}

resource "kubernetes_service_v1" "web_lb" {
  metadata {
    name      = "web-lb"
    namespace = var.kube_namespace
  }

  spec {
    type = "LoadBalancer"

    selector = {
      app = "frontend"
    }

    port {
      port        = 80
      target_port = 8080
    }
  }
}
