#!/usr/bin/env bash
# Stops the reference ASMX host that start.sh started: exactly the PIDs in the run directory's
# nginx.pid and fastcgi.pid (each checked to still be that program), first with TERM, then
# KILL after 10 s. Safe to run when nothing is running.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
run="${ASMX_RUN_DIR:-$root/target/interop/asmx-run}"

stop_one() { # pidfile expected-program
    local file="$run/$1" pid
    [ -s "$file" ] || return 0
    pid="$(cat "$file")"
    if ! [[ "$pid" =~ ^[0-9]+$ ]]; then
        rm -f "$file"
        return 0
    fi
    if kill -0 "$pid" 2>/dev/null && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q -- "$2"; then
        kill -TERM "$pid" 2>/dev/null || true
        for _ in $(seq 1 100); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        if kill -0 "$pid" 2>/dev/null; then
            echo "stop.sh: $2 ($pid) did not stop on TERM; killing it" >&2
            kill -KILL "$pid" 2>/dev/null || true
        fi
    fi
    rm -f "$file"
}

stop_one nginx.pid nginx
stop_one fastcgi.pid fastcgi-mono-server4
rm -f "$run/fastcgi.sock" "$run/port"
