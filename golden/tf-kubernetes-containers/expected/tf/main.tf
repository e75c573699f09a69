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
      "toscana.io/node"   = "api"
      "toscana.io/source" = "golden/tf-kubernetes-containers/input.yaml:44"
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
    replicas = 3

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
        container {
          name  = "frontend"
          image = "nginxinc/nginx-unprivileged:1.27"

          port {
            name           = "web"
            container_port = 8080
            protocol       = "TCP"
          }
        }
      }
    }
  }
}
