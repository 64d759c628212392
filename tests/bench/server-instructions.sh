#!/usr/bin/env bash
# Instructions a request of each whole server, rmm's and gSOAP's, side by side: the release
# echo server (`generated/examples/echo_server.rs`: hyper, tokio, routing, the generated call)
# and gSOAP's server of the same WSDL (tests/bench/gsoap/mobile_server.c), each run under
# callgrind and sent the captured SOAP 1.1 client sample of an operation N and 3N times over one
# keep-alive connection; the difference over 2N is one request's instructions, start-up left
# out. Counted, not timed: the figures do not move with the machine's load. After the table,
# where rmm's instructions go: each step's instructions a request (the functions' inclusive
# counts, the same difference), the rest being hyper's and tokio's own work and the system calls.
# Then the JSON face: the script service's server (`tests/src/bin/script_server.rs`, the
# generated `ScriptServiceServer` with `ScriptEcho`) sent `EchoPoints` of 10 points as ASP.NET
# AJAX posts it (the load bench's `script-json` call), counted the same way.
#   bash tests/bench/server-instructions.sh [N]          (default 500)
# Needs valgrind and python3 (the client); builds gSOAP's server first
# (bash tests/bench/gsoap/install.sh installs gSOAP).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
n="${1:-500}"
command -v valgrind >/dev/null || { echo "valgrind is needed (Debian package valgrind)" >&2; exit 1; }
cargo build --release --quiet -p rmm-mobile --example echo_server
cargo build --release --quiet -p rmm-tests --bin script_server
bash tests/bench/gsoap/build-server.sh >/dev/null
rmm="${CARGO_TARGET_DIR:-$root/target}/release/examples/echo_server"
script="${CARGO_TARGET_DIR:-$root/target}/release/script_server"
gsoap="$root/target/bench/gsoap/mobile_server"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The request body of a recorded exchange: what follows the request's blank line.
body() {
    awk '/^### ==== REQUEST/ {inside = 1; next} /^### ==== RESPONSE/ {inside = 0}
         inside && body {print} inside && /^\r?$/ {body = 1}' "$1" | tr -d '\r' | head -c -1
}

# Sends the request N times over one connection to 127.0.0.1:PORT, reading each answer whole:
# a SOAP 1.1 call of ACTION, or (ACTION `json:PATH`) a JSON call posted to PATH.
send() {
    python3 - "$1" "$2" "$3" "$4" <<'PY'
import socket, sys
port, count, action, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
body = open(path, "rb").read()
if action.startswith("json:"):
    head = ("POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            "Content-Type: application/json; charset=utf-8\r\n"
            "Content-Length: %d\r\n\r\n" % (action[5:], len(body))).encode()
else:
    head = ("POST /api/rmm/MobileService.asmx HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            "Content-Type: text/xml; charset=utf-8\r\nSOAPAction: \"%s\"\r\n"
            "Content-Length: %d\r\n\r\n" % (action, len(body))).encode()
s = socket.create_connection(("127.0.0.1", port))
s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
for _ in range(count):
    s.sendall(head + body)
    data = b""
    while b"\r\n\r\n" not in data:
        data += s.recv(65536)
    header, rest = data.split(b"\r\n\r\n", 1)
    length = [int(l.split(b":")[1]) for l in header.split(b"\r\n") if l.lower().startswith(b"content-length:")][0]
    while len(rest) < length:
        chunk = s.recv(65536)
        if not chunk:
            sys.exit("the server closed the connection")
        rest += chunk
    if not header.startswith(b"HTTP/1.1 200"):
        sys.exit("not 200: " + header.decode(errors="replace"))
s.close()
PY
}

# Instructions of one run of SERVER (a command taking the port last) answering COUNT requests.
count() {
    local port out pid
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    out="$work/callgrind.log"
    if [ "$1" = rmm ]; then
        valgrind --tool=callgrind --callgrind-out-file="$work/rmm-$2.cg" "$rmm" --listen "127.0.0.1:$port" >"$out" 2>&1 &
    elif [ "$1" = script ]; then
        valgrind --tool=callgrind --callgrind-out-file=/dev/null "$script" --listen "127.0.0.1:$port" >"$out" 2>&1 &
    else
        valgrind --tool=callgrind --callgrind-out-file=/dev/null "$gsoap" "$port" >"$out" 2>&1 &
    fi
    pid=$!
    for _ in $(seq 600); do
        grep -q "listening on" "$out" 2>/dev/null && break
        sleep 0.1
    done
    send "$port" "$2" "$3" "$4"
    kill -TERM "$pid"
    wait "$pid" 2>/dev/null || true
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$out"
}

echo "| operation | rmm (echo server) | gSOAP 2.8 | gSOAP / rmm |"
echo "|---|---:|---:|---:|"
declare -A steps
for op in 10:MobileAccountSearch 01:MobileTaskCreate; do
    number="${op%%:*}" name="${op#*:}"
    body "tests/fixtures/asmx/soap11-op$number-client-sample.txt" >"$work/body.xml"
    action="http://rmm.example.com/mobile/$name"
    declare -A per
    for server in rmm gsoap; do
        one=$(count "$server" "$n" "$action" "$work/body.xml")
        three=$(count "$server" $((3 * n)) "$action" "$work/body.xml")
        per[$server]=$(((three - one) / (2 * n)))
    done
    printf '| %s | %s | %s | %.1f× |\n' "$name" "${per[rmm]}" "${per[gsoap]}" \
        "$(python3 -c "print(${per[gsoap]} / ${per[rmm]})")"
    callgrind_annotate --inclusive=yes --threshold=100 "$work/rmm-$n.cg" >"$work/$name.one" 2>/dev/null
    callgrind_annotate --inclusive=yes --threshold=100 "$work/rmm-$((3 * n)).cg" >"$work/$name.three" 2>/dev/null
    steps[$name]=$(python3 - "$work/$name.one" "$work/$name.three" "$n" "${per[rmm]}" <<'PY'
import re, sys
one, three, n, total = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
# Each step by the function that does it (release symbols; the first line naming it).
steps = [
    ("hyper reads the request's head", r"hyper::proto::h1::io::Buffered<T,B>::parse\b", 0),
    ("the generated server's tower call", r"MobileServiceServer<S> as tower_service::Service<.*>>::call::\{\{closure\}\}", 0),
    ("routing by SOAPAction", r"rmm_runtime::server::route::route_by_action\b", 1),
    ("decoding the request", r"::decode_request\b", 1),
    ("the echo service", r"as rmm_mobile::server::MobileService>::", 1),
    ("encoding the answer", r"rmm_mobile::server::respond\b", 1),
    ("hyper writes the answer's head", r"hyper::proto::h1::conn::Conn<I,B,T>::write_head\b", 0),
]
def counts(path):
    lines = open(path, encoding="utf-8", errors="replace").read().splitlines()
    found = {}
    for label, pattern, _ in steps:
        for line in lines:
            m = re.match(r"\s*([\d,]+) ", line)
            if m and re.search(pattern, line):
                found[label] = int(m.group(1).replace(",", ""))
                break
    return found
a, b = counts(one), counts(three)
per = {label: (b[label] - a[label]) // (2 * n) for label, _, _ in steps if label in a and label in b}
inner = 0
for label, _, depth in steps:
    if label not in per:
        continue
    print(("    of which " if depth else "") + f"{label}: {per[label]}")
    inner += per[label] if depth == 0 else 0
print(f"the rest (hyper's and tokio's own work, the system calls): {total - inner}")
print(f"the whole request: {total}")
PY
)
done
# The JSON face: EchoPoints of 10 points (the load bench's call).
python3 - >"$work/points.json" <<'PY'
points = ['{"X":%d,"Y":%d,"Name":"point %d \\u00e9","When":"\\/Date(%d)\\/"}'
          % (i, -i * 7, i, 1234567890123 + i * 86400000) for i in range(10)]
print('{"value":[%s]}' % ",".join(points), end="")
PY
one=$(count script "$n" "json:/api/rmm/ScriptService.asmx/EchoPoints" "$work/points.json")
three=$(count script $((3 * n)) "json:/api/rmm/ScriptService.asmx/EchoPoints" "$work/points.json")
printf '| EchoPoints (JSON, script service) | %s | | |\n' "$(((three - one) / (2 * n)))"
echo
for name in MobileAccountSearch MobileTaskCreate; do
    echo "rmm's $name, instructions a request by step:"
    echo "${steps[$name]}" | sed 's/^/  /'
done
