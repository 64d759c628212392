#!/usr/bin/env bash
# Installs Debian's Chromium, the browser the shadow's report is looked at in
# (tests/shadow/browser.sh). Does nothing when it is present.
set -euo pipefail

if command -v chromium >/dev/null 2>&1; then
    exit 0
fi
sudo=()
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "install.sh: need root (or sudo) to install chromium" >&2; exit 1; }
    sudo=(sudo)
fi
echo "installing from Debian's packages: chromium" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq >&2
"${sudo[@]}" apt-get install -y -qq --no-install-recommends chromium >&2
