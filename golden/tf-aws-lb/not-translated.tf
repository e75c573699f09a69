golden/tf-aws-lb/input/shop.yaml:90:5: node `postgres`: terraform-aws does not translate property `port`
