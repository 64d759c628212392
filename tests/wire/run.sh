#!/usr/bin/env bash
# Real WSDLs on the wire: each served by `rmm mock` (default answers) and by the reference
# ASMX host, judged byte for byte.
#
#     tests/wire/run.sh [WSDL...]
#
# Without arguments: every WSDL of tests/fixtures/survey/, heldout/ and wild/ of at most
# 1 MB (a larger one is listed as skipped), and a few construct cases (listed below). The
# host (tests/interop/asmx/start.sh) is started once with all of them as mocks: Mono's
# `wsdl -server` of the WSDL, made concrete by mock_service.py (every method answering
# default(T)), at /mock/NAME.asmx; a WSDL it refuses is listed (mock-refused.txt). Then for each WSDL:
#
# 1. `rmm import WSDL` as a whole; where that fails, `rmm import --skip-unsupported` (the
#    operations rmm imports; none when it refuses the WSDL itself).
# 2. `rmm mock --skip-unsupported WSDL` answering defaults, as a user runs it: the operations
#    rmm imports.
# 3. tests/outside/mock_judge.py: each operation of the mock asked over SOAP 1.1 and 1.2 with
#    its parameters absent, of both; status, content type and body the same bytes wanted.
#
# Writes $WIRE_OUT (default target/wire) /results.tsv (one line a WSDL), NAME/ (the specs,
# the mock's directory and log, judge.txt and judge.json: every difference and the first
# bytes where it parts) and summary.md (the tables of tests/fixtures/WIRE.md). Exits 0 when
# no exchange differs.
#
# With WIRE_SAMPLE=1, each also served by `rmm mock --answer sample` and judged by
# mock_judge.py --sample (each answer a 200 of the host's content type, other bytes than the
# host's default but for a void operation): two more columns of results.tsv, sampled and not
# a sample; a WSDL with an answer that is not a sample fails the run too.
#
# With WIRE_ECHO=1, the host also serves each WSDL answering as `rmm mock --answer echo` does
# (mock_service.py --echo, at /echo/NAME.asmx; ASMX_MOCK_ANSWER=echo), and each is served by
# `rmm mock --answer echo` and judged by mock_judge.py --values: each operation asked with
# every parameter carrying a value built from rmm's spec (a parameter of a type the judge
# builds none of left absent, and counted); status, content type and body the same bytes.
# Five more columns of results.tsv: exchanges with values, identical, different, parameters
# left absent, and exchanges whose answer echoes a value; NAME/echo.txt and echo.json; a WSDL
# whose echo answers differ fails the run too.
#
# Environment: RMM, an rmm binary (else `cargo build -p rmm-cli` of $WIRE_SRC, default this
# checkout, under nice); CARGO_TARGET_DIR, shared by every mock so that the runtime builds
# once (default target/wire-build, without incremental builds: they would double its size);
# ASMX_RUN_DIR, the host's run directory (default target/wire-run). Builds run under
# `nice -n 19`.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
src="${WIRE_SRC:-$root}"
out="${WIRE_OUT:-$root/target/wire}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target/wire-build}"
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"
export ASMX_RUN_DIR="${ASMX_RUN_DIR:-$root/target/wire-run}"
max_bytes=1000000
started=$SECONDS

mkdir -p "$out"
: >"$out/results.tsv"
: >"$out/too-large.txt"

# The WSDLs: those given, else every corpus's.
wsdls=()
if [ "$#" -gt 0 ]; then
    for w in "$@"; do wsdls+=("$(cd "$(dirname "$w")" && pwd)/$(basename "$w")"); done
else
    for corpus in survey heldout wild; do
        for w in "$root/tests/fixtures/$corpus/"*.wsdl; do wsdls+=("$w"); done
    done
    # Construct cases whose answers show what no real WSDL's default answers do (a value
    # type's result is written: a renamed bare result, an enum of another namespace), and
    # unq_class (unqualified members of nullable types and classes), whose values the echo
    # pass (WIRE_ECHO=1) judges.
    for case in bare_result_renamed enum_ns unq_class; do
        wsdls+=("$root/tests/fixtures/constructs/$case.wsdl")
    done
fi
kept=()
for w in "${wsdls[@]}"; do
    if [ "$(stat -c %s "$w")" -gt "$max_bytes" ]; then
        echo "wire: $w is over 1 MB: skipped" >&2
        printf '%s\t%s\n' "$(basename "$(dirname "$w")")" "$(basename "$w")" >>"$out/too-large.txt"
    else
        kept+=("$w")
    fi
done

# rmm.
if [ -z "${RMM:-}" ]; then
    (cd "$src" && nice -n 19 cargo build --quiet --locked -p rmm-cli)
    RMM="$CARGO_TARGET_DIR/debug/rmm"
fi

# The host, once, with every WSDL a mock.
cleanup() {
    if [ -n "${mock_pid:-}" ]; then kill "$mock_pid" 2>/dev/null || true; fi
    "$root/tests/interop/asmx/stop.sh" >/dev/null 2>&1 || true
}
trap cleanup EXIT
echo_answer=""
[ "${WIRE_ECHO:-0}" = 1 ] && echo_answer=echo
ASMX_MOCK_WSDLS="${kept[*]}" ASMX_MOCK_ANSWER="$echo_answer" nice -n 19 "$root/tests/interop/asmx/start.sh" \
    >"$out/host.url" 2>"$out/host.log"
base="$(cat "$out/host.url")"
cp "$ASMX_RUN_DIR/mock-refused.txt" "$out/host-refused.txt"
echo "wire: the host at $base serves $(ls "$ASMX_RUN_DIR/site/mock" | wc -l) of ${#kept[@]} WSDLs" \
    "($(wc -l <"$out/host-refused.txt") refused: $out/host-refused.txt)"
if [ -n "$echo_answer" ]; then
    cp "$ASMX_RUN_DIR/echo-refused.txt" "$out/host-echo-refused.txt"
    echo "wire: the host serves $(ls "$ASMX_RUN_DIR/site/echo" | wc -l) echo services" \
        "($(wc -l <"$out/host-echo-refused.txt") refused: $out/host-echo-refused.txt)"
fi

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# Starts `rmm mock $1` (a WSDL or a spec) into the directory $2, answering $3 (default:
# default); sets mock_pid and mock_url, or returns 1 when it does not listen.
start_mock() {
    local port
    port="$(free_port)"
    nice -n 19 "$RMM" mock "$1" --skip-unsupported --answer "${3:-default}" \
        --listen "127.0.0.1:$port" --dir "$2" >"$2.log" 2>&1 &
    mock_pid=$!
    mock_url="http://127.0.0.1:$port"
    for _ in $(seq 1 1800); do
        if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then return 0; fi
        kill -0 "$mock_pid" 2>/dev/null || break
        sleep 0.5
    done
    kill "$mock_pid" 2>/dev/null || true
    wait "$mock_pid" 2>/dev/null || true
    mock_pid=""
    return 1
}

stop_mock() {
    kill "$mock_pid" 2>/dev/null || true
    wait "$mock_pid" 2>/dev/null || true
    mock_pid=""
}

# One line a WSDL: corpus, file, operations, imported (whole|partial|refused), operations
# imported, host (served|refused), exchanges judged, identical, different, skipped exchanges
# (not imported), note, the identical exchanges by status (200:8 500:2); with WIRE_SAMPLE=1,
# the exchanges --answer sample answered with a sample, and those it did not.
result() {
    local IFS=$'\t'
    printf '%s\n' "$*" >>"$out/results.tsv"
}

failed=0
for w in "${kept[@]}"; do
    name="$(basename "$w" .wsdl)"
    corpus="$(basename "$(dirname "$w")")"
    dir="$out/$name"
    rm -rf "$dir"
    mkdir -p "$dir"
    t0=$SECONDS
    ops="$(python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import mock_judge; print(len(mock_judge.operations(sys.argv[2])))' \
        "$root/tests/outside" "$w")"
    # 1. What rmm imports.
    source="$w"
    how=whole
    if ! nice -n 19 "$RMM" import "$w" --force --out "$dir/whole.yaml" >"$dir/import.log" 2>&1; then
        how=partial
        if ! nice -n 19 "$RMM" import "$w" --force --skip-unsupported --out "$dir/rmm-spec.yaml" \
            >>"$dir/import.log" 2>&1; then
            how=refused
        fi
    else
        cp "$dir/whole.yaml" "$dir/rmm-spec.yaml"
    fi
    imported=0
    if [ "$how" != refused ]; then
        imported="$(python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import mock_judge; print(len(mock_judge.spec_operations(sys.argv[2])))' \
            "$root/tests/outside" "$dir/rmm-spec.yaml")"
    fi
    host=served
    [ -f "$ASMX_RUN_DIR/site/mock/$name.asmx" ] || host=refused
    if [ "$how" = refused ]; then
        note="rmm import refuses it: $(grep -m1 -v '^skipped:' "$dir/import.log" | tail -c 300)"
        result "$corpus" "$name" "$ops" "$how" 0 "$host" 0 0 0 0 "$note"
        echo "wire: $corpus/$name: $ops operations; rmm refuses it ($note)"
        continue
    fi
    if [ "$host" = refused ]; then
        note="the host refuses it: $(grep -P "^$name\t" "$out/host-refused.txt" | cut -f2- | tr '\t' ' ')"
        result "$corpus" "$name" "$ops" "$how" "$imported" "$host" 0 0 0 0 "$note"
        echo "wire: $corpus/$name: $ops operations, $imported imported; $note"
        continue
    fi
    # 2. rmm mock.
    if ! start_mock "$source" "$dir/mock"; then
        note="rmm mock did not listen: $(tail -n 3 "$dir/mock.log" | tr '\n\t' '  ' | tail -c 300)"
        result "$corpus" "$name" "$ops" "$how" "$imported" "$host" 0 0 0 0 "$note"
        echo "wire: $corpus/$name: $note"
        failed=1
        continue
    fi
    # 3. The judge.
    status=0
    python3 "$root/tests/outside/mock_judge.py" --spec "$dir/rmm-spec.yaml" --report "$dir/judge.json" \
        "$w" "$base/mock/$name.asmx" "$mock_url" >"$dir/judge.txt" 2>&1 || status=$?
    stop_mock
    if [ ! -s "$dir/judge.json" ]; then
        note="the judge failed (exit $status): $(tail -n 2 "$dir/judge.txt" | tr '\n\t' '  ')"
        result "$corpus" "$name" "$ops" "$how" "$imported" "$host" 0 0 0 0 "$note"
        echo "wire: $corpus/$name: $note"
        failed=1
        continue
    fi
    read -r judged identical different skipped by_status < <(python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print(r["judged"], r["identical"], r["different"], r["skipped"], ",".join(f"{k}:{v}" for k, v in sorted(r["identical_by_status"].items())) or "-")' "$dir/judge.json")
    note=""
    if [ "$different" != 0 ]; then
        failed=1
        note="$(python3 "$here/first_difference.py" "$dir/judge.json")"
    fi
    sampled=() sample_note=""
    if [ "${WIRE_SAMPLE:-0}" = 1 ]; then
        if start_mock "$source" "$dir/mock" sample; then
            python3 "$root/tests/outside/mock_judge.py" --sample --spec "$dir/rmm-spec.yaml" \
                --report "$dir/sample.json" "$w" "$base/mock/$name.asmx" "$mock_url" \
                >"$dir/sample.txt" 2>&1 || true
            stop_mock
        fi
        if [ -s "$dir/sample.json" ]; then
            read -r good bad < <(python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print(r["identical"], r["different"])' "$dir/sample.json")
        else
            good=0 bad="failed"
        fi
        sampled=("$good" "$bad")
        if [ "$bad" != 0 ]; then
            failed=1
            sample_note="; --answer sample: $bad not a sample ($dir/sample.txt)"
        fi
    fi
    echoed=() echo_note=""
    if [ -n "$echo_answer" ]; then
        # The sample columns stay in their place, empty without WIRE_SAMPLE.
        [ "${#sampled[@]}" = 0 ] && sampled=("" "")
        if [ ! -f "$ASMX_RUN_DIR/site/echo/$name.asmx" ]; then
            echoed=(0 0 0 0 0 "the host refuses its echo service: $(grep -P "^$name\t" "$out/host-echo-refused.txt" | cut -f2- | tr '\t' ' ')")
        elif start_mock "$source" "$dir/mock" echo; then
            python3 "$root/tests/outside/mock_judge.py" --values --spec "$dir/rmm-spec.yaml" \
                --report "$dir/echo.json" "$w" "$base/echo/$name.asmx" "$mock_url" \
                >"$dir/echo.txt" 2>&1 || true
            stop_mock
            if [ -s "$dir/echo.json" ]; then
                read -r valued same differ absent echoing < <(python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print(r["valued"], r["identical"], r["different"], r["params_absent"], r["echoing"])' "$dir/echo.json")
                echo_note=""
                if [ "$differ" != 0 ]; then
                    failed=1
                    echo_note="$(python3 "$here/first_difference.py" "$dir/echo.json")"
                fi
                echoed=("$valued" "$same" "$differ" "$absent" "$echoing" "$echo_note")
            else
                failed=1
                echoed=(0 0 failed 0 0 "the judge failed: $(tail -n 2 "$dir/echo.txt" | tr '\n\t' '  ')")
            fi
        else
            failed=1
            echoed=(0 0 failed 0 0 "rmm mock --answer echo did not listen: $(tail -n 3 "$dir/mock.log" | tr '\n\t' '  ' | tail -c 300)")
        fi
        echo_note="; echo: ${echoed[0]} with values, ${echoed[1]} identical, ${echoed[2]} different, ${echoed[3]} parameters absent, ${echoed[4]} echoing${echoed[5]:+: ${echoed[5]}}"
    fi
    result "$corpus" "$name" "$ops" "$how" "$imported" "$host" "$judged" "$identical" "$different" "$skipped" "$note" "$by_status" "${sampled[@]}" "${echoed[@]}"
    echo "wire: $corpus/$name: $ops operations, $imported imported ($how); $judged judged, $identical identical ($by_status), $different different${note:+: $note}${sampled:+; sampled ${sampled[0]}, not a sample ${sampled[1]}}$sample_note$echo_note ($((SECONDS - t0)) s)"
done

python3 "$here/summary.py" "$out" >"$out/summary.md"
cat "$out/summary.md"
echo "wire: $((SECONDS - started)) s in all"
exit "$failed"
