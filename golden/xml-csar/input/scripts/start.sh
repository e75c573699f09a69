#!/bin/sh
set -e
echo "starting the shop"
