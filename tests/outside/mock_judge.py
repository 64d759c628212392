#!/usr/bin/env python3
"""`rmm mock` judged by the host: the same requests to both, the same answers wanted.

    mock_judge.py [--sample | --values] [--spec SPEC] [--report FILE] WSDL HOST_ENDPOINT MOCK_BASE

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

With --values (and --spec), HOST_ENDPOINT is the host's echo service of the WSDL
(mock_service.py --echo, at /echo/NAME.asmx) and MOCK_BASE `rmm mock --answer echo`: each
request's parameters all carry a value, built from the spec as XmlSerializer reads them
(Values); a parameter of a type the judge builds no value of (a DataSet, an array of arrays,
…) is left absent, and counted (`params_absent` in the report, with each member left out of a
class's value in `not_built`). Status, content type and body must be the same bytes.

With --sample, MOCK_BASE is `rmm mock --answer sample WSDL`: each of its answers must be a
200 of the same content type as the host's default(T) answer and, where the WSDL's
response element declares content, other bytes than it (a sample, not the default); where it
declares none (a void operation), the same bytes.
"""

import functools
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
            elif (body := encoded_body(op, kind)) is not None:
                # RPC/encoded ([SoapRpcMethod]): the method element, named after the operation
                # in its body's namespace; its parameters (unqualified) are left absent.
                namespace = body.get("namespace") or root.get("targetNamespace")
                out.append((kind, op.get("name"), action, (namespace, op.get("name")), name))
    return out


def encoded_element(path, element):
    """Whether `element` is the method element of an RPC/encoded operation of the WSDL (its
    messages' parts are of types, not elements)."""
    return element[1] + "SoapIn" in typed_messages(path)


@functools.lru_cache(maxsize=None)
def typed_messages(path):
    """The names of the WSDL's messages with a part of a type (read once per WSDL)."""
    root = ET.parse(path).getroot()
    return frozenset(
        message.get("name")
        for message in root.findall(f"{{{WSDL}}}message")
        if any(p.get("type") for p in message.findall(f"{{{WSDL}}}part"))
    )


def encoded_body(op, kind):
    """The `soap:body use="encoded"` of a binding operation's input, if it is one."""
    given = op.find(f"{{{WSDL}}}input")
    body = given.find(f"{{{kind}}}body") if given is not None else None
    return body if body is not None and body.get("use") == "encoded" else None


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


def read_spec(path):
    """The spec `rmm import` wrote, as plain dicts and lists: the subset of YAML rmm writes
    (block maps and lists by indentation, flow lists and maps, double- and single-quoted and
    plain scalars, whole-line comments), so that no YAML library is needed."""
    lines = []
    for raw in open(path, encoding="utf-8").read().split("\n"):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        lines.append((len(raw) - len(raw.lstrip(" ")), stripped))
    value, _ = _block(lines, 0, lines[0][0] if lines else 0)
    return value


def _split_key(text):
    """`key: rest` → (key, rest); None where the text is no `key:` pair. The key ends at the
    first `: ` (or a final `:`) outside quotes and brackets."""
    if text.startswith(("[", "{")):
        return None
    quote, depth, escaped = None, 0, False
    for i, ch in enumerate(text):
        if quote:
            if escaped:
                escaped = False
            elif ch == "\\" and quote == '"':
                escaped = True
            elif ch == quote:
                quote = None
        elif ch in "\"'" and i == 0:
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch == ":" and depth == 0 and (i + 1 == len(text) or text[i + 1] == " "):
            key = text[:i].strip()
            if key[:1] in "\"'":
                key = _scalar(key)
            return key, text[i + 1:].strip()
    return None


def _block(lines, i, indent):
    """The block (map or list) whose entries start at `indent` from line i: (value, next i)."""
    if i < len(lines) and lines[i][1].startswith("- ") or (i < len(lines) and lines[i][1] == "-"):
        out = []
        while i < len(lines) and lines[i][0] == indent and (lines[i][1].startswith("- ") or lines[i][1] == "-"):
            text = lines[i][1][2:].strip()
            inner = indent + 2
            pair = _split_key(text)
            if pair is None:
                out.append(_flow_or_scalar(text))
                i += 1
                continue
            # A map starting on the dash's line: its other keys at the indent after "- ".
            lines[i] = (inner, text)
            value, i = _map(lines, i, inner)
            out.append(value)
        return out, i
    return _map(lines, i, indent)


def _map(lines, i, indent):
    out = {}
    while i < len(lines) and lines[i][0] == indent and not lines[i][1].startswith("- "):
        pair = _split_key(lines[i][1])
        if pair is None:
            raise ValueError(f"not a key: {lines[i][1]!r}")
        key, rest = pair
        i += 1
        if rest:
            out[key] = _flow_or_scalar(rest)
        elif i < len(lines) and (lines[i][0] > indent or (lines[i][0] == indent and lines[i][1].startswith("- "))):
            out[key], i = _block(lines, i, lines[i][0])
        else:
            out[key] = None
    return out, i


def _flow_or_scalar(text):
    if text[:1] in "[{":
        value, end = _flow(text, 0)
        return value
    return _scalar(text)


def _flow(text, i):
    """A flow list or map at text[i]: (value, index after it)."""
    def skip(j):
        while j < len(text) and text[j] == " ":
            j += 1
        return j

    def item(j, stops):
        """A scalar or nested flow at j: (value, j after)."""
        j = skip(j)
        if text[j] in "[{":
            return _flow(text, j)
        if text[j] in "\"'":
            q = text[j]
            k = j + 1
            while k < len(text):
                if q == '"' and text[k] == "\\":
                    k += 2
                    continue
                if text[k] == q:
                    if q == "'" and k + 1 < len(text) and text[k + 1] == "'":
                        k += 2
                        continue
                    break
                k += 1
            return _scalar(text[j:k + 1]), k + 1
        k = j
        while k < len(text) and text[k] not in stops and not (text[k] == ":" and (k + 1 < len(text) and text[k + 1] in " ,]}")):
            k += 1
        return _scalar(text[j:k].strip()), k

    opening = text[i]
    closing = "]" if opening == "[" else "}"
    j = skip(i + 1)
    out = [] if opening == "[" else {}
    while j < len(text) and text[j] != closing:
        first, j = item(j, ",:" + closing)
        j = skip(j)
        if j < len(text) and text[j] == ":":
            second, j = item(j + 1, "," + closing)
            if opening == "[":
                out.append({first: second})
            else:
                out[first] = second
        elif opening == "[":
            out.append(first)
        else:
            out[first] = None
        j = skip(j)
        if j < len(text) and text[j] == ",":
            j = skip(j + 1)
    return out, j + 1


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", '"': '"', "\\": "\\", "/": "/", " ": " ",
            "a": "\a", "b": "\b", "e": "\x1b", "f": "\f", "v": "\v", "N": "\x85", "_": "\xa0",
            "L": "\u2028", "P": "\u2029"}


def _scalar(text):
    if text.startswith('"') and text.endswith('"') and len(text) >= 2:
        body, out, k = text[1:-1], [], 0
        while k < len(body):
            ch = body[k]
            if ch == "\\":
                e = body[k + 1]
                if e in "xuU":
                    n = {"x": 2, "u": 4, "U": 8}[e]
                    out.append(chr(int(body[k + 2:k + 2 + n], 16)))
                    k += 2 + n
                    continue
                out.append(_ESCAPES[e])
                k += 2
                continue
            out.append(ch)
            k += 1
        return "".join(out)
    if text.startswith("'") and text.endswith("'") and len(text) >= 2:
        return text[1:-1].replace("''", "'")
    if text == "true":
        return True
    if text == "false":
        return False
    if text in ("null", "~"):
        return None
    if text == "[]":
        return []
    return text


XSI = "http://www.w3.org/2001/XMLSchema-instance"

# The element name of an array's item where the spec names none (`item:`): XmlSerializer's,
# the XML Schema type's name (`ArrayOfString`'s `<string>`), an enum's or class's own name.
ITEM_NAMES = {
    "string": "string", "int": "int", "boolean": "boolean", "decimal": "decimal", "long": "long",
    "short": "short", "byte": "byte", "unsignedByte": "unsignedByte",
    "unsignedShort": "unsignedShort", "unsignedInt": "unsignedInt",
    "unsignedLong": "unsignedLong", "float": "float", "double": "double", "char": "char",
    "guid": "guid", "dateTime": "dateTime", "date": "date", "base64Binary": "base64Binary",
    "object": "anyType",
}

# Types whose values the judge does not build: their parameters are left absent.
NOT_BUILT = {"dataSet", "dataTable"}

# How deep classes are filled: a class member deeper is left out (counted).
MAX_DEPTH = 5


def entry(param):
    """(name, options) of a spec parameter or member (`- Id: int`, `- Tags: {type: …}`):
    options a dict with `type` and the map form's other keys."""
    (name, value), = param.items()
    if isinstance(value, dict):
        return str(name), dict(value, type=str(value.get("type") or ""))
    return str(name), {"type": str(value)}


def escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


class Values:
    """Requests whose every parameter carries a value, built from a spec as XmlSerializer
    reads them: a plausible value of each type (a string with non-ASCII characters and an
    escaped `&`, negative numbers, a date-time with fractional seconds, an enum's second
    value, arrays of two items, classes with every member filled, in their namespaces)."""

    def __init__(self, spec):
        self.namespace = spec["service"]["namespace"]
        self.enums = {str(e["name"]): e for e in spec.get("enums") or []}
        self.classes = {str(c["name"]): c for c in spec.get("types") or []}
        self.derived = {}
        for name, c in self.classes.items():
            if c.get("base"):
                self.derived.setdefault(str(c["base"]), []).append(name)
        self.n = 0
        # (where, why) of each member left out of a class's value.
        self.left_out = []

    def reset(self):
        self.n = 0

    def simple(self, ty, name):
        """The XML text of a simple type's value (escaped), or None for another type."""
        self.n += 1
        n = self.n
        if ty == "string":
            return escape(f"{name} {n}: Grüße & ç €")
        if ty in self.enums:
            values = self.enums[ty].get("values") or []
            pick = values[1] if len(values) > 1 else values[0] if values else None
            if pick is None:
                return None
            return escape(str(next(iter(pick))) if isinstance(pick, dict) else str(pick))
        return {
            "int": str(-(100 + n)),
            "long": str(-(5000000000 + n)),
            "short": str(-(300 + n)),
            "byte": str(-(10 + n % 100)),
            "unsignedByte": str(200 + n % 50),
            "unsignedShort": str(60000 + n),
            "unsignedInt": str(4000000000 + n),
            "unsignedLong": str(18000000000000000000 + n),
            "float": "-3.14",
            "double": "-1234.5678",
            "decimal": "-1234.5600",
            "boolean": "true",
            "char": "233",
            "guid": "d3b07384-d9a0-4c9b-8f3e-1a2b3c4d5e6f",
            "dateTime": "2024-02-29T13:45:30.125",
            "date": "2024-02-29",
            "base64Binary": "AQID/w==",
        }.get(ty)

    def class_namespace(self, name):
        return str(self.classes[name].get("namespace") or self.namespace)

    def element(self, name, ns, scope, ty, where, stack=(), item=None, unwrapped=False):
        """`<name>value</name>` of the type `ty` in the namespace `ns` (the default namespace
        in scope being `scope`), or None where the judge builds no value of it (recorded)."""
        xmlns = f' xmlns="{ns}"' if ns != scope else ""
        if ty.endswith("[]"):
            inner = ty[:-2]
            if unwrapped:
                items = [self.element(name, ns, scope, inner, where, stack) for _ in range(2)]
                return None if None in items else "".join(items)
            base = inner.rstrip("?")
            item_name = item or ITEM_NAMES.get(base) or (
                base if base in self.enums or base in self.classes else None)
            if item_name is None or inner.endswith("[]"):
                self.left_out.append((where, f"an array of {inner}"))
                return None
            items = [self.element(str(item_name), ns, ns, inner, where, stack) for _ in range(2)]
            if None in items:
                return None
            return f"<{name}{xmlns}>{''.join(items)}</{name}>"
        ty = ty[:-1] if ty.endswith("?") else ty
        if ty in self.classes:
            return self.class_element(name, ns, scope, ty, where, stack)
        if ty == "object":
            text = self.simple("string", name)
            return f'<{name}{xmlns} xsi:type="xsd:string">{text}</{name}>'
        if ty in ("xml", "xmlNode"):
            self.n += 1
            return (f'<{name}{xmlns}><Raw xmlns="urn:rmm:echo" n="{self.n}">'
                    f'{escape("raw & ü")}</Raw></{name}>')
        text = self.simple(ty, name)
        if text is None:
            self.left_out.append((where, f"a value of {ty}"))
            return None
        return f"<{name}{xmlns}>{text}</{name}>"

    def class_element(self, name, ns, scope, declared, where, stack):
        if declared in stack or len(stack) >= MAX_DEPTH:
            self.left_out.append((where, f"{declared} within {'/'.join(stack)}"
                                  if declared in stack else f"{declared} deeper than {MAX_DEPTH}"))
            return None
        concrete = declared
        if self.classes[declared].get("abstract") is True:
            queue, concrete = list(self.derived.get(declared, [])), None
            while queue:
                candidate = queue.pop(0)
                if self.classes[candidate].get("abstract") is not True:
                    concrete = candidate
                    break
                queue.extend(self.derived.get(candidate, []))
            if concrete is None:
                self.left_out.append((where, f"no concrete class of the abstract {declared}"))
                return None
        chain, c = [], concrete
        while c is not None and c in self.classes and c not in chain:
            chain.insert(0, c)
            c = self.classes[c].get("base")
            c = str(c) if c else None
        head = f"<{name}" + (f' xmlns="{ns}"' if ns != scope else "")
        if concrete != declared:
            head += f' xsi:type="t:{concrete}" xmlns:t="{self.class_namespace(concrete)}"'
        body, text, prefixes = [], None, 0
        inner_stack = tuple(stack) + (declared,)
        for cname in chain:
            c = self.classes[cname]
            cns = self.class_namespace(cname)
            for attribute in c.get("attributes") or []:
                aname, options = entry(attribute)
                value = self.simple(options["type"].rstrip("?"), aname)
                if value is None:
                    self.left_out.append((f"{where}/@{aname}", f"an attribute of {options['type']}"))
                    continue
                if options.get("namespace") == "http://www.w3.org/XML/1998/namespace":
                    head += f' xml:{aname}="{value}"'
                elif options.get("namespace") or options.get("qualified") is True:
                    prefixes += 1
                    head += (f' xmlns:a{prefixes}="{options.get("namespace") or cns}"'
                             f' a{prefixes}:{aname}="{value}"')
                else:
                    head += f' {aname}="{value}"'
            if c.get("text"):
                text = self.simple(str(c["text"]).rstrip("?"), name)
            for member in c.get("members") or []:
                mname, options = entry(member)
                at = f"{where}/{mname}"
                if options.get("any") is True:
                    self.left_out.append((at, "an [XmlAnyElement] member"))
                    continue
                if options.get("choice"):
                    alternatives = [entry(a) for a in options["choice"]]
                    if options.get("repeated") is True:
                        alternatives = (alternatives * 2)[:2]
                    else:
                        alternatives = alternatives[:1]
                    built = [self.element(a, cns, ns, o["type"], f"{at}/{a}", inner_stack)
                             for a, o in alternatives]
                    body.extend(b for b in built if b is not None)
                    continue
                mns = "" if options.get("unqualified") is True else cns
                built = self.element(mname, mns, ns, options["type"], at, inner_stack,
                                     item=options.get("item"), unwrapped=options.get("unwrapped") is True)
                if built is not None:
                    body.append(built)
        content = "".join(body) + (text or "")
        return f"{head}>{content}</{name}>"

    def request(self, operation, namespace):
        """The operation element's content: each parameter with a value, and the names of
        those left absent."""
        self.reset()
        if operation.get("style") == "bare":
            return "", [entry(p)[0] for p in operation.get("params") or []]
        content, absent = [], []
        for param in operation.get("params") or []:
            name, options = entry(param)
            if options["type"].rstrip("?[]") in NOT_BUILT or (
                    options["type"].rstrip("?[]") not in self.classes
                    and options["type"].rstrip("?[]") not in self.enums
                    and options["type"].rstrip("?[]") not in ITEM_NAMES
                    and options["type"].rstrip("?[]") not in ("xml", "xmlNode")):
                self.left_out.append((f"{operation['name']}/{name}", f"a value of {options['type']}"))
                absent.append(name)
                continue
            built = self.element(name, namespace, namespace, options["type"], f"{operation['name']}/{name}")
            if built is None:
                absent.append(name)
            else:
                content.append(built)
        return "".join(content), absent


def echoes(operation):
    """Whether `rmm mock --answer echo` answers a parameter's value in the operation's
    response: a parameter of the result's type, or an out parameter of a parameter's name and
    type (cli/src/mock.rs)."""
    params = [entry(p) for p in operation.get("params") or []]
    result = str(operation.get("result"))
    if result != "void" and any(o["type"] == result for _, o in params):
        return True
    outs = [entry(p) for p in operation.get("out") or []]
    return any((n, o["type"]) == (m, p["type"]) for n, o in outs for m, p in params)


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


def exchange(url, kind, action, element, content=None):
    """One request and its answer (status, content type, body). `content`, where given, is
    the operation element's (--values): the Envelope then declares the prefixes xsi and xsd
    that an `object`'s value names its type with."""
    namespace, local = element
    if content is None:
        body = (
            '<?xml version="1.0" encoding="utf-8"?>'
            f'<soap:Envelope xmlns:soap="{ENVELOPE[kind]}"><soap:Body>'
            f'<{local} xmlns="{namespace}" /></soap:Body></soap:Envelope>'
        ).encode()
    else:
        body = (
            '<?xml version="1.0" encoding="utf-8"?>'
            f'<soap:Envelope xmlns:soap="{ENVELOPE[kind]}" xmlns:xsi="{XSI}" xmlns:xsd="{XSD}">'
            f'<soap:Body><{local} xmlns="{namespace}">{content}</{local}></soap:Body>'
            '</soap:Envelope>'
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


def spec_operation(spec, operation, input_name):
    """The spec's operation (a dict of read_spec) that serves the WSDL's operation."""
    ops = {str(op["name"]): op for op in spec.get("operations") or []}
    for key in (input_name, operation):
        if key and key in ops:
            return ops[key]
    return None


def main():
    args = sys.argv[1:]
    sample = spec = report = values = None
    while args and args[0].startswith("--"):
        flag = args.pop(0)
        if flag == "--sample":
            sample = True
        elif flag == "--values":
            values = True
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
    if values and not spec:
        sys.exit("mock_judge.py: --values needs --spec")
    read = read_spec(spec) if values else None
    builder = Values(read) if values else None
    # --values: exchanges carrying a value, those whose host answer echoes one (it differs
    # from the host's answer to the empty request) and those the spec says echo one, the
    # parameters left absent (each operation's once, not per binding).
    valued, echoing, predicted, absent, absent_seen = 0, 0, 0, [], set()
    for kind, operation, action, element, input_name in found:
        binding = "SOAP 1.1" if kind == SOAP11 else "SOAP 1.2"
        if served is not None and not in_spec(served, operation, input_name, kind):
            skipped += 1
            print(f"  skipped: {operation} over {binding} (not in the spec)")
            continue
        judged += 1
        content = None
        if values and encoded_element(wsdl, element):
            # The value builder writes literal parameters: an encoded operation is asked empty.
            pass
        elif values:
            op = spec_operation(read, operation, input_name)
            content, left = builder.request(op, element[0]) if op else ("", [])
            if op and str(op["name"]) not in absent_seen:
                absent_seen.add(str(op["name"]))
                absent.extend(f"{op['name']}/{name}" for name in left)
            if content:
                valued += 1
                predicted += 1 if echoes(op) else 0
        want = exchange(host, kind, action, element, content)
        got = exchange(mock, kind, action, element, content)
        if content and want[0] == 200 and want != exchange(host, kind, action, element):
            # The host's answer is not its answer to the empty request: it echoes a value.
            echoing += 1
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
    if values:
        print(f"  with values: {valued} exchanges carrying values ({echoing} whose answer echoes one,"
              f" {predicted} by the spec);"
              f" {len(absent)} parameters left absent, {len(builder.left_out)} values not built")
        for where, why in builder.left_out:
            print(f"    not built: {where}: {why}")
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
                **({
                    "valued": valued,
                    "echoing": echoing,
                    "echoing_by_spec": predicted,
                    "params_absent": len(absent),
                    "absent": absent,
                    "not_built": [f"{where}: {why}" for where, why in builder.left_out],
                } if values else {}),
            }, f, indent=1)
    sys.exit(1 if differences else 0)


if __name__ == "__main__":
    main()
