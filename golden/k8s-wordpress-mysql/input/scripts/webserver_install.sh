#!/bin/sh
# Apache with PHP, as WordPress needs it.
set -e
apt-get update
apt-get install -y apache2 libapache2-mod-php php-mysql
