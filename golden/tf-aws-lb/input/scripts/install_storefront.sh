#!/bin/bash
# install_storefront (an example script).
set -euo pipefail
echo "install_storefront"
