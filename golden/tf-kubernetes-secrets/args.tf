--provider
kubernetes
