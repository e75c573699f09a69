#!/bin/sh
set -e
echo "installing the shop"
