//! Running the generated server in production: its metrics per operation and binding, the
//! admin address's probes, and the drain (readiness fails, no new connection, the call in
//! flight finished).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use rmm_script::runtime::deps::bytes::Bytes;
use rmm_script::runtime::deps::http::Request;
use rmm_script::runtime::deps::tokio;
use rmm_script::runtime::server::operate::{drain, Admin, Health, Metrics};
use rmm_script::runtime::server::ServerConfig;
use rmm_script::*;
use rmm_tests::script_service::ScriptEcho;

const PATH: &str = "/api/rmm/ScriptService.asmx";

fn json(method: &str, body: &str) -> Request<Bytes> {
    Request::builder()
        .method("POST")
        .uri(format!("{PATH}/{method}"))
        .header("content-type", "application/json")
        .body(Bytes::from(body.to_owned()))
        .unwrap()
}

/// The value of the sample `name{labels}` in Prometheus text, if present.
fn sample(text: &str, name_and_labels: &str) -> Option<f64> {
    text.lines()
        .find_map(|line| line.strip_prefix(name_and_labels)?.trim().parse().ok())
}

#[tokio::test]
async fn every_call_is_counted_by_operation_binding_and_outcome() {
    let metrics = Metrics::new();
    let config = ServerConfig {
        metrics: Some(metrics.clone()),
        ..ServerConfig::default()
    };
    let server = ScriptServiceServer::new(ScriptEcho).with_config(config);
    for _ in 0..3 {
        assert_eq!(
            server
                .handle(json("Add", "{\"a\":1,\"b\":2}"))
                .await
                .status(),
            200
        );
    }
    assert_eq!(
        server
            .handle(json("Fail", "{\"message\":\"x\"}"))
            .await
            .status(),
        500
    );
    // A request its decoder refuses (a parameter missing).
    assert_eq!(server.handle(json("Add", "{\"a\":1}")).await.status(), 500);
    let soap = Request::builder()
        .method("POST")
        .uri(PATH)
        .header("content-type", "text/xml; charset=utf-8")
        .header("soapaction", "\"http://rmm.example.com/script/Add\"")
        .body(Bytes::from_static(
            b"<soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\"><soap:Body><Add xmlns=\"http://rmm.example.com/script/\"><a>2</a><b>3</b></Add></soap:Body></soap:Envelope>",
        ))
        .unwrap();
    assert_eq!(server.handle(soap).await.status(), 200);
    // A session issued, then abandoned.
    let visit = server.handle(json("Visit", "{\"item\":\"a\"}")).await;
    let cookie = visit.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_owned();
    let mut forget = json("Forget", "{}");
    forget
        .headers_mut()
        .insert("cookie", cookie.parse().unwrap());
    assert_eq!(server.handle(forget).await.status(), 200);
    // Pages are no calls: not counted.
    let wsdl = Request::builder()
        .uri(format!("{PATH}?wsdl"))
        .body(Bytes::new())
        .unwrap();
    assert_eq!(server.handle(wsdl).await.status(), 200);

    let text = metrics.render();
    let calls = |labels: &str| sample(&text, &format!("rmm_calls_total{{{labels}}}"));
    assert_eq!(
        calls("binding=\"json\",operation=\"Add\",outcome=\"ok\""),
        Some(3.0)
    );
    assert_eq!(
        calls("binding=\"json\",operation=\"Add\",outcome=\"refused\""),
        Some(1.0)
    );
    assert_eq!(
        calls("binding=\"json\",operation=\"Fail\",outcome=\"fault\""),
        Some(1.0)
    );
    assert_eq!(
        calls("binding=\"soap11\",operation=\"Add\",outcome=\"ok\""),
        Some(1.0)
    );
    let total: f64 = text
        .lines()
        .filter(|l| l.starts_with("rmm_calls_total{"))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
        .sum();
    assert_eq!(total, 8.0, "{text}");
    assert_eq!(
        sample(
            &text,
            "rmm_call_duration_seconds_count{binding=\"json\",operation=\"Add\"}"
        ),
        Some(4.0)
    );
    assert_eq!(
        sample(
            &text,
            "rmm_calls_in_flight{binding=\"json\",operation=\"Add\"}"
        ),
        Some(0.0)
    );
    assert_eq!(sample(&text, "rmm_sessions_issued_total"), Some(1.0));
    assert_eq!(sample(&text, "rmm_sessions_abandoned_total"), Some(1.0));
    assert_eq!(sample(&text, "rmm_session_store_errors_total"), Some(0.0));
}

/// An HTTP/1.1 GET on the admin address: its status and body.
fn admin_get(port: u16, path: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let status = answer[9..12].parse().unwrap();
    let body = answer
        .split("\r\n\r\n")
        .nth(1)
        .unwrap_or_default()
        .to_owned();
    (status, body)
}

/// The drain, end to end on real sockets: SIGTERM's stand-in fires while a call is in flight
/// (its body half sent); readiness fails at once; after the delay the service's address
/// refuses new connections; the call in flight is answered in full; the server returns.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_drain_fails_readiness_refuses_new_connections_and_finishes_the_call_in_flight() {
    let health = Health::new();
    let metrics = Metrics::new();
    let admin_listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let admin_port = admin_listener.local_addr().unwrap().port();
    let (admin_stop, admin_stopped) = tokio::sync::oneshot::channel::<()>();
    let admin = tokio::spawn(Admin::new(health.clone(), Some(metrics.clone())).serve(
        admin_listener,
        async {
            let _ = admin_stopped.await;
        },
    ));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let config = ServerConfig {
        metrics: Some(metrics.clone()),
        ..ServerConfig::default()
    };
    let delay = Duration::from_millis(300);
    let server = tokio::spawn(
        ScriptServiceServer::new(ScriptEcho)
            .with_config(config)
            .serve_with_shutdown(
                listener,
                drain(health.clone(), delay, async {
                    let _ = stopped.await;
                }),
            ),
    );
    let ready = tokio::task::spawn_blocking(move || admin_get(admin_port, "/healthz/ready"))
        .await
        .unwrap();
    assert_eq!(ready, (200, "ready\n".to_owned()));

    // A call in flight: its head and half its body sent.
    let body = "{\"a\":20,\"b\":22}";
    let mut in_flight = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        in_flight,
        "POST {PATH}/Add HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{}",
        body.len(),
        &body[..7]
    )
    .unwrap();
    in_flight.flush().unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;

    stop.send(()).unwrap();
    tokio::time::sleep(Duration::from_millis(50)).await;
    // Draining: readiness fails, liveness holds.
    let probes = tokio::task::spawn_blocking(move || {
        (
            admin_get(admin_port, "/healthz/ready"),
            admin_get(admin_port, "/healthz/live"),
        )
    })
    .await
    .unwrap();
    assert_eq!(probes.0, (503, "draining\n".to_owned()));
    assert_eq!(probes.1 .0, 200);
    // Past the delay, no new connection is taken.
    tokio::time::sleep(delay + Duration::from_millis(200)).await;
    assert!(
        TcpStream::connect(("127.0.0.1", port)).is_err(),
        "a draining server took a new connection"
    );
    assert!(
        !server.is_finished(),
        "the server returned with a call in flight"
    );
    // The call in flight finishes, and is answered in full.
    in_flight.write_all(&body.as_bytes()[7..]).unwrap();
    let answer = tokio::task::spawn_blocking(move || {
        let mut answer = String::new();
        in_flight.read_to_string(&mut answer).unwrap();
        answer
    })
    .await
    .unwrap();
    assert!(answer.starts_with("HTTP/1.1 200 OK\r\n"), "{answer}");
    assert!(answer.ends_with("{\"d\":42}"), "{answer}");
    tokio::time::timeout(Duration::from_secs(5), server)
        .await
        .expect("the server returns once its calls are done")
        .unwrap()
        .unwrap();
    let text = metrics.render();
    assert_eq!(
        sample(
            &text,
            "rmm_calls_total{binding=\"json\",operation=\"Add\",outcome=\"ok\"}"
        ),
        Some(1.0)
    );
    admin_stop.send(()).unwrap();
    admin.await.unwrap().unwrap();
}
