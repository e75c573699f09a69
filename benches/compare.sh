#!/usr/bin/env bash
# Times toscana against OpenStack's tosca-parser and the Puccini wheel on the same generated
# templates and writes the table to docs/performance.md (see benches/compare.py).
#
#   benches/compare.sh                 # 1,000 / 4,000 / 10,000 / 100,000 node templates
#   benches/compare.sh 1000 4000       # only these sizes
#   TOSCANA_BENCH_CAP=150 benches/compare.sh   # give a peer up after 150 s instead of 300
#   benches/compare.sh --only toscana 10000   # toscana alone; the peers' cells come from the
#                                             # last run that measured them (benches/compare.py)
#
# Installs the peers from PyPI into target/bench-venv on first use (the only network use, and
# only from the package registry); builds toscana in release mode.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${TOSCANA_BENCH_VENV:-$PWD/target/bench-venv}"
only=all
if [ "${1:-}" = "--only" ]; then
    only="${2:?--only needs toscana, peers or all}"
    shift 2
fi
if [ "$only" != toscana ] && { [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import toscaparser, puccini.tosca" 2>/dev/null; }; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check tosca-parser==2.15.0 puccini==0.21.0
fi
if [ "$only" != peers ]; then
    cargo build --release --quiet --bin toscana
fi
sizes=()
if [ $# -gt 0 ]; then
    sizes=(--nodes "$@")
fi
python3 benches/compare.py --toscana target/release/toscana --python "$venv/bin/python" \
    --only "$only" --cap "${TOSCANA_BENCH_CAP:-300}" "${sizes[@]}"
