resource "kubernetes_service_account_v1" "adservice" {
  metadata {
    name      = "adservice"
    namespace = var.kube_namespace
  }
}

resource "kubernetes_service_account_v1" "cartservice" {
  metadata {
    name      = "cartservice"
    namespace = var.kube_namespace
  }
}

resource "kubernetes_service_account_v1" "checkoutservice" {
  metadata {
    name      = "checkoutservice"
    namespace = var.kube_namespace
  }
}

resource "kubernetes_service_account_v1" "currencyservice" {
  metadata {
    name      = "currencyservice"
    namespace = var.kube_namespace
  }
}

resource "kubernetes_service_account_v1" "emailservice" {
  metadata {
    name      = "emailservice"
    namespace = var.kube_namespace
  }
}

resource "kubernetes_service_account_v1" "frontend" {
  metadata {
    name      = "frontend"
    namespace = var.kube_namespace
  }
}

resource "kubernetes_service_account_v1" "paymentservice" {
  metadata {
    name      = "paymentservice"
    namespace = var.kube_namespace
  }
}

resource "kubernetes_service_account_v1" "productcatalogservice" {
  metadata {
    name      = "productcatalogservice"
    namespace = var.kube_namespace
  }
}

resource "kubernetes_service_account_v1" "recommendationservice" {
  metadata {
    name      = "recommendationservice"
    namespace = var.kube_namespace
  }
}

resource "kubernetes_service_account_v1" "shippingservice" {
  metadata {
    name      = "shippingservice"
    namespace = var.kube_namespace
  }
}

resource "kubernetes_service_v1" "adservice" {
  metadata {
    name      = "adservice"
    namespace = var.kube_namespace
  }

  spec {
    type = "ClusterIP"
    selector = {
      app = "adservice"
    }

    port {
      name        = "grpc"
      port        = 9555
      target_port = 9555
    }
  }
}

resource "kubernetes_service_v1" "cartservice" {
  metadata {
    name      = "cartservice"
    namespace = var.kube_namespace
  }

  spec {
    type = "ClusterIP"
    selector = {
      app = "cartservice"
    }

    port {
      name        = "grpc"
      port        = 7070
      target_port = 7070
    }
  }
}

resource "kubernetes_service_v1" "checkoutservice" {
  metadata {
    name      = "checkoutservice"
    namespace = var.kube_namespace
  }

  spec {
    type = "ClusterIP"
    selector = {
      app = "checkoutservice"
    }

    port {
      name        = "grpc"
      port        = 5050
      target_port = 5050
    }
  }
}

resource "kubernetes_service_v1" "currencyservice" {
  metadata {
    name      = "currencyservice"
    namespace = var.kube_namespace
  }

  spec {
    type = "ClusterIP"
    selector = {
      app = "currencyservice"
    }

    port {
      name        = "grpc"
      port        = 7000
      target_port = 7000
    }
  }
}

resource "kubernetes_service_v1" "emailservice" {
  metadata {
    name      = "emailservice"
    namespace = var.kube_namespace
  }

  spec {
    type = "ClusterIP"
    selector = {
      app = "emailservice"
    }

    port {
      name        = "grpc"
      port        = 5000
      target_port = 8080
    }
  }
}

resource "kubernetes_service_v1" "frontend" {
  metadata {
    name      = "frontend"
    namespace = var.kube_namespace
  }

  spec {
    type = "ClusterIP"
    selector = {
      app = "frontend"
    }

    port {
      name        = "http"
      port        = 80
      target_port = 8080
    }
  }
}

resource "kubernetes_service_v1" "frontend_external" {
  metadata {
    name      = "frontend-external"
    namespace = var.kube_namespace
  }

  spec {
    type = "LoadBalancer"
    selector = {
      app = "frontend"
    }

    port {
      name        = "http"
      port        = 80
      target_port = 8080
    }
  }
}

resource "kubernetes_service_v1" "paymentservice" {
  metadata {
    name      = "paymentservice"
    namespace = var.kube_namespace
  }

  spec {
    type = "ClusterIP"
    selector = {
      app = "paymentservice"
    }

    port {
      name        = "grpc"
      port        = 50051
      target_port = 50051
    }
  }
}

resource "kubernetes_service_v1" "productcatalogservice" {
  metadata {
    name      = "productcatalogservice"
    namespace = var.kube_namespace
  }

  spec {
    type = "ClusterIP"
    selector = {
      app = "productcatalogservice"
    }

    port {
      name        = "grpc"
      port        = 3550
      target_port = 3550
    }
  }
}

resource "kubernetes_service_v1" "recommendationservice" {
  metadata {
    name      = "recommendationservice"
    namespace = var.kube_namespace
  }

  spec {
    type = "ClusterIP"
    selector = {
      app = "recommendationservice"
    }

    port {
      name        = "grpc"
      port        = 8080
      target_port = 8080
    }
  }
}

resource "kubernetes_service_v1" "redis_cart" {
  metadata {
    name      = "redis-cart"
    namespace = var.kube_namespace
  }

  spec {
    type = "ClusterIP"
    selector = {
      app = "redis-cart"
    }

    port {
      name        = "tcp-redis"
      port        = 6379
      target_port = 6379
    }
  }
}

resource "kubernetes_service_v1" "shippingservice" {
  metadata {
    name      = "shippingservice"
    namespace = var.kube_namespace
  }

  spec {
    type = "ClusterIP"
    selector = {
      app = "shippingservice"
    }

    port {
      name        = "grpc"
      port        = 50051
      target_port = 50051
    }
  }
}

resource "kubernetes_deployment_v1" "adservice" {
  metadata {
    name      = "adservice"
    namespace = var.kube_namespace
  }

  spec {
    selector {
      match_labels = {
        app = "adservice"
      }
    }

    template {
      metadata {
        labels = {
          app = "adservice"
        }
      }

      spec {
        service_account_name             = kubernetes_service_account_v1.adservice.metadata[0].name
        termination_grace_period_seconds = 5
        automount_service_account_token  = false

        container {
          name  = "server"
          image = "us-central1-docker.pkg.dev/google-samples/microservices-demo/adservice:v0.10.2"

          port {
            container_port = 9555
          }

          env {
            name  = "PORT"
            value = "9555"
          }

          env {
            name  = "DISABLE_PROFILER"
            value = "1"
          }

          resources {
            requests = {
              cpu    = "100m"
              memory = "64Mi"
            }
            limits = {
              cpu    = "200m"
              memory = "128Mi"
            }
          }
        }
      }
    }
  }
}

resource "kubernetes_deployment_v1" "cartservice" {
  metadata {
    name      = "cartservice"
    namespace = var.kube_namespace
  }

  spec {
    selector {
      match_labels = {
        app = "cartservice"
      }
    }

    template {
      metadata {
        labels = {
          app = "cartservice"
        }
      }

      spec {
        service_account_name             = kubernetes_service_account_v1.cartservice.metadata[0].name
        termination_grace_period_seconds = 5
        automount_service_account_token  = false

        container {
          name  = "server"
          image = "us-central1-docker.pkg.dev/google-samples/microservices-demo/cartservice:v0.10.2"

          port {
            container_port = 7070
          }

          env {
            name  = "PORT"
            value = "7070"
          }

          env {
            name  = "DISABLE_PROFILER"
            value = "1"
          }

          env {
            name  = "REDIS_ADDR"
            value = "redis-cart:6379"
          }

          resources {
            requests = {
              cpu    = "100m"
              memory = "64Mi"
            }
            limits = {
              cpu    = "200m"
              memory = "128Mi"
            }
          }
        }
      }
    }
  }
}

resource "kubernetes_deployment_v1" "checkoutservice" {
  metadata {
    name      = "checkoutservice"
    namespace = var.kube_namespace
  }

  spec {
    selector {
      match_labels = {
        app = "checkoutservice"
      }
    }

    template {
      metadata {
        labels = {
          app = "checkoutservice"
        }
      }

      spec {
        service_account_name             = kubernetes_service_account_v1.checkoutservice.metadata[0].name
        termination_grace_period_seconds = 5
        automount_service_account_token  = false

        container {
          name  = "server"
          image = "us-central1-docker.pkg.dev/google-samples/microservices-demo/checkoutservice:v0.10.2"

          port {
            container_port = 5050
          }

          env {
            name  = "PORT"
            value = "5050"
          }

          env {
            name  = "DISABLE_PROFILER"
            value = "1"
          }

          env {
            name  = "PRODUCT_CATALOG_SERVICE_ADDR"
            value = "productcatalogservice:3550"
          }

          env {
            name  = "CART_SERVICE_ADDR"
            value = "cartservice:7070"
          }

          env {
            name  = "SHIPPING_SERVICE_ADDR"
            value = "shippingservice:50051"
          }

          env {
            name  = "CURRENCY_SERVICE_ADDR"
            value = "currencyservice:7000"
          }

          env {
            name  = "PAYMENT_SERVICE_ADDR"
            value = "paymentservice:50051"
          }

          env {
            name  = "EMAIL_SERVICE_ADDR"
            value = "emailservice:5000"
          }

          resources {
            requests = {
              cpu    = "100m"
              memory = "64Mi"
            }
            limits = {
              cpu    = "200m"
              memory = "128Mi"
            }
          }
        }
      }
    }
  }
}

resource "kubernetes_deployment_v1" "currencyservice" {
  metadata {
    name      = "currencyservice"
    namespace = var.kube_namespace
  }

  spec {
    selector {
      match_labels = {
        app = "currencyservice"
      }
    }

    template {
      metadata {
        labels = {
          app = "currencyservice"
        }
      }

      spec {
        service_account_name             = kubernetes_service_account_v1.currencyservice.metadata[0].name
        termination_grace_period_seconds = 5
        automount_service_account_token  = false

        container {
          name  = "server"
          image = "us-central1-docker.pkg.dev/google-samples/microservices-demo/currencyservice:v0.10.2"

          port {
            container_port = 7000
          }

          env {
            name  = "PORT"
            value = "7000"
          }

          env {
            name  = "DISABLE_PROFILER"
            value = "1"
          }

          resources {
            requests = {
              cpu    = "100m"
              memory = "64Mi"
            }
            limits = {
              cpu    = "200m"
              memory = "128Mi"
            }
          }
        }
      }
    }
  }
}

resource "kubernetes_deployment_v1" "emailservice" {
  metadata {
    name      = "emailservice"
    namespace = var.kube_namespace
  }

  spec {
    selector {
      match_labels = {
        app = "emailservice"
      }
    }

    template {
      metadata {
        labels = {
          app = "emailservice"
        }
      }

      spec {
        service_account_name             = kubernetes_service_account_v1.emailservice.metadata[0].name
        termination_grace_period_seconds = 5
        automount_service_account_token  = false

        container {
          name  = "server"
          image = "us-central1-docker.pkg.dev/google-samples/microservices-demo/emailservice:v0.10.2"

          port {
            container_port = 8080
          }

          env {
            name  = "PORT"
            value = "8080"
          }

          env {
            name  = "DISABLE_PROFILER"
            value = "1"
          }

          resources {
            requests = {
              cpu    = "100m"
              memory = "64Mi"
            }
            limits = {
              cpu    = "200m"
              memory = "128Mi"
            }
          }
        }
      }
    }
  }
}

resource "kubernetes_deployment_v1" "frontend" {
  metadata {
    name      = "frontend"
    namespace = var.kube_namespace
  }

  spec {
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
        service_account_name             = kubernetes_service_account_v1.frontend.metadata[0].name
        termination_grace_period_seconds = 5
        automount_service_account_token  = false

        container {
          name  = "server"
          image = "us-central1-docker.pkg.dev/google-samples/microservices-demo/frontend:v0.10.2"

          port {
            container_port = 8080
          }

          env {
            name  = "PORT"
            value = "8080"
          }

          env {
            name  = "ENABLE_PROFILER"
            value = "0"
          }

          env {
            name  = "SHOPPING_ASSISTANT_SERVICE_ADDR"
            value = "not-deployed.invalid"
          }

          env {
            name  = "AD_SERVICE_ADDR"
            value = "adservice:9555"
          }

          env {
            name  = "RECOMMENDATION_SERVICE_ADDR"
            value = "recommendationservice:8080"
          }

          env {
            name  = "PRODUCT_CATALOG_SERVICE_ADDR"
            value = "productcatalogservice:3550"
          }

          env {
            name  = "CART_SERVICE_ADDR"
            value = "cartservice:7070"
          }

          env {
            name  = "SHIPPING_SERVICE_ADDR"
            value = "shippingservice:50051"
          }

          env {
            name  = "CURRENCY_SERVICE_ADDR"
            value = "currencyservice:7000"
          }

          env {
            name  = "CHECKOUT_SERVICE_ADDR"
            value = "checkoutservice:5050"
          }

          resources {
            requests = {
              cpu    = "100m"
              memory = "64Mi"
            }
            limits = {
              cpu    = "200m"
              memory = "128Mi"
            }
          }
        }
      }
    }
  }
}

resource "kubernetes_deployment_v1" "paymentservice" {
  metadata {
    name      = "paymentservice"
    namespace = var.kube_namespace
  }

  spec {
    selector {
      match_labels = {
        app = "paymentservice"
      }
    }

    template {
      metadata {
        labels = {
          app = "paymentservice"
        }
      }

      spec {
        service_account_name             = kubernetes_service_account_v1.paymentservice.metadata[0].name
        termination_grace_period_seconds = 5
        automount_service_account_token  = false

        container {
          name  = "server"
          image = "us-central1-docker.pkg.dev/google-samples/microservices-demo/paymentservice:v0.10.2"

          port {
            container_port = 50051
          }

          env {
            name  = "PORT"
            value = "50051"
          }

          env {
            name  = "DISABLE_PROFILER"
            value = "1"
          }

          resources {
            requests = {
              cpu    = "100m"
              memory = "64Mi"
            }
            limits = {
              cpu    = "200m"
              memory = "128Mi"
            }
          }
        }
      }
    }
  }
}

resource "kubernetes_deployment_v1" "productcatalogservice" {
  metadata {
    name      = "productcatalogservice"
    namespace = var.kube_namespace
  }

  spec {
    selector {
      match_labels = {
        app = "productcatalogservice"
      }
    }

    template {
      metadata {
        labels = {
          app = "productcatalogservice"
        }
      }

      spec {
        service_account_name             = kubernetes_service_account_v1.productcatalogservice.metadata[0].name
        termination_grace_period_seconds = 5
        automount_service_account_token  = false

        container {
          name  = "server"
          image = "us-central1-docker.pkg.dev/google-samples/microservices-demo/productcatalogservice:v0.10.2"

          port {
            container_port = 3550
          }

          env {
            name  = "PORT"
            value = "3550"
          }

          env {
            name  = "DISABLE_PROFILER"
            value = "1"
          }

          resources {
            requests = {
              cpu    = "100m"
              memory = "64Mi"
            }
            limits = {
              cpu    = "200m"
              memory = "128Mi"
            }
          }
        }
      }
    }
  }
}

resource "kubernetes_deployment_v1" "recommendationservice" {
  metadata {
    name      = "recommendationservice"
    namespace = var.kube_namespace
  }

  spec {
    selector {
      match_labels = {
        app = "recommendationservice"
      }
    }

    template {
      metadata {
        labels = {
          app = "recommendationservice"
        }
      }

      spec {
        service_account_name             = kubernetes_service_account_v1.recommendationservice.metadata[0].name
        termination_grace_period_seconds = 5
        automount_service_account_token  = false

        container {
          name  = "server"
          image = "us-central1-docker.pkg.dev/google-samples/microservices-demo/recommendationservice:v0.10.2"

          port {
            container_port = 8080
          }

          env {
            name  = "PORT"
            value = "8080"
          }

          env {
            name  = "DISABLE_PROFILER"
            value = "1"
          }

          env {
            name  = "PRODUCT_CATALOG_SERVICE_ADDR"
            value = "productcatalogservice:3550"
          }

          resources {
            requests = {
              cpu    = "100m"
              memory = "64Mi"
            }
            limits = {
              cpu    = "200m"
              memory = "128Mi"
            }
          }
        }
      }
    }
  }
}

resource "kubernetes_deployment_v1" "redis_cart" {
  metadata {
    name      = "redis-cart"
    namespace = var.kube_namespace
  }

  spec {
    selector {
      match_labels = {
        app = "redis-cart"
      }
    }

    template {
      metadata {
        labels = {
          app = "redis-cart"
        }
      }

      spec {
        automount_service_account_token = false

        container {
          name  = "redis"
          image = "redis:alpine"

          port {
            container_port = 6379
          }

          volume_mount {
            name       = "redis-data"
            mount_path = "/data"
          }

          resources {
            requests = {
              cpu    = "70m"
              memory = "200Mi"
            }
            limits = {
              cpu    = "125m"
              memory = "256Mi"
            }
          }
        }

        volume {
          name = "redis-data"

          empty_dir {}
        }
      }
    }
  }
}

resource "kubernetes_deployment_v1" "shippingservice" {
  metadata {
    name      = "shippingservice"
    namespace = var.kube_namespace
  }

  spec {
    selector {
      match_labels = {
        app = "shippingservice"
      }
    }

    template {
      metadata {
        labels = {
          app = "shippingservice"
        }
      }

      spec {
        service_account_name             = kubernetes_service_account_v1.shippingservice.metadata[0].name
        termination_grace_period_seconds = 5
        automount_service_account_token  = false

        container {
          name  = "server"
          image = "us-central1-docker.pkg.dev/google-samples/microservices-demo/shippingservice:v0.10.2"

          port {
            container_port = 50051
          }

          env {
            name  = "PORT"
            value = "50051"
          }

          env {
            name  = "DISABLE_PROFILER"
            value = "1"
          }

          resources {
            requests = {
              cpu    = "100m"
              memory = "64Mi"
            }
            limits = {
              cpu    = "200m"
              memory = "128Mi"
            }
          }
        }
      }
    }
  }
}
