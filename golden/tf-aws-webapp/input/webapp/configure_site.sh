#!/bin/sh
# Serves a home page for SITE_NAME on HTTP_PORT from the data disk.
set -eu
mkdir -p /srv/www
printf '<h1>%s</h1>\n' "$SITE_NAME" > /srv/www/index.html
cat > /etc/nginx/sites-enabled/default <<CONF
server {
    listen $HTTP_PORT;
    root /srv/www;
}
CONF
systemctl restart nginx
