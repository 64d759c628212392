//! Every operation × every binding, both directions, compared byte for byte.
//!
//! The expected bytes are built here, independently of the generator and the runtime: from
//! the spec's parameter list, sample texts, the envelope an ASMX host writes (copied from
//! `tests/fixtures/asmx`), and the `form_urlencoded` crate for queries and forms.
//! For each case the client's request must equal them exactly, the server must decode it
//! back to the same values, and the same holds for the success response.

use bytes::Bytes;
use http::{Request, Response};
use rmm_codegen::spec::SoapType;
use rmm_mobile::wire::{OperationRequest, OperationResponse};
use rmm_mobile::*;
use rmm_tests::samples::{form, sample};
use rmm_tests::{echo, spec, spec_operation, typed_sample};

const NS: &str = "http://rmm.example.com/mobile";
const PATH: &str = "/api/rmm/MobileService.asmx";
const SOAP11_OPEN: &str = r#"<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><soap:Body>"#;
const SOAP12_OPEN: &str = r#"<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><soap:Body>"#;
const SOAP_CLOSE: &str = "</soap:Body></soap:Envelope>";

/// XML text escaping as the host does it (`&`, `<`, `>`), plus CR as a character reference
/// so it survives a reader's line-end normalisation.
fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('\r', "&#xD;")
}

fn soap_body(open: &str, op: &str, pairs: &[(String, String)]) -> String {
    let mut body = format!("{open}<{op} xmlns=\"{NS}\">");
    for (name, value) in pairs {
        body.push_str(&format!("<{name}>{}</{name}>", xml_escape(value)));
    }
    body.push_str(&format!("</{op}>{SOAP_CLOSE}"));
    body
}

/// The request the client must produce: method, URI, headers (sorted), body.
fn expected_request(
    binding: Binding,
    op: &str,
    pairs: &[(String, String)],
) -> (String, String, Vec<(String, String)>, String) {
    let action = format!("{NS}/{op}");
    match binding {
        Binding::Soap11 => {
            let body = soap_body(SOAP11_OPEN, op, pairs);
            let headers = vec![
                ("content-length".into(), body.len().to_string()),
                ("content-type".into(), "text/xml; charset=utf-8".into()),
                ("soapaction".into(), format!("\"{action}\"")),
            ];
            ("POST".into(), PATH.into(), headers, body)
        }
        Binding::Soap12 => {
            let body = soap_body(SOAP12_OPEN, op, pairs);
            let headers = vec![
                ("content-length".into(), body.len().to_string()),
                (
                    "content-type".into(),
                    format!("application/soap+xml; charset=utf-8; action=\"{action}\""),
                ),
            ];
            ("POST".into(), PATH.into(), headers, body)
        }
        Binding::HttpGet => (
            "GET".into(),
            format!("{PATH}/{op}?{}", form(pairs)),
            vec![("content-length".into(), "0".into())],
            String::new(),
        ),
        Binding::HttpPost => {
            let body = form(pairs);
            let headers = vec![
                ("content-length".into(), body.len().to_string()),
                (
                    "content-type".into(),
                    "application/x-www-form-urlencoded".into(),
                ),
            ];
            ("POST".into(), format!("{PATH}/{op}"), headers, body)
        }
        Binding::Json => unreachable!("the Mobile service is no [ScriptService]"),
    }
}

fn expected_response(binding: Binding, op: &str, result: &str) -> String {
    let text = xml_escape(result);
    match binding {
        Binding::Soap11 | Binding::Soap12 => {
            let open = if binding == Binding::Soap11 {
                SOAP11_OPEN
            } else {
                SOAP12_OPEN
            };
            format!("{open}<{op}Response xmlns=\"{NS}\"><{op}Result>{text}</{op}Result></{op}Response>{SOAP_CLOSE}")
        }
        Binding::HttpGet | Binding::HttpPost => {
            format!("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<string xmlns=\"{NS}\">{text}</string>")
        }
        Binding::Json => unreachable!("the Mobile service is no [ScriptService]"),
    }
}

fn parts(request: &Request<Bytes>) -> (String, String, Vec<(String, String)>, String) {
    let mut headers: Vec<(String, String)> = request
        .headers()
        .iter()
        .map(|(k, v)| (k.as_str().to_owned(), v.to_str().unwrap().to_owned()))
        .collect();
    headers.sort();
    (
        request.method().to_string(),
        request.uri().to_string(),
        headers,
        String::from_utf8(request.body().to_vec()).unwrap(),
    )
}

fn header_list(response: &Response<Bytes>) -> Vec<(String, String)> {
    let mut headers: Vec<(String, String)> = response
        .headers()
        .iter()
        .map(|(k, v)| (k.as_str().to_owned(), v.to_str().unwrap().to_owned()))
        .collect();
    headers.sort();
    headers
}

fn round_trip<T: OperationRequest>()
where
    T::Response: OperationResponse<Result = Option<String>>,
{
    let op = T::OPERATION.name();
    let spec_op = spec_operation(op);
    for (salt, binding) in Binding::ALL.into_iter().enumerate() {
        // A different sample per binding, so each binding sees each kind of value.
        let pairs = sample(&spec_op, salt);
        let (credentials, request) = typed_sample::<T>(&pairs);

        let encoded = request.encode_request(&credentials, binding).unwrap();
        assert_eq!(
            parts(&encoded),
            expected_request(binding, op, &pairs),
            "{op} request over {binding}"
        );
        let decoded = T::decode_request(&encoded, binding).unwrap();
        assert_eq!(
            decoded,
            (credentials.clone(), request.clone()),
            "{op} request decoded over {binding}"
        );

        let result = echo(&request, &credentials);
        let response = T::Response::from_result(Some(result.clone()));
        let encoded = response.encode_response(binding).unwrap();
        assert_eq!(encoded.status(), 200);
        let body = expected_response(binding, op, &result);
        let content_type = if binding == Binding::Soap12 {
            "application/soap+xml; charset=utf-8"
        } else {
            "text/xml; charset=utf-8"
        };
        assert_eq!(
            header_list(&encoded),
            vec![
                ("cache-control".to_owned(), "private, max-age=0".to_owned()),
                ("content-length".to_owned(), body.len().to_string()),
                ("content-type".to_owned(), content_type.to_owned()),
            ],
            "{op} response headers over {binding}"
        );
        assert_eq!(
            std::str::from_utf8(encoded.body()).unwrap(),
            body,
            "{op} response over {binding}"
        );
        let decoded = T::Response::decode_response(&encoded, binding).unwrap();
        assert_eq!(
            decoded.result().as_deref(),
            Some(result.as_str()),
            "{op} response decoded over {binding}"
        );
    }
}

/// Over SOAP a string may be absent: the element is left out, the server reads `None`, and
/// HTTP GET/POST refuse to encode it rather than send something else.
fn absent_strings<T: OperationRequest>() {
    let op = T::OPERATION.name();
    let spec_op = spec_operation(op);
    let pairs = sample(&spec_op, 0);
    let present: Vec<(String, String)> = spec_op
        .params
        .iter()
        .zip(&pairs)
        .filter(|(p, _)| p.ty != SoapType::String)
        .map(|(_, pair)| pair.clone())
        .collect();
    for binding in [Binding::Soap11, Binding::Soap12] {
        let open = if binding == Binding::Soap11 {
            SOAP11_OPEN
        } else {
            SOAP12_OPEN
        };
        let body = soap_body(open, op, &present);
        let request = Request::post(PATH).body(Bytes::from(body.clone())).unwrap();
        let (credentials, typed) = T::decode_request(&request, binding).unwrap();
        let shown: Vec<String> = typed
            .values(&credentials)
            .iter()
            .map(|(name, value)| format!("{name}={value}"))
            .collect();
        let expected: Vec<String> = spec_op
            .params
            .iter()
            .zip(&pairs)
            .map(|(p, (name, text))| {
                if p.ty == SoapType::String {
                    format!("{name}=<null>")
                } else {
                    format!("{name}={text}")
                }
            })
            .collect();
        assert_eq!(shown, expected, "{op} over {binding}");
        let encoded = typed.encode_request(&credentials, binding).unwrap();
        assert_eq!(
            std::str::from_utf8(encoded.body()).unwrap(),
            body,
            "{op} over {binding}"
        );
        for http in [Binding::HttpGet, Binding::HttpPost] {
            let first_string = spec_op
                .params
                .iter()
                .find(|p| p.ty == SoapType::String)
                .unwrap();
            match typed.encode_request(&credentials, http) {
                Err(EncodeError::AbsentOverHttp {
                    operation,
                    param,
                    binding,
                }) => {
                    assert_eq!(
                        (operation, param, binding),
                        (op, first_string.name.as_str(), http)
                    );
                }
                other => panic!("{op} over {http}: {other:?}"),
            }
        }
    }
}

macro_rules! operations {
    ($($test:ident: $ty:ident,)*) => {
        $(
            #[test]
            fn $test() {
                round_trip::<$ty>();
                absent_strings::<$ty>();
            }
        )*

        /// The list above is every operation of the generated crate, in order.
        #[test]
        fn every_operation_is_covered() {
            let covered = [$(<$ty as OperationRequest>::OPERATION),*];
            assert_eq!(covered, Operation::ALL);
            let names: Vec<String> = spec().operations.iter().map(|op| op.name.clone()).collect();
            assert_eq!(covered.map(|op| op.name().to_owned()).to_vec(), names);
        }
    };
}

rmm_mobile::for_each_operation!(operations);
