#!/usr/bin/env python3
"""`rmm mock` judged by the host: the same requests to both, the same answers wanted.

    mock_judge.py [--sample] WSDL HOST_ENDPOINT MOCK_BASE

WSDL is a service's WSDL file; HOST_ENDPOINT the URL of the reference host's service made
from it, answering default(T) (tests/interop/asmx/mock_service.py, at /mock/NAME.asmx);
MOCK_BASE the base URL of `rmm mock WSDL` (the endpoint is the WSDL's address path). For each
operation of each SOAP 1.1 and SOAP 1.2 binding, a request whose operation element is empty
(every parameter absent, so each read as its default) goes to both; their status, content
type and body must be the same bytes. Prints one line an exchange and a summary; exits 1 on
any difference.

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
    """[(binding kind, operation, soapAction, (namespace, element))] of the WSDL's SOAP bindings."""
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
                out.append((kind, op.get("name"), action, messages[message]))
    return out


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


def main():
    args = sys.argv[1:]
    sample = args[:1] == ["--sample"]
    if sample:
        args = args[1:]
    wsdl, host, mock_base = args[:3]
    mock = mock_base.rstrip("/") + address_path(wsdl)
    found = requests(wsdl)
    if not found:
        sys.exit(f"{wsdl}: no operation to ask")
    voids = void_responses(wsdl)
    differences = 0
    for kind, operation, action, element in found:
        binding = "SOAP 1.1" if kind == SOAP11 else "SOAP 1.2"
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
            continue
        if want == got:
            print(f"  same: {operation} over {binding} ({want[0]})")
        else:
            differences += 1
            print(f"  DIFFERENT: {operation} over {binding}")
            print(f"    host: {want[0]} {want[1]}\n      {want[2][:600]!r}")
            print(f"    mock: {got[0]} {got[1]}\n      {got[2][:600]!r}")
    what = "answers a sample" if sample else "answers the same"
    print(f"{wsdl}: {len(found) - differences} of {len(found)} {what}")
    sys.exit(1 if differences else 0)


if __name__ == "__main__":
    main()
