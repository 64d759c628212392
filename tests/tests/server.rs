//! Being the service, over real loopback HTTP: the echo example's service, served by the
//! generated server on 127.0.0.1, called with reqwest.

#[allow(dead_code)]
#[path = "../../generated/examples/echo_server.rs"]
mod echo_server;

use std::future::Future;
use std::time::Duration;

use bytes::Bytes;
use rmm_mobile::runtime::server::ServerConfig;
use rmm_mobile::wire::{OperationRequest, OperationResponse};
use rmm_mobile::*;
use rmm_tests::samples::{echo_of, sample};
use rmm_tests::{spec_operation, typed_sample};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

const NS: &str = "http://rmm.example.com/mobile";

/// A server on a free loopback port, stopped when dropped.
struct Running {
    base: String,
    addr: std::net::SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

async fn start<S: MobileService>(server: MobileServiceServer<S>) -> Running {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(server.serve_with_shutdown(listener, async {
        let _ = stopped.await;
    }));
    Running {
        base: format!("http://{addr}"),
        addr,
        stop: Some(stop),
    }
}

async fn echo_server() -> Running {
    start(MobileServiceServer::new(echo_server::Echo)).await
}

/// Sends an `http::Request` (origin-form URI) to the server with reqwest.
async fn send(base: &str, request: http::Request<Bytes>) -> http::Response<Bytes> {
    let client = reqwest::Client::new();
    let url = format!("{base}{}", request.uri());
    let (parts, body) = request.into_parts();
    let response = client
        .request(parts.method, url)
        .headers(parts.headers)
        .body(body)
        .send()
        .await
        .unwrap();
    let mut builder = http::Response::builder().status(response.status());
    for (name, value) in response.headers() {
        builder = builder.header(name, value);
    }
    builder.body(response.bytes().await.unwrap()).unwrap()
}

async fn echo_all_bindings<T: OperationRequest>(base: &str)
where
    T::Response: OperationResponse<Result = Option<String>>,
{
    let op = T::OPERATION.name();
    for (salt, binding) in Binding::ALL.into_iter().enumerate() {
        let pairs = sample(&spec_operation(op), salt);
        let (credentials, request) = typed_sample::<T>(&pairs);
        let response = send(base, request.encode_request(&credentials, binding).unwrap()).await;
        assert_eq!(
            response.status(),
            200,
            "{op} over {binding}: {:?}",
            response.body()
        );
        let decoded = T::Response::decode_response(&response, binding).unwrap();
        assert_eq!(
            decoded.result().as_deref(),
            Some(echo_of(op, &pairs).as_str()),
            "{op} over {binding}"
        );
    }
}

macro_rules! echo_every_operation {
    ($($method:ident: $request:ident,)*) => {
        /// [`echo_all_bindings`] of every operation.
        async fn echo_every_operation(base: &str) {
            $( echo_all_bindings::<$request>(base).await; )*
        }
    };
}

rmm_mobile::for_each_operation!(echo_every_operation);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn echo_answers_every_operation_on_every_binding() {
    let server = echo_server().await;
    echo_every_operation(&server.base).await;
}

// ---- error cases -------------------------------------------------------------------------

const PATH: &str = "/api/rmm/MobileService.asmx";

fn envelope11(inner: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>{inner}</soap:Body></soap:Envelope>"#
    )
}

fn envelope12(inner: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope"><soap:Body>{inner}</soap:Body></soap:Envelope>"#
    )
}

/// Operation 18's body with the given children.
fn lock_check(children: &str) -> String {
    format!(r#"<MobileServiceOrderLockCheck xmlns="{NS}">{children}</MobileServiceOrderLockCheck>"#)
}

fn soap11(action: Option<&str>, body: impl Into<String>) -> http::Request<Bytes> {
    let mut request = http::Request::post(PATH).header("content-type", "text/xml; charset=utf-8");
    if let Some(action) = action {
        request = request.header("soapaction", format!("\"{NS}/{action}\""));
    }
    request.body(Bytes::from(body.into())).unwrap()
}

fn soap12(body: impl Into<String>) -> http::Request<Bytes> {
    http::Request::post(PATH)
        .header("content-type", "application/soap+xml; charset=utf-8")
        .body(Bytes::from(body.into()))
        .unwrap()
}

fn get(query: &str) -> http::Request<Bytes> {
    http::Request::get(format!("{PATH}/{query}"))
        .body(Bytes::new())
        .unwrap()
}

fn post_form(op: &str, body: &str) -> http::Request<Bytes> {
    http::Request::post(format!("{PATH}/{op}"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Bytes::from(body.to_owned()))
        .unwrap()
}

const LOCK_OK: &str = "sonumber=5&repnumber=42&timestamp=t&sig=s";

/// What a response must be: status, content type, and the fault code (SOAP) or the text
/// body's start (HTTP GET/POST), or an empty body.
#[derive(Debug)]
enum Body {
    Fault(&'static str),
    Text(&'static str),
    /// A body as the handler wrote it, byte for byte.
    Exact(&'static str),
    Empty,
    /// An HTML page whose text holds this sentence.
    Html(&'static str),
}

async fn expect(
    base: &str,
    case: &str,
    request: http::Request<Bytes>,
    status: u16,
    content_type: &str,
    body: Body,
) {
    let response = send(base, request).await;
    let text = String::from_utf8_lossy(response.body()).into_owned();
    assert_eq!(response.status(), status, "{case}: {text}");
    assert_eq!(response.headers()["content-type"], content_type, "{case}");
    match body {
        Body::Fault(code) => {
            let shown = format!("<faultcode>{code}</faultcode>");
            let shown12 = format!("<soap:Value>{code}</soap:Value>");
            assert!(
                text.contains(&shown) || text.contains(&shown12),
                "{case}: {text}"
            );
            assert!(
                !text.contains("   at "),
                "{case}: a stack trace leaked: {text}"
            );
        }
        Body::Text(start) => {
            assert!(text.starts_with(start), "{case}: {text}");
            assert!(
                text.ends_with(".\n"),
                "{case}: a complete sentence and a line feed: {text:?}"
            );
            assert!(!text.contains("{0}"), "{case}: {text}");
        }
        Body::Exact(exact) => assert_eq!(text, exact, "{case}"),
        Body::Empty => assert!(text.is_empty(), "{case}: {text}"),
        Body::Html(sentence) => {
            assert!(text.starts_with("<!DOCTYPE html>"), "{case}: {text}");
            assert!(text.contains(sentence), "{case}: {text}");
            assert!(
                !text.contains("{0}") && !text.contains("   at "),
                "{case}: {text}"
            );
        }
    }
}

const XML11: &str = "text/xml; charset=utf-8";
const XML12: &str = "application/soap+xml; charset=utf-8";
const TEXT: &str = "text/plain; charset=utf-8";
/// ASP.NET's error pages (the host sends no charset; ours are ASCII).
const HTML: &str = "text/html";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_are_answered_as_an_asmx_host_answers_them_or_stricter() {
    let server = echo_server().await;
    let base = server.base.as_str();
    let ok_children = "<sonumber>5</sonumber><repnumber>42</repnumber>";

    // Unknown operation.
    expect(
        base,
        "SOAP 1.1 unknown body element",
        soap11(
            None,
            envelope11(&format!(r#"<NoSuchOperation xmlns="{NS}"/>"#)),
        ),
        500,
        XML11,
        Body::Fault("soap:Client"),
    )
    .await;
    expect(
        base,
        "SOAP 1.2 unknown body element",
        soap12(envelope12(&format!(r#"<NoSuchOperation xmlns="{NS}"/>"#))),
        500,
        XML12,
        Body::Fault("soap:Sender"),
    )
    .await;
    expect(
        base,
        "HTTP GET unknown operation",
        get("NoSuchOperation?a=1"),
        500,
        TEXT,
        Body::Text("NoSuchOperation is not a method of this web service."),
    )
    .await;
    expect(
        base,
        "HTTP POST unknown operation",
        post_form("NoSuchOperation", "a=1"),
        500,
        TEXT,
        Body::Text("NoSuchOperation is not a method"),
    )
    .await;
    expect(
        base,
        "HTTP GET operation name in the wrong case",
        get("mobileserviceorderlockcheck?a=1"),
        500,
        TEXT,
        Body::Text("Invalid method name 'mobileserviceorderlockcheck'"),
    )
    .await;
    // SOAPAction that matches no operation, or contradicts the body.
    expect(
        base,
        "SOAPAction of no operation",
        soap11(
            Some("NoSuchOperation"),
            envelope11(&lock_check(ok_children)),
        ),
        500,
        XML11,
        Body::Fault("soap:Client"),
    )
    .await;
    expect(
        base,
        "empty SOAPAction",
        {
            let mut r = soap11(None, envelope11(&lock_check(ok_children)));
            r.headers_mut()
                .insert("soapaction", http::HeaderValue::from_static("\"\""));
            r
        },
        500,
        XML11,
        Body::Fault("soap:Client"),
    )
    .await;
    expect(
        base,
        "SOAPAction of another operation than the body",
        soap11(
            Some("MobileGetInvoiceDetails"),
            envelope11(&lock_check(ok_children)),
        ),
        500,
        XML11,
        Body::Fault("soap:Client"),
    )
    .await;
    // Parameters.
    expect(
        base,
        "HTTP GET missing parameter",
        get("MobileServiceOrderLockCheck?sonumber=5&repnumber=42&timestamp=t"),
        500,
        TEXT,
        Body::Text("Parameter sig of MobileServiceOrderLockCheck is missing"),
    )
    .await;
    expect(
        base,
        "HTTP POST missing parameter",
        post_form("MobileServiceOrderLockCheck", "sonumber=5"),
        500,
        TEXT,
        Body::Text("Parameter repnumber of MobileServiceOrderLockCheck is missing"),
    )
    .await;
    expect(
        base,
        "SOAP not an int",
        soap11(None, envelope11(&lock_check("<sonumber>abc</sonumber>"))),
        500,
        XML11,
        Body::Fault("soap:Client"),
    )
    .await;
    expect(
        base,
        "SOAP int overflow",
        soap12(envelope12(&lock_check("<sonumber>2147483648</sonumber>"))),
        500,
        XML12,
        Body::Fault("soap:Sender"),
    )
    .await;
    expect(base, "HTTP GET not an int", get("MobileServiceOrderLockCheck?sonumber=x&repnumber=42&timestamp=t&sig=s"), 500, TEXT, Body::Text("Parameter sonumber of MobileServiceOrderLockCheck must be int, and the value 'x' is not valid: it is not an integer.")).await;
    expect(
        base,
        "HTTP POST int overflow",
        post_form(
            "MobileServiceOrderLockCheck",
            "sonumber=2147483648&repnumber=42&timestamp=t&sig=s",
        ),
        500,
        TEXT,
        Body::Text("Parameter sonumber of MobileServiceOrderLockCheck must be int"),
    )
    .await;
    expect(base, "HTTP GET boolean 1", get("MobileContactEmailCreate?accountnumber=1&contactnumber=2&email=e&primary=1&repnumber=42&timestamp=t&sig=s&mobilekey=k"), 500, TEXT, Body::Text("Parameter primary of MobileContactEmailCreate must be boolean")).await;
    expect(base, "SOAP boolean yes", soap11(None, envelope11(&format!(r#"<MobileContactEmailCreate xmlns="{NS}"><primary>yes</primary></MobileContactEmailCreate>"#))), 500, XML11, Body::Fault("soap:Client")).await;
    expect(base, "HTTP POST decimal 1,5 (the host reads 15)", post_form("MobilePartsUsedAssemblyUpdate", "sopartsusedassemblydetailkeyid=7&quantity=1,5&sellfor=0&repnumber=42&timestamp=t&sig=s&mobilekey=k"), 500, TEXT, Body::Text("Parameter quantity of MobilePartsUsedAssemblyUpdate must be decimal, and the value '1,5' is not valid: it contains a comma")).await;
    expect(base, "SOAP decimal exponent", soap11(None, envelope11(&format!(r#"<MobilePartsUsedAssemblyUpdate xmlns="{NS}"><quantity>1E2</quantity></MobilePartsUsedAssemblyUpdate>"#))), 500, XML11, Body::Fault("soap:Client")).await;
    expect(
        base,
        "HTTP GET repeated parameter (the host joins with commas)",
        get(&format!("MobileServiceOrderLockCheck?{LOCK_OK}&sig=again")),
        500,
        TEXT,
        Body::Text("Parameter sig of MobileServiceOrderLockCheck is given 2 times; send it once."),
    )
    .await;
    expect(
        base,
        "SOAP unqualified parameters (the host defaults them)",
        soap11(
            None,
            envelope11(&lock_check(r#"<sonumber xmlns="">5</sonumber>"#)),
        ),
        500,
        XML11,
        Body::Fault("soap:Client"),
    )
    .await;
    // Malformed XML and DOCTYPE: 400, empty body.
    expect(
        base,
        "SOAP 1.1 truncated XML",
        soap11(
            Some("MobileServiceOrderLockCheck"),
            envelope11(&lock_check(ok_children))[..120].to_owned(),
        ),
        400,
        XML11,
        Body::Empty,
    )
    .await;
    expect(
        base,
        "SOAP 1.2 mismatched tag",
        soap12(envelope12("<a></b>")),
        400,
        XML12,
        Body::Empty,
    )
    .await;
    expect(
        base,
        "SOAP not XML",
        soap11(Some("MobileServiceOrderLockCheck"), "hello"),
        400,
        XML11,
        Body::Empty,
    )
    .await;
    expect(
        base,
        "SOAP empty body",
        soap11(Some("MobileServiceOrderLockCheck"), ""),
        400,
        XML11,
        Body::Empty,
    )
    .await;
    expect(
        base,
        "SOAP DOCTYPE with an entity",
        soap11(
            Some("MobileServiceOrderLockCheck"),
            format!(
                "<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY e \"boom\">]>{}",
                envelope11(&lock_check("<sig>&e;</sig>"))
            )
            .replacen("<?xml version=\"1.0\" encoding=\"utf-8\"?>", "", 1),
        ),
        400,
        XML11,
        Body::Empty,
    )
    .await;
    expect(
        base,
        "SOAP DOCTYPE with an external entity",
        soap12(format!(
            "<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>{}",
            envelope12(&lock_check("<sig>&e;</sig>"))
        )),
        400,
        XML12,
        Body::Empty,
    )
    .await;
    // Content type and method.
    expect(
        base,
        "SOAP 1.1 envelope as application/soap+xml",
        soap12(envelope11(&lock_check(ok_children))),
        415,
        XML11,
        Body::Empty,
    )
    .await;
    // Another media type: 415 in SOAP 1.1's type with a SOAPAction, else in SOAP 1.2's,
    // as the host answers.
    expect(
        base,
        "POST to the endpoint as text/plain",
        {
            let mut r = soap11(None, envelope11(&lock_check(ok_children)));
            r.headers_mut()
                .insert("content-type", http::HeaderValue::from_static("text/plain"));
            r
        },
        415,
        XML12,
        Body::Empty,
    )
    .await;
    expect(
        base,
        "POST to the endpoint as text/plain with a SOAPAction",
        {
            let mut r = soap11(
                Some("MobileServiceOrderLockCheck"),
                envelope11(&lock_check(ok_children)),
            );
            r.headers_mut()
                .insert("content-type", http::HeaderValue::from_static("text/plain"));
            r
        },
        415,
        XML11,
        Body::Empty,
    )
    .await;
    expect(
        base,
        "HTTP POST without a content type",
        http::Request::post(format!("{PATH}/MobileServiceOrderLockCheck"))
            .body(Bytes::from(LOCK_OK))
            .unwrap(),
        500,
        TEXT,
        Body::Text("Request format is invalid"),
    )
    .await;
    expect(
        base,
        "HTTP POST with an XML body",
        http::Request::post(format!("{PATH}/MobileServiceOrderLockCheck"))
            .header("content-type", "text/xml")
            .body(Bytes::from("<x/>"))
            .unwrap(),
        500,
        TEXT,
        Body::Text("Request format is invalid: text/xml"),
    )
    .await;
    // What reaches no method: the host's statuses, with HTML pages as ASP.NET's.
    expect(
        base,
        "PUT on an operation",
        http::Request::put(format!("{PATH}/MobileServiceOrderLockCheck"))
            .body(Bytes::from(LOCK_OK))
            .unwrap(),
        500,
        HTML,
        Body::Html("The request format is unrecognized: PUT /api/rmm/MobileService.asmx/MobileServiceOrderLockCheck."),
    )
    .await;
    expect(
        base,
        "GET on the endpoint's path and a slash",
        http::Request::get(format!("{PATH}/"))
            .body(Bytes::new())
            .unwrap(),
        500,
        HTML,
        Body::Html("The request format is unrecognized: GET /api/rmm/MobileService.asmx/."),
    )
    .await;
    expect(
        base,
        "an operation's path and a slash",
        get("MobileServiceOrderLockCheck/?sonumber=5"),
        500,
        TEXT,
        Body::Text("MobileServiceOrderLockCheck/ is not a method of this web service."),
    )
    .await;
    expect(
        base,
        "DELETE on the endpoint",
        http::Request::delete(PATH).body(Bytes::new()).unwrap(),
        405,
        HTML,
        Body::Html("The method DELETE is not allowed here; use GET, POST."),
    )
    .await;
    expect(
        base,
        "unknown path",
        http::Request::get("/api/rmm/Other.asmx")
            .body(Bytes::new())
            .unwrap(),
        404,
        HTML,
        Body::Html("The resource /api/rmm/Other.asmx does not exist."),
    )
    .await;
    // Encoding.
    expect(
        base,
        "HTTP GET invalid UTF-8",
        get("MobileServiceOrderLockCheck?sonumber=5&repnumber=42&timestamp=%FF&sig=s"),
        500,
        TEXT,
        Body::Text("The query string is not valid UTF-8."),
    )
    .await;
    expect(base, "HTTP POST request validation", post_form("MobileServiceOrderLockCheck", "sonumber=5&repnumber=42&timestamp=t&sig=%3Cscript%3E"), 500, TEXT, Body::Text("A potentially dangerous Request.Form value was detected from the client (sig=&quot;&lt;script&gt;&quot;).")).await;
    // The handler's own fault.
    expect(
        base,
        "SOAP 1.1 handler fault",
        soap11(
            Some("MobileServiceOrderLockCheck"),
            envelope11(&lock_check("<sig>FAULT</sig>")),
        ),
        500,
        XML11,
        Body::Fault("soap:Client"),
    )
    .await;
    expect(
        base,
        "HTTP GET handler fault",
        get("MobileServiceOrderLockCheck?sonumber=5&repnumber=42&timestamp=t&sig=FAULT"),
        500,
        TEXT,
        Body::Exact("requested fault\n"),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_percent_escapes_pass_through_as_on_the_host() {
    let server = echo_server().await;
    let response = send(
        &server.base,
        get("MobileServiceOrderLockCheck?sonumber=5&repnumber=42&timestamp=%zz&sig=a+b"),
    )
    .await;
    assert_eq!(response.status(), 200);
    let result =
        MobileServiceOrderLockCheckResponse::decode_response(&response, Binding::HttpGet).unwrap();
    assert_eq!(
        result.result.as_deref(),
        Some("MobileServiceOrderLockCheck(sonumber=5;repnumber=42;timestamp=%zz;sig=a b)")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_over_the_limit_is_refused_and_the_server_goes_on() {
    let config = ServerConfig {
        max_body_bytes: 1024,
        ..ServerConfig::default()
    };
    let server = start(MobileServiceServer::new(echo_server::Echo).with_config(config)).await;
    let big = envelope11(&lock_check(&format!("<sig>{}</sig>", "x".repeat(2000))));
    expect(
        &server.base,
        "declared length over the limit",
        soap11(Some("MobileServiceOrderLockCheck"), big),
        413,
        TEXT,
        Body::Text("The request body is larger than the limit of 1024 bytes."),
    )
    .await;
    // Chunked, so the length is only known while reading.
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    let chunk = "y".repeat(600);
    let request = format!("POST {PATH} HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n258\r\n{chunk}\r\n258\r\n{chunk}\r\n0\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();
    assert!(answer.starts_with("HTTP/1.1 413 "), "{answer}");
    let ok = send(
        &server.base,
        get(&format!("MobileServiceOrderLockCheck?{LOCK_OK}")),
    )
    .await;
    assert_eq!(ok.status(), 200);
}

/// A service whose every operation panics.
struct Panicky;

macro_rules! panic_every_operation {
    ($($method:ident: $request:ident,)*) => {
        impl MobileService for Panicky {
            $(
                fn $method(&self, _: Credentials, _: $request)
                    -> impl Future<Output = Result<<$request as OperationRequest>::Response, Fault>> + Send {
                    async { panic!("secret internal detail") }
                }
            )*
        }
    };
}

rmm_mobile::for_each_operation!(panic_every_operation);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panicking_handler_gets_a_server_fault_and_the_server_goes_on() {
    let server = start(MobileServiceServer::new(Panicky)).await;
    for _ in 0..3 {
        let response = send(
            &server.base,
            soap11(
                Some("MobileServiceOrderLockCheck"),
                envelope11(&lock_check("")),
            ),
        )
        .await;
        assert_eq!(response.status(), 500);
        let body = String::from_utf8_lossy(response.body()).into_owned();
        assert!(body.contains("<faultcode>soap:Server</faultcode><faultstring>The server failed to process the request.</faultstring>"), "{body}");
        assert!(!body.contains("secret internal detail"), "{body}");
        let response = send(
            &server.base,
            get(&format!("MobileServiceOrderLockCheck?{LOCK_OK}")),
        )
        .await;
        assert_eq!(response.status(), 500);
        assert_eq!(
            response.body(),
            "The server failed to process the request.\n"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_verifier_sees_every_parameter_and_can_refuse() {
    let server = start(MobileServiceServer::new(echo_server::Echo).with_verifier(
        |call: &Call<'_>| {
            let names: Vec<&str> = call.params.iter().map(|(name, _)| *name).collect();
            assert_eq!(names, ["sonumber", "repnumber", "timestamp", "sig"]);
            match call.credentials.sig.as_deref() {
                Some("good") => Ok(()),
                _ => Err(Fault::client(format!(
                    "{} refused: bad signature.",
                    call.operation.name()
                ))),
            }
        },
    ))
    .await;
    let good = send(
        &server.base,
        get("MobileServiceOrderLockCheck?sonumber=5&repnumber=42&timestamp=t&sig=good"),
    )
    .await;
    assert_eq!(good.status(), 200);
    let bad = send(
        &server.base,
        soap12(envelope12(&lock_check("<sig>forged</sig>"))),
    )
    .await;
    assert_eq!(bad.status(), 500);
    let body = String::from_utf8_lossy(bad.body()).into_owned();
    assert!(body.contains("<soap:Value>soap:Sender</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang=\"en\">MobileServiceOrderLockCheck refused: bad signature.</soap:Text>"), "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_clients_time_out() {
    let config = ServerConfig {
        header_timeout: Duration::from_millis(300),
        body_timeout: Duration::from_millis(300),
        ..ServerConfig::default()
    };
    let server = start(MobileServiceServer::new(echo_server::Echo).with_config(config)).await;
    // A head that never ends: the connection is closed.
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    stream
        .write_all(b"GET /api/rmm/MobileService.asmx HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut answer)).await;
    assert!(read.is_ok(), "the server kept a stalled connection open");
    // A body that never arrives: 408.
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    stream
        .write_all(format!("POST {PATH} HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\nContent-Length: 100\r\n\r\n<soap").as_bytes())
        .await
        .unwrap();
    let mut answer = String::new();
    let read =
        tokio::time::timeout(Duration::from_secs(5), stream.read_to_string(&mut answer)).await;
    assert!(read.is_ok(), "the server waited for the body forever");
    assert!(answer.starts_with("HTTP/1.1 408 "), "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_parallel_clients_all_succeed() {
    let server = echo_server().await;
    let client = reqwest::Client::new();
    let pairs = sample(&spec_operation("MobileTaskCreate"), 0);
    let (credentials, request) = typed_sample::<MobileTaskCreate>(&pairs);
    let expected = echo_of("MobileTaskCreate", &pairs);
    let mut tasks = Vec::new();
    for i in 0..64 {
        let (client, base, credentials, request, expected) = (
            client.clone(),
            server.base.clone(),
            credentials.clone(),
            request.clone(),
            expected.clone(),
        );
        tasks.push(tokio::spawn(async move {
            for j in 0..20 {
                let binding = Binding::ALL[(i + j) % 4];
                let encoded = request.encode_request(&credentials, binding).unwrap();
                let url = format!("{base}{}", encoded.uri());
                let (parts, body) = encoded.into_parts();
                let response = client
                    .request(parts.method, url)
                    .headers(parts.headers)
                    .body(body)
                    .send()
                    .await
                    .unwrap();
                let mut builder = http::Response::builder().status(response.status());
                for (name, value) in response.headers() {
                    builder = builder.header(name, value);
                }
                let response = builder.body(response.bytes().await.unwrap()).unwrap();
                let decoded =
                    MobileTaskCreateResponse::decode_response(&response, binding).unwrap();
                assert_eq!(decoded.result.as_deref(), Some(expected.as_str()));
            }
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wsdl_and_help_pages_are_served() {
    let server = echo_server().await;
    for query in ["?wsdl", "?WSDL", "?Wsdl"] {
        let response = send(
            &server.base,
            http::Request::get(format!("{PATH}{query}"))
                .header("host", "rmm.example.net:8080")
                .body(Bytes::new())
                .unwrap(),
        )
        .await;
        assert_eq!(response.status(), 200, "{query}");
        assert_eq!(response.headers()["content-type"], XML11);
        let body = String::from_utf8_lossy(response.body()).into_owned();
        assert!(
            body.contains("location=\"http://rmm.example.net:8080/api/rmm/MobileService.asmx\""),
            "{query}"
        );
    }
    let index = send(
        &server.base,
        http::Request::get(PATH).body(Bytes::new()).unwrap(),
    )
    .await;
    assert_eq!(index.status(), 200);
    assert_eq!(index.headers()["content-type"], "text/html");
    let page = send(
        &server.base,
        http::Request::get(format!("{PATH}?op=MobileTaskCreate"))
            .body(Bytes::new())
            .unwrap(),
    )
    .await;
    assert_eq!(page.status(), 200);
    let missing = send(
        &server.base,
        http::Request::get(format!("{PATH}?op=Nope"))
            .body(Bytes::new())
            .unwrap(),
    )
    .await;
    assert_eq!(missing.status(), 404);
}

/// A SOAP request whose headers name an operation is decoded straight away
/// (`server::route_by_action`); when the decoder refuses its envelope, the request must get
/// exactly the answer that routing on the envelope gives: these are the requests where the
/// headers and the envelope disagree.
#[tokio::test]
async fn a_call_routed_by_its_action_is_answered_as_its_envelope_says() {
    let server = MobileServiceServer::new(echo_server::Echo);
    let children =
        "<sonumber>5</sonumber><repnumber>42</repnumber><timestamp>t</timestamp><sig>s</sig>";
    let text =
        |response: &http::Response<Bytes>| String::from_utf8_lossy(response.body()).into_owned();

    // The action names one operation, the body holds another: refused, naming both.
    let response = server
        .handle(soap11(
            Some("MobileGetInvoiceDetails"),
            envelope11(&lock_check(children)),
        ))
        .await;
    assert_eq!(response.status(), 500);
    assert!(
        text(&response).contains(&format!(
            "<faultstring>The action '{NS}/MobileGetInvoiceDetails' names the operation \
             MobileGetInvoiceDetails, but the body holds MobileServiceOrderLockCheck.</faultstring>"
        )),
        "{}",
        text(&response)
    );

    // A SOAP 1.2 envelope sent as text/xml with a SOAPAction: answered as SOAP 1.2.
    let response = server
        .handle(soap11(
            Some("MobileServiceOrderLockCheck"),
            envelope12(&lock_check(children)),
        ))
        .await;
    assert_eq!(response.status(), 200, "{}", text(&response));
    assert_eq!(response.headers()["content-type"], XML12);
    assert!(text(&response)
        .contains("MobileServiceOrderLockCheck(sonumber=5;repnumber=42;timestamp=t;sig=s)"));

    // A SOAP 1.1 envelope sent as application/soap+xml with an action: 415, empty.
    let mut request = soap12(envelope11(&lock_check(children)));
    request.headers_mut().insert(
        "content-type",
        http::HeaderValue::from_str(&format!(
            "application/soap+xml; charset=utf-8; action=\"{NS}/MobileServiceOrderLockCheck\""
        ))
        .unwrap(),
    );
    let response = server.handle(request).await;
    assert_eq!(response.status(), 415);
    assert!(response.body().is_empty());

    // The action's operation with an unqualified body element: the decoder's own refusal.
    let unqualified =
        "<MobileServiceOrderLockCheck><sonumber>5</sonumber></MobileServiceOrderLockCheck>";
    let response = server
        .handle(soap11(
            Some("MobileServiceOrderLockCheck"),
            envelope11(unqualified),
        ))
        .await;
    assert_eq!(response.status(), 500);
    assert!(text(&response).contains("<faultcode>soap:Client</faultcode>"));
    assert!(
        text(&response).contains(&format!(
            "<faultstring>The body element {{}}MobileServiceOrderLockCheck is not the operation's \
             element MobileServiceOrderLockCheck in namespace {NS}.</faultstring>"
        )),
        "{}",
        text(&response)
    );
}
