//! The request generator: valid calls of the spec's operations on all four bindings, each
//! changed in one way a real client, a proxy or a broken client might change it.
//!
//! A call is first a [`Call`] (binding, operation, parameters as raw lexical text, headers),
//! so that a change can act on its structure (a value, an element, a header, a form pair);
//! [`Call::render`] then writes the bytes. Byte-level changes act on the rendered body.
//! Every case carries its class (`value:int`, `structure:repeated`, `bytes:flip`, …): the
//! report counts differences per class.

use rand::seq::IndexedRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use rmm_mobile::runtime::soap::{SOAP11_NS, SOAP12_NS};
use rmm_mobile::{Binding, Operation, SERVICE};
use rmm_tests::samples::sample;
use rmm_tests::spec_operation;

use super::Case;
use crate::record::RECORDED_HOST;

/// One parameter element or form pair, before rendering.
#[derive(Debug, Clone)]
struct Param {
    /// Wire name (may be changed: case, unknown names).
    name: String,
    /// SOAP: the element's content, already XML (escaped, or CDATA, comments…).
    /// GET/POST: the value, already form-encoded.
    text: String,
    /// SOAP: the element's start tag in full when not the plain `<name>`.
    open: Option<String>,
    /// SOAP: the end tag when not the plain `</name>`.
    close: Option<String>,
}

/// A call before rendering.
#[derive(Debug, Clone)]
struct Call {
    binding: Binding,
    op: Operation,
    method: String,
    path: String,
    query_extra: Option<String>,
    headers: Vec<(String, String)>,
    params: Vec<Param>,
    /// SOAP: what wraps the parameters (`<Op xmlns="ns">` … `</Op>`).
    op_open: String,
    op_close: String,
    /// SOAP: the envelope's start up to the operation element, and its end after it.
    envelope_open: String,
    envelope_close: String,
    /// SOAP: the XML declaration (with its line break), or none.
    declaration: String,
}

const DECLARATION: &str = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n";

/// XML text: `&`, `<`, `>` escaped, the rest as is.
pub(super) fn xml_text(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A form value as `form_urlencoded` writes it.
fn form_value(text: &str) -> String {
    form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

fn envelope(binding: Binding) -> (String, String) {
    let ns = if binding == Binding::Soap12 {
        SOAP12_NS
    } else {
        SOAP11_NS
    };
    (
        format!(
            "<soap:Envelope xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" \
             xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" xmlns:soap=\"{ns}\">\n  <soap:Body>\n    "
        ),
        "\n  </soap:Body>\n</soap:Envelope>".to_owned(),
    )
}

impl Call {
    /// A valid call of `op` over `binding` with the sample values of `salt`.
    fn new(op: Operation, binding: Binding, salt: usize) -> Call {
        let spec_op = spec_operation(op.name());
        let params = sample(&spec_op, salt)
            .into_iter()
            .map(|(name, value)| Param {
                text: if binding.is_soap() {
                    xml_text(&value)
                } else {
                    form_value(&value)
                },
                name,
                open: None,
                close: None,
            })
            .collect();
        let info = op.info();
        let (method, path, headers) = match binding {
            Binding::Soap11 => (
                "POST",
                SERVICE.path.to_owned(),
                vec![
                    ("Content-Type".into(), "text/xml; charset=utf-8".into()),
                    ("SOAPAction".into(), info.soap_action.to_owned()),
                ],
            ),
            Binding::Soap12 => (
                "POST",
                SERVICE.path.to_owned(),
                vec![("Content-Type".into(), info.soap12_content_type.to_owned())],
            ),
            Binding::HttpGet => ("GET", info.http_path.to_owned(), Vec::new()),
            Binding::HttpPost => (
                "POST",
                info.http_path.to_owned(),
                vec![(
                    "Content-Type".into(),
                    "application/x-www-form-urlencoded".into(),
                )],
            ),
            Binding::Json => unreachable!("the difftest's services are no [ScriptService]"),
        };
        let (envelope_open, envelope_close) = envelope(binding);
        Call {
            binding,
            op,
            method: method.into(),
            path,
            query_extra: None,
            headers,
            params,
            op_open: info.request_open.to_owned(),
            op_close: info.request_close.to_owned(),
            envelope_open,
            envelope_close,
            declaration: DECLARATION.to_owned(),
        }
    }

    /// The body: the envelope (SOAP) or the form (HTTP POST); empty for HTTP GET.
    fn body(&self) -> Vec<u8> {
        match self.binding {
            Binding::Soap11 | Binding::Soap12 => {
                let mut body = self.declaration.clone();
                body.push_str(&self.envelope_open);
                body.push_str(&self.op_open);
                for p in &self.params {
                    body.push_str("\n      ");
                    body.push_str(p.open.as_deref().unwrap_or(&format!("<{}>", p.name)));
                    body.push_str(&p.text);
                    body.push_str(p.close.as_deref().unwrap_or(&format!("</{}>", p.name)));
                }
                body.push_str("\n    ");
                body.push_str(&self.op_close);
                body.push_str(&self.envelope_close);
                body.into_bytes()
            }
            Binding::HttpGet => Vec::new(),
            Binding::HttpPost => self.form().into_bytes(),
            Binding::Json => unreachable!("the difftest's services are no [ScriptService]"),
        }
    }

    fn form(&self) -> String {
        self.params
            .iter()
            .map(|p| {
                if p.open.is_some() {
                    // A pair written without `=`.
                    p.name.clone()
                } else {
                    format!("{}={}", p.name, p.text)
                }
            })
            .collect::<Vec<_>>()
            .join("&")
    }

    /// The request's bytes with `body` as its body.
    fn render_with(&self, body: &[u8]) -> Vec<u8> {
        let mut target = self.path.clone();
        if self.binding == Binding::HttpGet {
            target.push('?');
            target.push_str(&self.form());
        }
        if let Some(extra) = &self.query_extra {
            target.push(if target.contains('?') { '&' } else { '?' });
            target.push_str(extra);
        }
        let mut head = format!(
            "{} {target} HTTP/1.1\r\nHost: {RECORDED_HOST}\r\n",
            self.method
        );
        for (name, value) in &self.headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        if self.method != "GET" || !body.is_empty() {
            head.push_str(&format!("Content-Length: {}\r\n", body.len()));
        }
        head.push_str("Connection: close\r\n\r\n");
        let mut bytes = head.into_bytes();
        bytes.extend_from_slice(body);
        bytes
    }

    fn render(&self) -> Vec<u8> {
        self.render_with(&self.body())
    }

    /// The index of a random parameter of SOAP type `ty`, if the operation has one.
    fn param_of_type(&self, rng: &mut ChaCha8Rng, ty: &str) -> Option<usize> {
        let spec_op = spec_operation(self.op.name());
        let of_type: Vec<usize> = spec_op
            .params
            .iter()
            .enumerate()
            .filter(|(_, p)| type_name(p.ty) == ty)
            .map(|(i, _)| i)
            .collect();
        of_type.choose(rng).copied()
    }

    fn set_header(&mut self, name: &str, value: Option<String>) {
        self.headers.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        if let Some(value) = value {
            self.headers.push((name.to_owned(), value));
        }
    }
}

fn type_name(ty: rmm_codegen::spec::SoapType) -> &'static str {
    ty.name()
}

/// Lexical forms at and past each type's bounds, and forms a client might send.
const INTS: &[&str] = &[
    "0",
    "-0",
    "+5",
    "007",
    " 42 ",
    "\t42\n",
    "2147483647",
    "2147483648",
    "-2147483648",
    "-2147483649",
    "1e3",
    "1.0",
    "",
    "abc",
    "٣",
    "99999999999999999999",
    "0x10",
    "1_000",
    "１２",
    "- 5",
    "+-5",
    "5 5",
    "00000000000000000000000001",
];
const BOOLEANS: &[&str] = &[
    "true", "false", "1", "0", "True", "FALSE", " true ", "yes", "", "2", "t", "\ntrue\n", "tRuE",
    "01",
];
const DECIMALS: &[&str] = &[
    "1.5",
    "-0.0",
    "+.5",
    "5.",
    "1,5",
    "1e2",
    "79228162514264337593543950335",
    "79228162514264337593543950336",
    "-79228162514264337593543950335",
    "0.0000000000000000000000000001",
    "0.00000000000000000000000000001",
    "0.000000000000000000000000000001",
    " 1.5 ",
    "",
    "NaN",
    "-",
    ".",
    "1.2.3",
    "(5)",
    "5-",
    "$5",
    "1 000",
    "0001.5000",
    "7.9228162514264337593543950335",
    "1234567890123456789012345678.9",
    "-.5",
    "+0",
    "1,234.5",
];
/// Strings: XML-significant, unusual and non-ASCII characters (escaped as the binding needs).
const STRINGS: &[&str] = &[
    "",
    " ",
    "a&b",
    "<x>",
    "]]>",
    "😀",
    "\t\r\n",
    "é",
    "\u{FFFD}",
    "a\u{85}b",
    "FAULT",
    "\u{2028}",
    "\"'",
    "%",
    "+",
    "&#x41;",
    "a\u{7f}b",
    "\u{feff}x",
    "\r",
    "ﬀ",
    "A\u{301}",
    "<!--c-->",
    "x\u{1}y",
    "\u{FFFE}",
];

/// A random string of random pieces of [`STRINGS`].
fn some_string(rng: &mut ChaCha8Rng) -> String {
    let n = rng.random_range(1..4);
    (0..n)
        .map(|_| *STRINGS.choose(rng).expect("not empty"))
        .collect()
}

/// The generated cases of one run: `count` of them, from `seed`.
/// `count` cases of the Mobile service from `rng`.
pub(crate) fn cases(rng: &mut ChaCha8Rng, count: usize) -> Vec<Case> {
    (0..count).map(|_| one(rng)).collect()
}

fn one(rng: &mut ChaCha8Rng) -> Case {
    let op = *Operation::ALL.choose(rng).expect("operations");
    let binding = *Binding::ALL.choose(rng).expect("bindings");
    let call = Call::new(op, binding, rng.random_range(0..8));
    let families: &[fn(&mut ChaCha8Rng, &mut Call) -> Option<String>] = if binding.is_soap() {
        &[
            value,
            value,
            structure,
            envelope_change,
            header,
            bytes_change,
        ]
    } else {
        &[value, value, form_change, header, bytes_change]
    };
    loop {
        let family = families.choose(rng).expect("families");
        let mut changed = call.clone();
        if let Some(class) = family(rng, &mut changed) {
            let request = if class.starts_with("bytes:") {
                let body = bytes_of(rng, &changed, &class);
                changed.render_with(&body)
            } else {
                changed.render()
            };
            return Case {
                class,
                request,
                service: super::Service::Mobile,
            };
        }
    }
}

/// A value of one type changed to another lexical form.
fn value(rng: &mut ChaCha8Rng, call: &mut Call) -> Option<String> {
    let ty = *["int", "boolean", "decimal", "string"]
        .choose(rng)
        .expect("types");
    let at = call.param_of_type(rng, ty)?;
    let text = match ty {
        "int" => INTS.choose(rng).expect("ints").to_string(),
        "boolean" => BOOLEANS.choose(rng).expect("booleans").to_string(),
        "decimal" => DECIMALS.choose(rng).expect("decimals").to_string(),
        _ => some_string(rng),
    };
    call.params[at].text = if call.binding.is_soap() {
        xml_text(&text)
    } else {
        form_value(&text)
    };
    Some(format!("value:{ty}"))
}

/// The SOAP body's structure changed: elements missing, repeated, reordered, unknown, empty,
/// nil, prefixed, unqualified; comments, CDATA, processing instructions, whitespace.
fn structure(rng: &mut ChaCha8Rng, call: &mut Call) -> Option<String> {
    let n = call.params.len();
    let at = rng.random_range(0..n);
    let ns = SERVICE.namespace;
    let name = call.params[at].name.clone();
    let kind = *[
        "missing",
        "repeated",
        "reordered",
        "unknown",
        "empty",
        "self-closing",
        "nil",
        "prefixed",
        "unqualified",
        "comment",
        "cdata",
        "pi",
        "whitespace",
        "attribute",
        "char-ref",
    ]
    .choose(rng)
    .expect("kinds");
    match kind {
        "missing" => {
            call.params.remove(at);
            return Some(format!("structure:{kind}"));
        }
        "repeated" => {
            let mut again = call.params[at].clone();
            again.text = xml_text(&some_string(rng));
            call.params.insert(at + 1, again);
        }
        "reordered" => call.params.reverse(),
        "unknown" => call.params.insert(
            at,
            Param {
                name: "unknownparam".into(),
                text: "1".into(),
                open: None,
                close: None,
            },
        ),
        _ => {}
    }
    let p = &mut call.params[at];
    match kind {
        "missing" | "repeated" | "reordered" | "unknown" => {}
        "empty" => p.text.clear(),
        "self-closing" => {
            p.open = Some(format!("<{name} />"));
            p.close = Some(String::new());
            p.text.clear();
        }
        "nil" => {
            p.open = Some(format!("<{name} xsi:nil=\"true\">"));
            p.text.clear();
        }
        "prefixed" => {
            p.open = Some(format!("<q:{name} xmlns:q=\"{ns}\">"));
            p.close = Some(format!("</q:{name}>"));
        }
        "unqualified" => p.open = Some(format!("<{name} xmlns=\"\">")),
        "comment" => p.text = format!("<!-- c -->{}<!---->", p.text),
        "cdata" => p.text = format!("<![CDATA[{}]]>", p.text.replace("&amp;", "&")),
        "pi" => p.text = format!("<?pi x?>{}", p.text),
        "whitespace" => p.text = format!(" \n\t{}\r\n ", p.text),
        "attribute" => p.open = Some(format!("<{name} a=\"1\">")),
        _ => p.text = format!("&#x{:X};{}", rng.random_range(0x20..0x3000u32), p.text),
    }
    Some(format!("structure:{kind}"))
}

/// The envelope or the operation element changed.
fn envelope_change(rng: &mut ChaCha8Rng, call: &mut Call) -> Option<String> {
    let other = if call.binding == Binding::Soap12 {
        SOAP11_NS
    } else {
        SOAP12_NS
    };
    let kind = *[
        "other-version",
        "unknown-namespace",
        "op-namespace",
        "op-prefixed",
        "header",
        "must-understand",
        "no-declaration",
        "declaration-utf16",
        "two-operations",
        "no-body",
        "bom",
        "before-body",
        "after-body",
        "header-twice",
    ]
    .choose(rng)
    .expect("kinds");
    let ns = SERVICE.namespace;
    let name = call.op.name();
    match kind {
        "other-version" => {
            call.envelope_open = call.envelope_open.replace(
                if call.binding == Binding::Soap12 {
                    SOAP12_NS
                } else {
                    SOAP11_NS
                },
                other,
            )
        }
        "unknown-namespace" => {
            call.envelope_open = call
                .envelope_open
                .replace("xmlns:soap=\"http", "xmlns:soap=\"urn:other:http")
        }
        "op-namespace" => call.op_open = format!("<{name} xmlns=\"{ns}/other\">"),
        "op-prefixed" => {
            call.op_open = format!("<m:{name} xmlns:m=\"{ns}\" xmlns=\"{ns}\">");
            call.op_close = format!("</m:{name}>");
        }
        "header" => {
            call.envelope_open = call.envelope_open.replace(
                "<soap:Body>",
                "<soap:Header><h:Auth xmlns:h=\"urn:h\">x</h:Auth></soap:Header>\n  <soap:Body>",
            )
        }
        "must-understand" => {
            let attr = if call.binding == Binding::Soap12 {
                "soap:mustUnderstand=\"true\""
            } else {
                "soap:mustUnderstand=\"1\""
            };
            call.envelope_open = call.envelope_open.replace(
                "<soap:Body>",
                &format!(
                    "<soap:Header><h:Auth xmlns:h=\"urn:h\" {attr}>x</h:Auth></soap:Header>\n  <soap:Body>"
                ),
            )
        }
        "no-declaration" => call.declaration.clear(),
        "declaration-utf16" => {
            call.declaration = "<?xml version=\"1.0\" encoding=\"utf-16\"?>\n".into()
        }
        "two-operations" => {
            call.envelope_close = format!("\n    <{name} xmlns=\"{ns}\" />{}", call.envelope_close)
        }
        "no-body" => {
            call.envelope_open = call.envelope_open.replace("<soap:Body>", "<soap:Bodi>");
            call.envelope_close = call.envelope_close.replace("</soap:Body>", "</soap:Bodi>");
        }
        "before-body" => {
            call.envelope_open = call.envelope_open.replace(
                "<soap:Body>",
                "<x:Extra xmlns:x=\"urn:x\">1</x:Extra>\n  <soap:Body>",
            )
        }
        "after-body" => {
            call.envelope_close = call.envelope_close.replace(
                "</soap:Body>",
                "</soap:Body>\n  tail <x:Extra xmlns:x=\"urn:x\">1</x:Extra>",
            )
        }
        "header-twice" => {
            call.envelope_open = call.envelope_open.replace(
                "<soap:Body>",
                "<soap:Header/>\n  <soap:Header/>\n  <soap:Body>",
            )
        }
        _ => call.declaration = format!("\u{feff}{}", call.declaration),
    }
    Some(format!("envelope:{kind}"))
}

/// A header, the method, the path or the query changed.
fn header(rng: &mut ChaCha8Rng, call: &mut Call) -> Option<String> {
    let kind = *[
        "content-type",
        "soapaction",
        "method",
        "path-case",
        "query",
        "charset",
    ]
    .choose(rng)
    .expect("kinds");
    let info = call.op.info();
    match kind {
        "content-type" => {
            let value = [
                None,
                Some("text/xml"),
                Some("TEXT/XML; CHARSET=UTF-8"),
                Some("application/soap+xml; charset=utf-8"),
                Some("text/xml; charset=utf-8"),
                Some("application/xml"),
                Some("text/plain"),
                Some("application/x-www-form-urlencoded"),
                Some("application/x-www-form-urlencoded; charset=utf-8"),
                Some("multipart/form-data; boundary=x"),
                Some("application/json"),
                Some("text/xml; charset=\"utf-8\""),
                Some("text/xml;charset=utf-8"),
                Some("text/xml; charset=utf-8; action=\"x\""),
            ]
            .choose(rng)
            .copied()
            .flatten()
            .map(str::to_owned);
            call.set_header("Content-Type", value);
        }
        "soapaction" => {
            let action = info.soap_action.trim_matches('"');
            let other = Operation::ALL
                .choose(rng)
                .expect("operations")
                .info()
                .soap_action;
            let value = [
                None,
                Some(String::new()),
                Some("\"\"".into()),
                Some(action.to_owned()),
                Some(other.to_owned()),
                Some(format!("\"{}\"", action.to_lowercase())),
                Some(format!("\"{action}\" ")),
                Some("\"urn:nothing\"".into()),
                Some(format!("'{action}'")),
            ]
            .choose(rng)
            .cloned()
            .flatten();
            call.set_header("SOAPAction", value);
        }
        "method" => {
            // (HEAD is left out: its answer has a length and no body, which the raw reader
            // would take for a cut answer.)
            call.method = ["GET", "PUT", "DELETE", "OPTIONS", "PATCH", "post"]
                .choose(rng)
                .expect("methods")
                .to_string()
        }
        "path-case" => {
            call.path = match rng.random_range(0..4) {
                0 => call.path.to_lowercase(),
                1 => call.path.to_uppercase(),
                2 => format!("{}/", call.path),
                _ => call.path.replace("/api/", "/api//"),
            }
        }
        "query" => {
            call.query_extra = Some(
                [
                    "wsdl", "WSDL", "disco", "op=x", "a=1", "", "=", "&&", "%zz", "x=%u0041",
                ]
                .choose(rng)
                .expect("queries")
                .to_string(),
            )
        }
        _ => {
            let ct = call
                .headers
                .iter()
                .find(|(n, _)| n == "Content-Type")
                .map(|(_, v)| v.clone())?;
            let base = ct.split(';').next().unwrap_or("").to_owned();
            let charset = [
                "utf-16",
                "iso-8859-1",
                "us-ascii",
                "UTF-8",
                "utf8",
                "bogus",
                "",
            ]
            .choose(rng)
            .expect("charsets");
            call.set_header("Content-Type", Some(format!("{base}; charset={charset}")));
        }
    }
    Some(format!("header:{kind}"))
}

/// GET/POST pairs changed: encodings, repeated, missing and unknown keys.
fn form_change(rng: &mut ChaCha8Rng, call: &mut Call) -> Option<String> {
    let n = call.params.len();
    let at = rng.random_range(0..n);
    let kind = *[
        "repeated",
        "missing",
        "unknown",
        "name-case",
        "no-equals",
        "empty",
        "plus",
        "u-escape",
        "bad-escape",
        "raw-utf8",
        "lower-hex",
        "trailing-amp",
        "encoded-name",
    ]
    .choose(rng)
    .expect("kinds");
    match kind {
        "repeated" => {
            let again = call.params[at].clone();
            call.params.insert(at + 1, again);
        }
        "missing" => {
            call.params.remove(at);
            return Some(format!("form:{kind}"));
        }
        "unknown" => call.params.push(Param {
            name: "unknownparam".into(),
            text: "1".into(),
            open: None,
            close: None,
        }),
        _ => {}
    }
    let p = &mut call.params[at];
    match kind {
        "repeated" | "missing" | "unknown" => {}
        "name-case" => p.name = p.name.to_uppercase(),
        "no-equals" => p.open = Some(String::new()),
        "empty" => p.text.clear(),
        "plus" => p.text = format!("a+b{}", p.text),
        "u-escape" => {
            let unit = [0x41u32, 0xE9, 0x20AC, 0xD83D, 0xDE00, 0x3C, 0xFF1C, 0x0]
                .choose(rng)
                .copied()
                .expect("units");
            p.text = format!("%u{unit:04X}{}", p.text)
        }
        "bad-escape" => {
            p.text = format!(
                "{}{}",
                ["%", "%z", "%zz", "%4", "%u12", "%%41"]
                    .choose(rng)
                    .expect("escapes"),
                p.text
            )
        }
        "raw-utf8" => p.text = format!("café{}", p.text),
        "lower-hex" => p.text = p.text.to_lowercase(),
        "trailing-amp" => p.text = format!("{}&", p.text),
        _ => {
            p.name = p
                .name
                .chars()
                .map(|c| format!("%{:02X}", c as u32))
                .collect()
        }
    }
    Some(format!("form:{kind}"))
}

/// Marks a byte-level change of the rendered body (done in [`bytes_of`]).
fn bytes_change(rng: &mut ChaCha8Rng, call: &mut Call) -> Option<String> {
    if call.binding == Binding::HttpGet {
        return None;
    }
    let kind = *["flip", "delete", "insert", "truncate"]
        .choose(rng)
        .expect("kinds");
    Some(format!("bytes:{kind}"))
}

/// The body of `call` with the byte-level change `class` applied.
fn bytes_of(rng: &mut ChaCha8Rng, call: &Call, class: &str) -> Vec<u8> {
    let mut body = call.body();
    if body.is_empty() {
        return body;
    }
    let at = rng.random_range(0..body.len());
    match class {
        "bytes:flip" => body[at] ^= 1 << rng.random_range(0..8),
        "bytes:delete" => {
            let end = (at + rng.random_range(1..8)).min(body.len());
            body.drain(at..end);
        }
        "bytes:insert" => {
            let byte = *[
                b'<', b'>', b'&', b'"', b'\'', 0, 0xFF, 0xC3, b'%', b'=', b' ',
            ]
            .choose(rng)
            .expect("bytes");
            body.insert(at, byte)
        }
        _ => body.truncate(at),
    }
    body
}
