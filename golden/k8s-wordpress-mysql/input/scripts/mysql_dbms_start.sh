#!/bin/sh
set -e
service mysql start
