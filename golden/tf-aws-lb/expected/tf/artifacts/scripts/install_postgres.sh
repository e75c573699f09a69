#!/bin/bash
# install_postgres (an example script).
set -euo pipefail
echo "install_postgres"
