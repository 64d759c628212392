#!/usr/bin/env bash
# Builds the gSOAP side of the server load benchmark into target/bench/gsoap/: a gSOAP 2.8 (C)
# server of the Mobile Field-Service (tests/bench/gsoap/mobile_server.c), thread per
# connection with HTTP keep-alive, to load side by side with rmm's generated server.
# wsdl2h reads the service's WSDL (the reference host's recorded answer,
# tests/fixtures/asmx/wsdl.txt), soapcpp2 generates the C server code from it into
# target/bench/gsoap/mobile-gen/, and mobile_server.c is compiled with it at -O2 against
# Debian's libgsoap (bash tests/bench/gsoap/install.sh installs it).
#
# Then: target/bench/gsoap/mobile_server PORT
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
out="$root/target/bench/gsoap"
gen="$out/mobile-gen"
recorded="$root/tests/fixtures/asmx/wsdl.txt"

for tool in wsdl2h soapcpp2 cc pkg-config awk; do
    command -v "$tool" >/dev/null 2>&1 || {
        echo "build-server.sh: $tool is missing (bash tests/bench/gsoap/install.sh)" >&2
        exit 1
    }
done
pkg-config --exists gsoap || {
    echo "build-server.sh: pkg-config knows no gsoap (bash tests/bench/gsoap/install.sh)" >&2
    exit 1
}
[ -f "$recorded" ] || { echo "build-server.sh: $recorded is missing" >&2; exit 1; }

rm -rf "$gen"
mkdir -p "$gen"
cd "$gen"

# The WSDL is the body of the recorded response: what follows the response's blank line, up to
# the end marker.
awk '/^### ==== RESPONSE/ {inside = 1; next} /^### ==== END ====/ {inside = 0}
     inside && body {print} inside && /^\r?$/ {body = 1}' "$recorded" | tr -d '\r' >mobile.wsdl
grep -q '<wsdl:definitions' mobile.wsdl && grep -q '</wsdl:definitions>' mobile.wsdl || {
    echo "build-server.sh: no complete WSDL in the response of $recorded" >&2
    exit 1
}

# -c: C. The service's SOAP 1.1 and 1.2 bindings become one service; the HTTP GET/POST
# bindings are ignored.
wsdl2h -c -o mobile.h mobile.wsdl >wsdl2h.log 2>&1 || {
    echo "build-server.sh: wsdl2h failed:" >&2
    cat wsdl2h.log >&2
    exit 1
}
# -S: server code only; -x: no sample XML messages.
soapcpp2 -c -S -x -d "$gen" mobile.h >soapcpp2.log 2>&1 || {
    echo "build-server.sh: soapcpp2 failed:" >&2
    cat soapcpp2.log >&2
    exit 1
}
nsmap="$(ls "$gen"/*.nsmap 2>/dev/null | head -n 1)"
[ -n "$nsmap" ] || { echo "build-server.sh: soapcpp2 wrote no .nsmap" >&2; exit 1; }
# mobile_server.c includes the namespace table by a fixed name.
cp "$nsmap" "$gen/mobile.nsmap"

# The library's flags (-DWITH_DOM -DWITH_IPV6) change struct soap's layout: use them.
cc -O2 -std=gnu11 -Wall -Wno-unused-function $(pkg-config --cflags gsoap) -I"$gen" \
    -o "$out/mobile_server" "$here/mobile_server.c" "$gen/soapC.c" "$gen/soapServer.c" \
    $(pkg-config --libs gsoap) -lpthread -lm || {
    echo "build-server.sh: compiling mobile_server failed" >&2
    exit 1
}

echo "built $out/mobile_server (gSOAP $(pkg-config --modversion gsoap))"
