golden/tf-openstack-lb/input/shop.yaml:90:5: node `postgres`: terraform-openstack does not translate property `port`
