#!/bin/bash
set -euo pipefail
cd /opt/app
nohup node server.js > /var/log/app.log 2>&1 &
