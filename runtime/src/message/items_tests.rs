use super::*;

/// Cuts `body` fed in chunks of `chunk` bytes: the pieces, the last included.
fn cut(binding: Binding, body: &[u8], chunk: usize) -> Result<Vec<String>, CutError> {
    let mut cutter = ItemCut::new(binding, "EchoOrdersResult", false);
    let mut pieces = Vec::new();
    for part in body.chunks(chunk) {
        cutter.push(part);
        while let Some(piece) = cutter.piece()? {
            pieces.push(piece);
        }
    }
    pieces.push(cutter.last());
    Ok(pieces
        .into_iter()
        .map(|p| String::from_utf8(p).unwrap())
        .collect())
}

/// The items of the array in `message` (a SOAP response, or a result document), as written.
fn items(message: &str, soap: bool) -> Vec<String> {
    let doc = roxmltree::Document::parse(message)
        .unwrap_or_else(|e| panic!("not a whole message ({e}): {message}"));
    let mut array = doc.root_element();
    if soap {
        let body = array
            .children()
            .find(|n| n.tag_name().name() == "Body")
            .unwrap();
        let entry = body.first_element_child().unwrap();
        let results: Vec<_> = entry
            .children()
            .filter(|n| n.tag_name().name() == "EchoOrdersResult")
            .collect();
        array = *results.last().unwrap();
    }
    array
        .children()
        .filter(|n| n.is_element())
        .map(|n| message[n.range()].to_owned())
        .collect()
}

fn envelope(header: &str, result: &str) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\
         <soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\" \
         xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">{header}<soap:Body>\
         <EchoOrdersResponse xmlns=\"http://rmm.example.com/objects\">{result}\
         </EchoOrdersResponse></soap:Body></soap:Envelope>"
    )
}

/// `count` orders, each with something the cutter must not mistake for markup.
fn orders(count: usize) -> String {
    (0..count)
        .map(|i| match i % 5 {
            0 => format!("<Order><Id>{i}</Id><Note a=\"x>y\" b='/>'>1 &lt; 2</Note></Order>"),
            1 => format!(
                "<Order><Id>{i}</Id><!-- <Order> --><Tags><string>a</string></Tags></Order>"
            ),
            2 => "<Order xsi:nil=\"true\" />".to_owned(),
            3 => format!("<Order><Id>{i}</Id><Text><![CDATA[</Order> <x>]]></Text></Order>\n  "),
            _ => format!("<Other><Id>{i}</Id></Other><?pi </Order>?><Order><Id>{i}</Id></Order>"),
        })
        .collect()
}

#[test]
fn pieces_carry_every_item_once_in_order_in_whole_messages() {
    let body = envelope(
        "<soap:Header><Auth xmlns=\"urn:a\"><EchoOrdersResult><x/></EchoOrdersResult></Auth></soap:Header>",
        &format!("<EchoOrdersResult>{}</EchoOrdersResult>", orders(4_000)),
    );
    let expected = items(&body, true);
    assert_eq!(expected.len(), 4_800);
    for chunk in [1, 7, 4096, body.len()] {
        let pieces = cut(Binding::Soap11, body.as_bytes(), chunk).unwrap();
        assert!(pieces.len() > 3, "{} pieces at chunk {chunk}", pieces.len());
        let mut got = Vec::new();
        for piece in &pieces {
            assert!(piece.len() < 2 * BATCH, "a piece of {} bytes", piece.len());
            got.extend(items(piece, true));
        }
        assert_eq!(got, expected, "chunk {chunk}");
        assert!(pieces
            .last()
            .unwrap()
            .ends_with("</EchoOrdersResponse></soap:Body></soap:Envelope>"));
    }
}

#[test]
fn a_result_document_is_cut_under_its_root() {
    let body = format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<ArrayOfOrder xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xmlns=\"http://rmm.example.com/objects\">{}</ArrayOfOrder>",
        orders(3_000)
    );
    let expected = items(&body, false);
    let pieces = cut(Binding::HttpGet, body.as_bytes(), 1000).unwrap();
    assert!(pieces.len() > 2);
    let got: Vec<_> = pieces.iter().flat_map(|p| items(p, false)).collect();
    assert_eq!(got, expected);
}

#[test]
fn responses_without_items_come_whole() {
    let fault = "<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\"><soap:Body><soap:Fault><faultcode>soap:Server</faultcode><faultstring>no</faultstring></soap:Fault></soap:Body></soap:Envelope>".to_owned();
    let empty = envelope("", "<EchoOrdersResult />");
    let nil = envelope("", "<EchoOrdersResult xsi:nil=\"true\"></EchoOrdersResult>");
    let absent = envelope("", "");
    for body in [
        fault,
        empty,
        nil,
        absent,
        String::new(),
        "<notxml".to_owned(),
    ] {
        for chunk in [1, 3, 1 << 20] {
            assert_eq!(
                cut(Binding::Soap11, body.as_bytes(), chunk).unwrap(),
                std::slice::from_ref(&body)
            );
        }
    }
    // Whole as asked: nothing is read for markup.
    let body = envelope(
        "",
        &format!("<EchoOrdersResult>{}</EchoOrdersResult>", orders(3_000)),
    );
    let mut cutter = ItemCut::new(Binding::Soap11, "EchoOrdersResult", true);
    cutter.push(body.as_bytes());
    assert_eq!(cutter.piece(), Ok(None));
    assert_eq!(cutter.last(), body.as_bytes());
}

#[test]
fn a_later_result_is_the_array_and_a_repeated_one_is_refused() {
    // An empty result then one with items: the whole reader takes the last, so do the pieces.
    let later = envelope(
        "",
        &format!(
            "<EchoOrdersResult/><EchoOrdersResult>{}</EchoOrdersResult>",
            orders(2_000)
        ),
    );
    let pieces = cut(Binding::Soap11, later.as_bytes(), 512).unwrap();
    assert!(pieces.len() > 1);
    let got: Vec<_> = pieces.iter().flat_map(|p| items(p, true)).collect();
    assert_eq!(got, items(&later, true));
    // Items then a second result: the items handed out cannot be taken back.
    let repeated = envelope(
        "",
        &format!(
            "<EchoOrdersResult>{}</EchoOrdersResult><EchoOrdersResult/>",
            orders(2_000)
        ),
    );
    assert_eq!(
        cut(Binding::Soap12, repeated.as_bytes(), 512),
        Err(CutError::RepeatedResult)
    );
    // Any other element after the result is the last piece's, for the reader to skip.
    let other = envelope(
        "",
        &format!(
            "<EchoOrdersResult>{}</EchoOrdersResult><Extra/>",
            orders(2_000)
        ),
    );
    let pieces = cut(Binding::Soap11, other.as_bytes(), 512).unwrap();
    assert!(pieces
        .last()
        .unwrap()
        .contains("<Extra/></EchoOrdersResponse>"));
}

#[test]
fn a_truncated_response_ends_in_a_truncated_last_piece() {
    let body = envelope(
        "",
        &format!("<EchoOrdersResult>{}</EchoOrdersResult>", orders(8_000)),
    );
    let truncated = &body[..body.len() / 2];
    let pieces = cut(Binding::Soap11, truncated.as_bytes(), 100).unwrap();
    let (last, whole) = pieces.split_last().unwrap();
    assert!(roxmltree::Document::parse(last).is_err());
    let got: Vec<_> = whole.iter().flat_map(|p| items(p, true)).collect();
    assert!(!got.is_empty());
    assert_eq!(got[..], items(&body, true)[..got.len()]);
}

#[test]
fn no_more_than_the_limit_is_held() {
    let mut cutter = ItemCut::new(Binding::Soap11, "EchoOrdersResult", false);
    let head = envelope("", "<EchoOrdersResult><Order><Id>");
    let head = &head[..head.find("<Id>").unwrap() + 4];
    cutter.push(head.as_bytes());
    let filler = vec![b'1'; 1 << 20];
    let mut refused = None;
    for i in 0..=HELD_LIMIT >> 20 {
        cutter.push(&filler);
        if let Err(e) = cutter.piece() {
            refused = Some((i, e));
            break;
        }
    }
    // The 64th MiB of one item, with the head before it, is past the limit.
    assert_eq!(refused, Some(((HELD_LIMIT >> 20) - 1, CutError::TooLarge)));
}

#[test]
fn markup_is_found_whole_or_not_at_all() {
    assert_eq!(
        markup(b"<a>"),
        Some((
            Markup::Start {
                name_len: 1,
                empty: false
            },
            3
        ))
    );
    assert_eq!(
        markup(b"<p:ab x='>'/>t"),
        Some((
            Markup::Start {
                name_len: 4,
                empty: true
            },
            13
        ))
    );
    assert_eq!(markup(b"<p:ab x='>'"), None);
    assert_eq!(markup(b"</a >x"), Some((Markup::End, 5)));
    assert_eq!(markup(b"<!-- <a> -->x"), Some((Markup::Other, 12)));
    assert_eq!(markup(b"<!-"), None);
    assert_eq!(markup(b"<![CDA"), None);
    assert_eq!(markup(b"<![CDATA[ > ]]>"), Some((Markup::Other, 15)));
    assert_eq!(markup(b"<?xml version='1.0'?>"), Some((Markup::Other, 21)));
    assert_eq!(markup(b"<"), None);
    assert_eq!(markup(b"<abc"), None);
}
