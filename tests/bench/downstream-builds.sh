#!/usr/bin/env bash
# Cold build time and crate count of a downstream crate that depends on rmm-mobile with
#   default  (client + server, the default features),
#   client   (default-features = false, features = ["client"]),
#   server   (default-features = false, features = ["server"]),
# each built from an empty target directory (the registry's downloads are reused; only the
# compiling is timed). Also says whether hyper's `server` feature and reqwest are compiled.
# Writes everything under target/downstream/ and prints a Markdown table.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="$root/target/downstream"
profile="${PROFILE:-dev}"
mkdir -p "$work"

echo "| downstream | features of rmm-mobile | crates compiled | cold \`cargo build\` ($profile) | hyper \`server\` | reqwest |"
echo "|---|---|---|---|---|---|"
for kind in default client server; do
    dir="$work/$kind"
    rm -rf "$dir"
    mkdir -p "$dir/src"
    case "$kind" in
        default) dep='rmm-mobile = { path = "'"$root"'/generated" }' ;;
        client)  dep='rmm-mobile = { path = "'"$root"'/generated", default-features = false, features = ["client"] }' ;;
        server)  dep='rmm-mobile = { path = "'"$root"'/generated", default-features = false, features = ["server"] }' ;;
    esac
    cat >"$dir/Cargo.toml" <<TOML
[package]
name = "downstream-$kind"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
$dep

[workspace]
TOML
    echo 'fn main() { println!("{}", rmm_mobile::SERVICE.name); }' >"$dir/src/main.rs"
    # The workspace's lock file, so the same versions are compiled as in the project.
    cp "$root/Cargo.lock" "$dir/Cargo.lock"
    args=()
    [ "$profile" = release ] && args+=(--release)
    start=$(date +%s.%N)
    cargo build --quiet --manifest-path "$dir/Cargo.toml" --target-dir "$dir/target" "${args[@]}" 2>"$dir/build.log"
    end=$(date +%s.%N)
    seconds=$(python3 -c "print(f'{$end - $start:.1f}')")
    crates=$(cargo tree --manifest-path "$dir/Cargo.toml" --prefix none -e normal,build 2>/dev/null \
        | sed 's/ (\*)$//; s/ (proc-macro)$//' | sort -u | wc -l)
    if cargo tree --manifest-path "$dir/Cargo.toml" -e features -i hyper 2>/dev/null | grep -q 'hyper feature "server"'; then
        hyper_server=yes
    else
        hyper_server=no
    fi
    if cargo tree --manifest-path "$dir/Cargo.toml" -i reqwest >/dev/null 2>&1; then reqwest=yes; else reqwest=no; fi
    features=$(sed -n 's/.*features = \(\[.*\]\).*/\1/p' "$dir/Cargo.toml")
    echo "| $kind | ${features:-default} | $crates | ${seconds} s | $hyper_server | $reqwest |"
done
