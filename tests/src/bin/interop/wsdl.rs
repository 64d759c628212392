//! The WSDL sections: for each service (the Mobile one and the types service), Mono's
//! `?wsdl` and ours, compared structurally (operations, parameters, types, occurrence rules,
//! messages, bindings, ports), one check per WSDL section, naming each difference.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use rmm_mobile::runtime::deps::bytes::Bytes;
use rmm_mobile::runtime::deps::http::Request;
use rmm_mobile::{Operation, SERVICE};

use crate::raw::{exchange, raw_request};
use crate::{Checks, Target};

fn ns_label(uri: &str, tns: &str) -> String {
    match uri {
        "http://schemas.xmlsoap.org/wsdl/" => "wsdl".into(),
        "http://www.w3.org/2001/XMLSchema" => "xsd".into(),
        "http://schemas.xmlsoap.org/wsdl/soap/" => "soap".into(),
        "http://schemas.xmlsoap.org/wsdl/soap12/" => "soap12".into(),
        "http://schemas.xmlsoap.org/wsdl/http/" => "http".into(),
        "http://schemas.xmlsoap.org/wsdl/mime/" => "mime".into(),
        "http://schemas.xmlsoap.org/soap/encoding/" => "soapenc".into(),
        "http://microsoft.com/wsdl/mime/textMatching/" => "tm".into(),
        u if u == tns => "tns".into(),
        "" => String::new(),
        u => format!("{{{u}}}"),
    }
}

fn xml_unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

/// The WSDL as a set of lines, one per element: its path (elements named by their `name`),
/// its other attributes (QNames resolved, addresses reduced to their path) and its text; plus
/// one line per `xsd:sequence` and `wsdl:message` giving the order of its children.
fn wsdl_lines(xml: &str, tns: &str) -> Result<BTreeSet<String>, String> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut lines = BTreeSet::new();
    // Per open element: (path, prefix bindings, names of its children in order, text).
    struct Open {
        path: String,
        ns: BTreeMap<String, String>,
        children: Vec<String>,
        text: String,
        line: String,
        ordered: bool,
    }
    let mut stack: Vec<Open> = Vec::new();
    loop {
        let event = reader
            .read_event()
            .map_err(|e| format!("WSDL is not well-formed: {e}"))?;
        let (start, empty) = match &event {
            Event::Start(e) => (Some(e.clone()), false),
            Event::Empty(e) => (Some(e.clone()), true),
            _ => (None, false),
        };
        if let Some(e) = start {
            let mut ns = stack.last().map(|o| o.ns.clone()).unwrap_or_default();
            let mut attrs = Vec::new();
            for attr in e.attributes() {
                let attr = attr.map_err(|e| format!("attribute: {e}"))?;
                let key = String::from_utf8_lossy(attr.key.as_ref()).into_owned();
                let value = xml_unescape(&String::from_utf8_lossy(&attr.value));
                if key == "xmlns" {
                    ns.insert(String::new(), value);
                } else if let Some(prefix) = key.strip_prefix("xmlns:") {
                    ns.insert(prefix.to_owned(), value);
                } else {
                    attrs.push((key, value));
                }
            }
            let qname = |name: &str, default: bool| -> String {
                match name.split_once(':') {
                    Some((p, local)) => match ns.get(p) {
                        Some(uri) => format!("{}:{local}", ns_label(uri, tns)),
                        None => format!("{p}?:{local}"),
                    },
                    None if default => match ns.get("") {
                        Some(uri) if !uri.is_empty() => format!("{}:{name}", ns_label(uri, tns)),
                        _ => name.to_owned(),
                    },
                    None => name.to_owned(),
                }
            };
            let tag = qname(&String::from_utf8_lossy(e.name().as_ref()), true);
            let name = attrs
                .iter()
                .find(|(k, _)| k == "name")
                .map(|(_, v)| v.clone());
            let parent_path = stack.last().map(|o| o.path.clone()).unwrap_or_default();
            let segment = match &name {
                Some(n) => format!("{tag}[{n}]"),
                None => {
                    // Unnamed: numbered among the same tags of its parent.
                    let same = stack.last().map_or(0, |o| {
                        o.children
                            .iter()
                            .filter(|c| c.starts_with(&format!("{tag}#")))
                            .count()
                    });
                    format!("{tag}#{}", same + 1)
                }
            };
            if let Some(parent) = stack.last_mut() {
                parent.children.push(match &name {
                    Some(n) => n.clone(),
                    None => segment.clone(),
                });
            }
            let path = format!("{parent_path}/{segment}");
            let mut shown: Vec<String> = attrs
                .iter()
                .filter(|(k, _)| k != "name")
                .map(|(k, v)| {
                    let v = match k.as_str() {
                        "type" | "element" | "base" | "binding" | "message" | "ref" => {
                            qname(v, false)
                        }
                        "location" if tag.ends_with(":address") => v
                            .split_once("://")
                            .and_then(|(_, rest)| rest.find('/').map(|i| rest[i..].to_owned()))
                            .unwrap_or_else(|| v.clone()),
                        _ => v.clone(),
                    };
                    format!("{k}={v}")
                })
                .collect();
            shown.sort();
            let ordered = tag == "xsd:sequence" || tag == "wsdl:message";
            let open = Open {
                path: path.clone(),
                ns,
                children: Vec::new(),
                text: String::new(),
                line: format!("{path} {}", shown.join(" ")),
                ordered,
            };
            if empty {
                lines.insert(open.line.trim_end().to_owned());
            } else {
                stack.push(open);
            }
            continue;
        }
        match event {
            Event::Text(t) => {
                if let Some(open) = stack.last_mut() {
                    open.text.push_str(&String::from_utf8_lossy(&t));
                }
            }
            Event::End(_) => {
                let open = stack.pop().ok_or("unbalanced WSDL")?;
                let mut line = open.line.trim_end().to_owned();
                let text = open.text.trim();
                if !text.is_empty() {
                    let _ = write!(line, " text={:?}", xml_unescape(text));
                }
                lines.insert(line);
                if open.ordered && !open.children.is_empty() {
                    lines.insert(format!("{} order={}", open.path, open.children.join(",")));
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(lines)
}

/// The WSDL section a line belongs to (`wsdl:types`, `wsdl:message`, …).
fn wsdl_section(line: &str) -> String {
    let second = line.split('/').nth(2).unwrap_or("(root)");
    let second = second.split(' ').next().unwrap_or(second);
    second.split(['[', '#']).next().unwrap_or(second).to_owned()
}

/// One service's WSDL, as both servers serve it.
struct Served<'a> {
    /// `Mobile`, `types`: for the checks' names.
    label: &'a str,
    /// The endpoint path.
    path: &'a str,
    /// The service namespace (`tns`).
    namespace: &'a str,
    /// The SOAP port type's name, and how many operations it must have.
    port_type: &'a str,
    operations: usize,
}

pub(crate) async fn wsdl_section_check(
    checks: &mut Checks,
    mono: &Target,
    ours: &Target,
    ours_types: &Target,
) -> Vec<String> {
    checks.section("WSDL: Mono's ?wsdl and ours, structurally");
    let mobile = Served {
        label: "Mobile",
        path: SERVICE.path,
        namespace: SERVICE.namespace,
        port_type: "MobileServiceSoap",
        operations: Operation::ALL.len(),
    };
    let types = Served {
        label: "types",
        path: rmm_types::SERVICE.path,
        namespace: rmm_types::SERVICE.namespace,
        port_type: "TypesServiceSoap",
        operations: rmm_types::Operation::ALL.len(),
    };
    let mut all = compare_wsdls(checks, &mobile, mono, ours.addr).await;
    all.extend(compare_wsdls(checks, &types, mono, ours_types.addr).await);
    all
}

/// Compares `served`'s WSDL from the host and from ours (at `ours`), one check per section.
async fn compare_wsdls(
    checks: &mut Checks,
    served: &Served<'_>,
    mono: &Target,
    ours: std::net::SocketAddr,
) -> Vec<String> {
    let label = served.label;
    let host = mono.addr.to_string();
    let get = Request::get(format!("{}?wsdl", served.path))
        .body(Bytes::new())
        .expect("request");
    let raw = raw_request(&get, &host);
    let mut all = Vec::new();
    let fetched = (exchange(mono.addr, &raw).await, exchange(ours, &raw).await);
    let (m, o) = match fetched {
        (Ok(m), Ok(o)) if m.status == 200 && o.status == 200 => (m, o),
        (m, o) => {
            let why = format!(
                "fetching: Mono {:?}, ours {:?}",
                m.map(|r| r.status),
                o.map(|r| r.status)
            );
            checks.check(&format!("{label} WSDL fetched from both"), Err(why.clone()));
            return vec![why];
        }
    };
    let parsed = (
        wsdl_lines(&String::from_utf8_lossy(&m.body), served.namespace),
        wsdl_lines(&String::from_utf8_lossy(&o.body), served.namespace),
    );
    let (lm, lo) = match parsed {
        (Ok(a), Ok(b)) => (a, b),
        (a, b) => {
            let why = format!("parsing: Mono {:?}, ours {:?}", a.err(), b.err());
            checks.check(&format!("{label} WSDL parsed"), Err(why.clone()));
            return vec![why];
        }
    };
    let sections: BTreeSet<String> = lm
        .iter()
        .chain(lo.iter())
        .map(|l| wsdl_section(l))
        .collect();
    for section in sections {
        let mut diffs = Vec::new();
        for l in lm.difference(&lo).filter(|l| wsdl_section(l) == section) {
            diffs.push(format!("only in Mono's: {l}"));
        }
        for l in lo.difference(&lm).filter(|l| wsdl_section(l) == section) {
            diffs.push(format!("only in ours: {l}"));
        }
        let count = lm.iter().filter(|l| wsdl_section(l) == section).count();
        checks.check(
            &format!("{label} WSDL {section} ({count} elements and orders)"),
            if diffs.is_empty() {
                Ok(())
            } else {
                Err(diffs.join("\n     "))
            },
        );
        all.extend(diffs);
    }
    // What the structure is made of, so that an empty comparison cannot pass.
    let port_type = format!("wsdl:portType[{}]", served.port_type);
    let operations = lm
        .iter()
        .filter(|l| {
            let segments: Vec<&str> = l.split(' ').next().unwrap_or("").split('/').collect();
            segments.len() == 4
                && segments[2] == port_type
                && segments[3].starts_with("wsdl:operation[")
        })
        .count();
    let bindings = lm
        .iter()
        .filter(|l| {
            let segments: Vec<&str> = l.split(' ').next().unwrap_or("").split('/').collect();
            segments.len() == 3 && segments[2].starts_with("wsdl:binding[")
        })
        .count();
    checks.check(
        &format!(
            "{label} WSDL has {} operations and 4 bindings",
            served.operations
        ),
        if operations == served.operations && bindings == 4 {
            Ok(())
        } else {
            Err(format!(
                "{operations} operations in portType {}, {bindings} bindings",
                served.port_type
            ))
        },
    );
    all
}
