#!/bin/sh
set -eu
mkdir -p /var/www/html/wiki
cp files/LocalSettings.php.tmpl /var/www/html/wiki/LocalSettings.php
