//! Requests and responses of every binding, against the host's bytes.

use std::borrow::Cow;

use http::Request;

use super::*;
use crate::xml::replacements_ignored;
use crate::{EncodeError, Fault, RequestError, ResponseError};

use crate::operation::fixtures::OP;

#[test]
fn replaced_bytes_count_only_where_the_host_reads_them() {
    let envelope = |inner: &str| {
        format!("<e:Envelope xmlns:e=\"urn:env\"><e:Body>{inner}</e:Body></e:Envelope>")
    };
    // Between parameters, beside elements, in a comment: ignored, as the host skips them.
    for ignored in [
        "<Op><a>1</a> \u{FFFD} <b>2</b></Op>",
        "<Op>\u{FFFD}<a>1</a></Op>",
        "\u{FFFD}<a>1</a><b>2</b>",
        "<Op><a>1</a><!-- \u{FFFD} --></Op>",
    ] {
        assert!(
            replacements_ignored(envelope(ignored).as_bytes()),
            "{ignored}"
        );
    }
    // In a value, a bare parameter's text, a name, an attribute, CDATA, a class's member:
    // read, so refused.
    for read in [
        "<Op><a>1\u{FFFD}</a></Op>",
        "<text>\u{FFFD}</text>",
        "<Op><a\u{FFFD}>1</a\u{FFFD}></Op>",
        "<Op><a t=\"\u{FFFD}\">1</a></Op>",
        "<Op><a><![CDATA[\u{FFFD}]]></a></Op>",
        "<Op><order><Name>x</Name>\u{FFFD}<Id>1</Id></order></Op>",
    ] {
        assert!(!replacements_ignored(envelope(read).as_bytes()), "{read}");
    }
    assert!(!replacements_ignored("\u{FFFD}<a/>".as_bytes()));
}

fn body(r: &Response<Bytes>) -> &str {
    std::str::from_utf8(r.body()).unwrap()
}

#[test]
fn content_length_is_the_body_length_and_not_part_of_the_body() {
    let mut spare = String::with_capacity(64);
    spare.push_str("<a>x</a>");
    let exact = String::from("<a>x</a>");
    for envelope in [spare, exact, String::new()] {
        let expected = envelope.clone();
        let request = soap_request(Binding::Soap11, &OP, envelope);
        assert_eq!(request.body(), expected.as_bytes());
        assert_eq!(
            request.headers()[CONTENT_LENGTH],
            expected.len().to_string().as_str()
        );
    }
    let request = form_request(Binding::HttpPost, &OP, "a=1&b=2".to_owned());
    assert_eq!(request.body(), &b"a=1&b=2"[..]);
    assert_eq!(request.headers()[CONTENT_LENGTH], "7");
}

#[test]
fn soap11_result_is_asmx_bytes() {
    let r = string_response(Binding::Soap11, &OP, Some("a & <b>")).unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()[CONTENT_TYPE], "text/xml; charset=utf-8");
    assert_eq!(r.headers()[CACHE_CONTROL], "private, max-age=0");
    assert_eq!(
        body(&r),
        "<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\"><soap:Body><OpResponse xmlns=\"urn:s\"><OpResult>a &amp; &lt;b&gt;</OpResult></OpResponse></soap:Body></soap:Envelope>"
    );
    assert_eq!(
        r.headers()[CONTENT_LENGTH],
        body(&r).len().to_string().as_str()
    );
}

#[test]
fn string_results_round_trip_on_every_binding() {
    for binding in Binding::ALL {
        for result in [None, Some(""), Some("x"), Some("a\r\nb <&> \"é\"")] {
            let r = string_response(binding, &OP, result).unwrap();
            assert_eq!(
                decode_string_response(binding, &OP, &r).unwrap().as_deref(),
                result,
                "{binding} {result:?}"
            );
        }
    }
}

#[test]
fn scalar_results_are_written_as_asmx_writes_them() {
    let soap = scalar_response(Binding::Soap11, &OP, &-9_223_372_036_854_775_808i64);
    assert_eq!(soap.headers()[CONTENT_TYPE], "text/xml; charset=utf-8");
    assert!(body(&soap).ends_with(
        "<soap:Body><OpResponse xmlns=\"urn:s\"><OpResult>-9223372036854775808</OpResult>\
         </OpResponse></soap:Body></soap:Envelope>"
    ));
    let get = scalar_response(Binding::HttpGet, &OP, &f64::NEG_INFINITY);
    assert_eq!(get.headers()[CONTENT_TYPE], "text/xml; charset=utf-8");
    assert_eq!(
        body(&get),
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<double xmlns=\"urn:s\">-INF</double>"
    );
    let post = scalar_response(Binding::HttpPost, &OP, &200u8);
    assert_eq!(
        body(&post),
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<unsignedByte xmlns=\"urn:s\">200</unsignedByte>"
    );
}

#[test]
fn scalar_results_round_trip_on_every_binding() {
    for binding in Binding::ALL {
        let r = scalar_response(binding, &OP, &u64::MAX);
        assert_eq!(
            decode_scalar_response::<u64, _>(binding, &OP, &r),
            Ok(u64::MAX)
        );
        let r = scalar_response(binding, &OP, &3.4028235e38f32);
        assert_eq!(
            decode_scalar_response::<f32, _>(binding, &OP, &r),
            Ok(f32::MAX)
        );
        let r = scalar_response(binding, &OP, &-0.0f64);
        let back = decode_scalar_response::<f64, _>(binding, &OP, &r).unwrap();
        assert!(back == 0.0 && back.is_sign_negative(), "{binding:?}");
    }
}

#[test]
fn a_scalar_result_the_type_cannot_hold_or_a_missing_one_is_undecodable() {
    let wide = scalar_response(Binding::Soap12, &OP, &300i32);
    match decode_scalar_response::<u8, _>(Binding::Soap12, &OP, &wide) {
        Err(ResponseError::Undecodable { reason, .. }) => assert_eq!(
            reason,
            "the result '300' is not an unsignedByte: it is outside the range of an \
             unsignedByte (0 to 255)"
        ),
        other => panic!("{other:?}"),
    }
    // The GET/POST document is named after the type: an int document is not a long's.
    let int = scalar_response(Binding::HttpGet, &OP, &5i32);
    assert!(matches!(
        decode_scalar_response::<i64, _>(Binding::HttpGet, &OP, &int),
        Err(ResponseError::Undecodable { .. })
    ));
    let missing = string_response(Binding::Soap11, &OP, None).unwrap();
    match decode_scalar_response::<i32, _>(Binding::Soap11, &OP, &missing) {
        Err(ResponseError::Undecodable { reason, .. }) => {
            assert_eq!(reason, "the int result is missing")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn nullable_results_are_written_as_xmlserializer_writes_a_null() {
    let soap = nullable_response::<i32>(Binding::Soap12, &OP, None);
    assert!(body(&soap).ends_with(
        "<soap:Body><OpResponse xmlns=\"urn:s\"><OpResult xsi:nil=\"true\" /></OpResponse>\
         </soap:Body></soap:Envelope>"
    ));
    let get = nullable_response::<f64>(Binding::HttpGet, &OP, None);
    assert_eq!(
        body(&get),
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<double xsi:nil=\"true\" \
         xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xmlns=\"urn:s\" />"
    );
    for binding in Binding::ALL {
        for value in [None, Some(-5i16)] {
            let r = nullable_response(binding, &OP, value.as_ref());
            assert_eq!(
                decode_nullable_response::<i16, _>(binding, &OP, &r),
                Ok(value)
            );
        }
    }
}

#[test]
fn base64_results_are_written_as_asmx_writes_them() {
    let soap = bytes_response(Binding::Soap11, &OP, Some(&[0, 255]));
    assert!(body(&soap).contains("<OpResult>AP8=</OpResult>"));
    let empty = bytes_response(Binding::Soap11, &OP, Some(&[]));
    assert!(body(&empty).contains("<OpResponse xmlns=\"urn:s\"><OpResult /></OpResponse>"));
    let get = bytes_response(Binding::HttpGet, &OP, Some(&[]));
    assert_eq!(
        body(&get),
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<base64Binary xmlns=\"urn:s\" />"
    );
    for binding in Binding::ALL {
        for value in [None, Some(vec![]), Some(vec![1, 2, 3])] {
            let r = bytes_response(binding, &OP, value.as_deref());
            assert_eq!(
                decode_bytes_response(binding, &OP, &r),
                Ok(value),
                "{binding:?}"
            );
        }
    }
}

#[test]
fn void_results_are_written_as_asmx_writes_them() {
    let soap = void_response(Binding::Soap11, &OP);
    assert!(body(&soap)
        .ends_with("<soap:Body><OpResponse xmlns=\"urn:s\" /></soap:Body></soap:Envelope>"));
    let get = void_response(Binding::HttpGet, &OP);
    assert_eq!(get.status(), 200);
    assert!(get.headers().get(CONTENT_TYPE).is_none());
    assert_eq!(get.headers()[CACHE_CONTROL], "private, max-age=0");
    assert!(get.body().is_empty());
    for binding in Binding::ALL {
        let r = void_response(binding, &OP);
        assert_eq!(decode_void_response(binding, &OP, &r), Ok(()));
    }
    let fault = fault_response(Binding::HttpPost, &Fault::client("no"));
    assert!(matches!(
        decode_void_response(Binding::HttpPost, &OP, &fault),
        Err(ResponseError::ErrorBody { .. })
    ));
}

#[test]
fn empty_and_null_results_are_written_as_dotnet_does() {
    assert!(body(&string_response(Binding::Soap12, &OP, Some("")).unwrap())
        .ends_with("<soap:Body><OpResponse xmlns=\"urn:s\"><OpResult /></OpResponse></soap:Body></soap:Envelope>"));
    assert_eq!(
        body(&string_response(Binding::HttpGet, &OP, Some("")).unwrap()),
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<string xmlns=\"urn:s\" />"
    );
    assert_eq!(
        body(&string_response(Binding::HttpPost, &OP, None).unwrap()),
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<string xsi:nil=\"true\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xmlns=\"urn:s\" />"
    );
}

#[test]
fn result_with_control_character_is_an_encode_error() {
    assert_eq!(
        string_response(Binding::Soap11, &OP, Some("a\u{7}")).unwrap_err(),
        EncodeError::InvalidXmlChar {
            operation: "Op",
            field: "OpResult",
            code: 7
        }
    );
    assert!(string_response(Binding::HttpGet, &OP, Some("\u{0}")).is_err());
}

#[test]
fn faults_are_written_as_asmx_writes_them_and_read_back() {
    let fault = Fault::client("requested fault");
    let r = fault_response(Binding::Soap11, &fault);
    assert_eq!(r.status(), 500);
    assert!(body(&r).ends_with("<soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>requested fault</faultstring><detail /></soap:Fault></soap:Body></soap:Envelope>"));
    let r12 = fault_response(Binding::Soap12, &fault);
    assert_eq!(
        r12.headers()[CONTENT_TYPE],
        "application/soap+xml; charset=utf-8"
    );
    assert!(body(&r12).ends_with("<soap:Body><soap:Fault><soap:Code><soap:Value>soap:Sender</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang=\"en\">requested fault</soap:Text></soap:Reason><soap:Detail /></soap:Fault></soap:Body></soap:Envelope>"));
    for binding in [Binding::Soap11, Binding::Soap12] {
        let server = Fault {
            code: crate::FaultCode::Server,
            reason: "x < y".into(),
            detail: Some("d".into()),
        };
        match decode_string_response(binding, &OP, &fault_response(binding, &server)) {
            Err(ResponseError::Fault { fault, .. }) => assert_eq!(fault, server),
            other => panic!("{other:?}"),
        }
        // A fault raised before the operation (mustUnderstand) has no detail element.
        let bare = Fault {
            code: crate::FaultCode::MustUnderstand,
            reason: "r".into(),
            detail: None,
        };
        let written = fault_response(binding, &bare);
        assert!(!body(&written).contains("etail"), "{}", body(&written));
        match decode_string_response(binding, &OP, &written) {
            Err(ResponseError::Fault { fault, .. }) => assert_eq!(fault, bare),
            other => panic!("{other:?}"),
        }
        // A code of the service's or a peer's choosing is text like any other (found by
        // fuzzing: written raw, it made a document no reader takes).
        let odd = Fault {
            code: crate::FaultCode::Other("a&<b>\"c".into()),
            reason: "r".into(),
            detail: Some(String::new()),
        };
        let written = fault_response(binding, &odd);
        assert!(
            body(&written).contains("soap:a&amp;&lt;b&gt;\"c</"),
            "{}",
            body(&written)
        );
        match decode_string_response(binding, &OP, &written) {
            Err(ResponseError::Fault { fault, .. }) => assert_eq!(fault, odd),
            other => panic!("{other:?}"),
        }
    }
    let get = fault_response(Binding::HttpGet, &fault);
    assert_eq!(get.headers()[CONTENT_TYPE], "text/plain; charset=utf-8");
    assert_eq!(body(&get), "requested fault\n");
    match decode_string_response(Binding::HttpGet, &OP, &get) {
        Err(ResponseError::ErrorBody { message, .. }) => assert_eq!(message, "requested fault"),
        other => panic!("{other:?}"),
    }
}

fn soap_request_with(content_type: &str, body: &[u8]) -> Request<Bytes> {
    Request::post("/s.asmx")
        .header(CONTENT_TYPE, content_type)
        .body(Bytes::copy_from_slice(body))
        .unwrap()
}

/// A reader that refuses bytes that are not UTF-8 as malformed, as the XML reader does,
/// and faults (a refusal the host also gives) on a root named `fault`.
fn reader(body: &[u8]) -> Result<String, RequestError> {
    let text = std::str::from_utf8(body).map_err(|_| RequestError::MalformedXml {
        reason: "not UTF-8".into(),
    })?;
    if text.starts_with("<fault") {
        return Err(RequestError::Doctype);
    }
    Ok(text.to_owned())
}

#[test]
fn bytes_that_are_not_text_read_as_the_host_reads_them() {
    let valid = soap_request_with("text/xml; charset=utf-8", "<a>é</a>".as_bytes());
    let text = soap_text(&valid).unwrap();
    assert_eq!(text.decode(reader).unwrap(), "<a>é</a>");
    // The host reads U+FFFD and would answer with it: refused, as malformed.
    let invalid = soap_request_with("text/xml; charset=utf-8", b"<a>\xff</a>");
    let text = soap_text(&invalid).unwrap();
    assert_eq!(text.read(reader).unwrap(), "<a>\u{fffd}</a>");
    let refused = text.decode(reader).unwrap_err();
    assert!(refused.is_malformed(), "{refused:?}");
    // Where the host's reading of that text ends in a refusal, that refusal is the answer.
    let faulted = soap_request_with("text/xml; charset=utf-8", b"<fault>\xff</fault>");
    let text = soap_text(&faulted).unwrap();
    assert_eq!(text.decode(reader), Err(RequestError::Doctype));
    assert_eq!(text.read(reader), Err(RequestError::Doctype));
    // The same for an encoding that is transcoded: a lone surrogate in UTF-16.
    let utf16 = soap_request_with(
        "text/xml; charset=utf-16",
        b"<\x00a\x00>\x00\x00\xd8<\x00/\x00a\x00>\x00",
    );
    let text = soap_text(&utf16).unwrap();
    assert_eq!(text.read(reader).unwrap(), "<a>\u{fffd}</a>");
    assert!(text.decode(reader).unwrap_err().is_malformed());
    assert!(soap_body(&utf16).unwrap_err().is_malformed());
}

#[test]
fn soap_bodies_are_read_in_their_declared_encoding() {
    let utf8 = soap_request_with(
        "text/xml; charset=utf-8",
        "<?xml version=\"1.0\"?><a>é</a>".as_bytes(),
    );
    assert!(matches!(soap_body(&utf8).unwrap(), Cow::Borrowed(_)));
    let latin1 = soap_request_with(
        "text/xml; charset=iso-8859-1",
        b"<?xml version=\"1.0\" encoding=\"iso-8859-1\"?><a>caf\xe9</a>",
    );
    assert_eq!(
        &soap_body(&latin1).unwrap()[..],
        "<?xml version=\"1.0\" encoding=\"iso-8859-1\"?><a>café</a>".as_bytes()
    );
    // The charset alone is enough.
    let charset_only = soap_request_with("text/xml; charset=\"ISO-8859-1\"", b"<a>\xe9</a>");
    assert_eq!(
        &soap_body(&charset_only).unwrap()[..],
        "<a>é</a>".as_bytes()
    );
    // Without a charset the declaration decides for application/*.
    let declared = soap_request_with(
        "application/soap+xml",
        b"<?xml version='1.0' encoding = 'latin1'?><a>\xe9</a>",
    );
    assert_eq!(
        &soap_body(&declared).unwrap()[..],
        "<?xml version='1.0' encoding = 'latin1'?><a>é</a>".as_bytes()
    );
    // For text/*, ASP.NET (and the host) read US-ASCII then, `?` for other bytes:
    // refused, an ASCII body read as it is.
    let undeclared = soap_request_with(
        "text/xml",
        b"<?xml version='1.0' encoding = 'latin1'?><a>\xe9</a>",
    );
    assert_eq!(
        soap_body(&undeclared).unwrap_err(),
        RequestError::UnnamedCharset { label: None }
    );
    let ascii = soap_request_with("text/xml", b"<a>e</a>");
    assert_eq!(&soap_body(&ascii).unwrap()[..], b"<a>e</a>");
    // With both, the charset wins, as ASP.NET's reader does: UTF-8 stays UTF-8.
    let both = soap_request_with(
        "text/xml; charset=utf-8",
        "<?xml version='1.0' encoding='iso-8859-1'?><a>é</a>".as_bytes(),
    );
    assert!(matches!(soap_body(&both).unwrap(), Cow::Borrowed(_)));
    let bom = soap_request_with("text/xml", b"\xef\xbb\xbf<a/>");
    assert_eq!(&soap_body(&bom).unwrap()[..], b"<a/>");
    let utf16 = soap_request_with("text/xml", b"\xff\xfe<\x00a\x00/\x00>\x00");
    assert_eq!(&soap_body(&utf16).unwrap()[..], b"<a/>");
    // A charset ASP.NET cannot name, or an empty one, is ignored for application/*: the
    // declaration decides, as the host does.
    let unknown = soap_request_with(
        "application/soap+xml; charset=klingon",
        b"<?xml version='1.0' encoding='latin1'?><a>\xe9</a>",
    );
    assert_eq!(
        &soap_body(&unknown).unwrap()[..],
        "<?xml version='1.0' encoding='latin1'?><a>é</a>".as_bytes()
    );
    let empty = soap_request_with("application/soap+xml; charset=", "<a>é</a>".as_bytes());
    assert!(matches!(soap_body(&empty).unwrap(), Cow::Borrowed(_)));
    // For text/* ASP.NET falls back to US-ASCII: an ASCII body reads the same, another
    // (which it would read with `?`) is refused.
    let ascii = soap_request_with("text/xml; charset=utf8", b"<a>x</a>");
    assert_eq!(&soap_body(&ascii).unwrap()[..], b"<a>x</a>");
    let other = soap_request_with("text/xml; charset=utf8", "<a>é</a>".as_bytes());
    assert_eq!(
        soap_body(&other).unwrap_err(),
        RequestError::UnnamedCharset {
            label: Some("utf8".into())
        }
    );
    // Where the declaration decides, one naming no encoding .NET knows is refused, as
    // malformed; where it does not, it is not looked at.
    let undeclarable = soap_request_with(
        "application/soap+xml; charset=klingon",
        b"<?xml version='1.0' encoding='klingon'?><a/>",
    );
    let refused = soap_body(&undeclarable).unwrap_err();
    assert_eq!(
        refused,
        RequestError::UnsupportedEncoding {
            label: "klingon".into()
        }
    );
    assert!(refused.is_malformed());
    for content_type in [
        "text/xml; charset=klingon",
        "text/xml",
        "text/xml; charset=utf-8",
    ] {
        let ignored = soap_request_with(
            content_type,
            b"<?xml version='1.0' encoding='klingon'?><a/>",
        );
        assert_eq!(
            &soap_body(&ignored).unwrap()[..],
            b"<?xml version='1.0' encoding='klingon'?><a/>"
        );
    }
    let ignored = soap_request_with(
        "application/soap+xml; charset=utf-8",
        "<?xml version='1.0' encoding='8'?><a>é</a>".as_bytes(),
    );
    assert!(matches!(soap_body(&ignored).unwrap(), Cow::Borrowed(_)));
}

#[test]
fn asmx_400_with_empty_body_is_a_status_error() {
    let mut r = Response::new(Bytes::new());
    *r.status_mut() = StatusCode::BAD_REQUEST;
    r.headers_mut().insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/xml; charset=utf-8"),
    );
    assert!(matches!(
        decode_string_response(Binding::Soap11, &OP, &r),
        Err(ResponseError::Status { status: 400, .. })
    ));
}

#[test]
fn garbage_200_keeps_the_bytes() {
    let r = Response::new(Bytes::from_static(b"<html>oops"));
    match decode_string_response(Binding::Soap11, &OP, &r) {
        Err(ResponseError::Undecodable { body, reason, .. }) => {
            assert_eq!(&body[..], b"<html>oops");
            assert_eq!(
                reason,
                "the root element is {}html, not a SOAP 1.1 envelope"
            );
        }
        other => panic!("{other:?}"),
    }
    let truncated = string_response(Binding::Soap11, &OP, Some("x"))
        .unwrap()
        .map(|b| b.slice(..b.len() - 10));
    match decode_string_response(Binding::Soap11, &OP, &truncated) {
        Err(ResponseError::Undecodable { reason, .. }) => {
            assert!(
                reason.starts_with("the body is not well-formed XML"),
                "{reason}"
            )
        }
        other => panic!("{other:?}"),
    }
    let wrong = Response::new(Bytes::from_static(
        b"<string xmlns=\"urn:other\">x</string>",
    ));
    assert!(matches!(
        decode_string_response(Binding::HttpGet, &OP, &wrong),
        Err(ResponseError::Undecodable { .. })
    ));
}
