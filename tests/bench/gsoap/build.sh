#!/usr/bin/env bash
# Builds the gSOAP side of the objects_codec benchmark into target/bench/gsoap/: wsdl2h reads
# the objects service's WSDL (tests/fixtures/objects/wsdl.xml, what the generated server
# serves), soapcpp2 generates the C client and server code from it, and driver.c is compiled
# with it at -O2 against Debian's libgsoap (bash tests/bench/gsoap/install.sh installs it).
#
# Then: RMM_BENCH_GSOAP=1 cargo bench -p rmm-tests --bench objects_codec
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
out="$root/target/bench/gsoap"
gen="$out/gen"
wsdl="$root/tests/fixtures/objects/wsdl.xml"

for tool in wsdl2h soapcpp2 cc pkg-config; do
    command -v "$tool" >/dev/null 2>&1 || {
        echo "build.sh: $tool is missing (bash tests/bench/gsoap/install.sh)" >&2
        exit 1
    }
done

rm -rf "$gen"
mkdir -p "$gen"
cd "$gen"

# The WSDL imports the typed DataSet's schema from the host that served it
# (`http://127.0.0.1:18081/…?schema=ShopDs`), which nothing serves here: wsdl2h reads the
# host's recorded answer instead (tests/fixtures/objects/asmx/schema-shop.txt, kept current by
# `cargo xtask interop --record --check`), from a file beside a copy of the WSDL that names it.
recorded="$root/tests/fixtures/objects/asmx/schema-shop.txt"
awk '/^### ==== RESPONSE/ {inside = 1; next} /^### ==== END ====/ {inside = 0}
     inside && body {print} inside && /^\r?$/ {body = 1}' "$recorded" | tr -d '\r' >shop.xsd
grep -q '<xs:schema' shop.xsd || { echo "build.sh: no schema in $recorded" >&2; exit 1; }
sed 's#schemaLocation="http://127.0.0.1:18081/api/rmm/ObjectsService.asmx?schema=ShopDs"#schemaLocation="shop.xsd"#' \
    "$wsdl" >objects.wsdl
grep -q 'schemaLocation="shop.xsd"' objects.wsdl || { echo "build.sh: the WSDL's schema import moved" >&2; exit 1; }

# -c: C. The service's four bindings become one service (its two SOAP bindings); the HTTP
# GET/POST bindings are ignored, which is what we want.
wsdl2h -c -o objects.h objects.wsdl >wsdl2h.log 2>&1 || { cat wsdl2h.log >&2; exit 1; }
# -x: no sample XML messages; client and server code both (the default).
soapcpp2 -c -x -d "$gen" objects.h >soapcpp2.log 2>&1 || { cat soapcpp2.log >&2; exit 1; }

# The library's flags (-DWITH_DOM -DWITH_IPV6) change struct soap's layout: use them.
# soapServer.c is left out: it calls the service's functions, which the driver does not
# implement; the driver runs the same sequence of calls itself.
cc -O2 -std=gnu11 -Wall -Wno-unused-function $(pkg-config --cflags gsoap) -I"$gen" \
    -o "$out/driver" "$here/driver.c" "$gen/soapC.c" "$gen/soapClient.c" \
    $(pkg-config --libs gsoap) -lm

echo "built $out/driver (gSOAP $(pkg-config --modversion gsoap))"
