#!/bin/sh
set -eu
apache2ctl start
