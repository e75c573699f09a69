#!/bin/sh
# Installs the hello application (an example script: it only shows where scripts go).
set -eu
echo "installing hello"
