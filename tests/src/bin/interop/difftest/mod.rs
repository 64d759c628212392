//! `--difftest`: differential testing against the reference host. Generated requests
//! ([`generate`]) go byte for byte to the Mono host and to our echo server; their answers are
//! compared by what a client acts on ([`Outcome`]): the status, the content type, the SOAP
//! fault code (with SOAP 1.2's subcode), and for a 200 the body's bytes. Every difference is
//! either named by a [`Deliberate`] rule (we refuse where the host answers with silently wrong
//! data, or we follow .NET Framework where Mono differs) or unexplained. The report
//! (`target/interop/difftest.md`) counts cases and differences per class, each with the
//! shortest request that shows it.

mod generate;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::net::SocketAddr;
use std::path::Path;

use futures_util::StreamExt;
use rmm_mobile::runtime::deps::tokio;
use rmm_tests::captures::{between, with_raw_cr};

use crate::raw::{exchange, Raw};

/// What a client acts on in an answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Outcome {
    status: u16,
    content_type: String,
    /// `soap:Client` (1.1) or `soap:Sender/…` (1.2, with its subcode), when a fault.
    fault: Option<String>,
    /// The body of a 200 (HTML pages aside), as the host would write it (our `&#xD;` as a
    /// raw CR: the one deliberate difference in results, see the README).
    body: Option<Vec<u8>>,
}

impl Outcome {
    fn of(raw: &Raw) -> Outcome {
        let content_type = raw.header("content-type").unwrap_or("").to_owned();
        let text = String::from_utf8_lossy(&raw.body);
        let fault = between(&text, "<faultcode>", "</faultcode>")
            .map(str::to_owned)
            .or_else(|| {
                let code = between(&text, "<soap:Code>", "</soap:Code>")?;
                let value = between(code, "<soap:Value>", "</soap:Value>")?;
                let sub = between(code, "<soap:Subcode>", "</soap:Subcode>")
                    .and_then(|s| between(s, "<soap:Value>", "</soap:Value>"));
                Some(match sub {
                    Some(sub) => format!("{value}/{sub}"),
                    None => value.to_owned(),
                })
            });
        let body = (raw.status == 200 && !content_type.starts_with("text/html"))
            .then(|| with_raw_cr(&raw.body));
        Outcome {
            status: raw.status,
            content_type,
            fault,
            body,
        }
    }

    /// One line: `500 text/xml soap:Client`.
    fn summary(&self) -> String {
        let mut text = format!("{} {}", self.status, self.content_type);
        if let Some(fault) = &self.fault {
            text.push(' ');
            text.push_str(fault);
        }
        text
    }
}

/// The kind of a difference between two outcomes, for grouping: what differs, with both
/// sides' status, content type and fault code (not the bodies).
fn difference(mono: &Outcome, ours: &Outcome) -> Option<String> {
    if mono == ours {
        return None;
    }
    let (m, o) = (mono.summary(), ours.summary());
    if m != o {
        Some(format!("Mono {m} / ours {o}"))
    } else {
        Some(format!("{m}: the body differs"))
    }
}

/// A difference we make on purpose: the class of request it happens to, what the host and we
/// answer, and why.
pub(crate) struct Deliberate {
    /// The generator's class (`form:u-escape`) or class prefix (`structure:`).
    class: &'static str,
    /// The host's status, and ours (200 and 200: the body differs).
    mono_status: u16,
    ours_status: u16,
    /// What else the request (and our answer) must show (`always` when the class says
    /// enough).
    when: fn(&[u8], &Raw) -> bool,
    why: &'static str,
}

fn always(_: &[u8], _: &Raw) -> bool {
    true
}

/// The request carries a `%uXXXX` escape.
fn u_escape(request: &[u8], _: &Raw) -> bool {
    String::from_utf8_lossy(request).contains("%u")
}

/// Our answer says what we refused: `needle` is in its body.
fn ours_says(ours: &Raw, needle: &str) -> bool {
    String::from_utf8_lossy(&ours.body).contains(needle)
}

/// The request declares a JSON body.
fn json(request: &[u8], _: &Raw) -> bool {
    String::from_utf8_lossy(request).contains("Content-Type: application/json")
}

/// The request's method is written in lower case (`post`).
fn lowercase_method(request: &[u8], _: &Raw) -> bool {
    request.first().is_some_and(u8::is_ascii_lowercase)
}

fn other_body_element(_: &[u8], ours: &Raw) -> bool {
    ours_says(ours, "The body element {")
}

fn not_in_declared_charset(_: &[u8], ours: &Raw) -> bool {
    ours_says(ours, "and holds bytes that are not text in it")
}

fn unnamed_charset(_: &[u8], ours: &Raw) -> bool {
    ours_says(ours, "ASP.NET reads the body as US-ASCII then")
}

/// A GET to the endpoint with a SOAP content type.
fn get_with_soap_type(request: &[u8], _: &Raw) -> bool {
    let text = String::from_utf8_lossy(request);
    text.starts_with("GET ")
        && (text.contains("Content-Type: text/xml")
            || text.contains("Content-Type: application/soap+xml"))
}

/// A decimal with its sign after the digits (`5-`).
fn trailing_sign(request: &[u8], _: &Raw) -> bool {
    request.windows(3).any(|w| {
        (w[0].is_ascii_digit() || w[0] == b'.')
            && w[1] == b'-'
            && matches!(w[2], b'&' | b'<' | b' ' | b'\r')
    })
}

/// A byte out of XML's name grammar inside the XML declaration's encoding name.
fn bad_declaration(request: &[u8], _: &Raw) -> bool {
    let text = String::from_utf8_lossy(request);
    text.split("encoding=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .is_some_and(|name| {
            !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
        })
}

/// A SOAP body with bytes that are not text in its charset: not UTF-8, or above `0x7F`
/// under US-ASCII.
fn body_not_in_charset(request: &[u8], _: &Raw) -> bool {
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

fn not_utf8(_: &[u8], ours: &Raw) -> bool {
    ours_says(ours, "is not valid UTF-8")
}

fn not_xml_char(_: &[u8], ours: &Raw) -> bool {
    ours_says(ours, "which XML 1.0 cannot carry")
}

/// A decimal written with a comma (`%2C` over GET/POST), or with more than 28 digits after
/// the point (more than `System.Decimal` holds: .NET rounds them away silently).
fn decimal_misread(request: &[u8], _: &Raw) -> bool {
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
const DELIBERATE: &[Deliberate] = &[
    Deliberate {
        class: "structure:unqualified",
        mono_status: 200,
        ours_status: 500,
        when: always,
        why: "the host reads unqualified parameter elements as absent (defaults)",
    },
    Deliberate {
        class: "structure:nil",
        mono_status: 200,
        ours_status: 500,
        when: always,
        why: "the host reads xsi:nil as an empty string or a default; no parameter is nillable",
    },
    Deliberate {
        class: "envelope:op-namespace",
        mono_status: 200,
        ours_status: 500,
        when: always,
        why: "the host defaults every parameter of an operation element in another namespace",
    },
    Deliberate {
        class: "",
        mono_status: 200,
        ours_status: 500,
        when: other_body_element,
        why: "the host runs the operation the action names with every parameter defaulted \
              when the body's element is another (a name or namespace changed)",
    },
    Deliberate {
        class: "header:soapaction",
        mono_status: 200,
        ours_status: 500,
        when: always,
        why: "the host runs the operation the SOAPAction names with every parameter defaulted \
              when the body holds another",
    },
    Deliberate {
        class: "form:repeated",
        mono_status: 200,
        ours_status: 500,
        when: always,
        why: "the host joins repeated GET/POST values with commas",
    },
    Deliberate {
        class: "value:decimal",
        mono_status: 200,
        ours_status: 500,
        when: decimal_misread,
        why: "the host reads `1,5` as 15 over GET/POST, and rounds digits past the 28th away",
    },
    Deliberate {
        class: "form:raw-utf8",
        mono_status: 200,
        ours_status: 200,
        when: always,
        why: "unescaped UTF-8 in a query or form: ASP.NET on .NET Framework reads it as UTF-8, \
              its request encoding; Mono writes U+FFFD",
    },
    Deliberate {
        class: "form:u-escape",
        mono_status: 200,
        ours_status: 200,
        when: always,
        why: "%uXXXX is its UTF-16 unit on .NET Framework (HttpEncoder.UrlDecode); Mono keeps \
              it literally in a query and writes U+FFFD in a form",
    },
    Deliberate {
        class: "form:u-escape",
        mono_status: 200,
        ours_status: 500,
        when: always,
        why: "a lone surrogate escape: .NET Framework reads U+FFFD silently, we refuse",
    },
    Deliberate {
        class: "form:bad-escape",
        mono_status: 200,
        ours_status: 200,
        when: u_escape,
        why: "`%u` and four hex digits is that UTF-16 unit on .NET Framework, whatever follows; \
              Mono keeps it literally",
    },
    Deliberate {
        class: "header:content-type",
        mono_status: 200,
        ours_status: 200,
        when: json,
        why: JSON_HANDLER,
    },
    Deliberate {
        class: "header:content-type",
        mono_status: 500,
        ours_status: 415,
        when: json,
        why: JSON_HANDLER,
    },
    Deliberate {
        class: "header:content-type",
        mono_status: 500,
        ours_status: 500,
        when: json,
        why: JSON_HANDLER,
    },
    Deliberate {
        class: "header:method",
        mono_status: 400,
        ours_status: 405,
        when: lowercase_method,
        why: "a method in lower case (`post`) is another method (methods are case-sensitive): \
              we answer it as any other; nginx, in front of the host, refuses it with 400",
    },
    Deliberate {
        class: "header:method",
        mono_status: 400,
        ours_status: 500,
        when: lowercase_method,
        why: "a method in lower case (`post`) is another method (methods are case-sensitive): \
              we answer it as any other; nginx, in front of the host, refuses it with 400",
    },
    Deliberate {
        class: "",
        mono_status: 200,
        ours_status: 500,
        when: not_in_declared_charset,
        why: "a form body with bytes that are not text in its declared charset (US-ASCII and \
              bytes above 0x7F): the host reads `?` silently, we refuse",
    },
    Deliberate {
        class: "",
        mono_status: 200,
        ours_status: 500,
        when: unnamed_charset,
        why: "a text/xml body with bytes above 0x7F and no charset ASP.NET can name (none, \
              `utf8`, empty): the host reads it as US-ASCII, `?` for each such byte, silently \
              (as .NET does); we refuse",
    },
    Deliberate {
        class: "header:charset",
        mono_status: 500,
        ours_status: 400,
        when: always,
        why: "a body that is not text in its declared charset (UTF-8 bytes declared UTF-16): \
              the host answers a server fault, we answer 400 as for malformed XML (the request \
              is at fault)",
    },
    Deliberate {
        class: "bytes:insert",
        mono_status: 200,
        ours_status: 400,
        when: bad_declaration,
        why: "an XML declaration whose encoding name is out of XML's grammar: the host ignores \
              it when the content type names a charset; we refuse it (400), as .NET's reader \
              refuses it when it reads the declaration",
    },
    Deliberate {
        class: "",
        mono_status: 200,
        ours_status: 400,
        when: body_not_in_charset,
        why: "a SOAP body with bytes that are not text in its charset (not UTF-8, or above 0x7F \
              under US-ASCII): the host reads U+FFFD or `?` silently; we answer 400, as for \
              malformed XML",
    },
    Deliberate {
        class: "header:method",
        mono_status: 500,
        ours_status: 200,
        when: get_with_soap_type,
        why: "a GET to the endpoint with a SOAP content type: .NET's SOAP protocols take POST \
              only (SoapServerProtocolFactory), so the help page answers; Mono answers 500",
    },
    Deliberate {
        class: "value:decimal",
        mono_status: 200,
        ours_status: 500,
        when: trailing_sign,
        why: "a decimal with a trailing sign (`5-`): .NET reads it, we refuse it (see the README)",
    },
    Deliberate {
        class: "form:no-equals",
        mono_status: 200,
        ours_status: 500,
        when: always,
        why: ".NET Framework (HttpValueCollection) reads a pair without `=` as a value without \
              a name, so the parameter is missing; Mono reads it as the parameter, empty",
    },
    Deliberate {
        class: "",
        mono_status: 200,
        ours_status: 500,
        when: not_utf8,
        why: "bytes that are not UTF-8 after percent-decoding: the host reads U+FFFD silently, \
              we refuse",
    },
    Deliberate {
        class: "",
        mono_status: 200,
        ours_status: 500,
        when: not_xml_char,
        why: "a result holding a character XML 1.0 cannot carry: the host writes a character \
              reference no conforming reader accepts (.NET's own client refuses it); we answer \
              the binding's error instead",
    },
];

fn explained(
    class: &str,
    request: &[u8],
    (mono, ours): (&Outcome, &Outcome),
    ours_raw: &Raw,
) -> Option<&'static Deliberate> {
    DELIBERATE.iter().find(|d| {
        class.starts_with(d.class)
            && mono.status == d.mono_status
            && ours.status == d.ours_status
            && (d.when)(request, ours_raw)
    })
}

/// A class of difference: the generator's class, what differs, and the deliberate rule's
/// reason if one names it (cases of one class and kind may be named or not).
type Key = (String, String, Option<&'static str>);

/// One class of difference: how often, and the shortest request showing it.
struct Seen {
    count: usize,
    example: Vec<u8>,
    mono: Raw,
    ours: Raw,
    why: Option<&'static str>,
}

/// Sends every case of `seed` and `count` to both servers and writes the report; returns the
/// number of unexplained differences.
pub(crate) async fn run(
    mono: SocketAddr,
    ours: SocketAddr,
    seed: u64,
    count: usize,
    report: &Path,
) -> Result<usize, String> {
    let cases = generate::cases(seed, count);
    let mut per_class: BTreeMap<String, usize> = BTreeMap::new();
    let mut seen: BTreeMap<Key, Seen> = BTreeMap::new();
    let started = std::time::Instant::now();
    // A few requests at a time: the host answers each in milliseconds.
    let mut pending = futures_util::stream::iter(cases.into_iter().map(|case| async move {
        let (m, o) = tokio::join!(exchange(mono, &case.request), exchange(ours, &case.request));
        (case, m, o)
    }))
    .buffer_unordered(4);
    while let Some((case, m, o)) = pending.next().await {
        *per_class.entry(case.class.clone()).or_default() += 1;
        let (m, o) = match (m, o) {
            (Ok(m), Ok(o)) => (m, o),
            (m, o) => {
                let what = format!(
                    "no answer: Mono {}, ours {}",
                    m.err().unwrap_or_else(|| "answered".into()),
                    o.err().unwrap_or_else(|| "answered".into())
                );
                note(&mut seen, &case, what, None, None, None);
                continue;
            }
        };
        let (mo, oo) = (Outcome::of(&m), Outcome::of(&o));
        if let Some(kind) = difference(&mo, &oo) {
            let why = explained(&case.class, &case.request, (&mo, &oo), &o).map(|d| d.why);
            note(&mut seen, &case, kind, Some(m), Some(o), why);
        }
    }
    let unexplained: usize = seen
        .values()
        .filter(|s| s.why.is_none())
        .map(|s| s.count)
        .sum();
    // Each rule is checked too: one no run of this size meets has stopped happening (or is
    // no longer generated), and is a failure like an unexplained difference.
    let unseen: Vec<&Deliberate> = DELIBERATE
        .iter()
        .filter(|d| !seen.values().any(|s| s.why == Some(d.why)))
        .collect();
    let mut text = render(seed, count, started.elapsed(), &per_class, &seen);
    if !unseen.is_empty() {
        text.push_str("\n## Deliberate differences not seen in this run\n\n");
        for d in &unseen {
            let _ = writeln!(
                text,
                "- {} (Mono {}, ours {}): {}",
                d.class, d.mono_status, d.ours_status, d.why
            );
        }
    }
    if let Some(dir) = report.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::write(report, text).map_err(|e| format!("{}: {e}", report.display()))?;
    // A short run may miss a rule by chance; from the CI's size on, it may not.
    let missed = if count >= 2000 { unseen.len() } else { 0 };
    Ok(unexplained + missed)
}

fn note(
    seen: &mut BTreeMap<Key, Seen>,
    case: &generate::Case,
    kind: String,
    mono: Option<Raw>,
    ours: Option<Raw>,
    why: Option<&'static str>,
) {
    let empty = || Raw {
        status: 0,
        headers: Vec::new(),
        body: Vec::new(),
    };
    let entry = seen
        .entry((case.class.clone(), kind, why))
        .or_insert_with(|| Seen {
            count: 0,
            example: case.request.clone(),
            mono: mono.clone().unwrap_or_else(empty),
            ours: ours.clone().unwrap_or_else(empty),
            why,
        });
    entry.count += 1;
    if case.request.len() < entry.example.len() {
        entry.example = case.request.clone();
        entry.mono = mono.unwrap_or_else(empty);
        entry.ours = ours.unwrap_or_else(empty);
    }
}

/// Printable text of bytes, cut at `limit`.
fn shown(bytes: &[u8], limit: usize) -> String {
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(limit)]).into_owned();
    let more = if bytes.len() > limit { "…" } else { "" };
    format!("{}{more}", text.replace("```", "`\u{200b}``"))
}

fn render(
    seed: u64,
    count: usize,
    took: std::time::Duration,
    per_class: &BTreeMap<String, usize>,
    seen: &BTreeMap<Key, Seen>,
) -> String {
    let unexplained: usize = seen
        .values()
        .filter(|s| s.why.is_none())
        .map(|s| s.count)
        .sum();
    let deliberate: usize = seen
        .values()
        .filter(|s| s.why.is_some())
        .map(|s| s.count)
        .sum();
    let mut out = format!(
        "# Differential test: the Mono host and ours\n\n\
         Seed {seed}, {count} cases in {:.1} s: {unexplained} unexplained differences, \
         {deliberate} deliberate.\n\n\
         Run: `cargo xtask difftest --cases {count} --seed {seed}`.\n\n\
         ## Cases per class\n\n| class | cases | unexplained | deliberate |\n|---|---|---|---|\n",
        took.as_secs_f64()
    );
    for (class, n) in per_class {
        let (u, d) =
            seen.iter()
                .filter(|((c, _, _), _)| c == class)
                .fold((0, 0), |(u, d), (_, s)| {
                    if s.why.is_some() {
                        (u, d + s.count)
                    } else {
                        (u + s.count, d)
                    }
                });
        let _ = writeln!(out, "| {class} | {n} | {u} | {d} |");
    }
    for (title, deliberate) in [
        ("Unexplained differences", false),
        ("Deliberate differences", true),
    ] {
        let _ = write!(out, "\n## {title}\n");
        for ((class, kind, _), s) in seen.iter().filter(|(_, s)| s.why.is_some() == deliberate) {
            let _ = write!(out, "\n### {class}: {kind} ({} cases)\n\n", s.count);
            if let Some(why) = s.why {
                let _ = writeln!(out, "Why: {why}.\n");
            }
            let _ = write!(
                out,
                "Shortest request ({} bytes):\n\n```\n{}\n```\n\nMono: {} `{}`\n\nours: {} `{}`\n",
                s.example.len(),
                shown(&s.example, 2000),
                s.mono.status,
                shown(&s.mono.body, 300).replace('\n', " "),
                s.ours.status,
                shown(&s.ours.body, 300).replace('\n', " "),
            );
        }
    }
    out
}
