//! SOAP headers in both directions (issue 19), through the generated codecs of `rmm-objects`:
//! `Hop` reads an In `AuthHeader` and an InOut `TraceHeader` and writes an Out `StampHeader`
//! and the TraceHeader back. The block attributes .NET's `SoapHeader` carries
//! (`mustUnderstand`, `actor`/`role`, `relay`) travel with a block, each in the message's own
//! SOAP version, as the reference host echoed them (`tests/fixtures/objects/asmx/*hop*`).

use rmm_objects::runtime::deps::bytes::Bytes;
use rmm_objects::runtime::deps::http::{Response, StatusCode};
use rmm_objects::runtime::HeaderAttributes;
use rmm_objects::{
    AuthHeader, Binding, Hop, HopResponse, RequestError, ResponseError, StampHeader, TraceHeader,
};

const NS: &str = "http://rmm.example.com/objects";

fn attributes(actor: &str) -> HeaderAttributes {
    HeaderAttributes {
        must_understand: true,
        actor: actor.into(),
        relay: true,
    }
}

fn request() -> Hop {
    Hop {
        n: 2,
        auth_header: Some(AuthHeader {
            user: Some("ann".into()),
            password: Some("pw".into()),
            soap: HeaderAttributes::default(),
        }),
        trace_header: Some(TraceHeader {
            id: Some("t <1> & \"2\"".into()),
            hop: 3,
            soap: attributes("urn:a?b=1&c=\t2"),
        }),
    }
}

fn response_with(binding: Binding, header: &str, result: &str) -> Response<Bytes> {
    let (ns, content_type) = if binding == Binding::Soap12 {
        (
            "http://www.w3.org/2003/05/soap-envelope",
            "application/soap+xml; charset=utf-8",
        )
    } else {
        (
            "http://schemas.xmlsoap.org/soap/envelope/",
            "text/xml; charset=utf-8",
        )
    };
    let body = format!(
        r#"<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="{ns}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">{header}<soap:Body><HopResponse xmlns="{NS}"><HopResult>{result}</HopResult></HopResponse></soap:Body></soap:Envelope>"#
    );
    Response::builder()
        .status(StatusCode::OK)
        .header("Content-Type", content_type)
        .body(Bytes::from(body))
        .unwrap()
}

/// What the client sends the server reads, headers and their attributes included (relay only
/// in SOAP 1.2, which alone has it); what the server answers the client reads, its Out and
/// InOut headers included.
#[test]
fn headers_round_trip_both_ways_with_their_attributes() {
    for binding in [Binding::Soap11, Binding::Soap12] {
        let sent = request();
        let wire = sent.encode_request(&Default::default(), binding).unwrap();
        let (_, read) = Hop::decode_request(&wire, binding).unwrap();
        let mut expected = sent.clone();
        if binding == Binding::Soap11 {
            expected.trace_header.as_mut().unwrap().soap.relay = false;
        }
        assert_eq!(read, expected, "{binding}");

        let answer = rmm_tests::objects_service::hop(read);
        assert_eq!(answer.trace_header.as_ref().unwrap().hop, 5);
        assert_eq!(
            answer.stamp_header.as_ref().unwrap().by.as_deref(),
            Some("ann")
        );
        let wire = answer.encode_response(binding).unwrap();
        let text = String::from_utf8(wire.body().to_vec()).unwrap();
        let header_at = text.find("<soap:Header>").expect("a Header");
        assert!(header_at < text.find("<soap:Body>").unwrap(), "{text}");
        assert_eq!(
            wire.headers()["Content-Length"],
            wire.body().len().to_string().as_str()
        );
        let back = HopResponse::decode_response(&wire, binding).unwrap();
        assert_eq!(back, answer, "{binding}");
    }
}

/// A header block's attributes are written in the message's own version, before its
/// namespace declaration, as the host writes them: `actor` in SOAP 1.1, `role` and `relay` in
/// 1.2; nothing for attributes at their defaults.
#[test]
fn block_attributes_are_written_in_the_messages_own_version() {
    let mut response = HopResponse {
        result: 1,
        stamp_header: None,
        trace_header: Some(TraceHeader {
            id: None,
            hop: 1,
            soap: attributes("urn:x&y"),
        }),
    };
    let text = |r: &HopResponse, binding| {
        let wire = r.encode_response(binding).unwrap();
        String::from_utf8(wire.body().to_vec()).unwrap()
    };
    let soap11 = text(&response, Binding::Soap11);
    assert!(
        soap11.contains(&format!(
            r#"<soap:Header><TraceHeader soap:mustUnderstand="1" soap:actor="urn:x&amp;y" xmlns="{NS}"><Hop>1</Hop></TraceHeader></soap:Header>"#
        )),
        "{soap11}"
    );
    let soap12 = text(&response, Binding::Soap12);
    assert!(
        soap12.contains(&format!(
            r#"<TraceHeader soap:mustUnderstand="1" soap:role="urn:x&amp;y" soap:relay="1" xmlns="{NS}">"#
        )),
        "{soap12}"
    );
    response.trace_header.as_mut().unwrap().soap = HeaderAttributes::default();
    let plain = text(&response, Binding::Soap12);
    assert!(
        plain.contains(&format!(
            r#"<TraceHeader xmlns="{NS}"><Hop>1</Hop></TraceHeader>"#
        )),
        "{plain}"
    );
}

/// No header travels over HTTP GET/POST: the response is the result document alone, and a
/// response without a block set has no Header at all.
#[test]
fn no_header_travels_over_http_or_when_none_is_set() {
    let with = rmm_tests::objects_service::hop(request());
    let without = HopResponse {
        result: with.result,
        ..Default::default()
    };
    for binding in [Binding::HttpGet, Binding::HttpPost] {
        assert_eq!(
            with.encode_response(binding).unwrap().body(),
            without.encode_response(binding).unwrap().body()
        );
    }
    let soap = without.encode_response(Binding::Soap11).unwrap();
    assert!(!String::from_utf8_lossy(soap.body()).contains("Header"));
}

/// The client reads a response's Header as .NET's client does: the first of a repeated
/// block, other blocks skipped, a block it does not know marked mustUnderstand refused, and
/// a block attribute `SoapHeader` cannot read refused.
#[test]
fn the_client_reads_the_responses_header_as_dotnet_does() {
    let header = format!(
        r#"<soap:Header><TraceHeader xmlns="{NS}" soap:mustUnderstand="true" soap:actor="urn:a"><Id>x</Id><Hop>5</Hop></TraceHeader><Other xmlns="urn:o" /><StampHeader xmlns="{NS}"><Hops>2</Hops></StampHeader><TraceHeader xmlns="{NS}"><Hop>9</Hop></TraceHeader></soap:Header>"#
    );
    let read = HopResponse::decode_response(
        &response_with(Binding::Soap11, &header, "5"),
        Binding::Soap11,
    )
    .unwrap();
    assert_eq!(
        read,
        HopResponse {
            result: 5,
            stamp_header: Some(StampHeader {
                by: None,
                hops: 2,
                soap: HeaderAttributes::default(),
            }),
            trace_header: Some(TraceHeader {
                id: Some("x".into()),
                hop: 5,
                soap: HeaderAttributes {
                    must_understand: true,
                    actor: "urn:a".into(),
                    relay: false,
                },
            }),
        }
    );

    let unknown = r#"<soap:Header><Other xmlns="urn:o" soap:mustUnderstand="1" /></soap:Header>"#;
    let error = HopResponse::decode_response(
        &response_with(Binding::Soap12, unknown, "5"),
        Binding::Soap12,
    )
    .unwrap_err();
    assert!(
        matches!(&error, ResponseError::Undecodable { reason, .. } if reason.contains("{urn:o}Other")),
        "{error}"
    );

    let invalid = format!(
        r#"<soap:Header><StampHeader xmlns="{NS}" soap:mustUnderstand="yes" /></soap:Header>"#
    );
    let error = HopResponse::decode_response(
        &response_with(Binding::Soap11, &invalid, "5"),
        Binding::Soap11,
    )
    .unwrap_err();
    assert!(
        error.to_string().contains("'yes' is not a valid value"),
        "{error}"
    );
}

/// A server refuses a block attribute `SoapHeader` cannot read, exactly as .NET reads it
/// (`0`, `1`, `false`, `true`, nothing trimmed), where the host answers a client fault.
#[test]
fn the_server_refuses_a_block_attribute_soap_header_cannot_read() {
    for (attribute, value, field) in [
        ("soap:mustUnderstand", "yes", "EncodedMustUnderstand"),
        ("soap:mustUnderstand", " 1", "EncodedMustUnderstand"),
        ("soap12:relay", "2", "EncodedRelay"),
    ] {
        let body = format!(
            r#"<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:soap12="http://www.w3.org/2003/05/soap-envelope"><soap:Header><TraceHeader xmlns="{NS}" {attribute}="{value}"><Hop>1</Hop></TraceHeader></soap:Header><soap:Body><Hop xmlns="{NS}"><n>1</n></Hop></soap:Body></soap:Envelope>"#
        );
        let request =
            rmm_objects::runtime::deps::http::Request::post("/api/rmm/ObjectsService.asmx")
                .header("Content-Type", "text/xml; charset=utf-8")
                .header("SOAPAction", "\"http://rmm.example.com/objects/Hop\"")
                .body(Bytes::from(body))
                .unwrap();
        let error = Hop::decode_request(&request, Binding::Soap11).unwrap_err();
        assert_eq!(
            error,
            RequestError::InvalidHeaderAttribute {
                field,
                value: value.into(),
            }
        );
    }
}

/// The generated server of the reference service, in process, as a client's transport.
struct InProcess(rmm_objects::ObjectsServiceServer<rmm_tests::objects_service::ObjectsEcho>);

impl rmm_objects::runtime::client::Transport for InProcess {
    fn send(
        &self,
        request: rmm_objects::runtime::deps::http::Request<Bytes>,
    ) -> rmm_objects::runtime::client::BoxFuture<
        '_,
        Result<Response<Bytes>, rmm_objects::runtime::client::TransportError>,
    > {
        Box::pin(async move { Ok(self.0.handle(request).await) })
    }
}

fn client(signer: impl rmm_objects::Signer) -> rmm_objects::ObjectsServiceClient {
    rmm_objects::ObjectsServiceClient::new("http://in.process")
        .with_signer(signer)
        .with_transport(InProcess(rmm_objects::ObjectsServiceServer::new(
            rmm_tests::objects_service::ObjectsEcho,
        )))
}

fn auth(user: &str) -> AuthHeader {
    AuthHeader {
        user: Some(user.into()),
        password: Some("pw".into()),
        soap: HeaderAttributes::default(),
    }
}

/// A client's headers are sent on every call of an operation that reads them (over SOAP),
/// the request's own win over them, and the signer fills them last.
#[tokio::test]
async fn a_clients_headers_are_sent_the_requests_own_win_and_the_signer_fills_them() {
    let plain = rmm_objects::StaticSigner(Default::default());
    let with_auth = client(plain.clone()).with_headers(rmm_objects::SoapHeaders {
        auth_header: Some(auth("set once")),
        ..Default::default()
    });
    let who = |auth_header| rmm_objects::WhoAmI { n: 1, auth_header };
    let answer = with_auth.who_am_i(&who(None)).await.unwrap();
    assert_eq!(answer.result.as_deref(), Some("set once|pw/1"));
    let answer = with_auth.who_am_i(&who(Some(auth("own")))).await.unwrap();
    assert_eq!(answer.result.as_deref(), Some("own|pw/1"));
    // Another operation reading it gets it too; none over HTTP GET, which carries none.
    let hop = Hop {
        n: 1,
        auth_header: None,
        trace_header: None,
    };
    let answer = with_auth.hop(&hop).await.unwrap();
    assert_eq!(answer.stamp_header.unwrap().by.as_deref(), Some("set once"));
    let answer = with_auth
        .over(Binding::HttpGet)
        .who_am_i(&who(None))
        .await
        .unwrap();
    assert_eq!(answer.result.as_deref(), Some("none/1"));
    // Without headers set, none is sent.
    let answer = client(plain).who_am_i(&who(None)).await.unwrap();
    assert_eq!(answer.result.as_deref(), Some("none/1"));

    /// Fills the password from the operation and what the user was.
    struct Digest;
    impl rmm_objects::Signer for Digest {
        fn sign(&self, _: &rmm_objects::SigningRequest<'_>) -> rmm_objects::Credentials {
            Default::default()
        }

        fn sign_headers(
            &self,
            request: &rmm_objects::SigningRequest<'_>,
            headers: &mut rmm_objects::SoapHeaders,
        ) {
            let user = headers
                .auth_header
                .as_ref()
                .and_then(|a| a.user.clone())
                .unwrap_or_default();
            let n = request.params[0].1.to_string();
            headers.auth_header = Some(AuthHeader {
                user: Some(user),
                password: Some(format!("{:?}:{n}", request.operation)),
                soap: HeaderAttributes::default(),
            });
        }
    }
    let signed = client(Digest).with_headers(rmm_objects::SoapHeaders {
        auth_header: Some(auth("ann")),
        ..Default::default()
    });
    let answer = signed.who_am_i(&who(None)).await.unwrap();
    assert_eq!(answer.result.as_deref(), Some("ann|WhoAmI:1/1"));
    let answer = signed.who_am_i(&who(Some(auth("bo")))).await.unwrap();
    assert_eq!(answer.result.as_deref(), Some("bo|WhoAmI:1/1"));
}
