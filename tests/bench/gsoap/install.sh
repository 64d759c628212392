#!/usr/bin/env bash
# Installs, from Debian's packages, gSOAP 2.8 (wsdl2h, soapcpp2, the runtime library and its
# headers) and a C compiler, for the objects_codec benchmark (tests/benches/objects_codec.rs),
# which compares rmm's generated codec with gSOAP's generated from the same WSDL, and for the
# server_load benchmark's gSOAP server (tests/bench/gsoap/build-server.sh). Does nothing when
# everything is present.
set -euo pipefail

packages=(
    gsoap
    libgsoap-dev
    gcc
    g++
)

missing=()
for p in "${packages[@]}"; do
    if [ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)" != "installed" ]; then
        missing+=("$p")
    fi
done

if [ "${#missing[@]}" -eq 0 ]; then
    exit 0
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "install.sh: need root (or sudo) to install ${missing[*]}" >&2; exit 1; }
    sudo=(sudo)
fi

echo "installing from Debian's packages: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq >&2
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2

for tool in wsdl2h soapcpp2 cc; do
    command -v "$tool" >/dev/null 2>&1 || { echo "install.sh: $tool is still missing" >&2; exit 1; }
done
