//! The code a build script generated, used as a crate's own: its server serves, its client
//! calls it, on every binding.

use rmm_build_rs::runtime::deps::tokio;
use rmm_build_rs::*;

struct Greets;

impl Greeter for Greets {
    async fn greet(&self, request: Greet) -> Result<GreetResponse, Fault> {
        Ok(GreetResponse {
            result: Some(format!("hello, {}", request.name.unwrap_or_default())),
        })
    }

    async fn add(&self, request: Add) -> Result<AddResponse, Fault> {
        request
            .a
            .checked_add(request.b)
            .map(|result| AddResponse { result })
            .ok_or_else(|| Fault::client("the sum does not fit an int"))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_built_client_calls_the_built_server_on_every_binding() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let serving = tokio::spawn(
        GreeterServer::new(Greets).serve_with_shutdown(listener, async {
            let _ = stopped.await;
        }),
    );
    let client = GreeterClient::new(&base);
    for binding in Binding::ALL {
        let client = client.over(binding);
        let greeting = client
            .greet(&Greet {
                name: Some("café & co".into()),
            })
            .await
            .unwrap();
        assert_eq!(
            greeting.result.as_deref(),
            Some("hello, café & co"),
            "{binding}"
        );
        assert_eq!(client.add(&Add { a: 2, b: -5 }).await.unwrap().result, -3);
        let refused = client.add(&Add { a: i32::MAX, b: 1 }).await.unwrap_err();
        assert!(
            refused.to_string().contains("the sum does not fit an int"),
            "{binding}: {refused}"
        );
    }
    let wsdl = wsdl::document(&format!("{base}/api/Greeter.asmx"));
    assert!(wsdl.contains("<wsdl:service name=\"Greeter\">"));
    stop.send(()).unwrap();
    serving.await.unwrap().unwrap();
}
