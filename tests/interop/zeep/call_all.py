#!/usr/bin/env python3
"""Calls every operation of an ASMX service with zeep, over SOAP 1.1 or SOAP 1.2.

    call_all.py WSDL_URL soap11|soap12 [--with-params] [--list]

Loads the WSDL at WSDL_URL, picks the one service and, in it, the one port whose binding is
SOAP 1.1 (`soap11`) or SOAP 1.2 (`soap12`) -- for rmm-spec.yaml the service `MobileService`
and the port `MobileServiceSoap` or `MobileServiceSoap12` -- and calls each operation of
that binding, in WSDL order, at the port's address. The operations and their parameters are
read from the WSDL through zeep's introspection; nothing about the service is hard-coded.

Every parameter gets a deterministic value from its position p (1-based, wire order), its
name and its XSD type:

    int      100 + p                       (position 3 -> 103)
    boolean  true if p is odd, else false
    decimal  p + 0.25, two decimals kept    (position 3 -> 3.25)
    string   "<name>-<p> <&> é"             (accountname at 3 -> "accountname-3 <&> é")

so a server that echoes `Op(name=value;...)` answers a result a test can predict. The string
value carries XML specials and a non-ASCII letter, to exercise escaping and UTF-8.

Prints one JSON line per call, on stdout, in UTF-8:

    {"operation": "MobileTaskCreate", "result": "MobileTaskCreate(repnumber=101;...)"}

(with --with-params, also "params": [[name, value as sent on the wire], ...]). A call that
raises prints {"operation": ..., "error": "..."} instead, and the script goes on with the
next one. Exit status: 0 if every call returned, 1 if any raised, 2 if the WSDL could not be
loaded or has no such port. --list prints the chosen service, port, address and each
operation's signature instead of calling anything.
"""

import argparse
import json
import sys
import traceback
from decimal import Decimal

import requests
import zeep
from zeep.transports import Transport
from zeep.wsdl.bindings.soap import Soap11Binding, Soap12Binding

BINDINGS = {"soap11": Soap11Binding, "soap12": Soap12Binding}


def pick_port(client, binding_name):
    """The (service, port) of the only port bound with the wanted SOAP version."""
    wanted = BINDINGS[binding_name]
    found = [
        (service, port)
        for service in client.wsdl.services.values()
        for port in service.ports.values()
        if type(port.binding) is wanted
    ]
    if len(found) != 1:
        names = [f"{s.name}/{p.name}" for s, p in found]
        raise LookupError(f"expected exactly one {binding_name} port, found {names}")
    return found[0]


def parameters(operation):
    """(name, xsd local type name) of each parameter of the operation, in wire order."""
    body = operation.input.body
    if body is None or body.type is None:
        return []
    return [(name, element.type.qname.localname) for name, element in body.type.elements]


def sample(position, name, xsd_type):
    """The deterministic value of a parameter (see the module docstring)."""
    if xsd_type == "int":
        return 100 + position
    if xsd_type == "boolean":
        return position % 2 == 1
    if xsd_type == "decimal":
        return Decimal(position) + Decimal("0.25")
    if xsd_type == "string":
        return f"{name}-{position} <&> \u00e9"
    raise TypeError(f"parameter {name!r} has unsupported XSD type {xsd_type!r}")


def wire(value):
    """A sample value as it travels in the XML."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def emit(line):
    print(json.dumps(line, ensure_ascii=False), flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("wsdl_url")
    parser.add_argument("binding", choices=sorted(BINDINGS))
    parser.add_argument("--with-params", action="store_true",
                        help="add the values sent to every JSON line")
    parser.add_argument("--list", action="store_true",
                        help="describe the port and its operations, call nothing")
    parser.add_argument("--timeout", type=float, default=10.0)
    args = parser.parse_args()
    sys.stdout.reconfigure(encoding="utf-8")

    session = requests.Session()
    session.trust_env = False  # no proxies from the environment: the server is local
    transport = Transport(session=session, timeout=args.timeout,
                          operation_timeout=args.timeout)
    try:
        client = zeep.Client(args.wsdl_url, transport=transport,
                             settings=zeep.Settings(strict=True))
        service, port = pick_port(client, args.binding)
        proxy = client.bind(service.name, port.name)
    except Exception:
        traceback.print_exc()
        return 2

    operations = list(port.binding._operations.values())  # WSDL order
    if args.list:
        print(f"service {service.name}, port {port.name}, "
              f"address {port.binding_options['address']}")
        for operation in operations:
            params = ", ".join(f"{n}: {t}" for n, t in parameters(operation))
            print(f"  {operation.name}({params})")
        return 0

    failed = 0
    for operation in operations:
        values = [(name, sample(i, name, ty))
                  for i, (name, ty) in enumerate(parameters(operation), start=1)]
        line = {"operation": operation.name}
        try:
            line["result"] = getattr(proxy, operation.name)(**dict(values))
        except Exception as error:  # report, go on with the next operation
            failed += 1
            line["error"] = f"{type(error).__name__}: {error}"
            traceback.print_exc()
        if args.with_params:
            line["params"] = [[name, wire(value)] for name, value in values]
        emit(line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
