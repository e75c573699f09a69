#!/bin/bash
set -euo pipefail
mongod --config /etc/mongod.conf --fork --logpath /var/log/mongod.log
