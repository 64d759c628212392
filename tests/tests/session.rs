//! Session state (`[WebMethod(EnableSession = true)]`) on rmm's server for the script
//! service's session operations (Visit, Contents, Forget): the `ASP.NET_SessionId` cookie
//! as .NET Framework 4.8 issues it, a session's values across calls and bindings, what a
//! forged, stale or abandoned id gets, one call at a time per session, the time-out restarted
//! by calls without session state; and the generated client keeping its session.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmm_script::runtime::deps::bytes::Bytes;
use rmm_script::runtime::deps::http::{self, Request};
use rmm_script::runtime::deps::tokio;
use rmm_script::runtime::server::ServerConfig;
use rmm_script::runtime::session::{
    MemoryStore, SessionConfig, SessionLease, SessionStore, StoreFuture,
};
use rmm_script::*;
use rmm_tests::script_service::ScriptEcho;

const PATH: &str = "/api/rmm/ScriptService.asmx";
const NS: &str = "http://rmm.example.com/script/";

/// A JSON call of `method` with `body`, in the session `cookie` names (if any).
fn json(method: &str, body: &str, cookie: Option<&str>) -> Request<Bytes> {
    let mut builder = Request::builder()
        .method("POST")
        .uri(format!("{PATH}/{method}"))
        .header("content-type", "application/json; charset=utf-8");
    if let Some(cookie) = cookie {
        builder = builder.header("cookie", cookie);
    }
    builder.body(Bytes::from(body.to_owned())).unwrap()
}

/// A SOAP 1.1 call of an operation without parameters.
fn soap(method: &str, cookie: Option<&str>) -> Request<Bytes> {
    let body = format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\"><soap:Body><{method} xmlns=\"{NS}\" /></soap:Body></soap:Envelope>"
    );
    let mut builder = Request::builder()
        .method("POST")
        .uri(PATH)
        .header("content-type", "text/xml; charset=utf-8")
        .header("soapaction", format!("\"{NS}{method}\""));
    if let Some(cookie) = cookie {
        builder = builder.header("cookie", cookie);
    }
    builder.body(Bytes::from(body)).unwrap()
}

fn body(response: &http::Response<Bytes>) -> &str {
    std::str::from_utf8(response.body()).unwrap()
}

/// The id a response's `Set-Cookie` issues, checked to be written as .NET Framework 4.8
/// writes it; `None` when it sets no cookie.
fn issued(response: &http::Response<Bytes>) -> Option<String> {
    let cookies: Vec<&str> = response
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap())
        .collect();
    assert!(cookies.len() <= 1, "{cookies:?}");
    let cookie = cookies.first()?;
    let id = cookie
        .strip_prefix("ASP.NET_SessionId=")
        .and_then(|rest| rest.strip_suffix("; path=/; HttpOnly; SameSite=Lax"))
        .unwrap_or_else(|| panic!("not .NET's session cookie: {cookie}"));
    assert_eq!(id.len(), 24, "{id}");
    assert!(
        id.bytes()
            .all(|b| b.is_ascii_lowercase() || (b'0'..=b'5').contains(&b)),
        "{id}"
    );
    Some(id.to_owned())
}

fn cookie(id: &str) -> String {
    format!("ASP.NET_SessionId={id}")
}

#[tokio::test]
async fn a_session_is_issued_when_first_stored_and_kept_across_calls_and_bindings() {
    let server = ScriptServiceServer::new(ScriptEcho);
    // A call that only reads a new session stores nothing: no cookie.
    let read = server.handle(json("Contents", "{}", None)).await;
    assert_eq!((read.status().as_u16(), body(&read)), (200, "{\"d\":[]}"));
    assert_eq!(issued(&read), None);
    // The first call that stores something issues the session.
    let first = server.handle(json("Visit", "{\"item\":\"a\"}", None)).await;
    assert_eq!(body(&first), "{\"d\":1}");
    let id = issued(&first).expect("a new session's cookie");
    let ours = cookie(&id);
    // Later calls with the cookie see the session, and get no cookie again.
    let second = server
        .handle(json("Visit", "{\"item\":\"b\"}", Some(&ours)))
        .await;
    assert_eq!(body(&second), "{\"d\":2}");
    assert_eq!(issued(&second), None);
    // Over SOAP, the same session.
    let over_soap = server.handle(soap("Contents", Some(&ours))).await;
    assert_eq!(over_soap.status(), 200);
    assert!(
        body(&over_soap)
            .contains("<ContentsResult><string>a</string><string>b</string></ContentsResult>"),
        "{}",
        body(&over_soap)
    );
    // Over HTTP GET, with the cookie among others.
    let get = Request::builder()
        .uri(format!("{PATH}/Visit?item=c"))
        .header("cookie", format!("theme=dark; {ours}; lang=en"))
        .body(Bytes::new())
        .unwrap();
    let got = server.handle(get).await;
    assert_eq!(got.status(), 200);
    assert!(body(&got).contains(">3</int>"), "{}", body(&got));
    assert_eq!(issued(&got), None);
    let all = server.handle(json("Contents", "{}", Some(&ours))).await;
    assert_eq!(body(&all), "{\"d\":[\"a\",\"b\",\"c\"]}");
    // Another client's session is its own.
    let other = server.handle(json("Visit", "{\"item\":null}", None)).await;
    assert_eq!(body(&other), "{\"d\":1}");
    assert_ne!(issued(&other).unwrap(), id);
}

#[tokio::test]
async fn an_id_naming_no_session_gets_a_new_one_under_a_new_id() {
    let server = ScriptServiceServer::new(ScriptEcho);
    // Well formed, never issued: .NET Framework would adopt the client's id (session
    // fixation); rmm issues its own.
    let forged = "abcdefghijklmnopqrstuvwx";
    let answer = server
        .handle(json("Visit", "{\"item\":\"x\"}", Some(&cookie(forged))))
        .await;
    assert_eq!(body(&answer), "{\"d\":1}");
    let id = issued(&answer).expect("a new id");
    assert_ne!(id, forged);
    // Not an id at all (Mono's upper-case hex, too long, empty): a new session too.
    for bad in ["9A89056EF975CF027FDF5366", "abcdefghijklmnopqrstuvwxyz", ""] {
        let answer = server
            .handle(json("Visit", "{\"item\":\"x\"}", Some(&cookie(bad))))
            .await;
        assert_eq!(body(&answer), "{\"d\":1}", "{bad:?}");
        assert!(issued(&answer).is_some(), "{bad:?}");
    }
    // An abandoned session is gone: its id names nothing, and what is stored next is new.
    let ours = cookie(&id);
    let forget = server.handle(json("Forget", "{}", Some(&ours))).await;
    assert_eq!(body(&forget), "{\"d\":null}");
    assert_eq!(issued(&forget), None);
    let after = server.handle(json("Contents", "{}", Some(&ours))).await;
    assert_eq!(body(&after), "{\"d\":[]}");
    let again = server
        .handle(json("Visit", "{\"item\":\"y\"}", Some(&ours)))
        .await;
    assert_eq!(body(&again), "{\"d\":1}");
    assert_ne!(issued(&again).expect("a new id"), id);
}

/// ASP.NET runs the calls of one session one after the other: concurrent visits are all
/// counted, none lost to another's write.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_calls_of_one_session_lose_no_write() {
    let server = ScriptServiceServer::new(ScriptEcho);
    let first = server.handle(json("Visit", "{\"item\":null}", None)).await;
    let ours = cookie(&issued(&first).unwrap());
    let calls: Vec<_> = (0..64)
        .map(|i| {
            let (server, ours) = (server.clone(), ours.clone());
            tokio::spawn(async move {
                let answer = server
                    .handle(json("Visit", &format!("{{\"item\":\"{i}\"}}"), Some(&ours)))
                    .await;
                assert_eq!(answer.status(), 200, "{}", body(&answer));
            })
        })
        .collect();
    for call in calls {
        call.await.unwrap();
    }
    let last = server
        .handle(json("Visit", "{\"item\":null}", Some(&ours)))
        .await;
    assert_eq!(body(&last), "{\"d\":66}");
    let all = server.handle(json("Contents", "{}", Some(&ours))).await;
    let mut items: Vec<u32> = body(&all)
        .trim_start_matches("{\"d\":[")
        .trim_end_matches("]}")
        .split(',')
        .map(|i| i.trim_matches('"').parse().unwrap())
        .collect();
    items.sort_unstable();
    assert_eq!(items, (0..64).collect::<Vec<_>>());
}

/// A store that records what the server asks of it, over a memory store.
#[derive(Clone, Default)]
struct Recording {
    inner: MemoryStore,
    touched: Arc<Mutex<Vec<String>>>,
}

impl SessionStore for Recording {
    fn acquire<'a>(
        &'a self,
        id: &'a str,
        ttl: Duration,
        wait: Duration,
    ) -> StoreFuture<'a, Box<dyn SessionLease>> {
        self.inner.acquire(id, ttl, wait)
    }

    fn new_session(&self, id: &str) -> Box<dyn SessionLease> {
        self.inner.new_session(id)
    }

    fn touch<'a>(&'a self, id: &'a str, ttl: Duration) -> StoreFuture<'a, ()> {
        self.touched.lock().unwrap().push(id.to_owned());
        self.inner.touch(id, ttl)
    }

    fn describe(&self) -> String {
        "recording".to_owned()
    }
}

/// A call of an operation without session state restarts the time-out of the session its
/// cookie names (ASP.NET's `ResetItemTimeout`), and changes nothing in it.
#[tokio::test]
async fn a_call_without_session_state_keeps_the_session_alive() {
    let store = Recording::default();
    let config = ServerConfig {
        sessions: SessionConfig::default().with_store(store.clone()),
        ..ServerConfig::default()
    };
    let server = ScriptServiceServer::new(ScriptEcho).with_config(config);
    let first = server.handle(json("Visit", "{\"item\":\"a\"}", None)).await;
    let id = issued(&first).unwrap();
    assert_eq!(store.inner.len(), 1);
    assert!(store.touched.lock().unwrap().is_empty());
    let add = server
        .handle(json("Add", "{\"a\":1,\"b\":2}", Some(&cookie(&id))))
        .await;
    assert_eq!((body(&add), issued(&add)), ("{\"d\":3}", None));
    assert_eq!(*store.touched.lock().unwrap(), [id]);
    // A call without a cookie, or with no id in it, touches nothing.
    server.handle(json("Add", "{\"a\":1,\"b\":2}", None)).await;
    server
        .handle(json(
            "Add",
            "{\"a\":1,\"b\":2}",
            Some("ASP.NET_SessionId=nope"),
        ))
        .await;
    assert_eq!(store.touched.lock().unwrap().len(), 1);
}

/// A store that fails: the call is refused before its handler runs, with ASP.NET's error
/// page, and the server goes on.
#[derive(Clone, Default)]
struct Down;

impl SessionStore for Down {
    fn acquire<'a>(
        &'a self,
        _: &'a str,
        _: Duration,
        _: Duration,
    ) -> StoreFuture<'a, Box<dyn SessionLease>> {
        Box::pin(async {
            Err(rmm_script::runtime::session::StoreError::Failed(
                "connection refused".into(),
            ))
        })
    }

    fn new_session(&self, id: &str) -> Box<dyn SessionLease> {
        MemoryStore::new().new_session(id)
    }

    fn touch<'a>(&'a self, _: &'a str, _: Duration) -> StoreFuture<'a, ()> {
        Box::pin(async { Ok(()) })
    }

    fn describe(&self) -> String {
        "down".to_owned()
    }
}

#[tokio::test]
async fn a_failing_store_fails_the_call_not_the_server() {
    let config = ServerConfig {
        sessions: SessionConfig::default().with_store(Down),
        ..ServerConfig::default()
    };
    let server = ScriptServiceServer::new(ScriptEcho).with_config(config);
    let forged = cookie("abcdefghijklmnopqrstuvwx");
    let answer = server
        .handle(json("Visit", "{\"item\":\"a\"}", Some(&forged)))
        .await;
    assert_eq!(answer.status(), 500);
    assert_eq!(answer.headers().get("content-type").unwrap(), "text/html");
    assert_eq!(issued(&answer), None);
    // Calls without session state go on.
    let add = server
        .handle(json("Add", "{\"a\":1,\"b\":2}", Some(&forged)))
        .await;
    assert_eq!(body(&add), "{\"d\":3}");
}

#[tokio::test]
async fn the_generated_client_keeps_its_session_and_hands_it_over() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(ScriptServiceServer::new(ScriptEcho).serve(listener));
    let client = ScriptServiceClient::new(&base).with_binding(Binding::Json);
    assert_eq!(client.session_id(), None);
    let visit = |item: &str| Visit {
        item: Some(item.to_owned()),
    };
    assert_eq!(client.visit(&visit("a")).await.unwrap().result, 1);
    let id = client.session_id().expect("the issued id");
    // Every binding, one session: the cookie goes with each call.
    for (n, binding) in [
        Binding::Soap11,
        Binding::Soap12,
        Binding::HttpGet,
        Binding::HttpPost,
    ]
    .into_iter()
    .enumerate()
    {
        let count = client
            .over(binding)
            .visit(&visit(&n.to_string()))
            .await
            .unwrap();
        assert_eq!(count.result, n as i32 + 2, "{binding:?}");
    }
    assert_eq!(client.session_id().as_deref(), Some(id.as_str()));
    // Handed over, the session goes on in another client.
    let other = ScriptServiceClient::new(&base).with_session_id(Some(id.clone()));
    let items = other.contents(&Contents {}).await.unwrap().result.unwrap();
    assert_eq!(items, ["a", "0", "1", "2", "3"].map(|s| Some(s.to_owned())));
    // A client in no session begins its own.
    let fresh = client.clone().with_session_id(None);
    assert_eq!(fresh.visit(&visit("z")).await.unwrap().result, 1);
    assert_ne!(fresh.session_id(), Some(id));
}
