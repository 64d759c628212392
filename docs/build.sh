#!/usr/bin/env bash
# Builds the user guide (docs/, an mdBook) into target/book. mdbook is installed from crates.io
# into target/tools the first time (search only: no watch, no serve). Fails on any error.
set -euo pipefail
cd "$(dirname "$0")/.."

MDBOOK_VERSION=0.4.52
mdbook=target/tools/bin/mdbook

if ! [ -x "$mdbook" ] || [ "$("$mdbook" --version)" != "mdbook v$MDBOOK_VERSION" ]; then
  cargo install --locked mdbook --version "$MDBOOK_VERSION" \
    --no-default-features --features search --root target/tools
fi

"$mdbook" build docs
