//! Calling the service with the generated client, over real loopback HTTP against the echo
//! example's service.

#[allow(dead_code)]
#[path = "../../generated/examples/echo_server.rs"]
mod echo_server;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use rmm_mobile::runtime::client::BoxFuture;
use rmm_mobile::wire::{OperationRequest, OperationResponse};
use rmm_mobile::*;
use rmm_tests::samples::{echo_of, sample};
use rmm_tests::{spec_operation, typed_sample};
use tokio::net::TcpListener;

struct Running {
    base: String,
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
    let base = format!("http://{}", listener.local_addr().unwrap());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(server.serve_with_shutdown(listener, async {
        let _ = stopped.await;
    }));
    Running {
        base,
        stop: Some(stop),
    }
}

/// A signer handing out the credentials of a sample (they are part of the sample's texts).
fn fixed(credentials: Credentials) -> StaticSigner {
    StaticSigner(credentials)
}

async fn every_binding<T: OperationRequest>(base: &str)
where
    MobileServiceClient: Calls<T>,
    T::Response: rmm_mobile::wire::OperationResponse<Result = Option<String>>,
{
    let op = T::OPERATION.name();
    for (salt, binding) in Binding::ALL.into_iter().enumerate() {
        let pairs = sample(&spec_operation(op), salt + 1);
        let (credentials, request) = typed_sample::<T>(&pairs);
        let client = MobileServiceClient::new(base, fixed(credentials)).with_binding(binding);
        let response = client
            .call_typed(&request)
            .await
            .unwrap_or_else(|e| panic!("{op} over {binding}: {e}"));
        assert_eq!(
            response.result().as_deref(),
            Some(echo_of(op, &pairs).as_str()),
            "{op} over {binding}"
        );
    }
}

/// The generated per-operation method, reached generically so one test covers all 20.
trait Calls<T: OperationRequest> {
    async fn call_typed(&self, request: &T) -> Result<T::Response, CallError>;
}

macro_rules! per_operation_methods {
    ($($method:ident: $request:ident,)*) => {
        $(
            impl Calls<$request> for MobileServiceClient {
                async fn call_typed(&self, request: &$request) -> Result<<$request as OperationRequest>::Response, CallError> {
                    self.$method(request).await
                }
            }
        )*

        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn the_client_completes_every_operation_on_every_binding() {
            let server = start(MobileServiceServer::new(echo_server::Echo)).await;
            $( every_binding::<$request>(&server.base).await; )*
        }
    };
}

rmm_mobile::for_each_operation!(per_operation_methods);

fn credentials() -> Credentials {
    Credentials {
        repnumber: 42,
        timestamp: Some("2026-01-01T00:00:00Z".into()),
        sig: Some("abc".into()),
        mobilekey: Some("mk-1".into()),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn absent_strings_travel_over_soap_and_are_refused_over_http() {
    let server = start(MobileServiceServer::new(echo_server::Echo)).await;
    let request = MobileContactEmailCreate {
        accountnumber: i32::MIN,
        contactnumber: i32::MAX,
        email: None,
        primary: false,
    };
    let creds = Credentials {
        timestamp: None,
        ..credentials()
    };
    for binding in [Binding::Soap11, Binding::Soap12] {
        let client =
            MobileServiceClient::new(&server.base, fixed(creds.clone())).with_binding(binding);
        let response = client.mobile_contact_email_create(&request).await.unwrap();
        assert_eq!(
            response.result.as_deref(),
            Some("MobileContactEmailCreate(accountnumber=-2147483648;contactnumber=2147483647;email=<null>;primary=false;repnumber=42;timestamp=<null>;sig=abc;mobilekey=mk-1)")
        );
    }
    for binding in [Binding::HttpGet, Binding::HttpPost] {
        let client = MobileServiceClient::new(&server.base, fixed(creds.clone())).over(binding);
        match client.mobile_contact_email_create(&request).await {
            Err(CallError::Encode(EncodeError::AbsentOverHttp { param: "email", .. })) => {}
            other => panic!("{binding}: {other:?}"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn faults_map_to_typed_errors_on_every_binding() {
    let server = start(MobileServiceServer::new(echo_server::Echo)).await;
    let request = MobileAccountSearch {
        accountname: Some("FAULT".into()),
        contactname: Some(String::new()),
        telephone: Some(String::new()),
        email: Some(String::new()),
    };
    for binding in Binding::ALL {
        let client =
            MobileServiceClient::new(&server.base, fixed(credentials())).with_binding(binding);
        let error = client.mobile_account_search(&request).await.unwrap_err();
        match (&error, binding.is_soap()) {
            (
                CallError::Response(ResponseError::Fault {
                    fault,
                    operation,
                    binding: b,
                    ..
                }),
                true,
            ) => {
                assert_eq!(
                    (fault.code.clone(), fault.reason.as_str()),
                    (FaultCode::Client, "requested fault")
                );
                assert_eq!((*operation, *b), ("MobileAccountSearch", binding));
                assert_eq!(error.fault(), Some(fault));
            }
            (CallError::Response(ResponseError::ErrorBody { message, .. }), false) => {
                assert_eq!(message, "requested fault")
            }
            _ => panic!("{binding}: {error:?}"),
        }
        let text = error.to_string();
        assert!(
            text.starts_with(&format!("MobileAccountSearch over {binding}: ")),
            "{text}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_does_not_answer_times_out() {
    // Accepts connections and never answers.
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let hold = tokio::spawn(async move {
        let mut held = Vec::new();
        loop {
            let (stream, _) = listener.accept().await.unwrap();
            held.push(stream);
        }
    });
    let client = MobileServiceClient::new(base, fixed(credentials()))
        .with_timeout(Some(Duration::from_millis(300)));
    let started = std::time::Instant::now();
    let error = client
        .mobile_account_search(&MobileAccountSearch::default())
        .await
        .unwrap_err();
    assert!(error.is_timeout(), "{error:?}");
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(
        error.to_string(),
        "MobileAccountSearch over SOAP 1.1: no response within 300ms"
    );
    hold.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_connection_is_a_connect_error() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let client = MobileServiceClient::new(base, fixed(credentials()));
    match client
        .mobile_account_search(&MobileAccountSearch::default())
        .await
    {
        Err(CallError::Transport {
            source: TransportError::Connect(_),
            operation: "MobileAccountSearch",
            ..
        }) => {}
        other => panic!("{other:?}"),
    }
}

/// A transport double: records requests, answers with a canned response.
#[derive(Clone)]
struct Canned {
    seen: Arc<Mutex<Vec<http::Request<Bytes>>>>,
    status: u16,
    content_type: &'static str,
    body: &'static str,
}

impl Transport for Canned {
    fn send(
        &self,
        request: http::Request<Bytes>,
    ) -> BoxFuture<'_, Result<http::Response<Bytes>, TransportError>> {
        self.seen.lock().unwrap().push(request);
        let response = http::Response::builder()
            .status(self.status)
            .header("content-type", self.content_type)
            .body(Bytes::from_static(self.body.as_bytes()))
            .unwrap();
        Box::pin(async move { Ok(response) })
    }
}

fn canned(status: u16, content_type: &'static str, body: &'static str) -> Canned {
    Canned {
        seen: Arc::default(),
        status,
        content_type,
        body,
    }
}

#[tokio::test]
async fn a_custom_transport_gets_absolute_requests_and_its_responses_are_decoded() {
    let transport = canned(200, "text/xml; charset=utf-8", "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<string xmlns=\"http://rmm.example.com/mobile\">ok &amp; done</string>");
    let client =
        MobileServiceClient::new("https://legacy.example.com/prefix/", fixed(credentials()))
            .with_binding(Binding::HttpGet)
            .with_transport(transport.clone());
    let request = MobileServiceOrderLockCheck { sonumber: 5 };
    let response = client
        .mobile_service_order_lock_check(&request)
        .await
        .unwrap();
    assert_eq!(response.result.as_deref(), Some("ok & done"));
    let seen = transport.seen.lock().unwrap();
    assert_eq!(
        seen[0].uri(),
        "https://legacy.example.com/prefix/api/rmm/MobileService.asmx/MobileServiceOrderLockCheck?sonumber=5&repnumber=42&timestamp=2026-01-01T00%3A00%3A00Z&sig=abc"
    );
}

#[tokio::test]
async fn undecodable_and_unexpected_responses_are_told_apart() {
    let garbage = canned(200, "text/html", "<html>maintenance</html>");
    let client = MobileServiceClient::new("http://x", fixed(credentials())).with_transport(garbage);
    match client
        .mobile_account_search(&MobileAccountSearch::default())
        .await
    {
        Err(CallError::Response(ResponseError::Undecodable { body, reason, .. })) => {
            assert_eq!(&body[..], b"<html>maintenance</html>");
            assert!(reason.contains("html"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
    let missing = canned(404, "text/html", "not here");
    let client = MobileServiceClient::new("http://x", fixed(credentials())).with_transport(missing);
    match client
        .over(Binding::HttpPost)
        .mobile_account_search(&MobileAccountSearch {
            accountname: Some(String::new()),
            contactname: Some(String::new()),
            telephone: Some(String::new()),
            email: Some(String::new()),
        })
        .await
    {
        Err(CallError::Response(ResponseError::Status {
            status: 404, body, ..
        })) => assert_eq!(body, "not here"),
        other => panic!("{other:?}"),
    }
}

/// A toy signature over the operation and its business parameters (FNV-1a, hex). The
/// interface does not say how `sig` is made; the point is that client and server agree.
fn toy_sig(
    operation: &str,
    params: &[(&'static str, rmm_mobile::runtime::ParamValue<'_>)],
) -> String {
    let mut text = operation.to_owned();
    for (name, value) in params {
        text.push_str(&format!("|{name}={value}"));
    }
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    format!("{hash:016x}")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_signer_computes_sig_and_the_servers_verifier_checks_it() {
    let server = start(MobileServiceServer::new(echo_server::Echo).with_verifier(
        |call: &Call<'_>| {
            let business: Vec<_> = call
                .params
                .iter()
                .filter(|(name, _)| !Credentials::WIRE_NAMES.contains(name))
                .copied()
                .collect();
            let expected = toy_sig(call.operation.name(), &business);
            if call.credentials.sig.as_deref() == Some(expected.as_str()) {
                Ok(())
            } else {
                Err(Fault::client(
                    "The signature does not match the parameters.",
                ))
            }
        },
    ))
    .await;
    let signer = |request: &SigningRequest<'_>| Credentials {
        repnumber: 42,
        timestamp: Some("t".into()),
        sig: Some(toy_sig(request.operation.name(), request.params)),
        mobilekey: Some("k".into()),
    };
    let request = MobilePartsUsedAssemblyUpdate {
        sopartsusedassemblydetailkeyid: 7,
        quantity: "1.50".parse().unwrap(),
        sellfor: "-0.0100".parse().unwrap(),
    };
    for binding in Binding::ALL {
        let client = MobileServiceClient::new(&server.base, signer).with_binding(binding);
        let response = client
            .mobile_parts_used_assembly_update(&request)
            .await
            .unwrap();
        assert!(response.result.unwrap().starts_with("MobilePartsUsedAssemblyUpdate(sopartsusedassemblydetailkeyid=7;quantity=1.50;sellfor=-0.0100;"));
    }
    // A wrong signature is refused by the verifier.
    let forger = MobileServiceClient::new(&server.base, fixed(credentials()));
    let error = forger
        .mobile_parts_used_assembly_update(&request)
        .await
        .unwrap_err();
    assert_eq!(
        error.fault().map(|f| f.reason.as_str()),
        Some("The signature does not match the parameters.")
    );
}
