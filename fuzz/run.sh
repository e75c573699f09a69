#!/usr/bin/env bash
# Runs every fuzz target (or the TARGETs named) for MINUTES minutes each (default 10), seeded with the TOSCA files of
# ../shared/corpus, tests/bad_input, golden/, examples/ and fuzz/seeds/ (the hostile shapes of
# issue 22), and for csar with the CSARs there. A crash, a hang (over 10 s for one input) or more
# than 2 GiB of memory stops the target and leaves the input in fuzz/artifacts/<target>/; make it
# a regression test before fixing it. See fuzz/README.md.
#
# cargo-fuzz needs nightly compiler flags; on a stable toolchain RUSTC_BOOTSTRAP=1 allows them.
# The build goes into $CARGO_TARGET_DIR/fuzz (target/fuzz by default), beside the main build.
set -euo pipefail
cd "$(dirname "$0")"
minutes="${1:-10}"
targets=(yaml tosca csar dot k8s tf)
if [ $# -gt 1 ]; then
    targets=("${@:2}")
fi

if ! command -v cargo-fuzz >/dev/null 2>&1; then
    cargo install cargo-fuzz --locked
fi
export RUSTC_BOOTSTRAP=1

corpus_root="${TOSCANA_CORPUS:-../../shared/corpus}"
seed() {
    local target="$1" dir="corpus/$1"
    mkdir -p "$dir"
    case "$target" in
        csar) find "$corpus_root" ../tests/bad_input -type f \( -name '*.csar' -o -name '*.zip' \) 2>/dev/null ;;
        *)
            find "$corpus_root" ../tests/bad_input ../golden ../examples -type f \( -name '*.yaml' -o -name '*.yml' \) -size -64k 2>/dev/null
            find seeds -type f -name '*.yaml'
            ;;
    esac | while read -r f; do
        cp "$f" "$dir/seed-$(sha1sum "$f" | cut -c1-16)"
    done
}

failed=()
for target in "${targets[@]}"; do
    seed "$target"
    echo "== fuzzing $target for $minutes minute(s)"
    if ! cargo fuzz run --target-dir "${CARGO_TARGET_DIR:-../target}/fuzz" "$target" "corpus/$target" -- \
        -max_total_time=$((minutes * 60)) -timeout=10 -rss_limit_mb=2048 -print_final_stats=1; then
        failed+=("$target")
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzzing found problems in: ${failed[*]} (inputs in fuzz/artifacts/)" >&2
    exit 1
fi
echo "fuzzing found nothing in ${targets[*]} (${minutes} min each)"
