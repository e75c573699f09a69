#!/usr/bin/env bash
# Redraws the diagrams the README shows from the templates in examples/, so they stay current.
# Needs Graphviz (`apt-get install graphviz`). Run from anywhere: docs/diagrams.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet --bin toscana
toscana=target/debug/toscana

draw() { # draw EXAMPLE NAME [FLAGS...]
    local example=$1 name=$2
    shift 2
    "$toscana" dot "examples/$example" --format svg -o "docs/$name.svg" "$@"
    echo "docs/$name.svg"
}

draw hello.yaml hello --legend
draw shop.yaml shop --legend --io
