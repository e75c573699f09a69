--provider
openstack
