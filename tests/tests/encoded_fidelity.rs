//! The encoded service's probes (`tests/fixtures/encoded/probes/`, recorded from the
//! reference host), every SOAP request replayed through the generated server of
//! `rmm-encoded` serving [`EncodedEcho`], and compared with what the host answered as the
//! other services' recorded exchanges are: status, `Content-Type` and `Cache-Control`
//! always; the body byte for byte for results; the fault code for faults. Every case where
//! we answer differently on purpose is named in [`DELIBERATE`], with why, and checked to
//! still differ.

use rmm_encoded::EncodedServiceServer;
use rmm_tests::captures::{answer_differences, status};
use rmm_tests::encoded_service::{call_probes, EncodedEcho, DELIBERATE};

#[tokio::test]
async fn our_server_answers_every_probe_as_the_host_did() {
    let server = EncodedServiceServer::new(EncodedEcho);
    let (mut same, mut deliberate, mut found) = (0, 0, Vec::new());
    for c in &call_probes() {
        let ours = server.handle(c.http_request()).await;
        let problems = answer_differences(&c.response, &ours);
        if let Some((_, want, why)) = DELIBERATE.iter().find(|(name, _, _)| *name == c.name) {
            let got = ours.status().as_u16();
            if got == *want && !problems.is_empty() {
                deliberate += 1;
            } else {
                found.push(format!(
                    "{}: expected our deliberate {want} ({why}), got {got}; the host answered {}",
                    c.name,
                    status(&c.response)
                ));
            }
            continue;
        }
        if problems.is_empty() {
            same += 1;
        } else {
            found.push(format!(
                "{}: {}\n    ours: {}",
                c.name,
                problems.join("; "),
                String::from_utf8_lossy(ours.body())
            ));
        }
    }
    assert!(
        found.is_empty(),
        "{} differences ({same} the same):\n{}",
        found.len(),
        found.join("\n")
    );
    assert_eq!(deliberate, DELIBERATE.len());
    assert!(same >= 140, "only {same} probes compared");
}

/// The generated client reads every answer of the host as it reads ours: for each probe the
/// host answered with a result, the host's response and our server's to the same request
/// decode (by the operation's `decode_response`) to equal values. Shared objects and
/// converted offsets, the deliberate differences in results, read back equal too.
#[tokio::test]
async fn the_client_reads_the_hosts_answers_as_ours() {
    use rmm_encoded::*;
    let server = EncodedServiceServer::new(EncodedEcho);
    let mut read = 0;
    for c in &call_probes() {
        if status(&c.response) != 200
            || c.name == "simple_offset"
            || !c
                .request
                .start_line
                .starts_with("POST /api/rmm/EncodedService.asmx ")
        {
            continue;
        }
        let binding = if c.name.starts_with("s12_") || c.name.starts_with("r12_") {
            Binding::Soap12
        } else {
            Binding::Soap11
        };
        let action = c
            .request
            .header("soapaction")
            .or_else(|| c.request.header("content-type"))
            .unwrap_or_default();
        let op = action
            .trim_end_matches('"')
            .rsplit('/')
            .next()
            .unwrap_or_default();
        let ours = server.handle(c.http_request()).await;
        if ours.status() != 200 {
            // A deliberate refusal: nothing of ours to compare with.
            continue;
        }
        let host = http::Response::builder()
            .status(200)
            .header("content-type", c.response.header("content-type").unwrap())
            .body(bytes::Bytes::from(c.response.body.clone()))
            .unwrap();
        macro_rules! same {
            ($($name:literal => $response:ty,)*) => {
                match op {
                    $($name => {
                        let theirs = <$response>::decode_response(&host, binding)
                            .unwrap_or_else(|e| panic!("{}: {e}", c.name));
                        let mine = <$response>::decode_response(&ours, binding)
                            .unwrap_or_else(|e| panic!("{}: ours: {e}", c.name));
                        assert_eq!(theirs, mine, "{}", c.name);
                    })*
                    other => panic!("{}: no operation {other:?}", c.name),
                }
            };
        }
        same! {
            "Add" => AddResponse,
            "EchoString" => EchoStringResponse,
            "Ping" => PingResponse,
            "EchoSimple" => EchoSimpleResponse,
            "EchoPoint" => EchoPointResponse,
            "EchoLine" => EchoLineResponse,
            "SameEnds" => SameEndsResponse,
            "EchoInts" => EchoIntsResponse,
            "EchoStrings" => EchoStringsResponse,
            "EchoPoints" => EchoPointsResponse,
            "EchoPoly" => EchoPolyResponse,
            "EchoLines" => EchoLinesResponse,
            "EchoShape" => EchoShapeResponse,
            "Split" => SplitResponse,
            "Renamed" => RenamedResponse,
        }
        read += 1;
    }
    assert!(read >= 90, "only {read} answers read");
}

/// The service's `?WSDL`, byte for byte as the host's, but for one operation the spec offers
/// over SOAP only (`get_renamed_value` in the deliberate list): the host's document without
/// Renamed's HTTP GET and POST messages, port type operations and binding operations.
#[tokio::test]
async fn the_wsdl_is_the_hosts() {
    let probe = rmm_tests::encoded_service::probe("wsdl");
    let ours = EncodedServiceServer::new(EncodedEcho)
        .handle(probe.http_request())
        .await;
    assert_eq!(ours.status(), 200);
    let host = String::from_utf8(probe.response.body.clone()).unwrap();
    let mut expected = host.clone();
    for binding in ["HttpGet", "HttpPost"] {
        for message in ["In", "Out"] {
            let start = format!("  <wsdl:message name=\"Renamed{binding}{message}\">");
            expected = cut(&expected, &start, "  </wsdl:message>\n");
        }
    }
    // The port types' and the bindings' Renamed operations over HTTP: the last operation of
    // each, which ends where its port type or binding does.
    for (end, owner) in [
        (
            "  </wsdl:portType>",
            "<wsdl:portType name=\"EncodedServiceHttpGet\"",
        ),
        (
            "  </wsdl:portType>",
            "<wsdl:portType name=\"EncodedServiceHttpPost\"",
        ),
        (
            "  </wsdl:binding>",
            "<wsdl:binding name=\"EncodedServiceHttpGet\"",
        ),
        (
            "  </wsdl:binding>",
            "<wsdl:binding name=\"EncodedServiceHttpPost\"",
        ),
    ] {
        let owner = expected.find(owner).unwrap_or_else(|| panic!("{owner}"));
        let close = owner + expected[owner..].find(end).unwrap();
        let open = owner
            + expected[owner..close]
                .rfind("    <wsdl:operation name=\"Renamed\">")
                .unwrap();
        expected.replace_range(open..close, "");
    }
    assert_ne!(expected, host, "the cuts found what they cut");
    let ours = String::from_utf8(ours.body().to_vec()).unwrap();
    if ours != expected {
        let line = ours
            .lines()
            .zip(expected.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        panic!(
            "our WSDL differs from the host's at line {}:\n ours: {:?}\n host: {:?}",
            line + 1,
            ours.lines().nth(line),
            expected.lines().nth(line)
        );
    }
}

/// `text` without the part from `start` to the first `end` after it.
fn cut(text: &str, start: &str, end: &str) -> String {
    let from = text.find(start).unwrap_or_else(|| panic!("{start}"));
    let to = from + text[from..].find(end).unwrap() + end.len();
    format!("{}{}", &text[..from], &text[to..])
}
