#!/usr/bin/env bash
# Installs wrk (Debian package `wrk`), the load generator of the server_load bench
# (`cargo bench -p rmm-tests --bench server_load`), if it is not already on PATH.
# Installs nothing else system-wide.
set -euo pipefail

if command -v wrk >/dev/null 2>&1; then
    echo "wrk already installed: $(command -v wrk)"
    exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-wrk.sh: wrk is missing and apt-get is not available; install wrk by hand" >&2
    exit 1
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        SUDO="sudo"
    else
        echo "install-wrk.sh: not root and no sudo; cannot install wrk" >&2
        exit 1
    fi
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends wrk
command -v wrk
