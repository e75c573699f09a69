#!/bin/sh
# Installs the application (an example script).
set -eu
echo "installing app"
