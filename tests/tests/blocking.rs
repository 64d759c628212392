//! The blocking client (feature `blocking`), from plain threads with no async runtime of
//! their own, over real loopback HTTP against the echo example's service: every operation on
//! every binding, the typed errors, the signer, the timeout.

#[allow(dead_code)]
#[path = "../../generated/examples/echo_server.rs"]
mod echo_server;

use std::time::Duration;

use rmm_mobile::wire::{OperationRequest, OperationResponse};
use rmm_mobile::*;
use rmm_tests::samples::{echo_of, sample};
use rmm_tests::threaded::start;
use rmm_tests::{spec_operation, typed_sample};

fn credentials() -> Credentials {
    Credentials {
        repnumber: 42,
        timestamp: Some("2026-01-01T00:00:00Z".into()),
        sig: Some("abc".into()),
        mobilekey: Some("mk-1".into()),
    }
}

/// The generated per-operation method of the blocking client, reached generically.
trait Calls<T: OperationRequest> {
    fn call_typed(&self, request: &T) -> Result<T::Response, CallError>;
}

fn every_binding<T: OperationRequest>(base: &str)
where
    MobileServiceBlockingClient: Calls<T>,
    T::Response: OperationResponse<Result = Option<String>>,
{
    let op = T::OPERATION.name();
    for (salt, binding) in Binding::ALL.into_iter().enumerate() {
        let pairs = sample(&spec_operation(op), salt + 1);
        let (credentials, request) = typed_sample::<T>(&pairs);
        let client =
            MobileServiceBlockingClient::new(base, StaticSigner(credentials)).with_binding(binding);
        assert_eq!(client.binding(), binding);
        let response = client
            .call_typed(&request)
            .unwrap_or_else(|e| panic!("{op} over {binding}: {e}"));
        assert_eq!(
            response.result().as_deref(),
            Some(echo_of(op, &pairs).as_str()),
            "{op} over {binding}"
        );
    }
}

macro_rules! per_operation_methods {
    ($($method:ident: $request:ident,)*) => {
        $(
            impl Calls<$request> for MobileServiceBlockingClient {
                fn call_typed(&self, request: &$request) -> Result<<$request as OperationRequest>::Response, CallError> {
                    self.$method(request)
                }
            }
        )*

        #[test]
        fn the_blocking_client_completes_every_operation_on_every_binding() {
            let server = start(MobileServiceServer::new(echo_server::Echo));
            $( every_binding::<$request>(&server.base); )*
        }
    };
}

rmm_mobile::for_each_operation!(per_operation_methods);

#[test]
fn faults_are_the_async_clients_typed_errors_on_every_binding() {
    let server = start(MobileServiceServer::new(echo_server::Echo));
    let request = MobileAccountSearch {
        accountname: Some("FAULT".into()),
        contactname: Some(String::new()),
        telephone: Some(String::new()),
        email: Some(String::new()),
    };
    let client = MobileServiceBlockingClient::new(&server.base, StaticSigner(credentials()));
    for binding in Binding::ALL {
        let error = client
            .over(binding)
            .mobile_account_search(&request)
            .unwrap_err();
        match (&error, binding.is_soap()) {
            (CallError::Response(ResponseError::Fault { fault, .. }), true) => assert_eq!(
                (fault.code.clone(), fault.reason.as_str()),
                (FaultCode::Client, "requested fault")
            ),
            (CallError::Response(ResponseError::ErrorBody { message, .. }), false) => {
                assert_eq!(message, "requested fault")
            }
            _ => panic!("{binding}: {error:?}"),
        }
        assert!(error
            .to_string()
            .starts_with(&format!("MobileAccountSearch over {binding}: ")));
    }
    // An absent string over HTTP GET is refused before anything is sent, as by the async client.
    let error = client
        .over(Binding::HttpGet)
        .mobile_account_search(&MobileAccountSearch::default())
        .unwrap_err();
    assert!(
        matches!(error, CallError::Encode(EncodeError::AbsentOverHttp { .. })),
        "{error:?}"
    );
}

#[test]
fn the_signer_sees_each_call_and_clones_share_one_runtime_across_threads() {
    let server = start(MobileServiceServer::new(echo_server::Echo));
    let signer = |request: &SigningRequest<'_>| Credentials {
        repnumber: 7,
        timestamp: Some("t".into()),
        sig: Some(format!(
            "{}:{}",
            request.operation.name(),
            request.params.len()
        )),
        mobilekey: Some("k".into()),
    };
    let client = MobileServiceBlockingClient::new(&server.base, signer);
    let request = MobilePartsUsedAssemblyUpdate {
        sopartsusedassemblydetailkeyid: 7,
        quantity: "1.50".parse().unwrap(),
        sellfor: "-0.0100".parse().unwrap(),
    };
    let threads: Vec<_> = Binding::ALL
        .into_iter()
        .map(|binding| {
            let client = client.over(binding);
            let request = request.clone();
            std::thread::spawn(move || client.mobile_parts_used_assembly_update(&request))
        })
        .collect();
    for thread in threads {
        let result = thread.join().unwrap().unwrap().result.unwrap();
        assert_eq!(
            result,
            "MobilePartsUsedAssemblyUpdate(sopartsusedassemblydetailkeyid=7;quantity=1.50;\
             sellfor=-0.0100;repnumber=7;timestamp=t;sig=MobilePartsUsedAssemblyUpdate:3;\
             mobilekey=k)"
        );
    }
}

#[test]
fn a_server_that_does_not_answer_times_out() {
    // Accepts connections and never answers.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let _hold = std::thread::spawn(move || {
        let held: Vec<_> = listener.incoming().collect();
        drop(held);
    });
    let client = MobileServiceBlockingClient::new(base, StaticSigner(credentials()))
        .with_timeout(Some(Duration::from_millis(300)));
    let error = client
        .mobile_account_search(&MobileAccountSearch::default())
        .unwrap_err();
    assert!(error.is_timeout(), "{error:?}");
    assert_eq!(
        error.to_string(),
        "MobileAccountSearch over SOAP 1.1: no response within 300ms"
    );
}
