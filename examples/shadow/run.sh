#!/usr/bin/env bash
# rmm's example of proving a replacement on traffic, before the legacy host is switched off:
# `rmm shadow` stands in front of a legacy calculator (the public one at www.dneonline.com
# unless another base URL is given), with calculator-server as its candidate; calculator-client
# calls through it, gets the legacy host's answers, and each is compared with the candidate's.
# Then the report's summary: what agreed, and each difference with its example.
#
#   bash examples/shadow/run.sh [LEGACY_BASE_URL]
#
# Needs `rmm` on PATH (or RMM=/path/to/rmm); builds the two example crates. The report is in
# target/examples/shadow/ (report.html for people, report.json for scripts).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
legacy="${1:-http://www.dneonline.com}"
rmm="${RMM:-rmm}"
target="${CARGO_TARGET_DIR:-$root/target}"
out="$target/examples/shadow"

cargo build --quiet --manifest-path "$root/Cargo.toml" -p calculator-server -p calculator-client
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}
wait_port() {
    for _ in $(seq 1 100); do
        if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
        sleep 0.1
    done
    echo "nothing listens on 127.0.0.1:$1" >&2
    return 1
}

server_port="$(free_port)"
"$target/debug/calculator-server" --listen "127.0.0.1:$server_port" >/dev/null &
server=$!
shadow=""
trap 'kill $server $shadow 2>/dev/null || true' EXIT
wait_port "$server_port"

rm -rf "$out"
shadow_port="$(free_port)"
"$rmm" shadow --listen "127.0.0.1:$shadow_port" --primary "$legacy" \
    --candidate "http://127.0.0.1:$server_port" --report "$out" --report-every 1 &
shadow=$!
wait_port "$shadow_port"

echo "calculator-client through the shadow (the legacy host's answers):"
"$target/debug/calculator-client" "http://127.0.0.1:$shadow_port"

# The comparisons run off the client's path: wait until the report counts the three calls.
for _ in $(seq 1 100); do
    compared="$(python3 -c 'import json, sys
rows = json.load(open(sys.argv[1]))["operations"]
print(sum(r["identical"] + r["noise"] + r["deliberate"] + r["different"] + r["candidate_failed"] for r in rows))' \
        "$out/report.json" 2>/dev/null || echo 0)"
    [ "$compared" -ge 3 ] && break
    sleep 0.2
done
kill -INT "$shadow"
wait "$shadow" || true
shadow=""

python3 - "$out/report.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
print(f"\nrmm shadow: {report['requests']} requests, legacy {report['primary']}, candidate {report['candidate']}")
for row in report["operations"]:
    print(f"  {row['operation']} over {row['binding']}: {row['identical']} identical, "
          f"{row['different']} different, {row['candidate_failed']} failed")
for c in report["classes"]:
    if not c["noise"]:
        print(f"  differs: {c['operation']} over {c['binding']}, {c['field']}: "
              f"{c['example']['primary_value']!r} (legacy) against {c['example']['candidate_value']!r}")
PY
echo "the whole report: $out/report.html"
