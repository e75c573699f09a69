#!/bin/sh
# Listens on the server's own address and the port the template gives.
set -e
cat > /etc/mysql/mysql.conf.d/zz-toscana.cnf <<CNF
[mysqld]
bind-address = $db_bind_address
port = $db_port
CNF
