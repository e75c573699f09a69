#!/bin/sh
set -e
apt-get update
apt-get install -y wordpress
ln -sfn /usr/share/wordpress /var/www/html/wordpress
