//! A real SOAP client nobody on the team wrote: Python's zeep loads our WSDL from the echo
//! server and calls every operation over SOAP 1.1 and SOAP 1.2. `tests/interop/zeep/install.sh`
//! installs zeep from PyPI into `target/zeep-venv` the first time.

#[allow(dead_code)]
#[path = "../../generated/examples/echo_server.rs"]
mod echo_server;

use std::process::Command;

use rmm_mobile::runtime::deps::tokio;
use rmm_mobile::{MobileServiceServer, Operation, SERVICE};

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

/// Starts the echo server on its own runtime thread; returns the WSDL URL. The runtime (and
/// the server) ends with the test process.
fn start_echo_server() -> String {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            MobileServiceServer::new(echo_server::Echo)
                .serve(listener)
                .await
                .unwrap();
        });
    });
    let addr = rx.recv().unwrap();
    format!("http://{addr}{}?wsdl", SERVICE.path)
}

#[test]
fn zeep_calls_every_operation_through_our_wsdl_over_soap_11_and_12() {
    let python = install_zeep();
    let wsdl = start_echo_server();
    let script = rmm_tests::root().join("tests/interop/zeep/call_all.py");
    for binding in ["soap11", "soap12"] {
        let output = Command::new(&python)
            .arg(&script)
            .arg(&wsdl)
            .arg(binding)
            .arg("--with-params")
            .output()
            .unwrap();
        let stdout = String::from_utf8(output.stdout).unwrap();
        assert!(
            output.status.success(),
            "{binding}:\n{stdout}\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let mut called = Vec::new();
        for line in stdout.lines() {
            let line: serde_json::Value = serde_json::from_str(line).unwrap();
            let operation = line["operation"].as_str().unwrap().to_owned();
            let params: Vec<String> = line["params"]
                .as_array()
                .unwrap()
                .iter()
                .map(|pair| {
                    format!(
                        "{}={}",
                        pair[0].as_str().unwrap(),
                        pair[1].as_str().unwrap()
                    )
                })
                .collect();
            let expected = format!("{operation}({})", params.join(";"));
            assert_eq!(
                line["result"].as_str(),
                Some(expected.as_str()),
                "{binding} {operation}"
            );
            called.push(operation);
        }
        let all: Vec<String> = Operation::ALL
            .iter()
            .map(|op| op.name().to_owned())
            .collect();
        assert_eq!(
            called, all,
            "{binding}: zeep called every operation, in order"
        );
    }
}
