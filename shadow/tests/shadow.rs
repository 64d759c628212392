//! The shadow in front of generated Greeter servers: the client gets the primary's answers,
//! the candidate's seeded bug is one class per binding, what the primary and the secondary
//! differ in is noise, a slow or absent candidate costs the client nothing, and recorded
//! traffic (its secrets redacted) replays as a regression suite.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use greeter::runtime::deps::{reqwest, tokio};
use greeter::*;
use rmm_shadow::redact::{Secrets, REDACTED};
use rmm_shadow::replay::ReplayConfig;
use rmm_shadow::report::Report;
use rmm_shadow::rules::Rules;
use rmm_shadow::Config;

/// A Greeter whose greeting carries a serial number of its own: two instances differ there,
/// as two legacy hosts differ in the ids and times they make.
#[derive(Default)]
struct Greets {
    serial: AtomicU64,
    /// The seeded bug: a sum of 42 answered as 43.
    buggy: bool,
    /// Time taken by each Add.
    slow: Option<Duration>,
}

impl Greeter for Greets {
    async fn greet(&self, request: Greet) -> Result<GreetResponse, Fault> {
        let serial = self.serial.fetch_add(1, Ordering::Relaxed);
        let name = request.name.unwrap_or_default();
        Ok(GreetResponse {
            result: Some(format!(
                "hello, {name} (#{serial:x}{:x})",
                self as *const _ as usize % 4093
            )),
        })
    }

    async fn add(&self, request: Add) -> Result<AddResponse, Fault> {
        if let Some(slow) = self.slow {
            tokio::time::sleep(slow).await;
        }
        let sum = request
            .a
            .checked_add(request.b)
            .ok_or_else(|| Fault::client("the sum does not fit an int"))?;
        Ok(AddResponse {
            result: if self.buggy && sum == 42 { 43 } else { sum },
        })
    }
}

async fn start(greets: Greets) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(GreeterServer::new(greets).serve(listener));
    base
}

/// The shadow on a port of its own, and what stops it.
async fn shadow(
    config: Config,
) -> (
    String,
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<std::io::Result<Report>>,
) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(rmm_shadow::run(config, listener, async {
        let _ = stopped.await;
    }));
    (base, stop, running)
}

fn report_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("rmm-shadow-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Answers past 64 KiB are compared off the shadow's workers (on tokio's blocking pool): they
/// are compared all the same, and each difference and noise found.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn large_answers_are_compared_like_small_ones() {
    let primary = start(Greets::default()).await;
    let secondary = start(Greets::default()).await;
    let candidate = start(Greets::default()).await;
    let dir = report_dir("large");
    let mut config = Config::new(
        primary.parse().unwrap(),
        candidate.parse().unwrap(),
        dir.clone(),
    );
    let (base, stop, running) = shadow(config.clone()).await;
    config.secondary = Some(secondary.parse().unwrap());
    config.report = report_dir("large-with-secondary");
    let (with_secondary, stop_too, running_too) = shadow(config).await;
    for base in [&base, &with_secondary] {
        let client = GreeterClient::new(base);
        for size in [10, 100_000, 1_000_000] {
            let name = "x".repeat(size);
            let greeting = client
                .greet(&Greet {
                    name: Some(name.clone()),
                })
                .await
                .unwrap();
            assert!(greeting
                .result
                .unwrap()
                .starts_with(&format!("hello, {name} (#")));
        }
    }
    stop.send(()).unwrap();
    stop_too.send(()).unwrap();
    for (running, noise) in [(running, false), (running_too, true)] {
        let report = running.await.unwrap().unwrap();
        let greet = report
            .rows
            .iter()
            .find(|r| r.operation == "Greet" && r.binding == "soap11")
            .unwrap();
        // Each greeting's serial differs: a difference without the secondary, noise with it.
        let (different, quiet) = if noise { (0, 3) } else { (3, 0) };
        assert_eq!(
            (greet.different, greet.noise),
            (different, quiet),
            "{greet:#?}"
        );
        assert_eq!(report.classes.len(), 1, "{:#?}", report.classes);
        assert_eq!(report.classes[0].count, 3);
        assert_eq!(report.classes[0].noise, noise);
    }
}

/// The raw SOAP 1.1 request of Add, as a client sends it.
fn soap11_add(base: &str, a: i32, b: i32) -> reqwest::Request {
    let body = format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope \
         xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\"><soap:Body>\
         <Add xmlns=\"http://rmm.example.com/greeter\"><a>{a}</a><b>{b}</b></Add>\
         </soap:Body></soap:Envelope>"
    );
    reqwest::Client::new()
        .post(format!("{base}/api/Greeter.asmx"))
        .header("content-type", "text/xml; charset=utf-8")
        .header("soapaction", "\"http://rmm.example.com/greeter/Add\"")
        .body(body)
        .build()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_seeded_bug_is_one_class_per_binding_and_the_serials_are_noise() {
    let primary = start(Greets::default()).await;
    let secondary = start(Greets::default()).await;
    let candidate = start(Greets {
        buggy: true,
        ..Greets::default()
    })
    .await;
    let dir = report_dir("bug");
    let mut config = Config::new(
        primary.parse().unwrap(),
        candidate.parse().unwrap(),
        dir.clone(),
    );
    config.secondary = Some(secondary.parse().unwrap());
    let (base, stop, running) = shadow(config).await;

    // Through the shadow, the client gets the primary's bytes.
    let http = reqwest::Client::new();
    for (a, b) in [(40, 2), (1, 2)] {
        let direct = http.execute(soap11_add(&primary, a, b)).await.unwrap();
        let (status, content_type) = (direct.status(), direct.headers()["content-type"].clone());
        let direct = direct.bytes().await.unwrap();
        let shadowed = http.execute(soap11_add(&base, a, b)).await.unwrap();
        assert_eq!(shadowed.status(), status);
        assert_eq!(shadowed.headers()["content-type"], content_type);
        assert_eq!(shadowed.bytes().await.unwrap(), direct);
    }
    let client = GreeterClient::new(&base);
    for binding in Binding::ALL {
        let client = client.over(binding);
        for (a, b) in [(40, 2), (20, 22), (1, 2), (i32::MAX, 1)] {
            let answer = client.add(&Add { a, b }).await;
            match a.checked_add(b) {
                // The primary's sum, never the candidate's 43.
                Some(sum) => assert_eq!(answer.unwrap().result, sum, "{binding}"),
                None => assert!(answer.is_err(), "{binding}"),
            }
        }
        for name in ["Ann", "Bob"] {
            let greeting = client
                .greet(&Greet {
                    name: Some(name.into()),
                })
                .await
                .unwrap();
            assert!(greeting
                .result
                .unwrap()
                .starts_with(&format!("hello, {name} (#")));
        }
    }
    // Mirroring is off the client's path; stopping waits for what is queued or in flight.
    let json = dir.join("report.json");
    stop.send(()).unwrap();
    let report = running.await.unwrap().unwrap();

    assert_eq!(report.requests, 2 + 4 * 6);
    assert_eq!(report.dropped, 0);
    let row = |operation: &str, binding: &str| {
        report
            .rows
            .iter()
            .find(|r| r.operation == operation && r.binding == binding)
            .unwrap_or_else(|| panic!("no row {operation} {binding}: {:#?}", report.rows))
    };
    for binding in ["soap11", "soap12", "get", "post"] {
        let add = row("Add", binding);
        let soap11_extra = if binding == "soap11" { 2 } else { 0 };
        assert_eq!(
            (
                add.identical,
                add.noise,
                add.different,
                add.candidate_failed
            ),
            (2 + soap11_extra / 2, 0, 2 + soap11_extra / 2, 0),
            "Add over {binding}"
        );
        let greet = row("Greet", binding);
        assert_eq!(
            (greet.identical, greet.noise, greet.different),
            (0, 2, 0),
            "Greet over {binding}"
        );
    }
    let real: Vec<_> = report.classes.iter().filter(|c| !c.noise).collect();
    assert_eq!(real.len(), 4, "{real:#?}");
    for class in &real {
        assert_eq!(class.operation, "Add");
        assert_eq!(
            (
                class.example.primary_value.as_str(),
                class.example.candidate_value.as_str()
            ),
            ("42", "43"),
            "{class:#?}"
        );
    }
    let soap11 = real.iter().find(|c| c.binding == "soap11").unwrap();
    assert_eq!(soap11.field, "Envelope/Body/AddResponse/AddResult");
    assert_eq!(soap11.count, 3);
    let noise: Vec<_> = report.classes.iter().filter(|c| c.noise).collect();
    assert!(noise.iter().all(|c| c.operation == "Greet"), "{noise:#?}");
    assert_eq!(noise.len(), 4, "{noise:#?}");

    // Both files, as CI and people read them.
    let written: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(written["operations"].as_array().unwrap().len(), 8);
    assert_eq!(written["classes"][0]["operation"], "Add");
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(html.contains("Differences (4 classes)"), "{html}");
    // In the side-by-side diff, the line of the sum, the differing digit highlighted.
    assert!(
        html.contains(
            "<td class=\"del\">&lt;AddResult&gt;4<em>2</em>&lt;/AddResult&gt;</td>\
                       <td class=\"ins\">&lt;AddResult&gt;4<em>3</em>&lt;/AddResult&gt;</td>"
        ),
        "{html}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_or_absent_candidate_costs_the_client_nothing() {
    let primary = start(Greets::default()).await;
    let slow = start(Greets {
        slow: Some(Duration::from_millis(300)),
        ..Greets::default()
    })
    .await;
    // A port bound and never listened on: the kernel refuses every connection to it. Held
    // for the whole test, so no other socket of this run takes it (once, the shadow's own
    // listener did, and mirrored its requests to itself).
    let refusing = tokio::net::TcpSocket::new_v4().unwrap();
    refusing.bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let absent = format!("http://{}", refusing.local_addr().unwrap());
    for (candidate, name) in [(slow, "slow"), (absent, "absent")] {
        let dir = report_dir(name);
        let mut config = Config::new(
            primary.parse().unwrap(),
            candidate.parse().unwrap(),
            dir.clone(),
        );
        config.queue = 1;
        config.concurrency = 1;
        config.mirror_timeout = Duration::from_millis(200);
        let (base, stop, running) = shadow(config).await;
        let client = GreeterClient::new(&base);
        for n in 0..20 {
            assert_eq!(client.add(&Add { a: n, b: 1 }).await.unwrap().result, n + 1);
        }
        stop.send(()).unwrap();
        let report = running.await.unwrap().unwrap();
        assert_eq!(report.requests, 20, "{name}");
        let add = &report.rows[0];
        let compared = add.identical + add.noise + add.different;
        assert_eq!(compared, 0, "{name}: the candidate never answered in time");
        // Each request was either mirrored (and failed) or not queued.
        assert_eq!(
            add.candidate_failed + report.dropped,
            20,
            "{name}: {report:#?}"
        );
        if name == "slow" {
            assert!(report.dropped > 0, "a queue of one overflows: {report:#?}");
            assert!(add
                .candidate_failure
                .as_deref()
                .unwrap()
                .contains("no answer within"));
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn recorded_traffic_replays_as_a_regression_suite() {
    let primary = start(Greets::default()).await;
    let buggy = start(Greets {
        buggy: true,
        ..Greets::default()
    })
    .await;
    let dir = report_dir("record");
    let recorded = dir.join("recorded");
    let mut config = Config::new(
        primary.parse().unwrap(),
        primary.parse().unwrap(),
        dir.join("shadow"),
    );
    config.record = Some(recorded.clone());
    config.secrets = Secrets {
        names: vec!["name".into()],
        headers: Vec::new(),
    };
    let (base, stop, running) = shadow(config).await;
    let client = GreeterClient::new(&base);
    for binding in Binding::ALL {
        let client = client.over(binding);
        for (a, b) in [(40, 2), (1, 2)] {
            assert_eq!(client.add(&Add { a, b }).await.unwrap().result, a + b);
        }
        let greeting = client
            .greet(&Greet {
                name: Some("Ann Secret".into()),
            })
            .await
            .unwrap();
        assert!(greeting.result.unwrap().contains("Ann Secret"));
    }
    stop.send(()).unwrap();
    let report = running.await.unwrap().unwrap();
    assert_eq!((report.requests, report.not_recorded), (12, 0));

    // One file an exchange, in the order they came, the name parameter redacted.
    let captures = rmm_shadow::capture::read_dir(&recorded).unwrap();
    let names: Vec<&str> = captures.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names[..3],
        [
            "000000-soap11-Add",
            "000001-soap11-Add",
            "000002-soap11-Greet"
        ]
    );
    assert_eq!(names.len(), 12);
    for capture in &captures {
        let request = String::from_utf8_lossy(&capture.request);
        assert!(!request.contains("Ann"), "{request}");
        assert!(!request.contains("Secret"), "{request}");
        if capture.name.ends_with("Greet") {
            assert!(request.contains(REDACTED), "{request}");
        }
    }

    // Replayed against the primary: what was recorded comes back, but for the greetings'
    // serial numbers and names (a redacted name is greeted as such), which a rule ignores.
    let replay = |against: &str| ReplayConfig {
        against: against.parse().unwrap(),
        source: recorded.display().to_string(),
        rules: Rules::parse("Greet *", "rules").unwrap(),
        concurrency: 4,
        timeout: Duration::from_secs(5),
        explain: None,
        typing: Default::default(),
    };
    let same = rmm_shadow::replay::replay(captures.clone(), replay(&primary))
        .await
        .unwrap();
    assert_eq!(same.requests, 12);
    for row in &same.rows {
        let expected = if row.operation == "Add" {
            (2, 0, 0)
        } else {
            (0, 1, 0)
        };
        assert_eq!(
            (row.identical, row.noise, row.different),
            expected,
            "{row:#?}"
        );
    }
    // Against the buggy one: the sum of 42 is a class on each binding.
    let caught = rmm_shadow::replay::replay(captures, replay(&buggy))
        .await
        .unwrap();
    assert_eq!(caught.different(), 4);
    let real: Vec<_> = caught.classes.iter().filter(|c| !c.noise).collect();
    assert_eq!(real.len(), 4, "{real:#?}");
    assert!(real.iter().all(|c| c.operation == "Add"
        && c.example.primary_value == "42"
        && c.example.candidate_value == "43"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_difference_explained_on_purpose_is_counted_apart() {
    let primary = start(Greets::default()).await;
    let candidate = start(Greets {
        buggy: true,
        ..Greets::default()
    })
    .await;
    let dir = report_dir("explain");
    let mut config = Config::new(
        primary.parse().unwrap(),
        candidate.parse().unwrap(),
        dir.clone(),
    );
    // Only the SOAP 1.1 answers are explained; the others stay differences.
    config.explain = Some(std::sync::Arc::new(|request, _, _| {
        let soap11 = request
            .headers()
            .get("content-type")
            .is_some_and(|t| t.as_bytes().starts_with(b"text/xml"));
        soap11.then(|| "the candidate's sums of 42 are 43 on purpose".to_owned())
    }));
    let (base, stop, running) = shadow(config).await;
    let client = GreeterClient::new(&base);
    for binding in [Binding::Soap11, Binding::Soap12] {
        for (a, b) in [(40, 2), (1, 2)] {
            client.over(binding).add(&Add { a, b }).await.unwrap();
        }
    }
    stop.send(()).unwrap();
    let report = running.await.unwrap().unwrap();
    let counts = |binding: &str| {
        let row = report.rows.iter().find(|r| r.binding == binding).unwrap();
        (row.identical, row.deliberate, row.different)
    };
    assert_eq!(counts("soap11"), (1, 1, 0));
    assert_eq!(counts("soap12"), (1, 0, 1));
    let why: Vec<Option<&str>> = report
        .classes
        .iter()
        .map(|c| c.deliberate.as_deref())
        .collect();
    // The difference first, the deliberate one after it.
    assert_eq!(
        why,
        [None, Some("the candidate's sums of 42 are 43 on purpose")]
    );
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(html.contains("Deliberate (1 classes)"), "{html}");
    let _ = std::fs::remove_dir_all(&dir);
}
