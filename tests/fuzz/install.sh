#!/usr/bin/env bash
# Installs the fuzzer of `cargo xtask fuzz`: cargo-afl from crates.io (it carries AFL++'s
# source) and AFL++ built by it for this toolchain. Does nothing when both are there. Needs
# only cargo, make and a C compiler (gcc is on the machine).
set -euo pipefail

version=0.18.2

if ! cargo afl --version >/dev/null 2>&1; then
    echo "installing cargo-afl $version from crates.io" >&2
    cargo install cargo-afl --version "$version" --locked >&2
fi

# `config --build` refuses to build twice; its refusal says AFL++ is there.
if ! out=$(cargo afl config --build 2>&1); then
    case "$out" in
        *"already built"*) ;;
        *) echo "$out" >&2; echo "install.sh: building AFL++ failed" >&2; exit 1 ;;
    esac
fi
