golden/tf-kubernetes-containers/input.yaml:29:5: node `frontend`: k8s does not translate requirement `dependency`
