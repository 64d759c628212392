//! The cursor and the scanner, against each other and against what .NET refuses.

use super::check::check_xml_declaration;
use super::cursor::{MAX_ATTRIBUTES, MAX_DEPTH};
use super::escape::TEXT_CLASS;
use super::scanner::USUAL_DECLARATION;
use super::*;

fn escaped(text: &str) -> Result<String, u32> {
    let mut out = String::new();
    escape_text(&mut out, text).map(|()| out)
}

#[test]
fn escapes_like_asmx() {
    assert_eq!(
        escaped("Acme & Sons > 1 < 2 \"q\" 'a'").unwrap(),
        "Acme &amp; Sons &gt; 1 &lt; 2 \"q\" 'a'"
    );
    assert_eq!(escaped("Café ☕\n\ttab").unwrap(), "Café ☕\n\ttab");
    assert_eq!(escaped("a\r\nb").unwrap(), "a&#xD;\nb");
    assert_eq!(escaped("").unwrap(), "");
}

#[test]
fn refuses_characters_xml_cannot_carry() {
    assert_eq!(escaped("ok\u{1}"), Err(1));
    assert_eq!(escaped("\u{0}"), Err(0));
    assert_eq!(escaped("\u{1f}x"), Err(0x1f));
    assert_eq!(escaped("a\u{fffe}"), Err(0xFFFE));
    assert_eq!(escaped("\u{ffff}b"), Err(0xFFFF));
    // Their neighbours are characters.
    assert_eq!(
        escaped("\u{fffd}\u{f000}\u{efff}").unwrap(),
        "\u{fffd}\u{f000}\u{efff}"
    );
}

/// The escaping rule one byte at a time, to check the word-at-a-time search against.
fn escaped_bytewise(text: &str) -> Result<String, u32> {
    let mut out = String::new();
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\r' => out.push_str("&#xD;"),
            '\t' | '\n' => out.push(c),
            c if c < ' ' || c == '\u{fffe}' || c == '\u{ffff}' => return Err(u32::from(c)),
            c => out.push(c),
        }
    }
    Ok(out)
}

#[test]
fn word_at_a_time_search_finds_every_byte_that_matters() {
    // Every byte that needs a look, and neighbours of the word tests' thresholds, at every
    // position of texts around the word size, alone and after another one.
    let specials = [
        "\0", "\u{1}", "\t", "\n", "\u{b}", "\r", "\u{1f}", "&", "<", ">", " ", "%", "'", "=", "?",
        "@", "~", "\u{7f}", "é", "☕", "𝄞", "\u{f000}", "\u{ffff}", "\u{e000}", "ï", "\u{fffe}",
        "\u{fffd}", "\u{efff}", "\u{ff00}",
    ];
    for len in 0..=25 {
        for at in 0..=len {
            for special in specials {
                for second in ["", "&", "\t", "\u{2}"] {
                    let mut text = "a".repeat(at);
                    text.push_str(special);
                    text.push_str(&"b".repeat(len - at));
                    text.push_str(second);
                    text.push('c');
                    assert_eq!(escaped(&text), escaped_bytewise(&text), "{text:?}");
                    let naive = text
                        .bytes()
                        .position(|b| TEXT_CLASS[b as usize] != 0)
                        .unwrap_or(text.len());
                    assert_eq!(first_to_escape(text.as_bytes()), naive, "{text:?}");
                }
            }
        }
    }
}

fn content_of(doc: &str) -> Result<(String, bool), XmlError> {
    let mut cursor = XmlCursor::new(doc.as_bytes(), []);
    match cursor.next()? {
        Node::Start(_) => {}
        _ => panic!("no root"),
    }
    let content = cursor.content()?;
    assert!(matches!(cursor.next()?, Node::Eof));
    Ok((content.text.into_owned(), content.nested))
}

#[test]
fn merges_text_references_and_cdata() {
    assert_eq!(
        content_of("<a>x &amp; &lt;y&gt; &#65;&#x42; <![CDATA[<z>]]>!</a>").unwrap(),
        ("x & <y> AB <z>!".to_owned(), false)
    );
    assert_eq!(content_of("<a></a>").unwrap(), (String::new(), false));
    assert_eq!(
        content_of("<a>1<b>2</b>3</a>").unwrap(),
        ("13".to_owned(), true)
    );
}

#[test]
fn normalises_line_ends_as_xml_requires() {
    assert_eq!(
        content_of("<a>1\r\n2\r3&#xD;\n</a>").unwrap().0,
        "1\n2\n3\r\n"
    );
}

#[test]
fn refuses_doctype_without_reading_it() {
    let doc = "<!DOCTYPE a [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><a>&e;</a>";
    let mut cursor = XmlCursor::new(doc.as_bytes(), []);
    assert_eq!(cursor.next().err(), Some(XmlError::Doctype));
}

#[test]
fn refuses_undefined_entities_and_bad_references() {
    assert!(
        matches!(content_of("<a>&e;</a>"), Err(XmlError::Malformed(m)) if m.contains("undefined entity '&e;'"))
    );
    assert!(matches!(
        content_of("<a>&#1;</a>"),
        Err(XmlError::Malformed(_))
    ));
    assert!(matches!(
        content_of("<a>x & y</a>"),
        Err(XmlError::Malformed(_))
    ));
}

#[test]
fn refuses_truncated_and_mismatched_documents() {
    assert!(matches!(content_of("<a>text"), Err(XmlError::Malformed(_))));
    assert!(matches!(
        content_of("<a><b></a>"),
        Err(XmlError::Malformed(_))
    ));
    let mut cursor = XmlCursor::new(b"<a x=1></a>", []);
    assert!(matches!(cursor.next(), Err(XmlError::Malformed(_))));
    // Attributes need white space between them; a quote inside a value is no end.
    let mut cursor = XmlCursor::new(b"<a x=\"1\"y='2'></a>", []);
    assert!(matches!(cursor.next(), Err(XmlError::Malformed(m)) if m.contains("white space")));
    for fine in [
        &b"<a x=\"'1'\" y='\"2'\t/>"[..],
        b"<a x=\"1\"/>",
        b"<a x='1' ></a>",
    ] {
        let mut cursor = XmlCursor::new(fine, []);
        assert!(matches!(cursor.next(), Ok(Node::Start(_))), "{fine:?}");
    }
    let mut cursor = XmlCursor::new(b"<p:a></p:a>", []);
    assert!(
        matches!(cursor.next(), Err(XmlError::Malformed(m)) if m.contains("undeclared prefix 'p'"))
    );
}

/// Reads the whole document with `next`, and with `content` on the root.
fn walk(doc: &[u8]) -> Result<(), XmlError> {
    let mut cursor = XmlCursor::new(doc, []);
    while !matches!(cursor.next()?, Node::Eof) {}
    let mut cursor = XmlCursor::new(doc, []);
    if let Node::Start(root) = cursor.next()? {
        if !root.empty {
            cursor.content()?;
        }
    }
    while !matches!(cursor.next()?, Node::Eof) {}
    Ok(())
}

/// Asserts that `doc` is refused as malformed with a message containing `what`.
#[track_caller]
fn refused(doc: impl AsRef<[u8]>, what: &str) {
    let doc = doc.as_ref();
    match walk(doc) {
        Err(XmlError::Malformed(m)) if m.contains(what) => {}
        other => panic!(
            "{:?}: expected Malformed({what:?}), got {other:?}",
            String::from_utf8_lossy(&doc[..doc.len().min(200)])
        ),
    }
}

#[track_caller]
fn accepted(doc: impl AsRef<[u8]>) {
    let doc = doc.as_ref();
    assert_eq!(walk(doc), Ok(()), "{:?}", String::from_utf8_lossy(doc));
}

fn nested(depth: usize) -> String {
    format!("{}{}", "<a>".repeat(depth), "</a>".repeat(depth))
}

#[test]
fn refuses_nesting_beyond_the_limit() {
    accepted(nested(MAX_DEPTH));
    refused(nested(MAX_DEPTH + 1), "nested deeper than 128 levels");
    refused(
        format!(
            "{}<b/>{}",
            "<a>".repeat(MAX_DEPTH),
            "</a>".repeat(MAX_DEPTH)
        ),
        "nested deeper than 128 levels",
    );
    // Far beyond what quick-xml's u16 level counter holds: refused at level 129, linearly.
    refused(nested(100_000), "nested deeper than 128 levels");
    refused("<a>".repeat(100_000), "nested deeper than 128 levels");
}

fn with_attributes(count: usize) -> String {
    let attributes: String = (0..count).map(|i| format!(" a{i}=\"{i}\"")).collect();
    format!("<r{attributes}/>")
}

#[test]
fn refuses_more_attributes_than_the_limit() {
    accepted(with_attributes(MAX_ATTRIBUTES));
    refused(
        with_attributes(MAX_ATTRIBUTES + 1),
        "more than 64 attributes",
    );
    // Refused before the quadratic duplicate check runs.
    refused(with_attributes(100_000), "more than 64 attributes");
    let declarations: String = (0..100_000)
        .map(|i| format!(" xmlns:p{i}=\"urn:{i}\""))
        .collect();
    refused(format!("<r{declarations}></r>"), "more than 64 attributes");
}

#[test]
fn refuses_more_namespaces_in_scope_than_the_limit() {
    let level = |n: usize| -> String {
        let declarations: String = (0..60)
            .map(|i| format!(" xmlns:p{i}=\"urn:{n}\""))
            .collect();
        format!("<a{declarations}>")
    };
    let doc = |levels: usize| {
        format!(
            "{}<p1:b/>{}",
            (0..levels).map(level).collect::<String>(),
            "</a>".repeat(levels)
        )
    };
    accepted(doc(4));
    refused(doc(5), "more than 256 namespace declarations in scope");
    // Declarations leave the scope with their element.
    let siblings = format!(
        "<r>{}</r>",
        (0..10)
            .map(|n| format!("{}</a>", level(n)))
            .collect::<String>()
    );
    accepted(siblings);
}

#[test]
fn refuses_markup_and_bad_references_in_attribute_values() {
    accepted("<a x=\"&amp;&lt;&gt;&quot;&apos;&#65;&#x42;>\" y='\"'/>");
    refused("<a x=\"<\"/>", "'<' in an attribute value");
    refused("<a x='a<b'></a>", "'<' in an attribute value");
    refused("<a x=\"&foo;\"/>", "undefined entity '&foo;'");
    refused("<a x=\"&#1;\"/>", "character reference to U+0001");
    refused("<a x=\"&#xFFFE;\"/>", "character reference to U+FFFE");
    refused("<a x=\"&#99999999999;\"/>", "character reference to U+");
    refused("<a x=\"&#x;\"/>", "malformed character reference");
    refused("<a x=\"&#X41;\"/>", "malformed character reference");
    refused("<a x=\"a & b\"/>", "'&' that does not start a reference");
    refused("<a x=\"&1;\"/>", "malformed reference '&1;'");
}

#[test]
fn refuses_bad_references_between_elements() {
    refused("<a><b/>&foo;</a>", "undefined entity '&foo;'");
    refused("<a><b/>&#0;<c/></a>", "character reference to U+0000");
    refused("<a><b/>&#xD800;</a>", "character reference to U+D800");
    refused("<a>&#x1F;</a>", "character reference to U+001F");
    accepted("<a><b/>&amp;&#x10FFFF;<c/></a>");
    refused("<a/>&amp;", "text outside the root element");
}

#[test]
fn reads_xml_declarations_as_dotnet_does() {
    for decl in [
        "<?xml version=\"1.0\"?>",
        "<?xml version='1.0'?>",
        "<?xml version = \"1.0\" ?>",
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>",
        "<?xml version=\"1.0\" encoding='ISO-8859-1' standalone=\"yes\"?>",
        "<?xml version=\"1.0\" standalone='no'?>",
        "<?xml\tversion=\"1.0\"\nencoding=\"x_y.z-1\"\r\n?>",
        // Any attribute-value characters: the name is looked up by the caller, if at all.
        "<?xml version=\"1.0\" encoding=\"8bit\"?>",
        "<?xml version=\"1.0\" encoding=\"\"?>",
        "<?xml version=\"1.0\" encoding=\"utf 8\"?>",
        "<?xml version=\"1.0\" encoding=\"u|f%8\u{e9}\"?>",
    ] {
        accepted(format!("{decl}<a/>"));
        accepted(format!("{decl}<a>t</a>"));
    }
    for (decl, what) in [
        ("<?xml version=\"1.1\"?>", "only version 1.0"),
        ("<?xml version=\"2.0\"?>", "only version 1.0"),
        ("<?xml version=\"1.0 \"?>", "only version 1.0"),
        ("<?xml?>", "no version"),
        ("<?xml ?>", "no version"),
        ("<?xml encoding=\"utf-8\"?>", "in that order"),
        (
            "<?xml version=\"1.0\" standalone=\"yes\" encoding=\"utf-8\"?>",
            "in that order",
        ),
        ("<?xml version=\"1.0\" version=\"1.0\"?>", "in that order"),
        ("<?xml version=\"1.0\" other=\"1\"?>", "in that order"),
        (
            "<?xml version=\"1.0\"encoding=\"utf-8\"?>",
            "whitespace is missing",
        ),
        ("<?xml version=1.0?>", "not quoted"),
        (
            "<?xml version=\"1.0\" encoding=\"utf\t8\"?>",
            "an attribute value cannot",
        ),
        (
            "<?xml version=\"1.0\" encoding=\"u'8\"?>",
            "an attribute value cannot",
        ),
        (
            "<?xml version=\"1.0\" encoding=\"u&8\"?>",
            "an attribute value cannot",
        ),
        (
            "<?xml version=\"1.0\" encoding=\"u>8\"?>",
            "an attribute value cannot",
        ),
        (
            "<?xml version=\"1.0\" encoding=\"u\u{1F600}8\"?>",
            "an attribute value cannot",
        ),
        (
            "<?xml version=\"1.0\" standalone=\"true\"?>",
            "neither yes nor no",
        ),
    ] {
        refused(format!("{decl}<a/>"), what);
    }
    // The declaration the scanner takes without a look is one the check accepts.
    let usual = USUAL_DECLARATION;
    assert_eq!(check_xml_declaration(&usual[2..usual.len() - 2]), Ok(()));
}

#[test]
fn refuses_a_late_xml_declaration() {
    accepted("<?xml version=\"1.0\"?><a/>");
    accepted("\u{feff}<?xml version=\"1.0\"?><a/>");
    refused(
        " <?xml version=\"1.0\"?><a/>",
        "XML declaration that is not at the start",
    );
    refused(
        "<!-- c --><?xml version=\"1.0\"?><a/>",
        "XML declaration that is not at the start",
    );
    refused(
        "<a><?xml version=\"1.0\"?></a>",
        "XML declaration that is not at the start",
    );
    refused(
        "<?xml version=\"1.0\"?><?xml version=\"1.0\"?><a/>",
        "XML declaration that is not at the start",
    );
}

#[test]
fn refuses_names_that_are_not_xml_names() {
    accepted("<café xmlns:é='urn:x' é:à='1' _x.y-z='2'><é:b/></café>");
    refused("<1a/>", "'1a' is not a valid name");
    refused("<a><-b/></a>", "is not a valid name");
    refused("<a><.b></.b></a>", "'.b' is not a valid name");
    refused("<a:b:c xmlns:a='urn:x'/>", "'a:b:c' is not a valid name");
    refused("<:a/>", "':a' is not a valid name");
    refused("<a: xmlns:a='urn:x'/>", "'a:' is not a valid name");
    refused("<a 1x='1'/>", "'1x' is not a valid name");
    refused("<a x:='1'/>", "'x:' is not a valid name");
    refused("<a\u{d7}/>", "is not a valid name");
    refused("<?1pi?><a/>", "not a valid processing instruction name");
    refused(
        "<?XML version='1.0'?><a/>",
        "reserved processing instruction name 'XML'",
    );
    refused("<a><?xMl x?></a>", "reserved processing instruction name");
    accepted("<?xml-stylesheet href='x'?><a><?pi data?></a>");
}

#[test]
fn refuses_characters_xml_forbids() {
    refused("<a>\u{1}</a>", "the character U+0001");
    refused("<a><b/>x\u{8}</a>", "the character U+0008");
    refused(b"<a>\0</a>".as_slice(), "the character U+0000");
    refused("<a x='\u{1b}'/>", "the character U+001B");
    refused("<a x='\u{ffff}'/>", "the character U+FFFF");
    refused("<a><!-- \u{fffe} --></a>", "the character U+FFFE");
    refused("<a><![CDATA[\u{2}]]></a>", "the character U+0002");
    refused("<a><?pi \u{ffff}?></a>", "the character U+FFFF");
    refused("<!-- \u{7} --><a/>", "the character U+0007");
    // Tab, LF and CR, and the characters around U+FFFE, are allowed.
    accepted("<a x='\t\r\n\u{fffd}\u{ef}\u{f000}\u{10000}'>\t\r\n\u{fffd}\u{efff}</a>");
}

#[test]
fn refuses_a_second_root_element() {
    refused("<a/><b/>", "a second root element");
    refused("<a><c/></a>\n<b></b>", "a second root element");
    accepted("<a><b/><b/></a> <!-- c --> <?pi x?>");
}

#[test]
fn refuses_what_the_scanner_must_refuse_first() {
    refused("<a>x]]>y</a>", "']]>' in text");
    refused("<a><b/>]]></a>", "']]>' in text");
    accepted("<a>]]&gt;]]<![CDATA[>]]>]>]</a>");
    refused("<a>\u{fffe}</a>", "the character U+FFFE");
    refused("<a><b/>\u{ffff}</a>", "the character U+FFFF");
    refused("<a xmlns='urn:\u{1}'/>", "the character U+0001");
    refused("<a xmlns:p='urn:\u{ffff}'/>", "the character U+FFFF");
    refused("<?xml version='1.0'\u{1}?><a/>", "the character U+0001");
}

#[test]
fn refuses_undeclaring_a_prefix() {
    refused(
        "<a xmlns:p='urn:x'><b xmlns:p=''/></a>",
        "the prefix 'p' declared with an empty namespace",
    );
    accepted("<a xmlns='urn:x'><b xmlns=''/></a>");
}

#[test]
fn takes_a_default_namespace_start_tag_as_the_scanner_reads_it() {
    super::assert_reads_as_start(r#"<Op xmlns="urn:x">text</Op>"#, None, ("Op", "urn:x"));
    // Anything else is left to the scanner, which is where it was.
    for (doc, local, ns) in [
        (r#"<Op xmlns="urn:y">"#, "Op", "urn:x"),
        (r#"<Op  xmlns="urn:x">"#, "Op", "urn:x"),
        (r#"<Op xmlns='urn:x'>"#, "Op", "urn:x"),
        (r#"<Op xmlns="urn:x"/>"#, "Op", "urn:x"),
        (r#"<Opp xmlns="urn:x">"#, "Op", "urn:x"),
        (r#"<Op xmlns="urn:x&amp;">"#, "Op", "urn:x&amp;"),
        (r#"<Op xmlns="">"#, "Op", ""),
        (
            r#"<Op xmlns="http://www.w3.org/XML/1998/namespace">"#,
            "Op",
            "http://www.w3.org/XML/1998/namespace",
        ),
    ] {
        let mut scanner = Scanner::new(doc.as_bytes()).expect("UTF-8");
        assert!(scanner.default_ns_start(local, ns).is_none(), "{doc}");
        assert_eq!((scanner.pos, scanner.bound), (0, 0), "{doc}");
    }
}

#[test]
fn classifies_namespaces() {
    let doc = r#"<a xmlns="urn:x" xmlns:q="urn:y"><q:b/><c xmlns=""/><d xmlns="urn:z"/></a>"#;
    let mut cursor = XmlCursor::new(doc.as_bytes(), ["urn:y", "urn:x"]);
    let mut seen = Vec::new();
    loop {
        match cursor.next().unwrap() {
            Node::Start(e) => seen.push((e.ns.clone(), e.display_name(&["urn:y", "urn:x"]))),
            Node::Eof => break,
            _ => {}
        }
    }
    assert_eq!(
        seen,
        vec![
            (Ns::Known(1), "{urn:x}a".to_owned()),
            (Ns::Known(0), "{urn:y}b".to_owned()),
            (Ns::None, "{}c".to_owned()),
            (Ns::Other("urn:z".to_owned()), "{urn:z}d".to_owned()),
        ]
    );
}

/// The plain start tag's shortcut reads what the scanner's general start tag reads, and
/// leaves every other tag to it.
#[test]
fn plain_start_reads_as_start_reads() {
    let docs = [
        ("<a xmlns=\"urn:s\"><Sku>x</Sku></a>", true),
        ("<a xmlns=\"urn:s\"><Sku/></a>", true),
        ("<a xmlns=\"urn:s\"><Sku.x-1_/></a>", true),
        ("<a><Sku>x</Sku></a>", true),
        ("<a xmlns=\"urn:s\"><Sku >x</Sku></a>", false),
        ("<a xmlns=\"urn:s\"><Sku />x</a>", false),
        ("<a xmlns:p=\"urn:s\"><p:Sku>x</p:Sku></a>", false),
        ("<a xmlns=\"urn:s\"><Sku xmlns=\"urn:t\">x</Sku></a>", false),
        ("<a xmlns=\"urn:s\"><Sku a=\"1\">x</Sku></a>", false),
        ("<a xmlns=\"urn:s\"><1Sku>x</1Sku></a>", false),
        ("<a xmlns=\"urn:s\"><Sku/ >x</a>", false),
        ("<a xmlns=\"urn:s\">text</a>", false),
    ];
    for (doc, plain) in docs {
        let mut shortcut = super::Scanner::new(doc.as_bytes()).unwrap();
        let mut general = super::Scanner::new(doc.as_bytes()).unwrap();
        shortcut.start().unwrap();
        general.start().unwrap();
        let _ = shortcut.text_run();
        let _ = general.text_run();
        let by_shortcut = shortcut.plain_start();
        assert_eq!(by_shortcut.is_some(), plain, "{doc}");
        let Some(taken) = by_shortcut else {
            continue;
        };
        let read = general.start().unwrap();
        assert_eq!(
            (
                taken.qname,
                taken.local,
                taken.local_at,
                taken.ns,
                taken.empty,
                taken.scope
            ),
            (
                read.qname,
                read.local,
                read.local_at,
                read.ns,
                read.empty,
                read.scope
            ),
            "{doc}"
        );
        assert_eq!(shortcut.pos, general.pos, "{doc}");
    }
}

/// `same_name` is `==`: every pair of names of 0 to 40 bytes differing in one byte at any
/// place (first, last, the overlaps of its words), or in length, or not at all.
#[test]
fn same_name_is_equality() {
    use super::same_name;
    let base: Vec<u8> = (0..40u8).map(|i| b'A' + i).collect();
    for len in 0..=40 {
        let a = &base[..len];
        assert!(same_name(a, a), "{len}");
        // Another copy: equal bytes at another address.
        let copy = a.to_vec();
        assert!(same_name(a, &copy), "{len}");
        for other in 0..=40 {
            if other != len {
                assert!(!same_name(a, &base[..other]), "{len} against {other}");
            }
        }
        for at in 0..len {
            let mut b = a.to_vec();
            b[at] ^= 0x20;
            assert!(!same_name(a, &b), "{len}, byte {at}");
        }
    }
}

/// Texts of every length up to 40 bytes, with a byte of note at every place, are read to
/// their end by the scanner: to the `<` after them, with their references marked; one holding
/// what the scanner leaves to the cursor (CR, `>`) is left.
#[test]
fn texts_of_every_length_are_read_to_their_end() {
    for len in 0..40usize {
        for at in 0..=len {
            for note in ["&amp;", "\t", "\n", "é", "\r", ">", ""] {
                // `len` letters, the note among them before the letter at `at`.
                let letter = |i: usize| char::from(b'a' + (i % 26) as u8);
                let text: String = (0..at)
                    .map(letter)
                    .chain(note.chars())
                    .chain((at..len).map(letter))
                    .collect();
                let doc = format!("<x>{text}</x>");
                let mut scanner = Scanner::new(doc.as_bytes()).expect("UTF-8");
                scanner.pos = 3;
                let read = scanner.text_run();
                if note == "\r" || note == ">" {
                    assert!(read.is_err(), "{text:?}");
                    continue;
                }
                let span = read.unwrap_or_else(|_| panic!("{text:?} read"));
                assert_eq!(
                    (span.start as usize, span.end as usize, span.refs),
                    (3, 3 + text.len(), note == "&amp;"),
                    "{text:?}"
                );
            }
        }
    }
}
