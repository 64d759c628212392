//! The UsernameToken against zeep's (`zeep.wsse.UsernameToken`, zeep 4): the blocks below are
//! what zeep wrote for the same user, password, nonce and time.

use super::*;

/// zeep's block for `UsernameToken("ann & co", "secret & <pw>", use_digest=True,
/// nonce="0123456789abcdef", created=2026-11-25T06:30:00 UTC)`.
const ZEEP_DIGEST: &str = "<wsse:Security xmlns:wsse=\"http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd\"><wsse:UsernameToken><wsse:Username>ann &amp; co</wsse:Username><wsse:Password Type=\"http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordDigest\">znp3ufCvmx5pts6/47RmNCTzupA=</wsse:Password><wsse:Nonce EncodingType=\"http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary\">MDEyMzQ1Njc4OWFiY2RlZg==</wsse:Nonce><wsu:Created xmlns:wsu=\"http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd\">2026-11-25T06:30:00+00:00</wsu:Created></wsse:UsernameToken></wsse:Security>";

/// zeep's block for `UsernameToken("ann & co", "secret & <pw>")`.
const ZEEP_TEXT: &str = "<wsse:Security xmlns:wsse=\"http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd\"><wsse:UsernameToken><wsse:Username>ann &amp; co</wsse:Username><wsse:Password Type=\"http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordText\">secret &amp; &lt;pw&gt;</wsse:Password></wsse:UsernameToken></wsse:Security>";

const ENVELOPE: &str = "<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\"><soap:Body><Op xmlns=\"urn:s\"><n>1</n></Op></soap:Body></soap:Envelope>";

#[test]
fn blocks_are_written_as_zeep_writes_them() {
    let digest = UsernameToken::digest("ann & co", "secret & <pw>");
    assert_eq!(
        digest.block(b"0123456789abcdef", "2026-11-25T06:30:00+00:00"),
        ZEEP_DIGEST
    );
    let text = UsernameToken::text("ann & co", "secret & <pw>");
    assert_eq!(text.block(b"", ""), ZEEP_TEXT);
    // The digest itself, as the profile computes it (zeep's value).
    assert_eq!(
        password_digest(
            b"0123456789abcdef",
            "2026-11-25T06:30:00+00:00",
            "secret & <pw>"
        ),
        "znp3ufCvmx5pts6/47RmNCTzupA="
    );
    // mustUnderstand on request, in the envelope's prefix.
    assert!(text
        .must_understand(true)
        .block(b"", "")
        .starts_with(&format!(
            "<wsse:Security xmlns:wsse=\"{WSSE_NS}\" soap:mustUnderstand=\"1\">"
        )));
}

#[test]
fn the_password_is_redacted_when_printed() {
    let printed = format!("{:?}", UsernameToken::digest("ann", "hunter2"));
    assert!(
        printed.contains("ann") && !printed.contains("hunter2"),
        "{printed}"
    );
}

#[test]
fn a_block_goes_first_in_the_header_or_in_a_header_made_for_it() {
    let with = insert_block(ENVELOPE.as_bytes(), "<b />").expect("an envelope");
    assert!(String::from_utf8(with)
        .expect("text")
        .contains("xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\"><soap:Header><b /></soap:Header><soap:Body>"));
    let headed = ENVELOPE.replace(
        "<soap:Body>",
        "<soap:Header><h xmlns=\"urn:s\" /></soap:Header><soap:Body>",
    );
    let with = insert_block(headed.as_bytes(), "<b />").expect("an envelope");
    assert!(String::from_utf8(with)
        .expect("text")
        .contains("<soap:Header><b /><h xmlns=\"urn:s\" /></soap:Header>"));
    assert_eq!(insert_block(b"<x />", "<b />"), None);
}

/// `ENVELOPE` with `block` in its Header.
fn secured(block: &str) -> Vec<u8> {
    insert_block(ENVELOPE.as_bytes(), block).expect("an envelope")
}

#[test]
fn zeeps_tokens_are_read_and_verified() {
    for block in [ZEEP_DIGEST, ZEEP_TEXT] {
        let body = secured(block);
        let found = find_security(&body)
            .expect("a valid block")
            .expect("a block");
        assert_eq!(&body[found.range.clone()], block.as_bytes());
        assert!(!found.must_understand);
        let token = found.token.expect("a token");
        assert_eq!(token.username, "ann & co");
        assert!(token.verify("secret & <pw>"), "{block}");
        assert!(!token.verify("secret & <pw"), "{block}");
        assert!(!token.verify(""), "{block}");
    }
}

#[test]
fn what_is_no_token_of_the_profile_is_refused_and_what_is_no_envelope_left_to_the_server() {
    let bad_nonce = ZEEP_DIGEST.replace("MDEyMzQ1Njc4OWFiY2RlZg==", "not base64!");
    assert!(find_security(&secured(&bad_nonce)).is_err());
    let no_created = ZEEP_DIGEST
        .split("<wsu:Created")
        .next()
        .expect("a part")
        .to_owned()
        + "</wsse:UsernameToken></wsse:Security>";
    assert!(find_security(&secured(&no_created)).is_err());
    let odd_type = ZEEP_TEXT.replace("#PasswordText", "#PasswordOdd");
    assert!(find_security(&secured(&odd_type)).is_err());
    // No block, no envelope, no XML: nothing found (the server answers what it is).
    assert_eq!(find_security(ENVELOPE.as_bytes()), Ok(None));
    assert_eq!(find_security(b"<a>"), Ok(None));
    assert_eq!(
        find_security(b"<?xml version=\"1.0\"?><!DOCTYPE a [<!ENTITY e \"x\">]><a>&e;</a>"),
        Ok(None)
    );
}

#[cfg(feature = "server")]
mod check {
    use super::*;
    use http::{header, Request};

    fn request(body: Vec<u8>, content_type: &'static str) -> Request<bytes::Bytes> {
        let mut request = Request::new(bytes::Bytes::from(body));
        request.headers_mut().insert(
            header::CONTENT_TYPE,
            header::HeaderValue::from_static(content_type),
        );
        request
    }

    fn passwords(user: &str) -> Option<String> {
        (user == "ann & co").then(|| "secret & <pw>".to_owned())
    }

    /// A digest block made now, as a client makes it.
    fn fresh_digest(password: &str, nonce: &[u8]) -> String {
        let created = now().format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string();
        UsernameToken::digest("ann & co", password)
            .must_understand(true)
            .block(nonce, &created)
    }

    #[test]
    fn a_proven_token_goes_on_without_its_block_and_with_its_user() {
        let check = UsernameTokenCheck::new(passwords);
        let passed = check
            .check(request(
                secured(&fresh_digest("secret & <pw>", b"n1")),
                "text/xml; charset=utf-8",
            ))
            .expect("accepted");
        assert_eq!(
            passed.extensions().get::<Authenticated>(),
            Some(&Authenticated("ann & co".into()))
        );
        // The block is gone; the rest is the envelope as it was, its Header left empty.
        assert_eq!(
            passed.body().as_ref(),
            ENVELOPE
                .replace("<soap:Body>", "<soap:Header></soap:Header><soap:Body>")
                .as_bytes()
        );
        // A text password (zeep's) is checked as it is.
        assert!(check
            .check(request(secured(ZEEP_TEXT), "text/xml; charset=utf-8"))
            .is_ok());
    }

    #[test]
    fn a_wrong_password_an_unknown_user_a_stale_time_or_a_nonce_again_is_refused() {
        let check = UsernameTokenCheck::new(passwords);
        let refused = |body: Vec<u8>, content_type: &'static str| {
            let response = check
                .check(request(body, content_type))
                .expect_err("refused");
            assert_eq!(response.status(), 500);
            String::from_utf8(response.body().to_vec()).expect("text")
        };
        let fault = refused(
            secured(&fresh_digest("wrong", b"n2")),
            "text/xml; charset=utf-8",
        );
        assert!(
            fault.contains(&format!(
                "<faultcode xmlns:wsse=\"{WSSE_NS}\">wsse:FailedAuthentication</faultcode>"
            )),
            "{fault}"
        );
        let unknown = UsernameToken::text("bob", "secret & <pw>").block(b"", "");
        refused(secured(&unknown), "text/xml; charset=utf-8");
        // A digest made long ago, or in the future.
        for created in ["2020-01-01T00:00:00Z", "2999-01-01T00:00:00Z", "yesterday"] {
            let stale = UsernameToken::digest("ann & co", "secret & <pw>").block(b"n0", created);
            refused(secured(&stale), "text/xml; charset=utf-8");
        }
        // The same nonce twice: the second is a replay.
        let once = fresh_digest("secret & <pw>", b"n3");
        assert!(check.check(request(secured(&once), "text/xml")).is_ok());
        refused(secured(&once), "text/xml");
        // No block while one is required; SOAP 1.2's fault is a Sender of the subcode.
        let soap12 = ENVELOPE.replace(crate::soap::SOAP11_NS, crate::soap::SOAP12_NS);
        let fault = refused(soap12.into_bytes(), "application/soap+xml; charset=utf-8");
        assert!(
            fault.contains(
                "<soap:Value>soap:Sender</soap:Value><soap:Subcode><soap:Value xmlns:wsse"
            ),
            "{fault}"
        );
        // A block that is no token of the profile.
        let fault = refused(
            secured(&ZEEP_TEXT.replace("#PasswordText", "#Odd")),
            "text/xml",
        );
        assert!(fault.contains("wsse:InvalidSecurity"), "{fault}");
    }

    #[test]
    fn without_a_required_token_requests_go_on_and_http_get_and_post_always_do() {
        let optional = UsernameTokenCheck::new(passwords).required(false);
        let passed = optional
            .check(request(ENVELOPE.as_bytes().to_vec(), "text/xml"))
            .expect("goes on");
        assert_eq!(passed.body().as_ref(), ENVELOPE.as_bytes());
        assert!(passed.extensions().get::<Authenticated>().is_none());
        let required = UsernameTokenCheck::new(passwords);
        assert!(required
            .check(request(
                b"n=1".to_vec(),
                "application/x-www-form-urlencoded"
            ))
            .is_ok());
    }
}
