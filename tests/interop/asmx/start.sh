#!/usr/bin/env bash
# Starts the reference ASMX host: the echo service of rmm-spec.yaml, compiled with mcs and run
# by Mono's ASP.NET under fastcgi-mono-server4 (on a unix socket) behind a private nginx bound
# to 127.0.0.1 on a free port. Waits until ?WSDL answers 200, then prints the base URL
# (http://127.0.0.1:PORT) on stdout and returns; the two servers go on in the background.
#
# Everything lives in the run directory, $ASMX_RUN_DIR or target/interop/asmx-run in the
# workspace: site/ (the application: web.config, the .asmx, bin/Rmm.Mobile.dll), the nginx
# config, the socket, logs, and the files `port`, `fastcgi.pid` and `nginx.pid` that stop.sh
# reads to stop exactly these processes. Run install.sh first.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
run="${ASMX_RUN_DIR:-$root/target/interop/asmx-run}"
spec="${RMM_SPEC:-$root/rmm-spec.yaml}"
service_path="/api/rmm/MobileService.asmx"
wait_seconds="${ASMX_START_TIMEOUT:-90}"

if [ -s "$run/nginx.pid" ] || [ -s "$run/fastcgi.pid" ]; then
    echo "start.sh: a host may still be running from $run; stopping it first" >&2
    "$here/stop.sh" >&2 || true
fi

mkdir -p "$run"
rm -rf "$run/site" "$run/nginx" "$run/fastcgi.sock"
mkdir -p "$run/site/bin" "$run/site${service_path%/*}" "$run/nginx/tmp" "$run/src"

# 1. The service: C# generated from the spec, compiled into the application's bin/.
python3 "$here/gen_service.py" "$spec" "$run/src/MobileService.cs"
mcs -nologo -warnaserror+ -target:library -out:"$run/site/bin/Rmm.Mobile.dll" \
    -r:System.dll -r:System.Web.dll -r:System.Web.Services.dll \
    "$run/src/MobileService.cs" >&2
cp "$here/web.config" "$run/site/web.config"
cp "$here/MobileService.asmx" "$run/site$service_path"
# The second reference service, hand-written: every simple type (TypesService.cs).
types_path="/api/rmm/TypesService.asmx"
mcs -nologo -warnaserror+ -target:library -out:"$run/site/bin/Rmm.Types.dll" \
    -r:System.dll -r:System.Web.dll -r:System.Web.Services.dll -r:System.Xml.dll -r:System.Data.dll \
    "$here/TypesService.cs" >&2
cp "$here/TypesService.asmx" "$run/site$types_path"
# The third reference service, hand-written: classes, arrays and recursion (ObjectsService.cs),
# with a typed DataSet (ShopDs) that Mono's xsd makes from ShopDs.xsd (it reports the file it
# wrote on stdout, which must stay the base URL only).
objects_path="/api/rmm/ObjectsService.asmx"
xsd "$here/ShopDs.xsd" /dataset /namespace:Rmm.Objects /outputdir:"$run/src" >&2
mcs -nologo -warnaserror+ -target:library -out:"$run/site/bin/Rmm.Objects.dll" \
    -r:System.dll -r:System.Web.dll -r:System.Web.Services.dll -r:System.Xml.dll -r:System.Data.dll \
    "$here/ObjectsService.cs" "$run/src/ShopDs.cs" >&2
cp "$here/ObjectsService.asmx" "$run/site$objects_path"
# The fourth reference service, hand-written: SOAP RPC/encoded (EncodedService.cs, a
# [SoapRpcService]), and beside it a document/encoded method (EncodedDocService).
mcs -nologo -warnaserror+ -target:library -out:"$run/site/bin/Rmm.Encoded.dll" \
    -r:System.dll -r:System.Web.dll -r:System.Web.Services.dll -r:System.Xml.dll \
    "$here/EncodedService.cs" >&2
cp "$here/EncodedService.asmx" "$run/site/api/rmm/EncodedService.asmx"
cp "$here/EncodedDocService.asmx" "$run/site/api/rmm/EncodedDocService.asmx"
# The fifth reference service, hand-written: ASMX's JSON face, a [ScriptService]
# (ScriptService.cs) that answers ASP.NET AJAX's JSON calls beside SOAP.
mcs -nologo -warnaserror+ -target:library -out:"$run/site/bin/Rmm.Script.dll" \
    -r:System.dll -r:System.Web.dll -r:System.Web.Services.dll -r:System.Xml.dll \
    -r:System.Web.Extensions.dll "$here/ScriptService.cs" >&2
cp "$here/ScriptService.asmx" "$run/site/api/rmm/ScriptService.asmx"
# The quick start's service (CalculatorService.cs): the public calculator of www.dneonline.com,
# at its path, for tests/outside/run.sh.
mcs -nologo -warnaserror+ -target:library -out:"$run/site/bin/Rmm.Calculator.dll" \
    -r:System.dll -r:System.Web.dll -r:System.Web.Services.dll \
    "$here/CalculatorService.cs" >&2
cp "$here/Calculator.asmx" "$run/site/calculator.asmx"
# The judges of `rmm mock` (tests/outside/run.sh, tests/wire/run.sh): each WSDL file of
# $ASMX_MOCK_WSDLS (space-separated) made by Mono's `wsdl -server` into an abstract service,
# made concrete by mock_service.py (every method answering default(T)), at /mock/NAME.asmx
# (and with ASMX_MOCK_ANSWER=echo, answering as `rmm mock --answer echo`, at /echo/NAME.asmx).
# A WSDL that one of these steps refuses is left out, not the host: its name and the step
# that refused it are a line of mock-refused.txt in the run directory (the step's output in
# src/mock-NAME.log), and the others are served.
mkdir -p "$run/site/mock"
: >"$run/mock-refused.txt"
if [ "${ASMX_MOCK_ANSWER:-}" = echo ]; then
    mkdir -p "$run/site/echo"
    : >"$run/echo-refused.txt"
fi
for mock_wsdl in ${ASMX_MOCK_WSDLS:-}; do
    mock_name="$(basename "$mock_wsdl" .wsdl)"
    # A C# namespace: the name's letters and digits, after an underscore where it starts with a
    # digit (24sevenoffice-…), which `wsdl` would refuse ("Initialization failure").
    mock_ns="$(printf %s "$mock_name" | tr -cd 'A-Za-z0-9' | sed 's/^[0-9]/_&/')"
    mock_ns="Mock.$mock_ns"
    mock_log="$run/src/mock-$mock_name.log"
    mock_step=""
    if ! wsdl -server -nologo -namespace:"$mock_ns" "$mock_wsdl" -out:"$run/src/mock-$mock_name.cs" \
        >"$mock_log" 2>&1; then
        mock_step="wsdl -server"
    elif ! mock_class="$(python3 "$here/mock_service.py" "$run/src/mock-$mock_name.cs" \
        "$run/src/mock-$mock_name-concrete.cs" 2>>"$mock_log")"; then
        mock_step="mock_service.py"
    elif ! mcs -nologo -target:library -out:"$run/site/bin/$mock_ns.dll" \
        -r:System.dll -r:System.Web.dll -r:System.Web.Services.dll -r:System.Xml.dll -r:System.Data.dll \
        "$run/src/mock-$mock_name-concrete.cs" >>"$mock_log" 2>&1; then
        mock_step="mcs"
        rm -f "$run/site/bin/$mock_ns.dll"
    fi
    if [ -n "$mock_step" ]; then
        echo "start.sh: $mock_wsdl: $mock_step refused it; not served (see $mock_log)" >&2
        printf '%s\t%s\t%s\n' "$mock_name" "$mock_step" \
            "$(grep -m1 -E 'error|Error' "$mock_log" | tr '\t' ' ' | cut -c1-300)" >>"$run/mock-refused.txt"
        continue
    fi
    printf '<%%@ WebService Language="C#" Class="%s" %%>\n' "$mock_class" >"$run/site/mock/$mock_name.asmx"
    # With ASMX_MOCK_ANSWER=echo, beside it the same service answering as `rmm mock --answer
    # echo` does (mock_service.py --echo), its classes in the namespace Echo.NAME, at
    # /echo/NAME.asmx; one refused is a line of echo-refused.txt (its output in
    # src/echo-NAME.log).
    if [ "${ASMX_MOCK_ANSWER:-}" = echo ]; then
        echo_ns="Echo.${mock_ns#Mock.}"
        echo_log="$run/src/echo-$mock_name.log"
        echo_step=""
        if ! echo_class="$(python3 "$here/mock_service.py" --echo --namespace "$echo_ns" \
            "$run/src/mock-$mock_name.cs" "$run/src/echo-$mock_name.cs" 2>"$echo_log")"; then
            echo_step="mock_service.py --echo"
        elif ! mcs -nologo -target:library -out:"$run/site/bin/$echo_ns.dll" \
            -r:System.dll -r:System.Web.dll -r:System.Web.Services.dll -r:System.Xml.dll -r:System.Data.dll \
            "$run/src/echo-$mock_name.cs" >>"$echo_log" 2>&1; then
            echo_step="mcs"
            rm -f "$run/site/bin/$echo_ns.dll"
        fi
        if [ -n "$echo_step" ]; then
            echo "start.sh: $mock_wsdl: $echo_step refused its echo service; not served (see $echo_log)" >&2
            printf '%s\t%s\t%s\n' "$mock_name" "$echo_step" \
                "$(grep -m1 -E 'error|Error' "$echo_log" | tr '\t' ' ' | cut -c1-300)" >>"$run/echo-refused.txt"
            continue
        fi
        printf '<%%@ WebService Language="C#" Class="%s" %%>\n' "$echo_class" >"$run/site/echo/$mock_name.asmx"
    fi
done

# 2. fastcgi-mono-server4 on a unix socket in the run directory.
sock="$run/fastcgi.sock"
: >"$run/fastcgi.log"
# The wrapper script execs mono, so $! is the server's own PID. (It prints a harmless
# 'Error parsing permissions "". Use octal.' at start.)
# TZ=UTC: the host converts a DateTime sent with an offset to its own zone; its answers must
# not depend on the machine's.
TZ=UTC fastcgi-mono-server4 \
    --applications="/:$run/site" --socket="unix:$sock" \
    --logfile="$run/fastcgi-server.log" --loglevels=Standard \
    </dev/null >>"$run/fastcgi.log" 2>&1 &
echo $! >"$run/fastcgi.pid"

# 3. A private nginx on 127.0.0.1:<free port>. fastcgi-mono-server4 routes by SCRIPT_NAME:
#    it must be the whole path (/api/rmm/MobileService.asmx/<Op> for an operation URL) with an
#    empty PATH_INFO; with SCRIPT_NAME=.asmx and PATH_INFO=/<Op> (the CGI split) every
#    operation URL answers 404 "Requested URL: /<Op>". SCRIPT_FILENAME is the .asmx file.
#    SERVER_NAME and SERVER_PORT are the Host header's host and port: ASP.NET writes them into
#    the WSDL's addresses (with nginx's $server_name the WSDL would say "localhost"), so a
#    request recorded with `Host: 127.0.0.1:18081` gets the same addresses whatever port this
#    run listens on (cargo xtask interop --record relies on it); a Host without a port is port
#    80, as ASP.NET reads it. A request naming no host
#    (HTTP/1.0) gets $ASMX_DEFAULT_HOST (HOST:PORT) if set, else localhost and this run's port.
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

default_name=localhost
# nginx's variable, written into the config as it is.
default_port='$server_port'
if [ -n "${ASMX_DEFAULT_HOST:-}" ]; then
    default_name="${ASMX_DEFAULT_HOST%:*}"
    default_port="${ASMX_DEFAULT_HOST##*:}"
fi

write_nginx_conf() {
    cat >"$run/nginx/nginx.conf" <<CONF
# Generated by tests/interop/asmx/start.sh for one run.
worker_processes 1;
daemon off;
$nginx_user
pid $run/nginx/nginx.pid;
error_log $run/nginx/error.log warn;
events { worker_connections 256; }
http {
    access_log $run/nginx/access.log;
    client_body_temp_path $run/nginx/tmp/body;
    fastcgi_temp_path $run/nginx/tmp/fastcgi;
    proxy_temp_path $run/nginx/tmp/proxy;
    uwsgi_temp_path $run/nginx/tmp/uwsgi;
    scgi_temp_path $run/nginx/tmp/scgi;
    client_max_body_size 8m;
    # A Host with a port names it; one without names HTTP's 80 (a client that goes through
    # an HTTP proxy to http://www.dneonline.com/, as tests/outside/run.sh's quick start does);
    # no Host at all, the default.
    map \$http_host \$host_port {
        "~:(?<port>[0-9]+)\$" \$port;
        "" $default_port;
        default 80;
    }
    server {
        listen 127.0.0.1:$1;
        server_name $default_name;
        root $run/site;
        location / {
            fastcgi_split_path_info ^(.+?\.asmx)(/.*)\$;
            fastcgi_pass unix:$sock;
            fastcgi_param QUERY_STRING \$query_string;
            fastcgi_param REQUEST_METHOD \$request_method;
            fastcgi_param CONTENT_TYPE \$content_type;
            fastcgi_param CONTENT_LENGTH \$content_length;
            fastcgi_param SCRIPT_NAME \$uri;
            fastcgi_param PATH_INFO "";
            fastcgi_param SCRIPT_FILENAME \$document_root\$fastcgi_script_name;
            fastcgi_param PATH_TRANSLATED \$document_root\$fastcgi_script_name;
            fastcgi_param REQUEST_URI \$request_uri;
            fastcgi_param DOCUMENT_URI \$document_uri;
            fastcgi_param DOCUMENT_ROOT \$document_root;
            fastcgi_param SERVER_PROTOCOL \$server_protocol;
            fastcgi_param GATEWAY_INTERFACE CGI/1.1;
            fastcgi_param SERVER_SOFTWARE nginx/\$nginx_version;
            fastcgi_param REMOTE_ADDR \$remote_addr;
            fastcgi_param REMOTE_PORT \$remote_port;
            fastcgi_param SERVER_ADDR \$server_addr;
            fastcgi_param SERVER_PORT \$host_port;
            fastcgi_param SERVER_NAME \$host;
        }
    }
}
CONF
}

# Run as root, nginx would switch its worker to "nobody", which may not reach the socket in
# the run directory: keep the worker as the user running this script.
nginx_user=""
if [ "$(id -u)" -eq 0 ]; then nginx_user="user root;"; fi

nginx_pid=""
for attempt in 1 2 3 4 5; do
    port="$(free_port)"
    write_nginx_conf "$port"
    : >"$run/nginx/stderr.log"
    /usr/sbin/nginx -p "$run/nginx" -c "$run/nginx/nginx.conf" -e "$run/nginx/error.log" \
        </dev/null >>"$run/nginx/stderr.log" 2>&1 &
    nginx_pid=$!
    echo "$nginx_pid" >"$run/nginx.pid"
    # nginx either binds at once or exits (e.g. the port was taken meanwhile).
    for _ in $(seq 1 20); do
        if ! kill -0 "$nginx_pid" 2>/dev/null; then break; fi
        if [ -s "$run/nginx/nginx.pid" ]; then break; fi
        sleep 0.1
    done
    if kill -0 "$nginx_pid" 2>/dev/null; then break; fi
    echo "start.sh: nginx did not start on port $port (attempt $attempt):" >&2
    cat "$run/nginx/error.log" "$run/nginx/stderr.log" >&2 || true
    rm -f "$run/nginx.pid"
    nginx_pid=""
done
if [ -z "$nginx_pid" ]; then
    "$here/stop.sh" >&2 || true
    exit 1
fi
echo "$port" >"$run/port"

# 4. Wait for the service description.
base="http://127.0.0.1:$port"
deadline=$((SECONDS + wait_seconds))
until [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 30 "$base$service_path?WSDL" || true)" = 200 ]; do
    if [ "$SECONDS" -ge "$deadline" ] || ! kill -0 "$(cat "$run/fastcgi.pid")" 2>/dev/null; then
        echo "start.sh: $base$service_path?WSDL did not answer 200 within ${wait_seconds}s" >&2
        tail -n 30 "$run/fastcgi.log" "$run/nginx/error.log" >&2 || true
        "$here/stop.sh" >&2 || true
        exit 1
    fi
    sleep 0.2
done
echo "$base"
