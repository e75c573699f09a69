#!/bin/bash
set -euo pipefail
exec su postgres -c "/usr/lib/postgresql/14/bin/postgres -D ${PGDATA}"
