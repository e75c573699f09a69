golden/tf-kubernetes-webapp/input/main.yaml:71:5: node `data_disk`: k8s does not translate property `name`
