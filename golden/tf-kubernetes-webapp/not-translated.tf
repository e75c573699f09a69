golden/tf-kubernetes-webapp/input/main.yaml:48:5: node `web_vm`: k8s does not translate capability property `os.architecture`
golden/tf-kubernetes-webapp/input/main.yaml:71:5: node `data_disk`: k8s does not translate property `name`
