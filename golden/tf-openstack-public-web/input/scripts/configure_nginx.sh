#!/bin/sh
set -eu
sed -i "s/listen 80 default_server;/listen ${HTTP_PORT} default_server;/" /etc/nginx/sites-available/default
systemctl reload nginx
