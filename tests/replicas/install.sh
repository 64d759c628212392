#!/usr/bin/env bash
# Installs, from Debian's packages, what the replicas run (tests/src/bin/replicas.rs) needs:
# a Redis server the replicas share their sessions in, and nginx as their load balancer. Does
# nothing when both are present.
#
# Installing them enables (and may start) Debian's system-wide services on their ports; this
# script disables and stops both at once. The run starts a private redis-server and a private
# nginx on free ports of 127.0.0.1, and stops them by PID.
set -euo pipefail

packages=(redis-server nginx)

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

# Never leave Debian's system-wide services enabled or running.
for service in redis-server nginx; do
    if command -v systemctl >/dev/null 2>&1; then
        "${sudo[@]}" systemctl disable "$service" >/dev/null 2>&1 || true
        "${sudo[@]}" systemctl stop "$service" >/dev/null 2>&1 || true
    fi
    if command -v update-rc.d >/dev/null 2>&1; then
        "${sudo[@]}" update-rc.d "$service" disable >/dev/null 2>&1 || true
    fi
    if [ -x "/etc/init.d/$service" ]; then
        "${sudo[@]}" "/etc/init.d/$service" stop >/dev/null 2>&1 || true
    fi
done

[ -x /usr/bin/redis-server ] || { echo "install.sh: /usr/bin/redis-server is still missing" >&2; exit 1; }
[ -x /usr/sbin/nginx ] || { echo "install.sh: /usr/sbin/nginx is still missing" >&2; exit 1; }
