#!/usr/bin/env bash
# How a service of real size generates and builds: a spec of OPS operations (default 1,500,
# the largest service of the issue-18 corpus) over CLASSES classes (default 340), each class
# with a nested class, an array of the next class, an array of ints, a string and a nullable
# double, so that the spec holds about as many array types as that service's 338. Every
# operation takes one class and returns an array of another, over SOAP (as ASMX offers
# classes).
#
# Prints the time `cargo xtask gen` takes to write the crate (the release build of xtask,
# built first and not timed), the generated lines, and the time of a `cargo check` of the
# crate once its dependencies are checked.
# Writes under $TMPDIR/rmm-large-service/ (outside the workspace, so that the crate builds as a
# downstream crate does).
#   bash tests/bench/large-service.sh [OPS] [CLASSES]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
ops="${1:-1500}"
classes="${2:-340}"
work="${TMPDIR:-/tmp}/rmm-large-service"
rm -rf "$work/crate"
mkdir -p "$work"
spec="$work/rmm-spec.yaml"

{
    echo "service:"
    echo "  name: LargeService"
    echo "  namespace: http://rmm.example.com/large"
    echo "  path: /api/Large.asmx"
    echo "  crate: rmm-large"
    echo "credentials: []"
    echo "optional_credentials: []"
    echo "secrets: []"
    echo "types:"
    for ((c = 0; c < classes; c++)); do
        next=$(((c + 1) % classes))
        echo "  - name: Class$c"
        echo "    members:"
        echo "      - Id: int"
        echo "      - Name: string"
        echo "      - Rate: double?"
        echo "      - Child: Class$next"
        echo "      - Items: Class$next[]"
        echo "      - Counts: int[]"
    done
    echo "operations:"
    for ((o = 0; o < ops; o++)); do
        echo "  - name: Operation$o"
        echo "    doc: Operation $o."
        echo "    params:"
        echo "      - value: Class$((o % classes))"
        echo "      - count: int"
        echo "    result: Class$(((o + 1) % classes))[]"
        echo "    bindings: [soap11, soap12]"
    done
} >"$spec"

cd "$root"
# Without incremental compilation: the timed check after touching lib.rs would reuse the
# untouched crate's work and time almost nothing.
export CARGO_INCREMENTAL=0
cargo build --release --quiet -p xtask
xtask="${CARGO_TARGET_DIR:-$root/target}/release/xtask"
start=$(date +%s.%N)
"$xtask" gen --spec "$spec" --out "$work/crate" >/dev/null
end=$(date +%s.%N)
gen_s=$(awk "BEGIN { print $end - $start }")
lines=$(cat "$work/crate/src"/*.rs "$work/crate/src"/wire/*.rs | wc -l)
files=$(find "$work/crate/src" -name '*.rs' | wc -l)

# The crate's own check: checked once (its dependencies with it), then again after touching
# its lib.rs, which is what is timed. Copying the workspace's Cargo.lock keeps the dependencies'
# versions those already downloaded.
cp "$root/Cargo.lock" "$work/crate/Cargo.lock"
target="$work/target"
manifest="$work/crate/Cargo.toml"
CARGO_TARGET_DIR="$target" cargo check --quiet --manifest-path "$manifest"
touch "$work/crate/src/lib.rs"
start=$(date +%s.%N)
CARGO_TARGET_DIR="$target" cargo check --quiet --manifest-path "$manifest"
end=$(date +%s.%N)
check_s=$(awk "BEGIN { print $end - $start }")

echo "| operations | classes | cargo xtask gen | generated | cargo check of the crate |"
echo "|---|---|---|---|---|"
printf '| %d | %d | %.2f s | %d lines in %d files | %.1f s |\n' \
    "$ops" "$classes" "$gen_s" "$lines" "$files" "$check_s"
