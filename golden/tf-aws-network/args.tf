--provider
aws
