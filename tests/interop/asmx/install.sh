#!/usr/bin/env bash
# Installs, from Debian's packages, what the reference ASMX host needs: Mono's ASP.NET web
# services, the C# compiler, fastcgi-mono-server4 and nginx (Debian's xsp4 crashes at start on
# Mono 6.8, mono/mono#18500, so it is not used). Does nothing when everything is present.
#
# Installing nginx enables (and may start) Debian's system-wide nginx on port 80; this script
# disables and stops it at once. start.sh runs a private nginx bound to 127.0.0.1 only.
set -euo pipefail

packages=(
    mono-runtime
    mono-mcs
    libmono-system-web4.0-cil
    libmono-system-web-services4.0-cil
    mono-fastcgi-server4
    nginx
    # wsdl, the proxy generator of the .NET client run (tests/interop/dotnet/)
    mono-devel
)

missing=()
for p in "${packages[@]}"; do
    if [ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)" != "installed" ]; then
        missing+=("$p")
    fi
done
# curl: start.sh waits for ?WSDL with it.
command -v curl >/dev/null 2>&1 || missing+=(curl)

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
if [ -e /lib/systemd/system/nginx.service ] || [ -e /etc/init.d/nginx ]; then
    if command -v systemctl >/dev/null 2>&1; then
        "${sudo[@]}" systemctl disable nginx >/dev/null 2>&1 || true
        "${sudo[@]}" systemctl stop nginx >/dev/null 2>&1 || true
    fi
    if command -v update-rc.d >/dev/null 2>&1; then
        "${sudo[@]}" update-rc.d nginx disable >/dev/null 2>&1 || true
    fi
    # Without systemd as PID 1 the service may have been started by its init script.
    if [ -x /etc/init.d/nginx ]; then
        "${sudo[@]}" /etc/init.d/nginx stop >/dev/null 2>&1 || true
    fi
fi

for tool in mcs fastcgi-mono-server4 curl; do
    command -v "$tool" >/dev/null 2>&1 || { echo "install.sh: $tool is still missing" >&2; exit 1; }
done
[ -x /usr/sbin/nginx ] || { echo "install.sh: /usr/sbin/nginx is still missing" >&2; exit 1; }
