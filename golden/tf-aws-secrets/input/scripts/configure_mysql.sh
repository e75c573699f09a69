#!/bin/sh
set -eu
# root_password and port come from the environment (the step's env file).
mysql -u root -e "ALTER USER 'root'@'localhost' IDENTIFIED BY '${root_password}';"
sed -i "s/^port.*/port = ${port}/" /etc/mysql/mysql.conf.d/mysqld.cnf
systemctl restart mysql
