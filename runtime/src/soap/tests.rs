//! Envelopes written and read, the scanner against the cursor on mutations of real envelopes.

use super::request::{scan_request, ParamName};
use super::response::{parse_response, scan_response};
use super::*;
use crate::xml::XSI_NS;

#[test]
fn a_nullable_parameter_reads_nil_as_none_and_writes_none_as_nil() {
    let body = |children: &str| {
        format!(
            "<soap:Envelope xmlns:soap=\"{SOAP11_NS}\" xmlns:xsi=\"{XSI_NS}\"><soap:Body>\
             <Op xmlns=\"urn:s\">{children}</Op></soap:Body></soap:Envelope>"
        )
    };
    let read = |children: &str| -> Result<Vec<Option<i32>>, RequestError> {
        let text = body(children);
        let mut reader = RequestReader::new(Binding::Soap11, &OP, text.as_bytes())?;
        let mut values = Vec::new();
        while let Some(p) = reader.next_param()? {
            values.push(p.nullable::<i32>("n")?);
        }
        Ok(values)
    };
    assert_eq!(
        read("<n xsi:nil=\"true\" /><n xsi:nil=\" 1 \">7</n><n>5</n>"),
        Ok(vec![None, None, Some(5)])
    );
    assert!(matches!(
        read("<n xsi:nil=\"false\" />"),
        Err(RequestError::InvalidValue { .. })
    ));
    let mut w = SoapWriter::new(Binding::Soap11, &crate::operation::fixtures::OP, 64);
    w.nullable("<n>", Some(&-1i32), "</n>", "<n xsi:nil=\"true\" />");
    w.nullable::<i32>("<n>", None, "</n>", "<n xsi:nil=\"true\" />");
    let written = w.finish();
    assert!(
        written.contains("<n>-1</n><n xsi:nil=\"true\" />"),
        "{written}"
    );
}

#[test]
fn a_version_mismatch_names_both_namespaces_in_a_sentence() {
    let body = version_mismatch_envelope("urn:a&b", SOAP12_NS);
    assert!(body.contains(
        "<faultstring>Possible SOAP version mismatch: Envelope namespace urn:a&amp;b was \
         unexpected. Expecting http://www.w3.org/2003/05/soap-envelope.</faultstring>"
    ));
    assert!(body.starts_with(ENVELOPE11_OPEN.strip_suffix("<soap:Body>").unwrap()));
    assert!(body.contains("<soap12:Upgrade "));
}

use crate::operation::fixtures::OP;

/// Everything a reader yields for one request: each parameter as the generated code sees
/// it, or the error.
type Read = Result<Vec<(Vec<u8>, bool, bool, bool, String, String)>, RequestError>;

fn read_all(reader: Result<RequestReader<'_>, RequestError>) -> Read {
    let mut reader = reader?;
    let mut params = Vec::new();
    while let Some(p) = reader.next_param()? {
        params.push((
            p.name().to_vec(),
            p.qualified,
            p.nil,
            p.content.nested,
            p.content.text.into_owned(),
            match p.name {
                ParamName::Parsed(parsed) => parsed.display_name,
                ParamName::Scanned(_) | ParamName::Tree | ParamName::Holder(_) => String::new(),
            },
        ));
    }
    Ok(params)
}

/// Checks the scanner against the cursor on `doc`: when the scanner takes it, the cursor
/// must read it without error to the same parameters. Returns whether the scanner took it.
fn check(binding: Binding, doc: &[u8]) -> bool {
    match scan_request(binding, &OP, doc, &[]) {
        Ok((source, scanned)) => {
            let general = read_all(RequestReader::parse(binding, &OP, doc));
            assert_eq!(
                read_all(RequestReader::new(binding, &OP, doc)),
                general,
                "reader differs from the cursor on {:?}",
                String::from_utf8_lossy(doc)
            );
            let scanned: Vec<_> = scanned
                .into_iter()
                .map(|p| {
                    let name_at = p.name_at as usize;
                    let name = doc[name_at..name_at + p.name_len as usize].to_vec();
                    let text = xml::scanned_text(source, p.text).into_owned();
                    (name, true, false, false, text, String::new())
                })
                .collect();
            assert_eq!(
                Ok(scanned),
                general,
                "scanner differs from the cursor on {:?}",
                String::from_utf8_lossy(doc)
            );
            true
        }
        Err(xml::Unusual) => false,
    }
}

/// Our own encoder's request, a pretty-printed one as .NET and the captures send it,
/// a prefixed one as gSOAP and Java clients send it, and SOAP 1.2.
fn plain_requests() -> Vec<(Binding, String)> {
    let mut w = SoapWriter::new(Binding::Soap11, &crate::operation::fixtures::OP, 256);
    w.raw(OP.request_open);
    w.raw("<n>");
    w.scalar(&-42);
    w.raw("</n>");
    w.string("s", "<s>", Some("A & B > 1 < 2 \"q\" 'a'\r\n é ☕"), "</s>")
        .unwrap();
    w.string("e", "<e>", Some(""), "</e>").unwrap();
    w.raw("<b>");
    w.scalar(&true);
    w.raw("</b>");
    w.raw(OP.request_close);
    let ours = w.finish();
    let pretty = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n\
        <soap:Envelope xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" \
        xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" \
        xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\">\n  <soap:Body>\n    \
        <Op xmlns=\"urn:s\">\n      <n>42</n>\n      <s>Caf&#xE9; &#233; &amp;&lt;&gt;&quot;&apos;</s>\n      \
        <e /><f/>\n    </Op>\n  </soap:Body>\n</soap:Envelope>\n"
        .to_owned();
    let prefixed = "<SOAP-ENV:Envelope xmlns:SOAP-ENV='http://schemas.xmlsoap.org/soap/envelope/'>\
        <SOAP-ENV:Body><m:Op xmlns:m='urn:s'><m:n>7</m:n><m:s xmlns:m='urn:s'>x</m:s>\
        <n xmlns=\"urn:s\" >8</n ></m:Op></SOAP-ENV:Body></SOAP-ENV:Envelope>"
        .to_owned();
    let soap12 =
        "<?xml version='1.0'?><env:Envelope xmlns:env=\"http://www.w3.org/2003/05/soap-envelope\">\
        <env:Body><Op xmlns=\"urn:s\"><n>1</n><s>a\tb</s></Op></env:Body></env:Envelope>"
            .to_owned();
    // The two SOAP 1.2 Envelope tags the scanner takes as bytes: ours and the help page's.
    let ours12 = ours.replace(SOAP11_NS, SOAP12_NS);
    let help12 = pretty
        .replace("soap:", "soap12:")
        .replace("xmlns:soap=", "xmlns:soap12=")
        .replace(SOAP11_NS, SOAP12_NS);
    vec![
        (Binding::Soap11, ours),
        (Binding::Soap11, pretty),
        (Binding::Soap11, prefixed),
        (Binding::Soap12, soap12),
        (Binding::Soap12, ours12),
        (Binding::Soap12, help12),
    ]
}

#[test]
fn plain_requests_take_the_scanner() {
    for (binding, doc) in plain_requests() {
        assert!(check(binding, doc.as_bytes()), "not scanned: {doc}");
    }
    let (_, ours) = &plain_requests()[0];
    let params = read_all(RequestReader::new(Binding::Soap11, &OP, ours.as_bytes())).unwrap();
    let texts: Vec<&str> = params.iter().map(|p| p.4.as_str()).collect();
    assert_eq!(
        texts,
        ["-42", "A & B > 1 < 2 \"q\" 'a'\r\n é ☕", "", "true"]
    );
}

#[test]
fn unusual_requests_take_the_cursor() {
    let ours = &plain_requests()[0].1;
    let unusual = [
        // Header, comment, CDATA, PI, DOCTYPE, BOM, raw CR, attribute, nesting, an
        // unqualified parameter, a second body entry, trailing content.
        ours.replace("<soap:Body>", "<soap:Header/><soap:Body>"),
        ours.replace("<n>", "<!-- c --><n>"),
        ours.replace("<e></e>", "<e><![CDATA[x]]></e>"),
        ours.replace("<e></e>", "<e><?pi?></e>"),
        format!("<!DOCTYPE x>{ours}"),
        format!("\u{feff}{ours}"),
        ours.replace("&#xD;", "\r"),
        ours.replace("<e>", "<e xsi:nil=\"true\">"),
        ours.replace("<e></e>", "<e><x/></e>"),
        ours.replace("<e></e>", "<e xmlns=\"urn:other\"></e>"),
        ours.replace("</Op>", "</Op><Other/>"),
        format!("{ours}<!-- c -->"),
    ];
    for doc in unusual {
        assert!(!check(Binding::Soap11, doc.as_bytes()), "scanned: {doc}");
    }
}

/// Snippets that mutations insert: markup characters, references good and bad, controls,
/// invalid UTF-8, and whole constructs the scanner leaves to the cursor.
const SNIPPETS: &[&[u8]] = &[
    b"<",
    b">",
    b"&",
    b";",
    b"\"",
    b"'",
    b"/",
    b"=",
    b":",
    b" ",
    b"\t",
    b"\n",
    b"\r",
    b"\x01",
    b"\0",
    b"]]>",
    "é".as_bytes(),
    b"\xff",
    b"\xc3",
    b"x",
    b"1",
    b"-",
    b".",
    b"?",
    b"!",
    b"#",
    b"<!-- c -->",
    b"<![CDATA[<x>]]>",
    b"&amp;",
    b"&#65;",
    b"&#x0;",
    b"&#xD800;",
    b"&#xFFFE;",
    b"&#x10FFFF;",
    b"&#99999999999;",
    b"&e;",
    b" xmlns=\"urn:s\"",
    b" xmlns:q=\"urn:s\"",
    b" xmlns:xml=\"urn:s\"",
    b" xmlns:q=\"\"",
    b" a=\"1\"",
    b"<b/>",
    b"</a>",
    b"<?pi?>",
    b"q:",
    b"<!DOCTYPE x>",
    "\u{feff}".as_bytes(),
    "\u{FFFE}".as_bytes(),
];

pub(super) fn mutations(doc: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for at in 0..=doc.len() {
        if at < doc.len() {
            let mut deleted = doc.to_vec();
            deleted.remove(at);
            out.push(deleted);
        }
        for snippet in SNIPPETS {
            let mut inserted = doc.to_vec();
            inserted.splice(at..at, snippet.iter().copied());
            out.push(inserted);
            if at < doc.len() && snippet.len() == 1 {
                let mut replaced = doc.to_vec();
                replaced[at] = snippet[0];
                out.push(replaced);
            }
        }
    }
    out
}

#[test]
fn scanner_agrees_with_the_cursor_on_every_single_mutation() {
    let mut scanned = 0;
    let mut total = 0;
    for (binding, doc) in plain_requests() {
        for mutated in mutations(doc.as_bytes()) {
            total += 1;
            scanned += usize::from(check(binding, &mutated));
        }
    }
    // The scanner takes the harmless mutations (text, whitespace, references), not only
    // the originals.
    eprintln!("{scanned} of {total} scanned");
    assert!(scanned > total / 20, "{scanned} of {total} scanned");
}

/// The parameters of `plain_requests()[0]`, in order.
const IN_ORDER: [&str; 4] = ["n", "s", "e", "b"];

/// Whenever [`InOrder`] reads `doc`, the cursor must read the same parameters, in that
/// order, qualified, with the same texts. Returns whether `InOrder` read it.
fn check_in_order(binding: Binding, doc: &[u8]) -> bool {
    let Some(in_order) = InOrder::scan(binding, &OP, doc, &IN_ORDER) else {
        return false;
    };
    let general = read_all(RequestReader::parse(binding, &OP, doc))
        .unwrap_or_else(|e| panic!("{e} on {:?}", String::from_utf8_lossy(doc)));
    let seen: Vec<(Vec<u8>, bool, bool, bool, String)> = general
        .into_iter()
        .map(|(name, qualified, nil, nested, text, _)| (name, qualified, nil, nested, text))
        .collect();
    let expected: Vec<(Vec<u8>, bool, bool, bool, String)> = IN_ORDER
        .iter()
        .zip(in_order.values())
        .map(|(name, value)| (name.as_bytes().to_vec(), true, false, false, value.string()))
        .collect();
    assert_eq!(seen, expected, "on {:?}", String::from_utf8_lossy(doc));
    true
}

#[test]
fn in_order_reads_our_request_and_agrees_with_the_cursor_on_every_single_mutation() {
    let (binding, ours) = &plain_requests()[0];
    assert!(check_in_order(*binding, ours.as_bytes()));
    let [n, text, empty, b] = InOrder::scan(*binding, &OP, ours.as_bytes(), &IN_ORDER)
        .unwrap()
        .values();
    assert_eq!(n.scalar::<i32>(), Some(-42));
    assert_eq!(text.string(), "A & B > 1 < 2 \"q\" 'a'\r\n é ☕");
    assert_eq!(empty.string(), "");
    assert_eq!(b.scalar::<bool>(), Some(true));
    assert_eq!(text.scalar::<i32>(), None);
    // Another order, a missing or a repeated parameter: left to the general reader.
    for other in [
        ours.replace("<b>true</b>", "")
            .replace("<n>", "<b>true</b><n>"),
        ours.replace("<b>true</b>", ""),
        ours.replace("<b>true</b>", "<b>true</b><b>false</b>"),
    ] {
        assert!(InOrder::scan(*binding, &OP, other.as_bytes(), &IN_ORDER).is_none());
    }
    let mut scanned = 0;
    let mut total = 0;
    for mutated in mutations(ours.as_bytes()) {
        total += 1;
        scanned += usize::from(check_in_order(*binding, &mutated));
    }
    assert!(scanned > total / 20, "{scanned} of {total} scanned");
}

/// Result envelopes as our server and an ASMX host write them: with and without a
/// declaration and schema namespaces, an empty result, no result element, SOAP 1.2.
fn plain_responses() -> Vec<(Binding, String)> {
    let ours = |binding, text: Option<&str>| {
        let response = crate::message::string_response(binding, &OP, text).unwrap();
        String::from_utf8(response.into_body().to_vec()).unwrap()
    };
    let host = "<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope \
        xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\" \
        xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" \
        xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\"><soap:Body><OpResponse \
        xmlns=\"urn:s\"><OpResult>a &amp; b &lt; c\n&#xD;d</OpResult></OpResponse>\
        </soap:Body></soap:Envelope>"
        .to_owned();
    vec![
        (
            Binding::Soap11,
            ours(Binding::Soap11, Some("x=1;y=A & B > 1 < 2\r\n é")),
        ),
        (Binding::Soap12, ours(Binding::Soap12, Some("x=1"))),
        (Binding::Soap11, ours(Binding::Soap11, Some(""))),
        (Binding::Soap11, ours(Binding::Soap11, None)),
        (Binding::Soap11, host),
    ]
}

/// Reads `doc` as a response both ways; whenever the scanner reads it, the cursor must
/// read the same. Returns whether the scanner read it.
fn check_response(binding: Binding, doc: &[u8]) -> bool {
    match scan_response(binding, &OP, doc) {
        Ok(result) => {
            assert_eq!(
                parse_response(binding, &OP, doc),
                Ok(ResponseBody::Result(result)),
                "scanner differs from the cursor on {:?}",
                String::from_utf8_lossy(doc)
            );
            true
        }
        Err(xml::Unusual) => false,
    }
}

#[test]
fn plain_responses_take_the_scanner() {
    for (binding, doc) in plain_responses() {
        assert!(
            check_response(binding, doc.as_bytes()),
            "not scanned: {doc}"
        );
    }
    let (binding, host) = &plain_responses()[4];
    assert_eq!(
        read_response(*binding, &OP, host.as_bytes()),
        Ok(ResponseBody::Result(Some("a & b < c\n\rd".into())))
    );
}

#[test]
fn response_scanner_agrees_with_the_cursor_on_every_single_mutation() {
    let mut scanned = 0;
    let mut total = 0;
    for (binding, doc) in plain_responses() {
        for mutated in mutations(doc.as_bytes()) {
            total += 1;
            scanned += usize::from(check_response(binding, &mutated));
        }
    }
    assert!(scanned > total / 20, "{scanned} of {total} scanned");
}

#[test]
fn scanner_agrees_with_the_cursor_on_random_multiple_mutations() {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move |bound: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % bound as u64) as usize
    };
    let docs = plain_requests();
    for _ in 0..20_000 {
        let (binding, doc) = &docs[next(docs.len())];
        let mut doc = doc.as_bytes().to_vec();
        for _ in 0..1 + next(3) {
            let at = next(doc.len() + 1);
            match next(3) {
                0 if at < doc.len() => {
                    doc.remove(at);
                }
                _ => {
                    let snippet = SNIPPETS[next(SNIPPETS.len())];
                    doc.splice(at..at, snippet.iter().copied());
                }
            }
        }
        check(*binding, &doc);
    }
}

#[test]
fn takes_the_known_envelope_tags_as_the_scanner_reads_them() {
    for (binding, known) in [Binding::Soap11, Binding::Soap12]
        .into_iter()
        .zip(&KNOWN_ENVELOPES)
    {
        for known in known {
            let doc = format!("{}<{}:Body>", known.tag, &known.qname[..known.local_at - 1]);
            crate::xml::assert_reads_as_start(&doc, Some(known), ("", ""));
            assert_eq!(known.ns, envelope_ns(binding), "{}", known.tag);
        }
    }
    // What we write is among them.
    assert!(ENVELOPE11_OPEN.contains(KNOWN_ENVELOPES[0][0].tag));
    assert!(ENVELOPE12_OPEN.contains(KNOWN_ENVELOPES[1][0].tag));
    // Each is among the requests the mutation tests take apart.
    for known in KNOWN_ENVELOPES.iter().flatten() {
        assert!(
            plain_requests()
                .iter()
                .any(|(_, doc)| doc.contains(known.tag)),
            "{}",
            known.tag
        );
    }
}
