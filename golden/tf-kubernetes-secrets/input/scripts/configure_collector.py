#!/usr/bin/python3
"""Writes the collector's configuration from its inputs, read from the environment."""
import json
import os

config = {"token": os.environ["API_TOKEN"], "database": "127.0.0.1:" + os.environ["DB_PORT"]}
with open("/etc/collector.json", "w", encoding="utf-8") as out:
    json.dump(config, out)
