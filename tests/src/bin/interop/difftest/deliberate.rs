//! The differences we make on purpose, each a rule: the class of request it happens to, the
//! statuses of the host's answer and ours, what else the request (or our answer) shows, why,
//! and a fixed example request. Every run sends every example to both servers and checks
//! that it still differs as its rule says: a deliberate difference that stops happening fails
//! the run, whatever the generated cases met.

use crate::raw::Raw;
use crate::record::RECORDED_HOST;

use super::types_deliberate::TYPES_DELIBERATE;
use super::Outcome;

/// A fixed request: its request line, headers and body (`Host`, `Content-Length` and
/// `Connection: close` are added).
pub(crate) struct Example {
    line: &'static str,
    headers: &'static [&'static str],
    body: &'static [u8],
}

/// The parameters of MobileServiceOrderLockCheck, the operation most examples call.
const LOCK: &str =
    "<sonumber>5</sonumber><repnumber>42</repnumber><timestamp>t</timestamp><sig>s</sig>";
const NS: &str = "http://rmm.example.com/mobile";
const PATH: &str = "/api/rmm/MobileService.asmx";

impl Example {
    /// The request's bytes.
    fn bytes(&self) -> Vec<u8> {
        request(self.line, self.headers, self.body)
    }

    /// `GET {path}/{rest}`.
    fn get(rest: &str) -> Vec<u8> {
        request(&format!("GET {PATH}/{rest}"), &[], b"")
    }

    /// A SOAP 1.1 call of `op` (SOAPAction and body element) holding `children`.
    fn soap11(op: &str, children: &str) -> Vec<u8> {
        Example::soap11_as(op, op, children)
    }

    /// A SOAP 1.1 call whose SOAPAction names `action` and whose body element is `element`.
    fn soap11_as(action: &str, element: &str, children: &str) -> Vec<u8> {
        soap11(
            action,
            &format!(r#"<{element} xmlns="{NS}">{children}</{element}>"#),
            "text/xml; charset=utf-8",
        )
    }

    /// A SOAP 1.1 call of `op` whose element is in namespace `ns`.
    fn soap11_in(op: &str, ns: &str, children: &str) -> Vec<u8> {
        soap11(
            op,
            &format!(r#"<{op} xmlns="{ns}">{children}</{op}>"#),
            "text/xml; charset=utf-8",
        )
    }

    /// A SOAP 1.1 call of MobileServiceOrderLockCheck sent as `content_type`.
    fn soap11_typed(content_type: &str, children: &str) -> Vec<u8> {
        let op = "MobileServiceOrderLockCheck";
        soap11(
            op,
            &format!(r#"<{op} xmlns="{NS}">{children}</{op}>"#),
            content_type,
        )
    }
}

fn soap11(action: &str, element: &str, content_type: &str) -> Vec<u8> {
    let body = format!(
        r#"<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><soap:Body>{element}</soap:Body></soap:Envelope>"#
    );
    request(
        &format!("POST {PATH}"),
        &[
            &format!("Content-Type: {content_type}"),
            &format!("SOAPAction: \"{NS}/{action}\""),
        ],
        body.as_bytes(),
    )
}

fn request(line: &str, headers: &[&str], body: &[u8]) -> Vec<u8> {
    let mut head = format!("{line} HTTP/1.1\r\nHost: {RECORDED_HOST}\r\n");
    for header in headers {
        head.push_str(header);
        head.push_str("\r\n");
    }
    if !line.starts_with("GET ") || !body.is_empty() {
        head.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    head.push_str("Connection: close\r\n\r\n");
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(body);
    bytes
}

/// A difference we make on purpose: the class of request it happens to, what the host and we
/// answer, and why.
pub(crate) struct Deliberate {
    /// The generator's class (`form:u-escape`) or class prefix (`structure:`).
    pub(super) class: &'static str,
    /// The host's status, and ours (200 and 200: the body differs).
    pub(super) mono_status: u16,
    pub(super) ours_status: u16,
    /// What else the request (and the host's answer and ours) must show (`always` when the
    /// class says enough).
    pub(super) when: fn(&[u8], &Raw, &Raw) -> bool,
    /// A request that shows the difference, checked on every run.
    pub(super) example: fn() -> Vec<u8>,
    pub(super) why: &'static str,
}

fn always(_: &[u8], _: &Raw, _: &Raw) -> bool {
    true
}

/// The request carries a `%uXXXX` escape.
fn u_escape(request: &[u8], _: &Raw, _: &Raw) -> bool {
    String::from_utf8_lossy(request).contains("%u")
}

/// Our answer says what we refused: `needle` is in its body.
pub(super) fn ours_says(ours: &Raw, needle: &str) -> bool {
    String::from_utf8_lossy(&ours.body).contains(needle)
}

/// The request's query or form holds a pair without `=`, and our answer says a parameter is
/// missing.
fn pair_without_equals(request: &[u8], _: &Raw, ours: &Raw) -> bool {
    let text = String::from_utf8_lossy(request);
    let Some((head, body)) = text.split_once("\r\n\r\n") else {
        return false;
    };
    let query = head
        .lines()
        .next()
        .and_then(|line| line.split(' ').nth(1))
        .and_then(|target| target.split_once('?'))
        .map_or("", |(_, query)| query);
    let form = if head.starts_with("POST ") { body } else { "" };
    let bare = |pairs: &str| {
        pairs
            .split('&')
            .any(|pair| !pair.is_empty() && !pair.contains('='))
    };
    (bare(query) || bare(form)) && ours_says(ours, "is missing")
}

/// The request declares a JSON body.
fn json(request: &[u8], _: &Raw, _: &Raw) -> bool {
    String::from_utf8_lossy(request).contains("Content-Type: application/json")
}

/// The request's method is written in lower case (`post`).
fn lowercase_method(request: &[u8], _: &Raw, _: &Raw) -> bool {
    request.first().is_some_and(u8::is_ascii_lowercase)
}

fn other_body_element(_: &[u8], _: &Raw, ours: &Raw) -> bool {
    ours_says(ours, "The body element {")
}

fn not_in_declared_charset(_: &[u8], _: &Raw, ours: &Raw) -> bool {
    ours_says(ours, "and holds bytes that are not text in it")
}

fn unnamed_charset(_: &[u8], _: &Raw, ours: &Raw) -> bool {
    ours_says(ours, "ASP.NET reads the body as US-ASCII then")
}

/// A decimal with its sign after the digits (`5-`).
fn trailing_sign(request: &[u8], _: &Raw, _: &Raw) -> bool {
    request.windows(3).any(|w| {
        (w[0].is_ascii_digit() || w[0] == b'.')
            && w[1] == b'-'
            && matches!(w[2], b'&' | b'<' | b' ' | b'\r')
    })
}

/// A form body whose raw bytes are not UTF-8 on their own, which ours read as text only
/// together with the escaped bytes around them.
fn form_bytes_read_together(request: &[u8], _: &Raw, _: &Raw) -> bool {
    let Some(at) = request.windows(4).position(|w| w == b"\r\n\r\n") else {
        return false;
    };
    let head = String::from_utf8_lossy(&request[..at]).to_ascii_lowercase();
    head.starts_with("post ")
        && head.contains("content-type: application/x-www-form-urlencoded")
        && std::str::from_utf8(&request[at + 4..]).is_err()
}

/// A SOAP body with bytes that are not text in its charset: not UTF-8, or above `0x7F`
/// under US-ASCII.
fn body_not_in_charset(request: &[u8], _: &Raw, _: &Raw) -> bool {
    let Some(at) = request.windows(4).position(|w| w == b"\r\n\r\n") else {
        return false;
    };
    let (head, body) = (String::from_utf8_lossy(&request[..at]), &request[at + 4..]);
    if head.to_ascii_lowercase().contains("charset=us-ascii") {
        !body.is_ascii()
    } else {
        std::str::from_utf8(body).is_err()
    }
}

fn not_utf8(_: &[u8], _: &Raw, ours: &Raw) -> bool {
    ours_says(ours, "is not valid UTF-8")
}

fn not_xml_char(_: &[u8], _: &Raw, ours: &Raw) -> bool {
    ours_says(ours, "which XML 1.0 cannot carry")
}

/// A decimal written with a comma (`%2C` over GET/POST), or with more than 28 digits after
/// the point (more than `System.Decimal` holds: .NET rounds them away silently).
fn decimal_misread(request: &[u8], _: &Raw, _: &Raw) -> bool {
    let text = String::from_utf8_lossy(request);
    text.contains("%2C")
        || text
            .split('.')
            .skip(1)
            .any(|after| after.bytes().take_while(u8::is_ascii_digit).count() > 28)
}

const JSON_HANDLER: &str =
    "Content-Type application/json reaches ASP.NET AJAX's JSON handler (a JSON answer, or \
              its HTML error page), which is not one of the interface's four bindings";

/// The named differences: each is a class of request where the host answers 200 with data it
/// misread and we refuse, or where production ASP.NET (.NET Framework) answers otherwise than
/// Mono and we follow production. A case matches a rule when its class starts with the
/// rule's, the statuses are the rule's and the request shows what the rule asks.
pub(crate) const DELIBERATE: &[Deliberate] = &[
    Deliberate {
        class: "structure:unqualified",
        mono_status: 200,
        ours_status: 500,
        when: always,
        example: || {
            Example::soap11(
                "MobileServiceOrderLockCheck",
                r#"<sonumber xmlns="">5</sonumber><repnumber>42</repnumber><timestamp>t</timestamp><sig>s</sig>"#,
            )
        },
        why: "the host reads unqualified parameter elements as absent (defaults)",
    },
    Deliberate {
        class: "structure:nil",
        mono_status: 200,
        ours_status: 500,
        when: always,
        example: || {
            Example::soap11(
                "MobileServiceOrderLockCheck",
                r#"<sonumber>5</sonumber><repnumber>42</repnumber><timestamp>t</timestamp><sig xsi:nil="true" />"#,
            )
        },
        why: "the host reads xsi:nil as an empty string or a default; no parameter is nillable",
    },
    Deliberate {
        class: "envelope:op-namespace",
        mono_status: 200,
        ours_status: 500,
        when: always,
        example: || {
            Example::soap11_in(
                "MobileServiceOrderLockCheck",
                "http://rmm.example.com/mobile/other",
                LOCK,
            )
        },
        why: "the host defaults every parameter of an operation element in another namespace",
    },
    Deliberate {
        class: "",
        mono_status: 200,
        ours_status: 500,
        when: other_body_element,
        example: || {
            Example::soap11_as(
                "MobileServiceOrderLockCheck",
                "MobileServiceOrderLockChek",
                LOCK,
            )
        },
        why: "the host runs the operation the action names with every parameter defaulted \
              when the body's element is another (a name or namespace changed)",
    },
    Deliberate {
        class: "header:soapaction",
        mono_status: 200,
        ours_status: 500,
        when: always,
        example: || {
            Example::soap11_as(
                "MobileAccountDefaultsList",
                "MobileServiceOrderLockCheck",
                LOCK,
            )
        },
        why: "the host runs the operation the SOAPAction names with every parameter defaulted \
              when the body holds another",
    },
    Deliberate {
        class: "form:repeated",
        mono_status: 200,
        ours_status: 500,
        when: always,
        example: || {
            Example::get(
                "MobileServiceOrderLockCheck?sonumber=5&repnumber=42&timestamp=t&sig=a&sig=b",
            )
        },
        why: "the host joins repeated GET/POST values with commas",
    },
    Deliberate {
        class: "value:decimal",
        mono_status: 200,
        ours_status: 500,
        when: decimal_misread,
        example: || {
            Example::get("MobilePartsUsedAssemblyUpdate?sopartsusedassemblydetailkeyid=7&quantity=1%2C5&sellfor=0&repnumber=42&timestamp=t&sig=s&mobilekey=k")
        },
        why: "the host reads `1,5` as 15 over GET/POST, and rounds digits past the 28th away",
    },
    Deliberate {
        class: "form:raw-utf8",
        mono_status: 200,
        ours_status: 200,
        when: always,
        example: || {
            Example::get(
                "MobileServiceOrderLockCheck?sonumber=5&repnumber=42&timestamp=caf\u{e9}&sig=s",
            )
        },
        why: "unescaped UTF-8 in a query or form: ASP.NET on .NET Framework reads it as UTF-8, \
              its request encoding; Mono writes U+FFFD",
    },
    Deliberate {
        class: "form:u-escape",
        mono_status: 200,
        ours_status: 200,
        when: always,
        example: || {
            Example::get(
                "MobileServiceOrderLockCheck?sonumber=5&repnumber=42&timestamp=caf%u00E9&sig=s",
            )
        },
        why: "%uXXXX is its UTF-16 unit on .NET Framework (HttpEncoder.UrlDecode); Mono keeps \
              it literally in a query and writes U+FFFD in a form",
    },
    Deliberate {
        class: "form:u-escape",
        mono_status: 500,
        ours_status: 200,
        when: u_escape,
        example: || {
            Example::get(
                "MobileServiceOrderLockCheck?sonumber=%u0035&repnumber=42&timestamp=t&sig=s",
            )
        },
        why: "%uXXXX is its UTF-16 unit on .NET Framework (HttpEncoder.UrlDecode), so `%u0035` \
              is the int 5; Mono keeps it literally in a query and cannot read it as a number",
    },
    Deliberate {
        class: "form:u-escape",
        mono_status: 200,
        ours_status: 500,
        when: always,
        example: || {
            Example::get(
                "MobileServiceOrderLockCheck?sonumber=5&repnumber=42&timestamp=%uD800&sig=s",
            )
        },
        why: "a lone surrogate escape: .NET Framework reads U+FFFD silently, we refuse",
    },
    Deliberate {
        class: "form:bad-escape",
        mono_status: 200,
        ours_status: 200,
        when: u_escape,
        example: || {
            Example::get(
                "MobileServiceOrderLockCheck?sonumber=5&repnumber=42&timestamp=%u12Acme&sig=s",
            )
        },
        why: "`%u` and four hex digits is that UTF-16 unit on .NET Framework, whatever follows; \
              Mono keeps it literally",
    },
    Deliberate {
        class: "header:content-type",
        mono_status: 200,
        ours_status: 200,
        when: json,
        example: || {
            Example { line: "GET /api/rmm/MobileService.asmx/MobileServiceOrderLockCheck?sonumber=5&repnumber=42&timestamp=t&sig=s", headers: &["Content-Type: application/json"], body: b"" }.bytes()
        },
        why: JSON_HANDLER,
    },
    Deliberate {
        class: "header:content-type",
        mono_status: 500,
        ours_status: 415,
        when: json,
        example: || {
            Example {
                line: "POST /api/rmm/MobileService.asmx",
                headers: &["Content-Type: application/json"],
                body: b"{}",
            }
            .bytes()
        },
        why: JSON_HANDLER,
    },
    Deliberate {
        class: "header:content-type",
        mono_status: 500,
        ours_status: 500,
        when: json,
        example: || {
            Example {
                line: "POST /api/rmm/MobileService.asmx/MobileServiceOrderLockCheck",
                headers: &["Content-Type: application/json"],
                body: b"not json",
            }
            .bytes()
        },
        why: JSON_HANDLER,
    },
    Deliberate {
        class: "header:method",
        mono_status: 400,
        ours_status: 405,
        when: lowercase_method,
        example: || {
            Example {
                line: "post /api/rmm/MobileService.asmx",
                headers: &["Content-Type: text/xml; charset=utf-8"],
                body: b"<a/>",
            }
            .bytes()
        },
        why: "a method in lower case (`post`) is another method (methods are case-sensitive): \
              we answer it as any other; nginx, in front of the host, refuses it with 400",
    },
    Deliberate {
        class: "header:method",
        mono_status: 400,
        ours_status: 500,
        when: lowercase_method,
        example: || {
            Example {
                line: "post /api/rmm/MobileService.asmx/MobileServiceOrderLockCheck",
                headers: &["Content-Type: application/x-www-form-urlencoded"],
                body: b"sonumber=5&repnumber=42&timestamp=t&sig=s",
            }
            .bytes()
        },
        why: "a method in lower case (`post`) is another method (methods are case-sensitive): \
              we answer it as any other; nginx, in front of the host, refuses it with 400",
    },
    Deliberate {
        class: "",
        mono_status: 200,
        ours_status: 500,
        when: not_in_declared_charset,
        example: || {
            Example {
                line: "POST /api/rmm/MobileService.asmx/MobileServiceOrderLockCheck",
                headers: &["Content-Type: application/x-www-form-urlencoded; charset=us-ascii"],
                body: b"sonumber=5&repnumber=42&timestamp=caf%E9&sig=s",
            }
            .bytes()
        },
        why: "a form body with bytes that are not text in its declared charset (US-ASCII and \
              bytes above 0x7F): the host reads `?` silently, we refuse",
    },
    Deliberate {
        class: "",
        mono_status: 200,
        ours_status: 500,
        when: unnamed_charset,
        example: || {
            Example::soap11_typed("text/xml", "<sonumber>5</sonumber><repnumber>42</repnumber><timestamp>caf\u{e9}</timestamp><sig>s</sig>")
        },
        why: "a text/xml body with bytes above 0x7F and no charset ASP.NET can name (none, \
              `utf8`, empty): the host reads it as US-ASCII, `?` for each such byte, silently \
              (as .NET does); we refuse",
    },
    Deliberate {
        class: "header:charset",
        mono_status: 500,
        ours_status: 400,
        when: always,
        example: || {
            Example {
                line: "POST /api/rmm/MobileService.asmx",
                headers: &["Content-Type: application/soap+xml; charset=utf-16"],
                body: "<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope xmlns:soap=\"http://www.w3.org/2003/05/soap-envelope\"><soap:Body><MobileServiceOrderLockCheck xmlns=\"http://rmm.example.com/mobile\"><sonumber>5</sonumber><sig>café</sig></MobileServiceOrderLockCheck></soap:Body></soap:Envelope>".as_bytes(),
            }
            .bytes()
        },
        why: "a body that is not text in its declared charset (UTF-8 bytes declared UTF-16): \
              the host answers a server fault, we answer 400 as for malformed XML (the request \
              is at fault)",
    },
    Deliberate {
        class: "",
        mono_status: 200,
        ours_status: 400,
        when: body_not_in_charset,
        example: || {
            Example { line: "POST /api/rmm/MobileService.asmx", headers: &["Content-Type: text/xml; charset=utf-8", "SOAPAction: \"http://rmm.example.com/mobile/MobileServiceOrderLockCheck\""], body: b"<soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\"><soap:Body><MobileServiceOrderLockCheck xmlns=\"http://rmm.example.com/mobile\"><sonumber>5</sonumber><sig>a\xffb</sig></MobileServiceOrderLockCheck></soap:Body></soap:Envelope>" }.bytes()
        },
        why: "a SOAP body with bytes that are not text in its charset (not UTF-8, or above 0x7F \
              under US-ASCII): the host reads U+FFFD or `?` silently; we answer 400, as for \
              malformed XML",
    },
    Deliberate {
        class: "value:decimal",
        mono_status: 200,
        ours_status: 500,
        when: trailing_sign,
        example: || {
            Example::get("MobilePartsUsedAssemblyUpdate?sopartsusedassemblydetailkeyid=7&quantity=5-&sellfor=0&repnumber=42&timestamp=t&sig=s&mobilekey=k")
        },
        why: "a decimal with a trailing sign (`5-`): .NET reads it, we refuse it (see the README)",
    },
    Deliberate {
        // Any class: byte mutations of a form make such pairs too.
        class: "",
        mono_status: 200,
        ours_status: 500,
        when: pair_without_equals,
        example: || {
            Example {
                line: "POST /api/rmm/MobileService.asmx/MobileServiceOrderLockCheck",
                headers: &["Content-Type: application/x-www-form-urlencoded"],
                body: b"sonumber=5&repnumber=42&timestamp=t&sig",
            }
            .bytes()
        },
        why: ".NET Framework (HttpValueCollection) reads a pair without `=` as a value without \
              a name, so the parameter is missing; Mono reads it as the parameter, empty",
    },
    Deliberate {
        class: "",
        mono_status: 200,
        ours_status: 500,
        when: not_utf8,
        example: || {
            Example::get("MobileServiceOrderLockCheck?sonumber=5&repnumber=42&timestamp=%FF&sig=s")
        },
        why: "bytes that are not UTF-8 after percent-decoding: the host reads U+FFFD silently, \
              we refuse",
    },
    Deliberate {
        class: "",
        mono_status: 200,
        ours_status: 500,
        when: not_xml_char,
        example: || {
            Example::get("MobileServiceOrderLockCheck?sonumber=5&repnumber=42&timestamp=%01&sig=s")
        },
        why: "a result holding a character XML 1.0 cannot carry: the host writes a character \
              reference no conforming reader accepts (.NET's own client refuses it); we answer \
              the binding's error instead",
    },
    Deliberate {
        class: "",
        mono_status: 200,
        ours_status: 200,
        when: form_bytes_read_together,
        example: || {
            Example {
                line: "POST /api/rmm/MobileService.asmx/MobileServiceOrderLockCheck",
                headers: &["Content-Type: application/x-www-form-urlencoded"],
                body: b"sonumber=5&repnumber=42&timestamp=t&sig=%E2%98\xA5",
            }
            .bytes()
        },
        why: "a form whose raw bytes make text only with the escaped bytes beside them \
              (`%E2%98` then a raw 0xA5: U+2625): .NET Framework decodes a form's raw and \
              escaped bytes as one run (HttpValueCollection.FillFromEncodedBytes, \
              HttpEncoder.UrlDecode over bytes), and so do we; Mono reads the raw bytes as \
              text first, writing U+FFFD for each piece",
    },
];

pub(crate) fn explained(
    class: &str,
    request: &[u8],
    (mono, ours): (&Outcome, &Outcome),
    (mono_raw, ours_raw): (&Raw, &Raw),
) -> Option<&'static Deliberate> {
    DELIBERATE
        .iter()
        .chain(TYPES_DELIBERATE)
        .chain(super::objects_deliberate::OBJECTS_DELIBERATE)
        .chain(super::script_deliberate::SCRIPT_DELIBERATE)
        .find(|d| {
            class.starts_with(d.class)
                && mono.status == d.mono_status
                && ours.status == d.ours_status
                && (d.when)(request, mono_raw, ours_raw)
        })
}

impl Deliberate {
    /// Why the difference is made.
    pub(crate) fn why(&self) -> &'static str {
        self.why
    }

    /// The example's request.
    pub(crate) fn example(&self) -> Vec<u8> {
        (self.example)()
    }

    /// Whether the answers to the example still differ as the rule says.
    pub(crate) fn holds(&self, request: &[u8], mono: &Raw, ours: &Raw) -> bool {
        let (mo, oo) = (Outcome::of(mono), Outcome::of(ours));
        mo != oo
            && mono.status == self.mono_status
            && ours.status == self.ours_status
            && (self.when)(request, mono, ours)
    }

    /// The service its example goes to.
    pub(crate) fn service(&self) -> super::Service {
        if self.class.starts_with("types:") {
            super::Service::Types
        } else if self.class.starts_with("objects:") {
            super::Service::Objects
        } else if self.class.starts_with("script:") {
            super::Service::Script
        } else {
            super::Service::Mobile
        }
    }

    /// `class (Mono status, ours status)`, for messages.
    pub(crate) fn label(&self) -> String {
        format!(
            "{} (Mono {}, ours {})",
            if self.class.is_empty() {
                "any class"
            } else {
                self.class
            },
            self.mono_status,
            self.ours_status
        )
    }
}
