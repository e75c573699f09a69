--provider
aws
--set
site_name=shop
