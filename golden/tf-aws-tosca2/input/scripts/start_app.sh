#!/bin/sh
# Starts the application on APP_PORT (an example script).
set -eu
echo "starting app on port $APP_PORT"
