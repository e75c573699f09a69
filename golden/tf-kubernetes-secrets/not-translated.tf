golden/tf-kubernetes-secrets/input/stack.yaml:37:5: node `mysql`: k8s does not translate operation `Standard.create`, operation `Standard.configure`
