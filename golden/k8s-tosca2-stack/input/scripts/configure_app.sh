#!/bin/sh
set -eu
echo "configure_app"
