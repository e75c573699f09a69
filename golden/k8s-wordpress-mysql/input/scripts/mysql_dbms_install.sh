#!/bin/bash
# Installs MySQL with the root password set ahead through debconf (here-strings are bash).
set -e
apt-get update
debconf-set-selections <<< "mysql-server mysql-server/root_password password $db_root_password"
debconf-set-selections <<< "mysql-server mysql-server/root_password_again password $db_root_password"
apt-get install -y mysql-server
