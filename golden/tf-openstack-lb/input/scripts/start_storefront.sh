#!/bin/bash
# start_storefront (an example script).
set -euo pipefail
echo "start_storefront"
