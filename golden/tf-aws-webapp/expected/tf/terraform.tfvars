site_name = "shop"
