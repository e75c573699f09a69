#!/bin/bash
set -euo pipefail
echo "install and start collectd"
