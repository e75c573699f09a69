#!/bin/bash
set -euo pipefail
git clone "${github_url}" /opt/app
cd /opt/app
npm install
cat > /opt/app/config.json <<JSON
{ "mongodb": "mongodb://${mongodb_ip}:${mongodb_port}/pizzastore", "port": 3000 }
JSON
