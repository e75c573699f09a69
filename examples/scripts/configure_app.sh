#!/bin/sh
# Configures the hello application with its database password.
set -eu
test -n "${db_password:-}"
echo "configured"
