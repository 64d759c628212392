#!/usr/bin/env bash
# rmm outside its repository, as a user has it: from scratch directories outside the checkout.
#
# 1. rmm-runtime, rmm-codegen, rmm-shadow and rmm-cli pass `cargo publish --dry-run`, which packages each
#    (target/package/NAME-VERSION/: the normalized sources a registry serves) and builds it
#    from the package alone.
# 2. The README's quick start, exactly as written (tests/outside/quickstart.py reads its
#    `<!-- quick start -->` sections and runs each command and file as they are): `git clone`
#    of rmm (git's url.insteadOf points the README's URL at this checkout),
#    `cargo install --locked --path rmm/cli`, `rmm import` of the public calculator's ?WSDL,
#    `rmm gen`, `cargo run` of a client that prints 2 + 3 = 5, the server that replaces it
#    called by that client and checked by `rmm diff`, and a build script's crate. The public
#    calculator is the reference ASMX host's CalculatorService.cs, reached as the quick start
#    reaches www.dneonline.com, through an HTTP proxy (`http_proxy`, which reqwest follows; cargo
#    reaches crates.io over HTTPS, which `http_proxy` does not touch). No registry is patched:
#    the generated crate takes rmm-runtime from the clone, by version and path, as a user's does.
#    The time of each command is printed at the end.
#    Then the examples (examples/): calculator-client calls the host's calculator, and
#    examples/shadow/run.sh puts `rmm shadow` in front of it with calculator-server as the
#    candidate: every answer the same. Then `rmm mock` of seven real services' WSDLs, each
#    judged by the host: the same WSDL made a service of the host by Mono's `wsdl -server`,
#    every method answering default(T) (tests/interop/asmx/mock_service.py); every operation
#    asked over SOAP 1.1 and 1.2 with its parameters absent, the same bytes wanted
#    (mock_judge.py).
# 3. After publishing: `rmm import` of the objects reference host's live ?WSDL (its typed
#    DataSet's schema fetched from ?schema=ShopDs), `rmm gen --runtime-registry` and
#    `cargo build` of the crate, which depends on rmm-runtime by version alone; `rmm diff` of
#    the crate against that host: 0; of a spec with an operation renamed: 1, naming it. Then a
#    crate that generates its service in its build script (tests/build-rs's, copied),
#    depending on rmm-codegen and rmm-runtime by version: `cargo test` has its client call its
#    server on every binding. Their workspace takes rmm-runtime and rmm-codegen from a local
#    registry made of the packages of step 1 (registry.py: a git index, the .crate files, their
#    checksums), which `[patch.crates-io]` puts in crates.io's place for those two: what a
#    registry user will download, nothing of the checkout's tree.
# Compiled dependencies are shared with the checkout's target/.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
# A scratch directory of its own is removed at the end (its builds take a gigabyte or two);
# one given in RMM_OUTSIDE_DIR is kept, to look at.
if [ -n "${RMM_OUTSIDE_DIR:-}" ]; then
    scratch="$RMM_OUTSIDE_DIR"
    keep=1
else
    scratch="$(mktemp -d /tmp/rmm-outside.XXXXXX)"
    keep=0
fi
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
run="$scratch/asmx-run"

step() { printf '\n== outside: %s\n' "$*"; }

step "publish --dry-run (packages in $CARGO_TARGET_DIR/package)"
# Cargo verifies each package against the others through a local registry of them, and keeps
# what it unpacks from there by version: a package of the same version made before is taken
# again. The copies of this version's crates from earlier runs go first (only those: not the
# crates.io sources).
version="$(sed -n 's/^version = "\(.*\)"$/\1/p' "$root/runtime/Cargo.toml" | head -1)"
cargo_home="${CARGO_HOME:-$HOME/.cargo}"
for dir in "$cargo_home"/registry/src/*/; do
    case "$(basename "$dir")" in index.crates.io-*) continue ;; esac
    for name in rmm-runtime rmm-codegen rmm-shadow rmm-cli; do
        rm -rf "${dir}${name}-$version"
    done
done
rm -rf "$CARGO_TARGET_DIR/package"
# Its builds of them in a target directory of their own, fresh: a registry crate's build is
# kept by version too.
rm -rf "$scratch/publish-target"
(cd "$root" && CARGO_TARGET_DIR="$scratch/publish-target" \
    cargo publish --dry-run --allow-dirty -p rmm-runtime -p rmm-codegen -p rmm-shadow -p rmm-cli)
cp -r "$scratch/publish-target/package" "$CARGO_TARGET_DIR/package"
package="$CARGO_TARGET_DIR/package"

step "a local registry of rmm-runtime and rmm-codegen"
# The .crate files the dry run made and verified (where in target/package depends on cargo's
# version: tmp-crate/ when several packages are published at once).
crate_file() {
    find "$package" -name "$1-$version.crate" -not -path '*/tmp-registry/*' | head -1 | grep .
}
index="$(python3 "$here/registry.py" "$scratch/registry" \
    "$(crate_file rmm-runtime)" "$(crate_file rmm-codegen)")"
# Cargo keeps what it fetches from a registry under CARGO_HOME, in directories named after
# the index's URL (new for each scratch directory): the ones this run adds go at the end.
registry_dirs() { ls -d "$cargo_home"/registry/{index,cache,src}/*/ 2>/dev/null | sort; }
registry_dirs >"$scratch/registry-dirs.before"

step "the objects reference host, and the judges of rmm mock"
# Real public services' WSDLs (tests/fixtures/wild/) that `rmm mock` serves, each also made a
# service of the host answering default(T) (start.sh, mock_service.py).
mock_wsdls="dneonline-calculator webservicex-convert-temperature cdyne-weather lavasoft-geoip
    mnb-arfolyam-service webxml-weather taxcloud"
ASMX_MOCK_WSDLS="$(for w in $mock_wsdls; do printf '%s ' "$root/tests/fixtures/wild/$w.wsdl"; done)" \
    ASMX_RUN_DIR="$run" "$root/tests/interop/asmx/start.sh" >"$scratch/host.url"
quickstart_group=""
cleanup() {
    # The quick start's servers (`cargo run --example server &`): its whole process group.
    if [ -n "$quickstart_group" ]; then kill -TERM -- "-$quickstart_group" 2>/dev/null || true; fi
    ASMX_RUN_DIR="$run" "$root/tests/interop/asmx/stop.sh" >/dev/null 2>&1 || true
    registry_dirs | comm -13 "$scratch/registry-dirs.before" - | xargs -r rm -rf
    if [ "$keep" = 0 ]; then rm -rf "$scratch"; fi
}
trap cleanup EXIT
base="$(cat "$scratch/host.url")"

step "the README's quick start, as written (in $scratch/quickstart)"
mkdir -p "$scratch/quickstart" "$scratch/install"
for port in 8080; do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
        echo "port $port, which the quick start's server takes, is in use" >&2
        exit 1
    fi
done
# In a session of its own, so that its background server is stopped with it (by its group).
set +e
GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0="url.$root.insteadOf" \
    GIT_CONFIG_VALUE_0="https://github.com/rmm-asmx/rmm" \
    CARGO_INSTALL_ROOT="$scratch/install" PATH="$scratch/install/bin:$PATH" \
    http_proxy="$base" no_proxy="127.0.0.1,localhost" \
    setsid python3 "$here/quickstart.py" "$root/README.md" "$scratch/quickstart" &
quickstart_group=$!
wait "$quickstart_group"
status=$?
set -e
echo "the quick start's commands, each with its time:"
cat "$scratch/quickstart/quickstart.times"
[ "$status" = 0 ] || { echo "the README's quick start failed (exit $status)" >&2; exit 1; }
kill -TERM -- "-$quickstart_group" 2>/dev/null || true
quickstart_group=""
rmm="$scratch/install/bin/rmm"

step "the examples: calculator-client on the host's calculator, and the shadow example"
(cd "$root" && cargo build --quiet --locked -p calculator-client -p calculator-server)
"$CARGO_TARGET_DIR/debug/calculator-client" "$base" | tee "$scratch/client.txt"
for want in "2 + 3 = 5" "6 * 7 = 42" "1 / 0: a Server fault"; do
    grep -qxF "$want" "$scratch/client.txt" || { echo "calculator-client did not print: $want" >&2; exit 1; }
done
# The host is the legacy calculator, calculator-server the candidate: every answer the same,
# the fault of a division by zero included (Fault::exception).
RMM="$rmm" bash "$root/examples/shadow/run.sh" "$base" | tee "$scratch/shadow.txt"
for want in "Add over soap11: 1 identical, 0 different, 0 failed" \
    "Multiply over soap12: 1 identical, 0 different, 0 failed" \
    "Divide over soap11: 1 identical, 0 different, 0 failed"; do
    grep -qF "$want" "$scratch/shadow.txt" || { echo "the shadow example did not report: $want" >&2; exit 1; }
done

# Starts `rmm mock` of the wild WSDL $1 answering $2 (default, sample, echo) on a free port;
# sets mock_pid and mock_url. The mock's directory is the WSDL's: a second answer rebuilds
# only the mock's binary.
start_mock() {
    local port
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
    "$rmm" mock "$root/tests/fixtures/wild/$1.wsdl" --answer "$2" --listen "127.0.0.1:$port" \
        --dir "$scratch/mocks/$1" >"$scratch/mock-$1-$2.log" 2>&1 &
    mock_pid=$!
    mock_url="http://127.0.0.1:$port"
    for _ in $(seq 1 600); do
        if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then return 0; fi
        kill -0 "$mock_pid" 2>/dev/null || break
        sleep 0.5
    done
    echo "rmm mock of $1 ($2) did not listen:" >&2
    cat "$scratch/mock-$1-$2.log" >&2
    kill "$mock_pid" 2>/dev/null || true
    exit 1
}

# rmm mock runs the mock in its own place: its PID is the mock's.
stop_mock() {
    kill "$mock_pid" 2>/dev/null || true
    wait "$mock_pid" 2>/dev/null || true
}

step "rmm mock, judged by the host: each WSDL's default answers, SOAP 1.1 and 1.2; then its samples"
for w in $mock_wsdls; do
    start_mock "$w" default
    judged=0
    python3 "$here/mock_judge.py" "$root/tests/fixtures/wild/$w.wsdl" "$base/mock/$w.asmx" \
        "$mock_url" || judged=$?
    stop_mock
    [ "$judged" = 0 ] || { echo "rmm mock of $w answers otherwise than the host" >&2; exit 1; }
    # --answer sample: every answer a 200 other than the host's default(T), but a void
    # operation's.
    start_mock "$w" sample
    judged=0
    python3 "$here/mock_judge.py" --sample "$root/tests/fixtures/wild/$w.wsdl" "$base/mock/$w.asmx" \
        "$mock_url" || judged=$?
    stop_mock
    [ "$judged" = 0 ] || { echo "rmm mock --answer sample of $w answers a default or a fault" >&2; exit 1; }
done

step "rmm mock --answer echo: the calculator's Add answers its first parameter"
start_mock dneonline-calculator echo
echoed="$(python3 - "$mock_url/calculator.asmx" <<'PY'
import sys, urllib.request
body = (b'<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">'
        b'<soap:Body><Add xmlns="http://tempuri.org/"><intA>7</intA><intB>3</intB></Add></soap:Body></soap:Envelope>')
request = urllib.request.Request(sys.argv[1], data=body, headers={
    "Content-Type": "text/xml; charset=utf-8", "SOAPAction": '"http://tempuri.org/Add"'})
print(urllib.request.urlopen(request, timeout=60).read().decode())
PY
)"
stop_mock
case "$echoed" in
    *"<AddResult>7</AddResult>"*) echo "echoed: $echoed" ;;
    *) echo "rmm mock --answer echo did not echo intA: $echoed" >&2; exit 1 ;;
esac

mkdir -p "$scratch/published/crates"
cd "$scratch/published"
cat >Cargo.toml <<TOML
[workspace]
resolver = "2"
members = ["crates/*"]

[patch.crates-io]
rmm-runtime = { version = "=$version", registry = "rmm-local" }
rmm-codegen = { version = "=$version", registry = "rmm-local" }
TOML
mkdir -p .cargo
cat >.cargo/config.toml <<TOML
[registries.rmm-local]
index = "$index"
TOML

step "after publishing: the objects host's live WSDL, its crate on the registry's runtime"
"$rmm" import "$base/api/rmm/ObjectsService.asmx?WSDL" --out objects.yaml
"$rmm" gen --spec objects.yaml --out crates/rmm-objects --runtime-registry
grep -q "rmm-runtime = { version = \"$version\"" crates/rmm-objects/Cargo.toml
cargo build --quiet --manifest-path crates/rmm-objects/Cargo.toml
# The runtime it built is the local registry's download.
grep -A2 '^name = "rmm-runtime"$' Cargo.lock | grep -qx "source = \"registry+$index\"" || {
    echo "rmm-runtime was not taken from the local registry ($index):" >&2
    cat Cargo.lock >&2
    exit 1
}
"$rmm" gen --spec objects.yaml --out crates/rmm-objects --runtime-registry --check

step "rmm diff against the live host"
"$rmm" diff crates/rmm-objects "$base/api/rmm/ObjectsService.asmx?WSDL"
sed 's/^  - name: MakeShop$/  - name: MakeShops/' objects.yaml >drifted.yaml
status=0
"$rmm" diff drifted.yaml "$base/api/rmm/ObjectsService.asmx?WSDL" >drift.txt || status=$?
[ "$status" = 1 ] || { echo "rmm diff of a drifted spec: exit $status, want 1" >&2; exit 1; }
grep -qx "operation MakeShops: in the spec, not offered by the service" drift.txt
grep -qx "operation MakeShop: offered by the service, not in the spec" drift.txt
# The script service's JSON face, which only the live /js shows: its spec agrees (0); with
# Greet's UseHttpGet gone from the spec, the verb is named (1).
"$rmm" diff "$root/tests/script/rmm-spec.yaml" "$base/api/rmm/ScriptService.asmx?WSDL"
sed 's/^      get: true$/      get: false/' "$root/tests/script/rmm-spec.yaml" >drifted-script.yaml
status=0
"$rmm" diff drifted-script.yaml "$base/api/rmm/ScriptService.asmx?WSDL" >drift.txt || status=$?
[ "$status" = 1 ] || { echo "rmm diff of a drifted script spec: exit $status, want 1" >&2; exit 1; }
grep -qx "operation Greet: called over JSON with POST in the spec, with GET by the service (\[ScriptMethod(UseHttpGet)\])" drift.txt

step "a build script's crate"
greeter="$scratch/published/crates/greeter"
mkdir -p "$greeter/src" "$greeter/tests"
cp "$root/tests/build-rs/rmm-spec.yaml" "$root/tests/build-rs/build.rs" "$greeter/"
cp "$root/tests/build-rs/src/lib.rs" "$greeter/src/"
sed 's/rmm_build_rs/greeter/g' "$root/tests/build-rs/tests/loopback.rs" >"$greeter/tests/loopback.rs"
cat >"$greeter/Cargo.toml" <<TOML
[package]
name = "greeter"
version = "0.1.0"
edition = "2021"

[dependencies]
rmm-runtime = { version = "$version", features = ["client", "server"] }

[build-dependencies]
rmm-codegen = "$version"

[dev-dependencies]
tokio = { version = "1", features = ["rt-multi-thread"] }
TOML
cargo test --quiet --manifest-path "$greeter/Cargo.toml"

step "a mistake in a build script's spec: the build fails, naming it once"
sed -i 's/^    result: int$/    result: integer/' "$greeter/rmm-spec.yaml"
status=0
cargo build --manifest-path "$greeter/Cargo.toml" 2>"$scratch/bad-build.txt" || status=$?
[ "$status" != 0 ] || { echo "a bad spec built" >&2; exit 1; }
count="$(grep -c 'rmm-spec.yaml:17:13: operation "Add" has unknown result type "integer"' "$scratch/bad-build.txt" || true)"
[ "$count" = 1 ] || {
    echo "the spec's mistake is shown $count times, not once:" >&2
    cat "$scratch/bad-build.txt" >&2
    exit 1
}

step "done: rmm outside its repository"
