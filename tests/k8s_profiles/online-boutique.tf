resource "kubernetes_manifest" "service_account_adservice" {
  manifest = {
    "apiVersion" = "v1"
    "kind"       = "ServiceAccount"
    "metadata" = {
      "name" = "adservice"
    }
  }
}

resource "kubernetes_manifest" "deployment_adservice" {
  manifest = {
    "apiVersion" = "apps/v1"
    "kind"       = "Deployment"
    "metadata" = {
      "name" = "adservice"
    }
    "spec" = {
      "selector" = {
        "matchLabels" = {
          "app" = "adservice"
        }
      }
      "template" = {
        "metadata" = {
          "labels" = {
            "app" = "adservice"
          }
        }
        "spec" = {
          "serviceAccountName"            = "adservice"
          "terminationGracePeriodSeconds" = 5
          "containers" = [
            {
              "name"  = "server"
              "image" = "us-central1-docker.pkg.dev/google-samples/microservices-demo/adservice:v0.10.2"
              "ports" = [
                {
                  "containerPort" = 9555
                },
              ]
              "env" = [
                {
                  "name"  = "PORT"
                  "value" = "9555"
                },
                {
                  "name"  = "DISABLE_PROFILER"
                  "value" = "1"
                },
              ]
              "resources" = {
                "requests" = {
                  "cpu"    = "100m"
                  "memory" = "64Mi"
                }
                "limits" = {
                  "cpu"    = "200m"
                  "memory" = "128Mi"
                }
              }
            },
          ]
        }
      }
    }
  }
}

resource "kubernetes_manifest" "service_adservice" {
  manifest = {
    "apiVersion" = "v1"
    "kind"       = "Service"
    "metadata" = {
      "name" = "adservice"
    }
    "spec" = {
      "type" = "ClusterIP"
      "ports" = [
        {
          "name"       = "grpc"
          "port"       = 9555
          "targetPort" = 9555
        },
      ]
      "selector" = {
        "app" = "adservice"
      }
    }
  }
}

resource "kubernetes_manifest" "service_account_cartservice" {
  manifest = {
    "apiVersion" = "v1"
    "kind"       = "ServiceAccount"
    "metadata" = {
      "name" = "cartservice"
    }
  }
}

resource "kubernetes_manifest" "deployment_cartservice" {
  manifest = {
    "apiVersion" = "apps/v1"
    "kind"       = "Deployment"
    "metadata" = {
      "name" = "cartservice"
    }
    "spec" = {
      "selector" = {
        "matchLabels" = {
          "app" = "cartservice"
        }
      }
      "template" = {
        "metadata" = {
          "labels" = {
            "app" = "cartservice"
          }
        }
        "spec" = {
          "serviceAccountName"            = "cartservice"
          "terminationGracePeriodSeconds" = 5
          "containers" = [
            {
              "name"  = "server"
              "image" = "us-central1-docker.pkg.dev/google-samples/microservices-demo/cartservice:v0.10.2"
              "ports" = [
                {
                  "containerPort" = 7070
                },
              ]
              "env" = [
                {
                  "name"  = "PORT"
                  "value" = "7070"
                },
                {
                  "name"  = "DISABLE_PROFILER"
                  "value" = "1"
                },
                {
                  "name"  = "REDIS_ADDR"
                  "value" = "redis-cart:6379"
                },
              ]
              "resources" = {
                "requests" = {
                  "cpu"    = "100m"
                  "memory" = "64Mi"
                }
                "limits" = {
                  "cpu"    = "200m"
                  "memory" = "128Mi"
                }
              }
            },
          ]
        }
      }
    }
  }
}

resource "kubernetes_manifest" "service_cartservice" {
  manifest = {
    "apiVersion" = "v1"
    "kind"       = "Service"
    "metadata" = {
      "name" = "cartservice"
    }
    "spec" = {
      "type" = "ClusterIP"
      "ports" = [
        {
          "name"       = "grpc"
          "port"       = 7070
          "targetPort" = 7070
        },
      ]
      "selector" = {
        "app" = "cartservice"
      }
    }
  }
}

resource "kubernetes_manifest" "service_account_productcatalogservice" {
  manifest = {
    "apiVersion" = "v1"
    "kind"       = "ServiceAccount"
    "metadata" = {
      "name" = "productcatalogservice"
    }
  }
}

resource "kubernetes_manifest" "deployment_productcatalogservice" {
  manifest = {
    "apiVersion" = "apps/v1"
    "kind"       = "Deployment"
    "metadata" = {
      "name" = "productcatalogservice"
    }
    "spec" = {
      "selector" = {
        "matchLabels" = {
          "app" = "productcatalogservice"
        }
      }
      "template" = {
        "metadata" = {
          "labels" = {
            "app" = "productcatalogservice"
          }
        }
        "spec" = {
          "serviceAccountName"            = "productcatalogservice"
          "terminationGracePeriodSeconds" = 5
          "containers" = [
            {
              "name"  = "server"
              "image" = "us-central1-docker.pkg.dev/google-samples/microservices-demo/productcatalogservice:v0.10.2"
              "ports" = [
                {
                  "containerPort" = 3550
                },
              ]
              "env" = [
                {
                  "name"  = "PORT"
                  "value" = "3550"
                },
                {
                  "name"  = "DISABLE_PROFILER"
                  "value" = "1"
                },
              ]
              "resources" = {
                "requests" = {
                  "cpu"    = "100m"
                  "memory" = "64Mi"
                }
                "limits" = {
                  "cpu"    = "200m"
                  "memory" = "128Mi"
                }
              }
            },
          ]
        }
      }
    }
  }
}

resource "kubernetes_manifest" "service_productcatalogservice" {
  manifest = {
    "apiVersion" = "v1"
    "kind"       = "Service"
    "metadata" = {
      "name" = "productcatalogservice"
    }
    "spec" = {
      "type" = "ClusterIP"
      "ports" = [
        {
          "name"       = "grpc"
          "port"       = 3550
          "targetPort" = 3550
        },
      ]
      "selector" = {
        "app" = "productcatalogservice"
      }
    }
  }
}

resource "kubernetes_manifest" "service_account_checkoutservice" {
  manifest = {
    "apiVersion" = "v1"
    "kind"       = "ServiceAccount"
    "metadata" = {
      "name" = "checkoutservice"
    }
  }
}

resource "kubernetes_manifest" "deployment_checkoutservice" {
  manifest = {
    "apiVersion" = "apps/v1"
    "kind"       = "Deployment"
    "metadata" = {
      "name" = "checkoutservice"
    }
    "spec" = {
      "selector" = {
        "matchLabels" = {
          "app" = "checkoutservice"
        }
      }
      "template" = {
        "metadata" = {
          "labels" = {
            "app" = "checkoutservice"
          }
        }
        "spec" = {
          "serviceAccountName"            = "checkoutservice"
          "terminationGracePeriodSeconds" = 5
          "containers" = [
            {
              "name"  = "server"
              "image" = "us-central1-docker.pkg.dev/google-samples/microservices-demo/checkoutservice:v0.10.2"
              "ports" = [
                {
                  "containerPort" = 5050
                },
              ]
              "env" = [
                {
                  "name"  = "PORT"
                  "value" = "5050"
                },
                {
                  "name"  = "DISABLE_PROFILER"
                  "value" = "1"
                },
                {
                  "name"  = "PRODUCT_CATALOG_SERVICE_ADDR"
                  "value" = "productcatalogservice:3550"
                },
                {
                  "name"  = "CART_SERVICE_ADDR"
                  "value" = "cartservice:7070"
                },
                {
                  "name"  = "SHIPPING_SERVICE_ADDR"
                  "value" = "shippingservice:50051"
                },
                {
                  "name"  = "CURRENCY_SERVICE_ADDR"
                  "value" = "currencyservice:7000"
                },
                {
                  "name"  = "PAYMENT_SERVICE_ADDR"
                  "value" = "paymentservice:50051"
                },
                {
                  "name"  = "EMAIL_SERVICE_ADDR"
                  "value" = "emailservice:5000"
                },
              ]
              "resources" = {
                "requests" = {
                  "cpu"    = "100m"
                  "memory" = "64Mi"
                }
                "limits" = {
                  "cpu"    = "200m"
                  "memory" = "128Mi"
                }
              }
            },
          ]
        }
      }
    }
  }
}

resource "kubernetes_manifest" "service_checkoutservice" {
  manifest = {
    "apiVersion" = "v1"
    "kind"       = "Service"
    "metadata" = {
      "name" = "checkoutservice"
    }
    "spec" = {
      "type" = "ClusterIP"
      "ports" = [
        {
          "name"       = "grpc"
          "port"       = 5050
          "targetPort" = 5050
        },
      ]
      "selector" = {
        "app" = "checkoutservice"
      }
    }
  }
}

resource "kubernetes_manifest" "service_account_currencyservice" {
  manifest = {
    "apiVersion" = "v1"
    "kind"       = "ServiceAccount"
    "metadata" = {
      "name" = "currencyservice"
    }
  }
}

resource "kubernetes_manifest" "deployment_currencyservice" {
  manifest = {
    "apiVersion" = "apps/v1"
    "kind"       = "Deployment"
    "metadata" = {
      "name" = "currencyservice"
    }
    "spec" = {
      "selector" = {
        "matchLabels" = {
          "app" = "currencyservice"
        }
      }
      "template" = {
        "metadata" = {
          "labels" = {
            "app" = "currencyservice"
          }
        }
        "spec" = {
          "serviceAccountName"            = "currencyservice"
          "terminationGracePeriodSeconds" = 5
          "containers" = [
            {
              "name"  = "server"
              "image" = "us-central1-docker.pkg.dev/google-samples/microservices-demo/currencyservice:v0.10.2"
              "ports" = [
                {
                  "containerPort" = 7000
                },
              ]
              "env" = [
                {
                  "name"  = "PORT"
                  "value" = "7000"
                },
                {
                  "name"  = "DISABLE_PROFILER"
                  "value" = "1"
                },
              ]
              "resources" = {
                "requests" = {
                  "cpu"    = "100m"
                  "memory" = "64Mi"
                }
                "limits" = {
                  "cpu"    = "200m"
                  "memory" = "128Mi"
                }
              }
            },
          ]
        }
      }
    }
  }
}

resource "kubernetes_manifest" "service_currencyservice" {
  manifest = {
    "apiVersion" = "v1"
    "kind"       = "Service"
    "metadata" = {
      "name" = "currencyservice"
    }
    "spec" = {
      "type" = "ClusterIP"
      "ports" = [
        {
          "name"       = "grpc"
          "port"       = 7000
          "targetPort" = 7000
        },
      ]
      "selector" = {
        "app" = "currencyservice"
      }
    }
  }
}

resource "kubernetes_manifest" "service_account_emailservice" {
  manifest = {
    "apiVersion" = "v1"
    "kind"       = "ServiceAccount"
    "metadata" = {
      "name" = "emailservice"
    }
  }
}

resource "kubernetes_manifest" "deployment_emailservice" {
  manifest = {
    "apiVersion" = "apps/v1"
    "kind"       = "Deployment"
    "metadata" = {
      "name" = "emailservice"
    }
    "spec" = {
      "selector" = {
        "matchLabels" = {
          "app" = "emailservice"
        }
      }
      "template" = {
        "metadata" = {
          "labels" = {
            "app" = "emailservice"
          }
        }
        "spec" = {
          "serviceAccountName"            = "emailservice"
          "terminationGracePeriodSeconds" = 5
          "containers" = [
            {
              "name"  = "server"
              "image" = "us-central1-docker.pkg.dev/google-samples/microservices-demo/emailservice:v0.10.2"
              "ports" = [
                {
                  "containerPort" = 8080
                },
              ]
              "env" = [
                {
                  "name"  = "PORT"
                  "value" = "8080"
                },
                {
                  "name"  = "DISABLE_PROFILER"
                  "value" = "1"
                },
              ]
              "resources" = {
                "requests" = {
                  "cpu"    = "100m"
                  "memory" = "64Mi"
                }
                "limits" = {
                  "cpu"    = "200m"
                  "memory" = "128Mi"
                }
              }
            },
          ]
        }
      }
    }
  }
}

resource "kubernetes_manifest" "service_emailservice" {
  manifest = {
    "apiVersion" = "v1"
    "kind"       = "Service"
    "metadata" = {
      "name" = "emailservice"
    }
    "spec" = {
      "type" = "ClusterIP"
      "ports" = [
        {
          "name"       = "grpc"
          "port"       = 5000
          "targetPort" = 8080
        },
      ]
      "selector" = {
        "app" = "emailservice"
      }
    }
  }
}

resource "kubernetes_manifest" "service_account_frontend" {
  manifest = {
    "apiVersion" = "v1"
    "kind"       = "ServiceAccount"
    "metadata" = {
      "name" = "frontend"
    }
  }
}

resource "kubernetes_manifest" "deployment_frontend" {
  manifest = {
    "apiVersion" = "apps/v1"
    "kind"       = "Deployment"
    "metadata" = {
      "name" = "frontend"
    }
    "spec" = {
      "selector" = {
        "matchLabels" = {
          "app" = "frontend"
        }
      }
      "template" = {
        "metadata" = {
          "labels" = {
            "app" = "frontend"
          }
        }
        "spec" = {
          "serviceAccountName"            = "frontend"
          "terminationGracePeriodSeconds" = 5
          "containers" = [
            {
              "name"  = "server"
              "image" = "us-central1-docker.pkg.dev/google-samples/microservices-demo/frontend:v0.10.2"
              "ports" = [
                {
                  "containerPort" = 8080
                },
              ]
              "env" = [
                {
                  "name"  = "PORT"
                  "value" = "8080"
                },
                {
                  "name"  = "ENABLE_PROFILER"
                  "value" = "0"
                },
                {
                  "name"  = "AD_SERVICE_ADDR"
                  "value" = "adservice:9555"
                },
                {
                  "name"  = "RECOMMENDATION_SERVICE_ADDR"
                  "value" = "recommendationservice:8080"
                },
                {
                  "name"  = "PRODUCT_CATALOG_SERVICE_ADDR"
                  "value" = "productcatalogservice:3550"
                },
                {
                  "name"  = "CART_SERVICE_ADDR"
                  "value" = "cartservice:7070"
                },
                {
                  "name"  = "SHIPPING_SERVICE_ADDR"
                  "value" = "shippingservice:50051"
                },
                {
                  "name"  = "CURRENCY_SERVICE_ADDR"
                  "value" = "currencyservice:7000"
                },
                {
                  "name"  = "CHECKOUT_SERVICE_ADDR"
                  "value" = "checkoutservice:5050"
                },
              ]
              "resources" = {
                "requests" = {
                  "cpu"    = "100m"
                  "memory" = "64Mi"
                }
                "limits" = {
                  "cpu"    = "200m"
                  "memory" = "128Mi"
                }
              }
            },
          ]
        }
      }
    }
  }
}

resource "kubernetes_manifest" "service_frontend_external" {
  manifest = {
    "apiVersion" = "v1"
    "kind"       = "Service"
    "metadata" = {
      "name" = "frontend-external"
    }
    "spec" = {
      "type" = "LoadBalancer"
      "ports" = [
        {
          "name"       = "http"
          "port"       = 80
          "targetPort" = 8080
        },
      ]
      "selector" = {
        "app" = "frontend"
      }
    }
  }
}

resource "kubernetes_manifest" "service_frontend" {
  manifest = {
    "apiVersion" = "v1"
    "kind"       = "Service"
    "metadata" = {
      "name" = "frontend"
    }
    "spec" = {
      "type" = "ClusterIP"
      "ports" = [
        {
          "name"       = "http"
          "port"       = 80
          "targetPort" = 8080
        },
      ]
      "selector" = {
        "app" = "frontend"
      }
    }
  }
}

resource "kubernetes_manifest" "service_account_paymentservice" {
  manifest = {
    "apiVersion" = "v1"
    "kind"       = "ServiceAccount"
    "metadata" = {
      "name" = "paymentservice"
    }
  }
}

resource "kubernetes_manifest" "deployment_paymentservice" {
  manifest = {
    "apiVersion" = "apps/v1"
    "kind"       = "Deployment"
    "metadata" = {
      "name" = "paymentservice"
    }
    "spec" = {
      "selector" = {
        "matchLabels" = {
          "app" = "paymentservice"
        }
      }
      "template" = {
        "metadata" = {
          "labels" = {
            "app" = "paymentservice"
          }
        }
        "spec" = {
          "serviceAccountName"            = "paymentservice"
          "terminationGracePeriodSeconds" = 5
          "containers" = [
            {
              "name"  = "server"
              "image" = "us-central1-docker.pkg.dev/google-samples/microservices-demo/paymentservice:v0.10.2"
              "ports" = [
                {
                  "containerPort" = 50051
                },
              ]
              "env" = [
                {
                  "name"  = "PORT"
                  "value" = "50051"
                },
                {
                  "name"  = "DISABLE_PROFILER"
                  "value" = "1"
                },
              ]
              "resources" = {
                "requests" = {
                  "cpu"    = "100m"
                  "memory" = "64Mi"
                }
                "limits" = {
                  "cpu"    = "200m"
                  "memory" = "128Mi"
                }
              }
            },
          ]
        }
      }
    }
  }
}

resource "kubernetes_manifest" "service_paymentservice" {
  manifest = {
    "apiVersion" = "v1"
    "kind"       = "Service"
    "metadata" = {
      "name" = "paymentservice"
    }
    "spec" = {
      "type" = "ClusterIP"
      "ports" = [
        {
          "name"       = "grpc"
          "port"       = 50051
          "targetPort" = 50051
        },
      ]
      "selector" = {
        "app" = "paymentservice"
      }
    }
  }
}

resource "kubernetes_manifest" "service_account_recommendationservice" {
  manifest = {
    "apiVersion" = "v1"
    "kind"       = "ServiceAccount"
    "metadata" = {
      "name" = "recommendationservice"
    }
  }
}

resource "kubernetes_manifest" "deployment_recommendationservice" {
  manifest = {
    "apiVersion" = "apps/v1"
    "kind"       = "Deployment"
    "metadata" = {
      "name" = "recommendationservice"
    }
    "spec" = {
      "selector" = {
        "matchLabels" = {
          "app" = "recommendationservice"
        }
      }
      "template" = {
        "metadata" = {
          "labels" = {
            "app" = "recommendationservice"
          }
        }
        "spec" = {
          "serviceAccountName"            = "recommendationservice"
          "terminationGracePeriodSeconds" = 5
          "containers" = [
            {
              "name"  = "server"
              "image" = "us-central1-docker.pkg.dev/google-samples/microservices-demo/recommendationservice:v0.10.2"
              "ports" = [
                {
                  "containerPort" = 8080
                },
              ]
              "env" = [
                {
                  "name"  = "PORT"
                  "value" = "8080"
                },
                {
                  "name"  = "DISABLE_PROFILER"
                  "value" = "1"
                },
                {
                  "name"  = "PRODUCT_CATALOG_SERVICE_ADDR"
                  "value" = "productcatalogservice:3550"
                },
              ]
              "resources" = {
                "requests" = {
                  "cpu"    = "100m"
                  "memory" = "64Mi"
                }
                "limits" = {
                  "cpu"    = "200m"
                  "memory" = "128Mi"
                }
              }
            },
          ]
        }
      }
    }
  }
}

resource "kubernetes_manifest" "service_recommendationservice" {
  manifest = {
    "apiVersion" = "v1"
    "kind"       = "Service"
    "metadata" = {
      "name" = "recommendationservice"
    }
    "spec" = {
      "type" = "ClusterIP"
      "ports" = [
        {
          "name"       = "grpc"
          "port"       = 8080
          "targetPort" = 8080
        },
      ]
      "selector" = {
        "app" = "recommendationservice"
      }
    }
  }
}

resource "kubernetes_manifest" "deployment_redis_cart" {
  manifest = {
    "apiVersion" = "apps/v1"
    "kind"       = "Deployment"
    "metadata" = {
      "name" = "redis-cart"
    }
    "spec" = {
      "selector" = {
        "matchLabels" = {
          "app" = "redis-cart"
        }
      }
      "template" = {
        "metadata" = {
          "labels" = {
            "app" = "redis-cart"
          }
        }
        "spec" = {
          "containers" = [
            {
              "name"  = "redis"
              "image" = "redis:alpine"
              "ports" = [
                {
                  "containerPort" = 6379
                },
              ]
              "volumeMounts" = [
                {
                  "name"      = "redis-data"
                  "mountPath" = "/data"
                },
              ]
              "resources" = {
                "requests" = {
                  "cpu"    = "70m"
                  "memory" = "200Mi"
                }
                "limits" = {
                  "cpu"    = "125m"
                  "memory" = "256Mi"
                }
              }
            },
          ]
          "volumes" = [
            {
              "name"     = "redis-data"
              "emptyDir" = {}
            },
          ]
        }
      }
    }
  }
}

resource "kubernetes_manifest" "service_redis_cart" {
  manifest = {
    "apiVersion" = "v1"
    "kind"       = "Service"
    "metadata" = {
      "name" = "redis-cart"
    }
    "spec" = {
      "type" = "ClusterIP"
      "ports" = [
        {
          "name"       = "tcp-redis"
          "port"       = 6379
          "targetPort" = 6379
        },
      ]
      "selector" = {
        "app" = "redis-cart"
      }
    }
  }
}

resource "kubernetes_manifest" "service_account_shippingservice" {
  manifest = {
    "apiVersion" = "v1"
    "kind"       = "ServiceAccount"
    "metadata" = {
      "name" = "shippingservice"
    }
  }
}

resource "kubernetes_manifest" "deployment_shippingservice" {
  manifest = {
    "apiVersion" = "apps/v1"
    "kind"       = "Deployment"
    "metadata" = {
      "name" = "shippingservice"
    }
    "spec" = {
      "selector" = {
        "matchLabels" = {
          "app" = "shippingservice"
        }
      }
      "template" = {
        "metadata" = {
          "labels" = {
            "app" = "shippingservice"
          }
        }
        "spec" = {
          "serviceAccountName"            = "shippingservice"
          "terminationGracePeriodSeconds" = 5
          "containers" = [
            {
              "name"  = "server"
              "image" = "us-central1-docker.pkg.dev/google-samples/microservices-demo/shippingservice:v0.10.2"
              "ports" = [
                {
                  "containerPort" = 50051
                },
              ]
              "env" = [
                {
                  "name"  = "PORT"
                  "value" = "50051"
                },
                {
                  "name"  = "DISABLE_PROFILER"
                  "value" = "1"
                },
              ]
              "resources" = {
                "requests" = {
                  "cpu"    = "100m"
                  "memory" = "64Mi"
                }
                "limits" = {
                  "cpu"    = "200m"
                  "memory" = "128Mi"
                }
              }
            },
          ]
        }
      }
    }
  }
}

resource "kubernetes_manifest" "service_shippingservice" {
  manifest = {
    "apiVersion" = "v1"
    "kind"       = "Service"
    "metadata" = {
      "name" = "shippingservice"
    }
    "spec" = {
      "type" = "ClusterIP"
      "ports" = [
        {
          "name"       = "grpc"
          "port"       = 50051
          "targetPort" = 50051
        },
      ]
      "selector" = {
        "app" = "shippingservice"
      }
    }
  }
}
