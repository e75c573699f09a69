resource "kubernetes_config_map_v1" "web_vm_scripts" {
  data = {
    "entrypoint.sh"       = "#!/bin/sh\n# Runs the lifecycle operations of the stack in deployment order, then keeps the\n# container running as the server did.\nset -e\ncd /toscana/files\necho \"toscana: web create\"\nsh 'webapp/install_nginx.sh'\necho \"toscana: web configure\"\nsh 'webapp/configure_site.sh'\nexec sleep infinity\n"
    "1-install_nginx.sh"  = "#!/bin/sh\n# Installs nginx from the distribution's packages.\nset -eu\napt-get update\napt-get install -y nginx\n"
    "2-configure_site.sh" = "#!/bin/sh\n# Serves a home page for SITE_NAME on HTTP_PORT from the data disk.\nset -eu\nmkdir -p /srv/www\nprintf '<h1>%s</h1>\\n' \"$SITE_NAME\" > /srv/www/index.html\ncat > /etc/nginx/sites-enabled/default <<CONF\nserver {\n    listen $HTTP_PORT;\n    root /srv/www;\n}\nCONF\nsystemctl restart nginx\n"
  }

  metadata {
    name = "web-vm-scripts"
    labels = {
      "app.kubernetes.io/component"  = "server"
      "app.kubernetes.io/instance"   = "webapp"
      "app.kubernetes.io/managed-by" = "toscana"
      "app.kubernetes.io/name"       = "web-vm"
    }
    annotations = {
      "toscana.io/node"   = "web_vm"
      "toscana.io/source" = "golden/tf-kubernetes-webapp/input/main.yaml:48"
    }
    namespace = var.kube_namespace
  }
}

resource "kubernetes_service_v1" "web_vm" {
  metadata {
    name = "web-vm"
    labels = {
      "app.kubernetes.io/component"  = "server"
      "app.kubernetes.io/instance"   = "webapp"
      "app.kubernetes.io/managed-by" = "toscana"
      "app.kubernetes.io/name"       = "web-vm"
    }
    annotations = {
      "toscana.io/node"   = "web_vm"
      "toscana.io/source" = "golden/tf-kubernetes-webapp/input/main.yaml:48"
    }
    namespace = var.kube_namespace
  }

  spec {
    type       = "ClusterIP"
    cluster_ip = "None"
    selector = {
      "app.kubernetes.io/instance" = "webapp"
      "app.kubernetes.io/name"     = "web-vm"
    }
  }
}

resource "kubernetes_stateful_set_v1" "web_vm" {
  metadata {
    name = "web-vm"
    labels = {
      "app.kubernetes.io/component"  = "server"
      "app.kubernetes.io/instance"   = "webapp"
      "app.kubernetes.io/managed-by" = "toscana"
      "app.kubernetes.io/name"       = "web-vm"
    }
    annotations = {
      "toscana.io/node"         = "web_vm"
      "toscana.io/pod-security" = "baseline"
      "toscana.io/source"       = "golden/tf-kubernetes-webapp/input/main.yaml:48"
    }
    namespace = var.kube_namespace
  }

  spec {
    replicas     = 1
    service_name = kubernetes_service_v1.web_vm.metadata[0].name

    selector {
      match_labels = {
        "app.kubernetes.io/instance" = "webapp"
        "app.kubernetes.io/name"     = "web-vm"
      }
    }

    template {
      metadata {
        labels = {
          "app.kubernetes.io/component"  = "server"
          "app.kubernetes.io/instance"   = "webapp"
          "app.kubernetes.io/managed-by" = "toscana"
          "app.kubernetes.io/name"       = "web-vm"
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
          name    = "web-vm"
          image   = "ubuntu:24.04"
          command = ["/bin/sh", "/toscana/entrypoint.sh"]

          env {
            name  = "HTTP_PORT"
            value = tostring(var.http_port)
          }

          env {
            name  = "SITE_NAME"
            value = var.site_name
          }

          env {
            name  = "DEBIAN_FRONTEND"
            value = "noninteractive"
          }

          resources {
            limits = {
              cpu               = "2"
              ephemeral-storage = "30G"
              memory            = "4G"
            }
            requests = {
              cpu               = "2"
              ephemeral-storage = "30G"
              memory            = "4G"
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
            name       = "data-disk"
            mount_path = "/srv/www"
          }
        }

        volume {
          name = "scripts"

          config_map {
            name         = kubernetes_config_map_v1.web_vm_scripts.metadata[0].name
            default_mode = "0555"

            items {
              key  = "entrypoint.sh"
              path = "entrypoint.sh"
            }

            items {
              key  = "1-install_nginx.sh"
              path = "files/webapp/install_nginx.sh"
            }

            items {
              key  = "2-configure_site.sh"
              path = "files/webapp/configure_site.sh"
            }
          }
        }
      }
    }

    volume_claim_template {
      metadata {
        name = "data-disk"
      }

      spec {
        access_modes = ["ReadWriteOnce"]

        resources {
          requests = {
            storage = format("%s%s", regex("^\\s*([0-9.]+)", var.data_size)[0], { b = "", kb = "k", kib = "Ki", mb = "M", mib = "Mi", gb = "G", gib = "Gi", tb = "T", tib = "Ti" }[lower(regex("([A-Za-z]*)\\s*$", var.data_size)[0])])
          }
        }
      }
    }
  }
}
