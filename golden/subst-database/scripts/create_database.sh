#!/bin/sh
# Creates the database.
