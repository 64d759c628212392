#!/usr/bin/env bash
# Large messages: an `EchoOrders` response of 1, 10 and 100 MB (copies of one order with its
# lines, tags and matrix, 466 bytes each) read by the objects client over real HTTP, item by
# item (`call_items`) and whole (`call`), each read in a process of its own (release build).
# Prints a Markdown table: the time, the rate, and the process's peak RSS, which holds the
# server's 16 KiB block and the runtime too.
#   bash tests/bench/large-response.sh [SIZE_MB...]        (default: 1 10 100)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
sizes=("$@")
[ "${#sizes[@]}" -gt 0 ] || sizes=(1 10 100)
cd "$root"
cargo build --release --quiet -p rmm-tests --example large_response
bin="${CARGO_TARGET_DIR:-$root/target}/release/examples/large_response"

echo "| read | size | orders | time | rate | peak RSS |"
echo "|---|---:|---:|---:|---:|---:|"
for size in "${sizes[@]}"; do
    for mode in items whole; do
        read -r _ bytes orders seconds rate rss <<<"$("$bin" "$mode" "$size" | sed 's/refused (\(.*\)…)/refused/')"
        printf '| %s | %s MB | %s | %s s | %s MB/s | %s MB |\n' \
            "$mode" "$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }')" "$orders" "$seconds" "$rate" "$rss"
    done
done
