#!/bin/sh
# Starts the order service on the port it is given.
exec /opt/shop/bin/service --port "$port"
