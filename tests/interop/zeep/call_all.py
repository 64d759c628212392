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

so a server that echoes `Op(name=value;...)` answers a result a test can predict. The
SOAP headers of an operation's input (`soap:header`, [SoapHeader] In and InOut) are sent
too, as `_soapheaders`, each filled as a parameter at the positions after the parameters;
an operation whose output has headers returns them beside its body (zeep's envelope value,
printed as a class: {"body": ..., "header": ...}). The string
value carries XML specials and a non-ASCII letter, to exercise escaping and UTF-8. The other
simple types ASMX uses (the types service) get values whose text is the same in Python and in
.NET's writer, near each type's top where that is exact:

    long 10^15 + p, short 30000 + p, byte (sbyte) -p, unsignedByte 200 + p,
    unsignedShort 60000 + p, unsignedInt 4000000000 + p, unsignedLong 18000000000000000000 + p,
    float p + 0.5, double -(p + 0.25), char 65 + p (a UTF-16 unit: "B" at 1),
    guid 0123456<p % 10>-89ab-cdef-fedc-ba9876543210, dateTime 2026-01-02T03:04:05 (no zone),
    date 2026-01-02,
    base64Binary the bytes 0, 1, 254, 255, p, an enum its last value (read from the WSDL's
    simpleType: zeep keeps no facets)

The other types of a WSDL (the third reference service, ObjectsService.cs: classes,
arrays, inheritance, flags, attributes, text content, out parameters) get values built from
zeep's introspection of each type, nothing about the service hard-coded:

    class        an object of its type with every member filled, each member (elements
                 first, then attributes) from its own position and name by these same rules;
                 an [XmlText] member is zeep's `_value_1` (a string "_value_1-<p> <&> é")
    array        (a wrapper type of one repeated element, or a repeated element in a class)
                 two items, from positions p and p + 1; the second nil where the item is
                 nillable (a class, a string, a nullable)
    abstract     (abstract="true" in the WSDL: zeep keeps no trace of it) the first concrete
                 class derived from it, in WSDL order; zeep writes its xsi:type
    flags        (a simpleType that is an xs:list of an enumeration) the last two values
    object       (xs:anyType, .NET's object) zeep's AnyObject of an int 100 + p at an odd
                 position, of a string "NAME-p <&> é" at an even one: zeep writes its
                 xsi:type; printed as {"_type": ..., "value": ...}
    raw XML      (an inline type of one xs:any, .NET's XmlElement) the element
                 <r:NAME xmlns:r="urn:raw" p="P">NAME-P <&> é<!-- c --></r:NAME>, printed
                 (sent and returned) as lxml writes it
    DataTable    (GetDataTableSchema's form: two xs:any, the first repeated) the same table,
                 in a set NewDataSet naming it its main table, the rows in DocumentElement;
                 its result printed as the element came (canonical XML): zeep reads a
                 diffgram by the inline schema, which does not declare DocumentElement
    DataSet      (an inline type of two xs:any, .NET's DataSet in its 2.0 form) a set NAME of
                 a table T<p> of columns I (int) and S (string): a row of I = p and S =
                 "NAME-p <&> é", and a row of nulls, both inserted; sent as the schema and
                 the diffgram, returned as zeep reads them (the schema parsed, the rows typed)
    typed DataSet (one xs:any of the set's namespace) not sent: it is two elements, its
                 schema and its diffgram, where zeep writes one; a result is printed as it
                 came (canonical XML), as zeep refuses to read it under that namespace
    choice       (xs:choice) a single one: its alternative at the choice's position counted
                 round the alternatives; a repeated one: one item of each alternative, in order
    depth        classes nest to depth 3 (the parameter's class at 0, each class or array
                 inside one deeper); deeper classes are left out, or nil as array items: a
                 class that holds itself ends there

Such values, sent and returned, are printed as JSON rather than wire text: a class as an
object of its members, keys sorted, and "_type", the local name of its type (of its
xsi:type where the value carried one); an array wrapper as the list of its items; nil as
null; a Decimal, a date and time and bytes (base64) as strings; numbers and booleans as
JSON's. An operation of several results (out and ref parameters) returns a class of them,
"_type" its response element's type. zeep reads a nil class item as an object of null
members, a nil array item as an empty list and an empty array as null: what it prints is
what it read. (`jsonable` walks zeep's objects as zeep.helpers.serialize_object does, but
keeps each class's type, which serialize_object drops: an xsi:type is what tells a Square
from a Circle.)

The SOAP encoding schema, which ASMX's WSDL imports for a byte[] over HTTP GET/POST
(`soapenc:Array`), is given to zeep from a stub here rather than fetched from the network.

Prints one JSON line per call, on stdout, in UTF-8:

    {"operation": "MobileTaskCreate", "result": "MobileTaskCreate(repnumber=101;...)"}

(the result as its wire text: `true`, `3.25`, `2026-01-02T03:04:05`, base64, or null for
none; as JSON, above, for a class or an array).

(with --with-params, also "params": [[name, value as sent on the wire], ...]). A call that
raises prints {"operation": ..., "error": "..."} instead, and the script goes on with the
next one. Exit status: 0 if every call returned, 1 if any raised, 2 if the WSDL could not be
loaded or has no such port. --list prints the chosen service, port, address and each
operation's signature instead of calling anything.
"""

import argparse
import base64
import datetime
import json
import sys
import traceback
from decimal import Decimal

from lxml import etree

import requests
import zeep
from zeep.transports import Transport
from zeep.xsd import ComplexType, Element, Nil
from zeep.xsd.types.collection import ListType
from zeep.xsd.valueobjects import CompoundValue
from zeep.wsdl.bindings.soap import Soap11Binding, Soap12Binding

BINDINGS = {"soap11": Soap11Binding, "soap12": Soap12Binding}

SOAP_ENCODING = "http://schemas.xmlsoap.org/soap/encoding/"
XSD = "http://www.w3.org/2001/XMLSchema"

# What zeep needs of the SOAP encoding schema to read ASMX's `soapenc:Array` restriction
# (written here for the tests, not a copy of the schema).
SOAP_ENCODING_STUB = f"""<?xml version="1.0" encoding="utf-8"?>
<xs:schema xmlns:xs="{XSD}" xmlns:enc="{SOAP_ENCODING}" targetNamespace="{SOAP_ENCODING}">
  <xs:attribute name="arrayType" type="xs:string" />
  <xs:complexType name="Array">
    <xs:sequence>
      <xs:any minOccurs="0" maxOccurs="unbounded" processContents="lax" />
    </xs:sequence>
    <xs:attribute ref="enc:arrayType" />
  </xs:complexType>
</xs:schema>
""".encode()


# The XML namespace's schema, which zeep fetches from w3.org for a schema importing the
# namespace (an xml:lang attribute): its attributes, as https://www.w3.org/2001/xml.xsd
# declares them.
XML_SCHEMA_URL = "https://www.w3.org/2001/xml.xsd"
XML_SCHEMA_STUB = f"""<?xml version="1.0" encoding="utf-8"?>
<xs:schema xmlns:xs="{XSD}" targetNamespace="http://www.w3.org/XML/1998/namespace">
  <xs:attribute name="lang" type="xs:language" />
  <xs:attribute name="space" type="xs:NCName" />
  <xs:attribute name="base" type="xs:anyURI" />
  <xs:attribute name="id" type="xs:ID" />
</xs:schema>
""".encode()


class LocalTransport(Transport):
    """A transport that answers the SOAP encoding schema's URL and the XML namespace's from
    the stubs above: the machines the tests run on reach nothing but the servers under
    test."""

    def load(self, url):
        if url.rstrip("/") == SOAP_ENCODING.rstrip("/"):
            return SOAP_ENCODING_STUB
        if url == XML_SCHEMA_URL:
            return XML_SCHEMA_STUB
        return super().load(url)


def enum_values(wsdl_text):
    """The values of each enumerated simpleType of the WSDL's schemas, by name."""
    return schema_facts(wsdl_text)[0]


def schema_facts(wsdl_text):
    """What zeep keeps no trace of, from the WSDL's schemas: the values of each enumerated
    simpleType by name (a flags enum's too: its list's item type), the names of the
    simpleTypes that are lists (ASMX's [Flags] enums), the names of the abstract
    complexTypes."""
    root = etree.fromstring(wsdl_text)
    values, lists, abstract = {}, set(), set()
    for schema in root.iter(f"{{{XSD}}}schema"):
        ns = schema.get("targetNamespace", "")
        for simple in schema.iter(f"{{{XSD}}}simpleType"):
            name = simple.get("name")
            found = [e.get("value") for e in simple.iter(f"{{{XSD}}}enumeration")]
            if name and found:
                values[name] = found
            if name and simple.find(f"{{{XSD}}}list") is not None:
                lists.add(f"{{{ns}}}{name}")
        for complex_type in schema.iter(f"{{{XSD}}}complexType"):
            if complex_type.get("name") and complex_type.get("abstract") in ("true", "1"):
                abstract.add(f"{{{ns}}}{complex_type.get('name')}")
    return values, lists, abstract


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
    return [(name, element.type.qname.localname) for name, element in parameter_elements(operation)]


def parameter_elements(operation):
    """(name, zeep element) of each parameter of the operation, in wire order."""
    body = operation.input.body
    if body is None or body.type is None:
        return []
    return list(body.type.elements)


def header_elements(operation):
    """(name, zeep element) of each SOAP header of the operation's input, in binding order
    ([SoapHeader] In and InOut): sent as `_soapheaders`."""
    header = getattr(operation.input, "header", None)
    if header is None or header.type is None or not header.type._element:
        return []
    return list(header.type.elements)


def sample(position, name, xsd_type, enums):
    """The deterministic value of a parameter (see the module docstring)."""
    p = position
    numbers = {
        "int": 100 + p,
        "long": 10**15 + p,
        "short": 30000 + p,
        "byte": -p,
        "unsignedByte": 200 + p,
        "unsignedShort": 60000 + p,
        "unsignedInt": 4000000000 + p,
        "unsignedLong": 18000000000000000000 + p,
        "char": 65 + p,
    }
    if xsd_type in numbers:
        return numbers[xsd_type]
    if xsd_type == "boolean":
        return p % 2 == 1
    if xsd_type == "decimal":
        return Decimal(p) + Decimal("0.25")
    if xsd_type == "string":
        return f"{name}-{p} <&> \u00e9"
    if xsd_type == "ID":
        # A string .NET reads trimmed ([XmlAttribute(DataType = "ID")]): an NCName.
        return f" {name}-{p} "
    if xsd_type == "float":
        return p + 0.5
    if xsd_type == "double":
        return -(p + 0.25)
    if xsd_type == "guid":
        return f"0123456{p % 10}-89ab-cdef-fedc-ba9876543210"
    if xsd_type == "dateTime":
        return datetime.datetime(2026, 1, 2, 3, 4, 5)
    if xsd_type == "date":
        return datetime.date(2026, 1, 2)
    if xsd_type == "base64Binary":
        return bytes([0, 1, 254, 255, p])
    if xsd_type in enums:
        return enums[xsd_type][-1]
    if xsd_type == "anyType":
        # .NET's object: a value naming its type with xsi:type, as zeep's AnyObject writes it.
        if p % 2 == 1:
            return zeep.xsd.AnyObject(zeep.xsd.Int(), 100 + p)
        return zeep.xsd.AnyObject(zeep.xsd.String(), f"{name}-{p} <&> \u00e9")
    raise TypeError(f"parameter {name!r} has unsupported XSD type {xsd_type!r}")


# Class values nest to this depth (the parameter's own class is at 0, each class or array
# inside one level deeper); deeper class members are left out, deeper nillable array items
# are nil: a class that holds itself ends there.
MAX_DEPTH = 3


def is_multiple(element):
    """Whether an element of a class repeats (an array item, or an array without wrapper)."""
    return element.max_occurs == "unbounded" or element.max_occurs > 1


def is_array(xsd_type):
    """ASMX's array wrapper: a complexType of one repeated element and no attribute."""
    elements = list(xsd_type.elements)
    return len(elements) == 1 and is_multiple(elements[0][1]) and not xsd_type.attributes


class Samples:
    """The deterministic value of any type of the WSDL (see the module docstring)."""

    def __init__(self, client, wsdl_text):
        self.enums, lists, abstract = schema_facts(wsdl_text)
        schema = client.wsdl.types
        # zeep names no list type: find each by identity, from the name the WSDL gives it.
        self.lists = {}
        for qname in sorted(lists):
            try:
                self.lists[id(schema.get_type(qname))] = qname
            except Exception:
                pass
        self.complex = [t for t in schema.types if isinstance(t, ComplexType) and t.qname]
        self.abstract = abstract
        # The typed DataSets' elements, (wrapper element, element): an inline type of one
        # xs:any of a namespace of the set's own (zeep keeps no xs:any's namespace).
        self.typed = set()
        document = etree.fromstring(wsdl_text)
        for any_ in document.iter(f"{{{XSD}}}any"):
            namespace = any_.get("namespace", "")
            if not namespace or namespace.startswith("##") or namespace in (
                    XSD, "urn:schemas-microsoft-com:xml-diffgram-v1"):
                continue
            element = any_.getparent().getparent().getparent()
            wrapper = element.getparent().getparent().getparent()
            self.typed.add((wrapper.get("name"), element.get("name")))

    def concrete(self, xsd_type):
        """The type itself, or for an abstract one the first concrete type derived from it
        (WSDL order); zeep writes its xsi:type."""
        if xsd_type.qname.text not in self.abstract:
            return xsd_type
        for candidate in self.complex:
            bases = [t._xsd_type.qname for t in candidate.accepted_types[1:]]
            if xsd_type.qname in bases and candidate.qname.text not in self.abstract:
                return candidate
        raise TypeError(f"no concrete type derives from the abstract {xsd_type.qname}")

    def value(self, xsd_type, name, position, depth=0):
        """The value of `name`, of type `xsd_type`, at `position` in its parent, `depth`
        levels of classes down."""
        if isinstance(xsd_type, ListType):
            qname = self.lists.get(id(xsd_type))
            items = qname and self.enums.get(etree.QName(qname).localname)
            if not items:
                raise TypeError(f"{name!r}: a list type of unknown items")
            return items[-2:]  # a flags enum: its last two values
        if type(xsd_type) is zeep.xsd.AnyType:
            # An element of no type: .NET's object.
            return sample(position, name, "anyType", self.enums)
        if not isinstance(xsd_type, ComplexType):
            return sample(position, name, xsd_type.qname.localname, self.enums)
        elements = list(xsd_type.elements)
        if len(elements) == 2 and all(type(e).__name__ == "Any" for _, e in elements):
            if elements[0][1].max_occurs != 1:
                # A lone DataTable (GetDataTableSchema's form: its schema, then its diffgram):
                # the set's main table, its rows in DocumentElement.
                table = data_set(name, position, lone=True)
                return xsd_type(_value_1=[table["_value_1"]], _value_2=table["_value_2"])
            return xsd_type(_value_1=[data_set(name, position)])
        if len(elements) == 1 and type(elements[0][1]).__name__ == "Any":
            # Raw XML (.NET's XmlElement, an inline type of one xs:any): an element of a
            # namespace of its own with an attribute, text and a comment.
            raw = etree.Element(f"{{urn:raw}}{name}", nsmap={"r": "urn:raw"})
            raw.set("p", str(position))
            raw.text = f"{name}-{position} <&> \u00e9"
            raw.append(etree.Comment(" c "))
            return xsd_type(**{elements[0][0]: raw})
        if depth > MAX_DEPTH:
            return None
        xsd_type = self.concrete(xsd_type)
        fields, lists = {}, {}
        # A choice (xs:choice, .NET's [XmlElement] per alternative): zeep flattens its
        # alternatives into the elements. A single one takes its alternative at the choice's
        # position (counted round its alternatives) as a keyword; a repeated one, zeep's
        # `_value_N` (numbered among the repeated ones), one item of each alternative.
        choices = [c for c in getattr(xsd_type, "_element", None) or []
                   if type(c).__name__ == "Choice"]
        in_choice = set()
        repeated = 0
        for at, choice in enumerate(choices, start=position):
            alternatives = list(choice.elements)
            in_choice.update(name for name, _ in alternatives)
            if choice.max_occurs == 1:
                name, node = alternatives[at % len(alternatives)]
                fields[name] = self.value(node.type, name, at, depth + 1)
            else:
                repeated += 1
                fields[f"_value_{repeated}"] = [
                    {name: self.value(node.type, name, i, depth + 1)}
                    for i, (name, node) in enumerate(alternatives, start=1)]
        members = list(xsd_type.elements) + list(xsd_type.attributes)
        for p, (member, node) in enumerate(members, start=1):
            if member in in_choice:
                continue
            if not hasattr(node, "type"):
                continue  # xs:anyAttribute (a SOAP header's type): left empty
            if type(node).__name__ == "Any":
                # [XmlAnyElement]: elements of a namespace of their own, two where repeated.
                def any_element(at):
                    raw = etree.Element(f"{{urn:raw}}any{at}", nsmap={"r": "urn:raw"})
                    raw.set("p", str(at))
                    raw.text = f"any-{at} <&> \u00e9"
                    return raw
                many = node.max_occurs != 1
                fields[member] = [any_element(p), any_element(p + 1)] if many else any_element(p)
                continue
            if isinstance(node, Element) and is_multiple(node):
                second = Nil if node.nillable else self.value(node.type, member, p + 1, depth + 1)
                items = [self.value(node.type, member, p, depth + 1), second]
                lists[member] = [Nil if i is None and node.nillable else i for i in items]
            else:
                fields[member] = self.value(node.type, member, p, depth + 1)
        value = xsd_type(**fields)
        # Set after: zeep's constructor would make an empty object of each nil item.
        for member, items in lists.items():
            value[member] = items
        return value


def returns_data_table(operation, typed):
    """Whether the operation's result is a lone DataTable (GetDataTableSchema's form: two
    xs:any, the first repeated; a DataSet's 2.0 form repeats their sequence instead) or a
    typed DataSet (one xs:any of its namespace, whose schema and diffgram zeep refuses to
    read under it): both are printed as they came."""
    body = operation.output.body
    if body is None or not hasattr(body.type, "elements"):
        return False
    for _, element in body.type.elements:
        inner = getattr(element.type, "elements", None)
        if inner is None:
            continue
        inner = list(inner)
        if (len(inner) == 2 and all(type(e).__name__ == "Any" for _, e in inner)
                and inner[0][1].max_occurs != 1):
            return True
    # A typed DataSet's result element, by its wrapper's and its own name.
    return any((operation.name + "Response", name) in typed for name, _ in body.type.elements)


def raw_result(content):
    """The result element of a raw SOAP response (the Body's first element's first element),
    as canonical XML; an empty string for none."""
    envelope = etree.fromstring(content)
    body = next(child for child in envelope if etree.QName(child).localname == "Body")
    response = body[0]
    if etree.QName(response).localname == "Fault":
        raise zeep.exceptions.Fault(response.findtext("faultstring") or "a fault")
    return etree.tostring(response[0], method="c14n").decode() if len(response) else ""


def data_set(name, position, lone=False):
    """A DataSet's schema and diffgram (see the module docstring), as zeep sends the two
    xs:any of its type; for a lone DataTable (`lone`) a set `NewDataSet` naming the table its
    main one, the rows in `DocumentElement`, as .NET writes a DataTable."""
    xs, msdata = "http://www.w3.org/2001/XMLSchema", "urn:schemas-microsoft-com:xml-msdata"
    diffgr = "urn:schemas-microsoft-com:xml-diffgram-v1"
    table = f"T{position}"
    main = f' msdata:MainDataTable="{table}"' if lone else ""
    set_name, data = ("NewDataSet", "DocumentElement") if lone else (name, name)
    schema = etree.fromstring(
        f'<xs:schema id="{set_name}" xmlns="" xmlns:xs="{xs}" xmlns:msdata="{msdata}">'
        f'<xs:element name="{set_name}" msdata:IsDataSet="true"{main} msdata:UseCurrentLocale="true">'
        '<xs:complexType><xs:choice minOccurs="0" maxOccurs="unbounded">'
        f'<xs:element name="{table}"><xs:complexType><xs:sequence>'
        '<xs:element name="I" type="xs:int" minOccurs="0" />'
        '<xs:element name="S" type="xs:string" minOccurs="0" />'
        "</xs:sequence></xs:complexType></xs:element></xs:choice></xs:complexType>"
        "</xs:element></xs:schema>")
    diffgram = etree.fromstring(
        f'<diffgr:diffgram xmlns:msdata="{msdata}" xmlns:diffgr="{diffgr}"><{data} xmlns="">'
        f'<{table} diffgr:id="{table}1" msdata:rowOrder="0" diffgr:hasChanges="inserted">'
        f"<I>{position}</I><S /></{table}>"
        f'<{table} diffgr:id="{table}2" msdata:rowOrder="1" diffgr:hasChanges="inserted" />'
        f"</{data}></diffgr:diffgram>")
    diffgram[0][0][1].text = f"{name}-{position} <&> \u00e9"
    return {"_value_1": schema, "_value_2": diffgram}


def jsonable(value):
    """A value sent or returned as JSON: a class as an object of its members (keys sorted)
    and `"_type"`, the name of its type (an xsi:type's when the value carried one), an array
    wrapper as the list of its items, a list as a list, a dict as an object (keys sorted), nil
    as null, a Decimal, a date and time and bytes (base64) as strings."""
    if value is None or value is Nil:
        return None
    if isinstance(value, zeep.xsd.AnyObject):
        # An object sent: its value and the local name of the type it names.
        return {"_type": type(value.xsd_type).__name__.lower(), "value": jsonable(value.value)}
    if isinstance(value, CompoundValue):
        xsd_type = value._xsd_type
        if xsd_type is not None and xsd_type.qname is not None and is_array(xsd_type):
            return jsonable(value[list(xsd_type.elements)[0][0]] or [])
        fields = {key: jsonable(value[key]) for key in value}
        if xsd_type is not None and xsd_type.qname is not None:
            fields["_type"] = xsd_type.qname.localname
        return {key: fields[key] for key in sorted(fields)}
    if isinstance(value, (list, tuple)):
        return [jsonable(item) for item in value]
    if isinstance(value, dict):
        # The items of a sequence of xs:any (a DataSet's schema and diffgram), keys sorted.
        return {key: jsonable(value[key]) for key in sorted(value)}
    if isinstance(value, (bool, int, float, str)):
        return value
    return wire(value)


def out(value):
    """A value sent or returned as printed: a simple one as its wire text, any other as
    `jsonable`."""
    if isinstance(value, (CompoundValue, list, tuple, zeep.xsd.AnyObject)):
        return jsonable(value)
    return wire(value)


def wire(value):
    """A value as it travels in the XML (None for none)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (bytes, bytearray)):
        return base64.b64encode(value).decode("ascii")
    if isinstance(value, (datetime.datetime, datetime.date)):
        return value.isoformat()
    if isinstance(value, etree._Element):
        # Raw XML (an xs:any): the element as lxml writes it.
        return etree.tostring(value, encoding="unicode")
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
    transport = LocalTransport(session=session, timeout=args.timeout,
                               operation_timeout=args.timeout)
    try:
        wsdl_text = transport.load(args.wsdl_url)
        client = zeep.Client(args.wsdl_url, transport=transport,
                             settings=zeep.Settings(strict=True))
        samples = Samples(client, wsdl_text)
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
        line = {"operation": operation.name}
        try:
            for name, _ in parameter_elements(operation):
                if (operation.name, name) in samples.typed:
                    raise TypeError(
                        f"{name!r}: a typed DataSet (one xs:any of its namespace), which is two "
                        "elements (its schema, then its diffgram) where zeep writes one")
            values = [(name, samples.value(element.type, name, i))
                      for i, (name, element) in enumerate(parameter_elements(operation), start=1)]
        except Exception as error:  # a type this script cannot make a value of
            emit({"operation": operation.name, "error": f"{type(error).__name__}: {error}"})
            failed += 1
            continue
        # Its SOAP headers: each filled as a parameter is, at the positions after them.
        headers = [(name, samples.value(element.type, name, len(values) + i))
                   for i, (name, element) in enumerate(header_elements(operation), start=1)]
        kwargs = dict(values)
        if headers:
            kwargs["_soapheaders"] = dict(headers)
        try:
            if returns_data_table(operation, samples.typed):
                # zeep reads a diffgram by the inline schema, which does not declare a lone
                # table's DocumentElement: the result element is printed as it came.
                with client.settings(raw_response=True):
                    response = getattr(proxy, operation.name)(**kwargs)
                line["result"] = raw_result(response.content)
            else:
                line["result"] = out(getattr(proxy, operation.name)(**kwargs))
        except Exception as error:  # report, go on with the next operation
            failed += 1
            line["error"] = f"{type(error).__name__}: {error}"
            traceback.print_exc()
        if args.with_params:
            line["params"] = [[name, out(value)] for name, value in values + headers]
        emit(line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
