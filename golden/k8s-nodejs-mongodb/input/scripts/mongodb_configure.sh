#!/bin/bash
set -euo pipefail
# Listen on the server's own address, where the application connects.
sed -i "s/^  bindIp: .*/  bindIp: 127.0.0.1,${mongodb_ip}/" /etc/mongod.conf
