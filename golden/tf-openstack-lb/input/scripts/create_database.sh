#!/bin/bash
# create_database (an example script).
set -euo pipefail
echo "create_database"
