#!/bin/sh
set -eu
echo "install_app"
