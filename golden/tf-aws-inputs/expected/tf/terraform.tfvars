admin_cidrs = ["10.0.0.0/8", "192.168.0.0/16"]
environment = "staging"
