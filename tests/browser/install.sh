#!/usr/bin/env bash
# Installs, from Debian's packages, what the browser check of the script service needs
# (tests/src/bin/interop/browser.rs): Chromium, jQuery (libjs-jquery) and nginx, which serves
# the page on the same origin as the service. MicrosoftAjax.js (which the /js proxy runs on)
# comes from Mono's System.Web.Extensions, which the reference host installs. Does nothing
# when everything is present.
set -euo pipefail

packages=(chromium libjs-jquery nginx)
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
# Never leave Debian's system-wide nginx enabled or running.
if command -v systemctl >/dev/null 2>&1; then
    "${sudo[@]}" systemctl disable nginx >/dev/null 2>&1 || true
    "${sudo[@]}" systemctl stop nginx >/dev/null 2>&1 || true
fi
if [ -x /etc/init.d/nginx ]; then
    "${sudo[@]}" /etc/init.d/nginx stop >/dev/null 2>&1 || true
fi
command -v chromium >/dev/null 2>&1 || { echo "install.sh: chromium is still missing" >&2; exit 1; }
[ -s /usr/share/javascript/jquery/jquery.js ] || { echo "install.sh: jquery.js is still missing" >&2; exit 1; }
