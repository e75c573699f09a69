#!/bin/sh
set -eu
echo "start_app"
