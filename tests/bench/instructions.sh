#!/usr/bin/env bash
# Instructions per call of each wire step of SOAP 1.1 MobileTaskCreate and MobileAccountSearch
# and of the whole server path (`handle`: routing, decoding, the echo, encoding), and of the
# four steps of the objects service's EchoOrder with 100 lines (classes read straight from the message),
# counted by callgrind
# (repeatable whatever else the machine runs, unlike wall-clock time): the example is run
# with N and 2N iterations and the difference divided by N, so start-up is not counted.
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
