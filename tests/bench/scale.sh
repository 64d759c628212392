#!/usr/bin/env bash
# Scale on the largest real WSDL of the corpora (e-conomic's EconomicWebService: 3.1 MB,
# 1,511 operations): how long `rmm import` and `rmm gen` take (the release binary, built first
# and not timed), what the crate holds, and how long it takes to check and to build (debug,
# default features) once its dependencies are built; then the same for the crate of its first
# OPS operations, for each OPS given, to show how the build grows.
#
# Times are wall clock and CPU (user + system, what grows with the code whatever else the
# machine runs). Writes under $TMPDIR/rmm-scale/ (outside the workspace, so that the crate
# builds as a downstream crate does).
#   bash tests/bench/scale.sh [OPS...]        (default: 100 400)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
wsdl="$root/tests/fixtures/survey/e-conomic-economicwebservice.wsdl"
work="${TMPDIR:-/tmp}/rmm-scale"
sizes=("$@")
[ "${#sizes[@]}" -gt 0 ] || sizes=(100 400)
mkdir -p "$work"
export CARGO_INCREMENTAL=0

cd "$root"
cargo build --release --quiet -p rmm-cli
rmm="${CARGO_TARGET_DIR:-$root/target}/release/rmm"

# Seconds (wall, cpu) of a command, its output discarded.
timed() {
    /usr/bin/time -o "$work/time.txt" -f '%e %U %S' "$@" >/dev/null 2>&1
    awk '{ printf "%.2f %.2f\n", $1, $2 + $3 }' "$work/time.txt"
}

rm -f "$work/full.yaml"
read -r import_wall import_cpu < <(timed "$rmm" import "$wsdl" --skip-unsupported --out "$work/full.yaml")
ops_total=$(awk '/^operations:/ { f = 1 } f && /^  - name:/ { n++ } END { print n }' "$work/full.yaml")
types_total=$(awk '/^types:/ { f = 1 } /^operations:/ { f = 0 } f && /^  - name:/ { n++ } END { print n + 0 }' "$work/full.yaml")
echo "rmm import: ${import_wall} s wall, ${import_cpu} s CPU: $ops_total operations, $types_total classes"

# The spec of the first N operations (all of its classes and enums kept: what no operation
# names is still generated, so the classes do not shrink with it).
subset() {
    awk -v n="$1" '
        /^operations:/ { ops = 1; print; next }
        ops && /^  - name:/ { count++ }
        !ops || count <= n { print }
    ' "$work/full.yaml" >"$work/ops-$1.yaml"
}

# One row: OPS, the spec, the crate directory.
row() {
    local n="$1" spec="$2" crate="$3"
    rm -rf "$crate"
    read -r gen_wall gen_cpu < <(timed "$rmm" gen --spec "$spec" --out "$crate")
    local lines files
    lines=$(cat "$crate/src"/*.rs "$crate/src"/wire/*.rs | wc -l)
    files=$(find "$crate/src" -name '*.rs' | wc -l)
    cp "$root/Cargo.lock" "$crate/Cargo.lock"
    local manifest="$crate/Cargo.toml" target="$work/target"
    # The dependencies first (not timed); then the crate alone, after touching its lib.rs,
    # without incremental compilation (which would reuse the untouched crate's work).
    CARGO_TARGET_DIR="$target" cargo build --quiet --manifest-path "$manifest"
    CARGO_TARGET_DIR="$target" cargo check --quiet --manifest-path "$manifest"
    touch "$crate/src/lib.rs"
    read -r check_wall check_cpu < <(timed env CARGO_TARGET_DIR="$target" cargo check --quiet --manifest-path "$manifest")
    touch "$crate/src/lib.rs"
    read -r build_wall build_cpu < <(timed env CARGO_TARGET_DIR="$target" cargo build --quiet --manifest-path "$manifest")
    printf '| %d | %.2f s | %d lines in %d files | %.1f s (%.1f s CPU) | %.1f s (%.1f s CPU) |\n' \
        "$n" "$gen_wall" "$lines" "$files" "$check_wall" "$check_cpu" "$build_wall" "$build_cpu"
}

echo
echo "| operations | rmm gen | generated | cargo check | cargo build (debug) |"
echo "|---|---|---|---|---|"
for n in "${sizes[@]}"; do
    subset "$n"
    row "$n" "$work/ops-$n.yaml" "$work/crate-$n"
done
row "$ops_total" "$work/full.yaml" "$work/crate-full"
