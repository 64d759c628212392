//! The generated crate's API as a downstream user meets it.

use rmm_mobile::*;

fn credentials() -> Credentials {
    Credentials {
        repnumber: 42,
        timestamp: Some("2026-01-01T00:00:00Z".into()),
        sig: Some("sig-SECRET".into()),
        mobilekey: Some("mk-SECRET".into()),
    }
}

#[test]
fn debug_never_prints_a_secret() {
    let shown = format!("{:?}", credentials());
    assert_eq!(
        shown,
        "Credentials { repnumber: 42, timestamp: Some(\"2026-01-01T00:00:00Z\"), sig: <redacted>, mobilekey: <redacted> }"
    );
    let keeper = MobilePasswordKeeperCreate {
        title: Some("router".into()),
        password: Some("hunter2".into()),
        ..Default::default()
    };
    let shown = format!("{keeper:?}");
    assert!(shown.contains("password: <redacted>"), "{shown}");
    assert!(shown.contains("title: Some(\"router\")"), "{shown}");
    assert!(!shown.contains("hunter2"), "{shown}");
    let absent = MobilePasswordKeeperCreate::default();
    assert!(format!("{absent:?}").contains("password: None"));
}

#[test]
fn rust_keywords_keep_their_wire_names() {
    // `type` is a parameter of MobileServiceOrderCreate; in Rust it is `r#type`.
    let order = MobileServiceOrderCreate {
        r#type: Some("Repair".into()),
        ..Default::default()
    };
    let request = order
        .encode_request(&credentials(), Binding::Soap11)
        .unwrap();
    let body = std::str::from_utf8(request.body()).unwrap();
    assert!(body.contains("<type>Repair</type>"), "{body}");
    let (_, back) = MobileServiceOrderCreate::decode_request(&request, Binding::Soap11).unwrap();
    assert_eq!(back.r#type.as_deref(), Some("Repair"));
}

#[test]
fn an_operation_without_mobilekey_never_sends_one() {
    let search = MobileAccountSearch::default();
    for binding in [Binding::Soap11, Binding::Soap12] {
        let request = search.encode_request(&credentials(), binding).unwrap();
        let body = std::str::from_utf8(request.body()).unwrap();
        assert!(
            !body.contains("mobilekey") && !body.contains("mk-SECRET"),
            "{body}"
        );
        let (decoded, _) = MobileAccountSearch::decode_request(&request, binding).unwrap();
        assert_eq!(decoded.mobilekey, None);
    }
}

#[test]
fn operations_are_listed_with_their_literals() {
    assert_eq!(Operation::ALL.len(), 20);
    assert_eq!(
        Operation::from_name("MobileTaskCreate"),
        Some(Operation::MobileTaskCreate)
    );
    assert_eq!(
        Operation::from_name("mobiletaskcreate"),
        None,
        "names are case-sensitive"
    );
    let info = Operation::MobileGetInvoiceDetails.info();
    assert_eq!(
        info.soap_action,
        "\"http://rmm.example.com/mobile/MobileGetInvoiceDetails\""
    );
    assert_eq!(
        info.http_path,
        "/api/rmm/MobileService.asmx/MobileGetInvoiceDetails"
    );
}

#[test]
fn what_verifiers_and_signers_see_prints_without_secrets() {
    let keeper = MobilePasswordKeeperCreate {
        password: Some("hunter2".into()),
        ..Default::default()
    };
    let creds = credentials();
    let params = keeper.values(&creds);
    let call = Call {
        operation: Operation::MobilePasswordKeeperCreate,
        binding: Binding::Soap11,
        credentials: &creds,
        params: &params,
    };
    let shown = format!("{call:?}");
    for secret in ["hunter2", "sig-SECRET", "mk-SECRET"] {
        assert!(!shown.contains(secret), "{shown}");
    }
    assert!(shown.contains("(\"password\", <redacted>)"), "{shown}");
    let signing = SigningRequest {
        operation: Operation::MobilePasswordKeeperCreate,
        params: &params,
    };
    assert!(!format!("{signing:?}").contains("hunter2"));
}
