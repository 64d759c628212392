#!/usr/bin/env bash
# Calls every operation of the service at BASE_URL through C# proxies that Mono's `wsdl` tool
# generates from that server's own WSDL, over SOAP 1.1, SOAP 1.2, HTTP GET and HTTP POST.
#
#     run.sh BASE_URL OUTDIR
#
# Fetches BASE_URL/api/rmm/MobileService.asmx?wsdl into OUTDIR, generates one proxy per
# protocol (wsdl -protocol:SOAP|SOAP12|HttpGet|HttpPost, namespace Rmm.Proxy.<protocol>),
# compiles them with CallAll.cs (mcs) and runs the program (mono) against the endpoint.
# The JSON lines of CallAll.exe (one per call, see CallAll.cs) go to stdout; the tools'
# messages go to stderr. Everything made lives in OUTDIR (a fresh one each run), nothing in
# the source tree. Needs mono-devel (wsdl), mono-mcs, the System.Web.Services assembly, curl.
set -euo pipefail

if [ "$#" -ne 2 ]; then
    echo "usage: run.sh BASE_URL OUTDIR" >&2
    exit 2
fi
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
base="${1%/}"
out="$2"
# The endpoint's path, as rmm-spec.yaml's service.path says.
spec="${RMM_SPEC:-$here/../../../rmm-spec.yaml}"
service_path="$(sed -n 's/^  path:[[:space:]]*\([^[:space:]#]*\).*/\1/p' "$spec" | head -n 1)"
if [ -z "$service_path" ]; then
    echo "run.sh: no service.path in $spec" >&2
    exit 2
fi
endpoint="$base$service_path"

rm -rf "$out"
mkdir -p "$out/proxies"
curl -sS --fail --noproxy '*' --max-time 60 -o "$out/service.wsdl" "$endpoint?wsdl"

for protocol in SOAP SOAP12 HttpGet HttpPost; do
    wsdl -nologo -protocol:"$protocol" -n:"Rmm.Proxy.$protocol" \
        -out:"$out/proxies/$protocol.cs" "$out/service.wsdl" >"$out/wsdl-$protocol.log" 2>&1 || {
        cat "$out/wsdl-$protocol.log" >&2
        echo "run.sh: wsdl -protocol:$protocol failed" >&2
        exit 1
    }
done

mcs -nologo -warnaserror+ -target:exe -out:"$out/CallAll.exe" \
    -r:System.dll -r:System.Core.dll -r:System.Xml.dll -r:System.Data.dll -r:System.Web.Services.dll -r:System.EnterpriseServices.dll \
    "$here/CallAll.cs" "$out"/proxies/*.cs >&2

# No proxy from the environment: the server is local.
env -u http_proxy -u HTTP_PROXY -u https_proxy -u HTTPS_PROXY -u no_proxy -u NO_PROXY \
    mono "$out/CallAll.exe" "$endpoint"
