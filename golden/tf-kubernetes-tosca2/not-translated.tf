golden/tf-kubernetes-tosca2/input/service.yaml:65:5: node `net`: k8s does not translate property `cidr`, property `network_name`
