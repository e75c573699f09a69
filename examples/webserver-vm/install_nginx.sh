#!/bin/sh
# Installs nginx from the distribution's packages.
set -eu
apt-get update
apt-get install -y nginx
