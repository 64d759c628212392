#!/usr/bin/env bash
# Instructions per call of each wire step of SOAP 1.1 MobileTaskCreate and MobileAccountSearch
# and of the whole server path (`handle`: routing, decoding, the echo, encoding), and of the
# four steps of the objects service's EchoOrder with 100 lines (classes read straight from the message),
# counted by callgrind
# (repeatable whatever else the machine runs, unlike wall-clock time): the example is run
# with N and 2N iterations and the difference divided by N, so start-up is not counted.
# Beside them, if it is built, gSOAP's driver's four steps on the same EchoOrder envelopes.
#   bash tests/bench/instructions.sh [N]
set -euo pipefail
cd "$(dirname "$0")/../.."
n="${1:-2000}"
command -v valgrind >/dev/null || { echo "valgrind is needed (Debian package valgrind)" >&2; exit 1; }
cargo build --release --quiet -p rmm-tests --example wire_instructions
bin="${CARGO_TARGET_DIR:-target}/release/examples/wire_instructions"
count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$1" "$2" "$3" 2>&1 \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
for op in task-create account-search; do
    for step in encode_request decode_request encode_response decode_response handle; do
        one=$(count "$op" "$step" "$n")
        two=$(count "$op" "$step" $((2 * n)))
        echo "$op $step: $(((two - one) / n)) instructions per call"
    done
done
# A 12 KiB message of classes: fewer iterations count as precisely.
m=$(((n + 9) / 10))
for step in encode_request decode_request encode_response decode_response; do
    one=$(count echo-order "$step" "$m")
    two=$(count echo-order "$step" $((2 * m)))
    echo "echo-order $step: $(((two - one) / m)) instructions per call"
done
# gSOAP's driver on the same two envelopes, if it is built (`bash tests/bench/gsoap/install.sh
# && bash tests/bench/gsoap/build.sh`): each step's function counted alone
# (`--toggle-collect`), with M and 2M iterations as above; `soap_end`, which frees what a
# decode made, is called apart and not counted.
gsoap="$(pwd)/target/bench/gsoap/driver"
if [ -x "$gsoap" ]; then
    work="$(mktemp -d)"
    trap 'rm -rf "$work"' EXIT
    RMM_ENVELOPES_DIR="$work" "$bin" echo-order decode_request 1
    gcount() {
        (cd "$work" && valgrind --tool=callgrind --callgrind-out-file=/dev/null \
            --toggle-collect="$1" "$gsoap" request.xml response.xml "$2" 1 2>&1 >/dev/null) \
            | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
    }
    for step in encode_request decode_request encode_response decode_response; do
        # The driver runs each step once to check it, then twice (a warm-up and one run)
        # ITERATIONS times: M more iterations are 2M more calls.
        one=$(gcount "$step" "$m")
        two=$(gcount "$step" $((2 * m)))
        echo "gsoap echo-order $step: $(((two - one) / (2 * m))) instructions per call"
    done
else
    echo "gSOAP's driver is not built (bash tests/bench/gsoap/build.sh): its counts are left out"
fi
