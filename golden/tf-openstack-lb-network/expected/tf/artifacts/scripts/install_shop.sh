#!/bin/bash
# Installs the shop and starts it on $PORT (an example script).
set -euo pipefail
echo "shop on port ${PORT}"
