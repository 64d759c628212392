#!/usr/bin/env bash
# Creates (once) a Python virtual environment with zeep under target/zeep-venv in the
# workspace root and prints the path of its python. Idempotent: a venv that already has
# the pinned zeep is left alone. Needs python3 with the venv module, and PyPI (or a pip
# index/find-links configured for pip) the first time.
#
#   PY=$(tests/interop/zeep/install.sh) && "$PY" tests/interop/zeep/call_all.py URL soap11
set -euo pipefail

ZEEP_VERSION="4.3.1"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
venv="$root/target/zeep-venv"
python="$venv/bin/python"

installed() {
    [ -x "$python" ] &&
        [ "$("$python" -c 'import importlib.metadata as m; print(m.version("zeep"))' 2>/dev/null)" = "$ZEEP_VERSION" ]
}

if ! installed; then
    # Progress goes to stderr: stdout carries only the python path.
    {
        mkdir -p "$root/target"
        [ -x "$python" ] || python3 -m venv "$venv"
        "$python" -m pip install --quiet --disable-pip-version-check "zeep==$ZEEP_VERSION"
    } 1>&2
    installed || { echo "zeep $ZEEP_VERSION did not install into $venv" >&2; exit 1; }
fi

echo "$python"
