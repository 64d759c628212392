#!/usr/bin/env python3
"""`rmm mock` judged by the host: the same requests to both, the same answers wanted.

    mock_judge.py [--sample] [--spec SPEC] [--report FILE] WSDL HOST_ENDPOINT MOCK_BASE

WSDL is a service's WSDL file; HOST_ENDPOINT the URL of the reference host's service made
from it, answering default(T) (tests/interop/asmx/mock_service.py, at /mock/NAME.asmx);
MOCK_BASE the base URL of `rmm mock WSDL` (the endpoint is the WSDL's address path). For each
operation of each SOAP 1.1 and SOAP 1.2 binding, a request whose operation element is empty
(every parameter absent, so each read as its default) goes to both; their status, content
type and body must be the same bytes. Prints one line an exchange and a summary; exits 1 on
any difference.

With --spec SPEC (the spec `rmm mock` serves: `rmm import --skip-unsupported`'s, for a WSDL
some of whose operations rmm does not import), an operation that the spec does not hold (or
holds without that binding) is not asked, and counted as skipped. With --report FILE, the
counts and each difference (both answers, and the first byte where they part) are written to
FILE as JSON.

With --sample, MOCK_BASE is `rmm mock --answer sample WSDL`: each of its answers must be a
200 of the same content type as the host's default(T) answer and, where the WSDL's
response element declares content, other bytes than it (a sample, not the default); where it
declares none (a void operation), the same bytes.
"""

import sys
import urllib.error
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET

WSDL = "http://schemas.xmlsoap.org/wsdl/"
SOAP11 = "http://schemas.xmlsoap.org/wsdl/soap/"
SOAP12 = "http://schemas.xmlsoap.org/wsdl/soap12/"
ENVELOPE = {
    SOAP11: "http://schemas.xmlsoap.org/soap/envelope/",
    SOAP12: "http://www.w3.org/2003/05/soap-envelope",
}


def qname(text, element):
    """`{ns}local` of a prefixed name, its prefix resolved where `element` stands."""
    prefix, _, local = text.rpartition(":")
    return prefix, local


def requests(path):
    """[(binding kind, operation, soapAction, (namespace, element), input name)] of the WSDL's
    SOAP bindings."""
    text = open(path, encoding="utf-8-sig").read()
    # ElementTree drops prefixes: read the declarations to resolve `tns:Add`.
    namespaces = dict(
        (prefix, uri)
        for _, (prefix, uri) in ET.iterparse(path, events=["start-ns"])
    )
    root = ET.fromstring(text)
    messages = {}
    for message in root.findall(f"{{{WSDL}}}message"):
        parts = message.findall(f"{{{WSDL}}}part")
        if len(parts) == 1 and parts[0].get("element"):
            prefix, local = qname(parts[0].get("element"), parts[0])
            messages[message.get("name")] = (namespaces.get(prefix, ""), local)
    inputs = {}
    for port_type in root.findall(f"{{{WSDL}}}portType"):
        for op in port_type.findall(f"{{{WSDL}}}operation"):
            given = op.find(f"{{{WSDL}}}input")
            if given is not None:
                _, local = qname(given.get("message"), given)
                inputs[(port_type.get("name"), op.get("name"), given.get("name"))] = local
    out = []
    for binding in root.findall(f"{{{WSDL}}}binding"):
        kind = next(
            (k for k in (SOAP11, SOAP12) if binding.find(f"{{{k}}}binding") is not None), None
        )
        if kind is None:
            continue
        _, port_type = qname(binding.get("type"), binding)
        for op in binding.findall(f"{{{WSDL}}}operation"):
            soap_op = op.find(f"{{{kind}}}operation")
            action = soap_op.get("soapAction", "") if soap_op is not None else ""
            given = op.find(f"{{{WSDL}}}input")
            name = given.get("name") if given is not None else None
            message = inputs.get((port_type, op.get("name"), name))
            if message in messages:
                out.append((kind, op.get("name"), action, messages[message], name))
    return out


def operations(path):
    """The operations of the port types the WSDL's SOAP bindings name: (port type, name,
    input name), each once (SOAP 1.1 and 1.2 share one port type)."""
    root = ET.parse(path).getroot()
    port_types = set()
    for binding in root.findall(f"{{{WSDL}}}binding"):
        if any(binding.find(f"{{{k}}}binding") is not None for k in (SOAP11, SOAP12)):
            port_types.add(qname(binding.get("type"), binding)[1])
    out = []
    for port_type in root.findall(f"{{{WSDL}}}portType"):
        if port_type.get("name") not in port_types:
            continue
        for op in port_type.findall(f"{{{WSDL}}}operation"):
            given = op.find(f"{{{WSDL}}}input")
            key = (port_type.get("name"), op.get("name"), given.get("name") if given is not None else None)
            if key not in out:
                out.append(key)
    return out


def spec_operations(spec_path):
    """The operations of a spec `rmm import` wrote, each {name, bindings, method}: read from
    its `operations:` block as rmm writes it (`  - name: X`, `    bindings: [a, b]`,
    `    method: M`), so that no YAML library is needed."""
    ops, current, within = [], None, False
    for line in open(spec_path, encoding="utf-8").read().split("\n"):
        if not line.startswith(" ") and line.strip():
            within = line.rstrip() == "operations:"
            continue
        if not within:
            continue
        if line.startswith("  - name: "):
            current = {"name": line[len("  - name: "):].strip().strip('"')}
            ops.append(current)
        elif current is not None and line.startswith("    bindings: ["):
            current["bindings"] = [b.strip() for b in line.split("[", 1)[1].rstrip("]").split(",")]
        elif current is not None and line.startswith("    method: "):
            current["method"] = line[len("    method: "):].strip().strip('"')
    return ops


def imported(spec_path):
    """{wire name: bindings} of the operations of an rmm spec (all four bindings when it names
    none), and the .NET method names of its overloads (`method:`)."""
    out = {}
    for op in spec_operations(spec_path):
        bindings = op.get("bindings") or ["soap11", "soap12", "get", "post"]
        out[op["name"]] = set(bindings)
        if op.get("method"):
            out.setdefault(("method", op["method"], op["name"]), set(bindings))
    return out


def in_spec(ops, operation, input_name, kind):
    """Whether the spec `ops` (imported()) serves the WSDL's operation on the binding `kind`."""
    binding = "soap11" if kind == SOAP11 else "soap12"
    for key in (input_name, operation):
        if key and key in ops:
            return binding in ops[key]
    return False


def first_difference(want, got):
    """Where two answers part: the field, the byte offset, and a few bytes of each from a
    little before it."""
    if want[0] != got[0]:
        return {"field": "status", "host": str(want[0]), "mock": str(got[0])}
    if want[1] != got[1]:
        return {"field": "content type", "host": str(want[1]), "mock": str(got[1])}
    a, b = want[2], got[2]
    at = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
    start = max(0, at - 40)
    return {
        "field": "body",
        "offset": at,
        "host": a[start:at + 120].decode("utf-8", "replace"),
        "mock": b[start:at + 120].decode("utf-8", "replace"),
    }


def address_path(path):
    root = ET.parse(path).getroot()
    for port in root.iter(f"{{{WSDL}}}port"):
        address = port.find(f"{{{SOAP11}}}address")
        if address is not None:
            return urllib.parse.urlsplit(address.get("location")).path
    sys.exit(f"{path}: no SOAP address")


def exchange(url, kind, action, element):
    namespace, local = element
    body = (
        '<?xml version="1.0" encoding="utf-8"?>'
        f'<soap:Envelope xmlns:soap="{ENVELOPE[kind]}"><soap:Body>'
        f'<{local} xmlns="{namespace}" /></soap:Body></soap:Envelope>'
    ).encode()
    if kind == SOAP11:
        headers = {"Content-Type": "text/xml; charset=utf-8", "SOAPAction": f'"{action}"'}
    else:
        headers = {"Content-Type": f'application/soap+xml; charset=utf-8; action="{action}"'}
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, answer.headers.get("Content-Type"), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type"), error.read()
    except (urllib.error.URLError, OSError) as error:
        # No answer at all (refused, reset, timed out): a difference, not a crash.
        return "no answer", None, str(error).encode()


XSD = "http://www.w3.org/2001/XMLSchema"


def void_responses(path):
    """The local names of the WSDL's top-level elements that declare no content (no element,
    `any` or attribute): the response elements of void operations."""
    root = ET.parse(path).getroot()
    void = set()
    for schema in root.iter(f"{{{XSD}}}schema"):
        for element in schema.findall(f"{{{XSD}}}element"):
            content = [
                e for e in element.iter()
                if e is not element and e.tag in (f"{{{XSD}}}element", f"{{{XSD}}}any", f"{{{XSD}}}attribute")
            ]
            if not content and element.get("type") is None:
                void.add(element.get("name"))
    return void


def response_name(body):
    """The local name of the SOAP answer's response element (the Body's child)."""
    root = ET.fromstring(body)
    for child in root:
        if child.tag.endswith("}Body") and len(child):
            return child[0].tag.rpartition("}")[2]
    return None


def difference(operation, binding, want, got):
    """One difference, as --report writes it."""
    return {
        "operation": operation,
        "binding": binding,
        "host": {"status": str(want[0]), "content_type": want[1],
                 "body": want[2].decode("utf-8", "replace")},
        "mock": {"status": str(got[0]), "content_type": got[1],
                 "body": got[2].decode("utf-8", "replace")},
        "first": first_difference(want, got),
    }


def main():
    args = sys.argv[1:]
    sample = spec = report = None
    while args and args[0].startswith("--"):
        flag = args.pop(0)
        if flag == "--sample":
            sample = True
        elif flag == "--spec":
            spec = args.pop(0)
        elif flag == "--report":
            report = args.pop(0)
        else:
            sys.exit(f"mock_judge.py: unknown option {flag}")
    wsdl, host, mock_base = args[:3]
    mock = mock_base.rstrip("/") + address_path(wsdl)
    found = requests(wsdl)
    if not found:
        sys.exit(f"{wsdl}: no operation to ask")
    served = imported(spec) if spec else None
    voids = void_responses(wsdl)
    differences, skipped, judged, found_diffs, statuses = 0, 0, 0, [], {}
    for kind, operation, action, element, input_name in found:
        binding = "SOAP 1.1" if kind == SOAP11 else "SOAP 1.2"
        if served is not None and not in_spec(served, operation, input_name, kind):
            skipped += 1
            print(f"  skipped: {operation} over {binding} (not in the spec)")
            continue
        judged += 1
        want = exchange(host, kind, action, element)
        got = exchange(mock, kind, action, element)
        if sample:
            void = want[0] == 200 and response_name(want[2]) in voids
            good = got[0] == 200 and got[1] == want[1] and ((got == want) == void)
            if good:
                print(f"  sampled: {operation} over {binding}" + (" (void)" if void else ""))
            else:
                differences += 1
                print(f"  NOT A SAMPLE: {operation} over {binding}")
                print(f"    host: {want[0]} {want[1]}\n      {want[2][:600]!r}")
                print(f"    mock: {got[0]} {got[1]}\n      {got[2][:600]!r}")
                found_diffs.append(difference(operation, binding, want, got))
            continue
        if want == got:
            statuses[str(want[0])] = statuses.get(str(want[0]), 0) + 1
            print(f"  same: {operation} over {binding} ({want[0]})")
        else:
            differences += 1
            print(f"  DIFFERENT: {operation} over {binding}")
            print(f"    host: {want[0]} {want[1]}\n      {want[2][:600]!r}")
            print(f"    mock: {got[0]} {got[1]}\n      {got[2][:600]!r}")
            found_diffs.append(difference(operation, binding, want, got))
    what = "answers a sample" if sample else "answers the same"
    print(f"{wsdl}: {judged - differences} of {judged} {what}"
          + (f" ({skipped} not in the spec, not asked)" if skipped else ""))
    if report:
        import json

        with open(report, "w", encoding="utf-8") as f:
            json.dump({
                "wsdl": wsdl,
                "operations": len(operations(wsdl)),
                "exchanges": len(found),
                "skipped": skipped,
                "judged": judged,
                "identical": judged - differences,
                "identical_by_status": statuses,
                "different": differences,
                "differences": found_diffs,
            }, f, indent=1)
    sys.exit(1 if differences else 0)


if __name__ == "__main__":
    main()
