#!/usr/bin/env bash
# Large messages, 1, 10 and 100 MB over real HTTP, each run in a process of its own (release
# build), both ends in that process:
#   - the client's side: an `EchoOrders` response (copies of one order with its lines, tags
#     and matrix, 466 bytes each; the server makes the body as it sends it) read item by item
#     (`call_items`, mode `items`) and whole (`call`, mode `whole`);
#   - the server's side: a `MakeTags` answer of the generated server (tags of about 24 bytes;
#     the reference service streams them with `make_tags_items`), read with `call_items`,
#     sent as it is written (`serve-items`) or made whole first (`serve-whole`); its size is
#     the items' bytes;
#   - a DataSet: a `MakeDataSet` response of one table of three columns (about 125 bytes a
#     row; the server makes the body as it sends it) read row by row (`call_rows`, mode
#     `rows`) and whole (`call`, mode `rows-whole`);
#   - the server's DataSet: `MakeDataSet` of the generated server (the reference service
#     streams its orders, about 524 bytes each, with `make_data_set_rows`), read with
#     `call_rows`, sent as it is written (`serve-rows`) or made whole first
#     (`serve-rows-whole`); its size is the orders' bytes.
# Prints a Markdown table: the time, the rate, and the process's peak RSS (`VmHWM`), which
# holds both ends and the runtime.
#   bash tests/bench/large-response.sh [SIZE_MB...]        (default: 1 10 100)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
sizes=("$@")
[ "${#sizes[@]}" -gt 0 ] || sizes=(1 10 100)
cd "$root"
cargo build --release --quiet -p rmm-tests --example large_response
bin="${CARGO_TARGET_DIR:-$root/target}/release/examples/large_response"

echo "| mode | size | items | time | rate | peak RSS |"
echo "|---|---:|---:|---:|---:|---:|"
for mode in items whole serve-items serve-whole rows rows-whole serve-rows serve-rows-whole; do
    for size in "${sizes[@]}"; do
        read -r _ bytes items seconds rate rss <<<"$("$bin" "$mode" "$size" | sed 's/refused (\(.*\)…)/refused/')"
        printf '| %s | %s MB | %s | %s s | %s MB/s | %s MB |\n' \
            "$mode" "$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }')" "$items" "$seconds" "$rate" "$rss"
    done
done
