//! WS-Security's UsernameToken end to end: the generated client sending it through
//! `wsse::WsSecurity`, the generated server behind `wsse::UsernameTokenCheck`, and zeep's own
//! `wsse.UsernameToken` (text and digest) calling that server over loopback.

use std::process::Command;

use rmm_objects::runtime::client::{BoxFuture, Transport, TransportError};
use rmm_objects::runtime::deps::bytes::Bytes;
use rmm_objects::runtime::deps::http::{Request, Response};
use rmm_objects::runtime::wsse::{UsernameToken, UsernameTokenCheck, WsSecurity};
use rmm_objects::runtime::{Binding, FaultCode};
use rmm_objects::*;
use rmm_tests::objects_service::ObjectsEcho;

fn passwords(user: &str) -> Option<String> {
    (user == "ann").then(|| "s3cret & <pw>".to_owned())
}

/// The generated server in process, behind the check (or not).
struct Checked {
    check: Option<UsernameTokenCheck>,
    server: ObjectsServiceServer<ObjectsEcho>,
}

impl Transport for Checked {
    fn send(
        &self,
        request: Request<Bytes>,
    ) -> BoxFuture<'_, Result<Response<Bytes>, TransportError>> {
        Box::pin(async move {
            let request = match &self.check {
                Some(check) => match check.check(request) {
                    Ok(request) => request,
                    Err(refusal) => return Ok(refusal),
                },
                None => request,
            };
            Ok(self.server.handle(request).await)
        })
    }
}

fn client(token: UsernameToken, checked: bool, binding: Binding) -> ObjectsServiceClient {
    let server = Checked {
        check: checked.then(|| UsernameTokenCheck::new(passwords)),
        server: ObjectsServiceServer::new(ObjectsEcho),
    };
    ObjectsServiceClient::new("http://in.process")
        .with_transport(WsSecurity::new(server, token))
        .with_binding(binding)
}

fn order() -> EchoOrder {
    EchoOrder {
        order: Some(Order {
            id: 7,
            ..Default::default()
        }),
    }
}

#[tokio::test]
async fn the_generated_client_proves_its_user_to_the_generated_server_behind_the_check() {
    for binding in [Binding::Soap11, Binding::Soap12] {
        for token in [
            UsernameToken::digest("ann", "s3cret & <pw>").must_understand(true),
            UsernameToken::text("ann", "s3cret & <pw>"),
        ] {
            let answer = client(token.clone(), true, binding)
                .echo_order(&order())
                .await
                .unwrap_or_else(|e| panic!("{token:?} over {binding}: {e}"));
            assert_eq!(answer.result.map(|o| o.id), Some(7));
        }
        // HTTP GET carries no SOAP header, and goes on as it is.
        let made = client(
            UsernameToken::digest("ann", "wrong"),
            true,
            Binding::HttpGet,
        )
        .make_order(&MakeOrder {
            id: 3,
            note: Some("c".into()),
        })
        .await
        .expect("GET goes on");
        assert_eq!(made.result.map(|o| o.id), Some(3));
    }
}

#[tokio::test]
async fn a_wrong_password_or_user_gets_the_profiles_fault() {
    // The client reads a code by its local name: SOAP 1.2's is the Sender, its subcode the
    // profile's.
    for (binding, code) in [
        (
            Binding::Soap11,
            FaultCode::Other("FailedAuthentication".into()),
        ),
        (Binding::Soap12, FaultCode::Client),
    ] {
        for token in [
            UsernameToken::digest("ann", "wrong"),
            UsernameToken::text("bob", "s3cret & <pw>"),
        ] {
            let error = client(token, true, binding)
                .echo_order(&order())
                .await
                .expect_err("refused");
            let fault = error.fault().expect("a fault");
            assert_eq!(fault.code, code, "{binding}: {fault:?}");
            assert_eq!(
                fault.reason,
                "The security token could not be authenticated or authorized"
            );
        }
    }
}

#[tokio::test]
async fn without_the_check_a_block_marked_must_understand_gets_the_hosts_fault() {
    // As an ASMX host without WSE answers a Security block it does not know.
    let error = client(
        UsernameToken::digest("ann", "s3cret & <pw>").must_understand(true),
        false,
        Binding::Soap11,
    )
    .echo_order(&order())
    .await
    .expect_err("not understood");
    assert_eq!(
        error.fault().map(|f| f.code.clone()),
        Some(FaultCode::MustUnderstand)
    );
}

fn install_zeep() -> String {
    let script = rmm_tests::root().join("tests/interop/zeep/install.sh");
    let output = Command::new("bash")
        .arg(&script)
        .output()
        .expect("bash runs");
    assert!(
        output.status.success(),
        "{} failed:\n{}",
        script.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap().trim().to_owned()
}

/// zeep calls `EchoOrder` with its own UsernameToken: a digest, a text password, a wrong one.
const ZEEP_CALLS: &str = r#"
import sys, zeep
from zeep.wsse.username import UsernameToken
wsdl = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from call_all import LocalTransport  # the SOAP encoding schema, answered locally
for name, token in [
    ("digest", UsernameToken("ann", "s3cret & <pw>", use_digest=True)),
    ("text", UsernameToken("ann", "s3cret & <pw>")),
    ("wrong", UsernameToken("ann", "wrong", use_digest=True)),
]:
    client = zeep.Client(wsdl, wsse=token, transport=LocalTransport())
    try:
        order = client.service.EchoOrder(order={"Id": 7, "Placed": "2026-01-02T03:04:05", "Priority": "High"})
        print(name, "ok", order.Id)
    except zeep.exceptions.Fault as fault:
        print(name, "fault", fault.code, fault.message)
"#;

#[test]
fn zeeps_username_token_is_checked_by_the_generated_server_behind_the_check() {
    let python = install_zeep();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = rmm_objects::runtime::deps::tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            let service =
                UsernameTokenCheck::new(passwords).layer(ObjectsServiceServer::new(ObjectsEcho));
            let app = axum::Router::new().route_service(SERVICE.path, service);
            axum::serve(listener, app).await.unwrap();
        });
    });
    let address = rx.recv().unwrap();
    let wsdl = format!("http://{address}{}?wsdl", SERVICE.path);
    let output = Command::new(&python)
        .args(["-c", ZEEP_CALLS, &wsdl])
        .arg(rmm_tests::root().join("tests/interop/zeep"))
        .output()
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        stdout.lines().collect::<Vec<_>>(),
        [
            "digest ok 7",
            "text ok 7",
            "wrong fault wsse:FailedAuthentication The security token could not be authenticated or authorized",
        ]
    );
}
