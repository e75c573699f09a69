resource "kubernetes_config_map_v1" "server_scripts" {
  data = {
    "entrypoint.sh"    = "#!/bin/sh\n# Runs the lifecycle operations of the stack in deployment order, then keeps the\n# container running as the server did.\nset -e\ncd /toscana/files\necho \"toscana: app create\"\nsh 'scripts/install_app.sh'\necho \"toscana: app start\"\nsh 'scripts/start_app.sh'\nexec sleep infinity\n"
    "1-install_app.sh" = "#!/bin/sh\n# Installs the application (an example script).\nset -eu\necho \"installing app\"\n"
    "2-start_app.sh"   = "#!/bin/sh\n# Starts the application on APP_PORT (an example script).\nset -eu\necho \"starting app on port $APP_PORT\"\n"
  }

  metadata {
    name = "server-scripts"
    labels = {
      "app.kubernetes.io/component"  = "server"
      "app.kubernetes.io/instance"   = "service"
      "app.kubernetes.io/managed-by" = "toscana"
      "app.kubernetes.io/name"       = "server"
    }
    annotations = {
      "toscana.io/node"   = "server"
      "toscana.io/source" = "golden/tf-kubernetes-tosca2/input/service.yaml:40"
    }
    namespace = var.kube_namespace
  }
}

resource "kubernetes_service_v1" "server" {
  metadata {
    name = "server"
    labels = {
      "app.kubernetes.io/component"  = "server"
      "app.kubernetes.io/instance"   = "service"
      "app.kubernetes.io/managed-by" = "toscana"
      "app.kubernetes.io/name"       = "server"
    }
    annotations = {
      "toscana.io/node"   = "server"
      "toscana.io/source" = "golden/tf-kubernetes-tosca2/input/service.yaml:40"
    }
    namespace = var.kube_namespace
  }

  spec {
    type       = "ClusterIP"
    cluster_ip = "None"
    selector = {
      "app.kubernetes.io/instance" = "service"
      "app.kubernetes.io/name"     = "server"
    }
  }
}

resource "kubernetes_stateful_set_v1" "server" {
  metadata {
    name = "server"
    labels = {
      "app.kubernetes.io/component"  = "server"
      "app.kubernetes.io/instance"   = "service"
      "app.kubernetes.io/managed-by" = "toscana"
      "app.kubernetes.io/name"       = "server"
    }
    annotations = {
      "toscana.io/node"         = "server"
      "toscana.io/pod-security" = "baseline"
      "toscana.io/source"       = "golden/tf-kubernetes-tosca2/input/service.yaml:40"
    }
    namespace = var.kube_namespace
  }

  spec {
    replicas     = 1
    service_name = kubernetes_service_v1.server.metadata[0].name

    selector {
      match_labels = {
        "app.kubernetes.io/instance" = "service"
        "app.kubernetes.io/name"     = "server"
      }
    }

    template {
      metadata {
        labels = {
          "app.kubernetes.io/component"  = "server"
          "app.kubernetes.io/instance"   = "service"
          "app.kubernetes.io/managed-by" = "toscana"
          "app.kubernetes.io/name"       = "server"
          "network.toscana.io/net"       = "member"
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
          name    = "server"
          image   = "ubuntu:22.04"
          command = ["/bin/sh", "/toscana/entrypoint.sh"]

          env {
            name  = "APP_PORT"
            value = tostring(var.app_port)
          }

          env {
            name  = "DEBIAN_FRONTEND"
            value = "noninteractive"
          }

          resources {
            limits = {
              cpu    = "2"
              memory = "8G"
            }
            requests = {
              cpu    = "2"
              memory = "8G"
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

          volume_mount {
            name       = "data"
            mount_path = "/var/lib/app"
          }
        }

        volume {
          name = "scripts"

          config_map {
            name         = kubernetes_config_map_v1.server_scripts.metadata[0].name
            default_mode = "0555"

            items {
              key  = "entrypoint.sh"
              path = "entrypoint.sh"
            }

            items {
              key  = "1-install_app.sh"
              path = "files/scripts/install_app.sh"
            }

            items {
              key  = "2-start_app.sh"
              path = "files/scripts/start_app.sh"
            }
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
            storage = "50Gi"
          }
        }
      }
    }
  }
}

resource "kubernetes_network_policy_v1" "net" {
  metadata {
    name = "net"
    labels = {
      "app.kubernetes.io/component"  = "network"
      "app.kubernetes.io/instance"   = "service"
      "app.kubernetes.io/managed-by" = "toscana"
      "app.kubernetes.io/name"       = "net"
    }
    annotations = {
      "toscana.io/node"   = "net"
      "toscana.io/source" = "golden/tf-kubernetes-tosca2/input/service.yaml:65"
    }
    namespace = var.kube_namespace
  }

  spec {
    policy_types = ["Ingress"]

    pod_selector {
      match_labels = {
        "network.toscana.io/net" = "member"
      }
    }

    ingress {
      from {
        pod_selector {
          match_labels = {
            "network.toscana.io/net" = "member"
          }
        }
      }
    }
  }
}
