//! `rmm shadow` and `rmm replay` as a user runs them: the shadow in front of two Greeter
//! servers (the build-rs test crate's, in this process), stopped by SIGTERM, its report and
//! its recording; the recording replayed against each server.

use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use greeter::runtime::deps::tokio;
use greeter::*;

/// A Greeter; `off_by_one` answers every sum one too many.
struct Greets {
    off_by_one: bool,
}

impl Greeter for Greets {
    async fn greet(&self, request: Greet) -> Result<GreetResponse, Fault> {
        Ok(GreetResponse {
            result: request.name,
        })
    }

    async fn add(&self, request: Add) -> Result<AddResponse, Fault> {
        Ok(AddResponse {
            result: request.a + request.b + i32::from(self.off_by_one),
        })
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("cli")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// A port nothing listens on now.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn report(dir: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(dir.join("report.json")).unwrap()).unwrap()
}

fn sum(report: &serde_json::Value, field: &str) -> u64 {
    report["operations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row[field].as_u64().unwrap())
        .sum()
}

#[test]
fn shadow_records_and_reports_and_replay_finds_the_bug() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let start = |off_by_one| {
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let base = format!("http://{}", listener.local_addr().unwrap());
            tokio::spawn(GreeterServer::new(Greets { off_by_one }).serve(listener));
            base
        })
    };
    let (primary, candidate) = (start(false), start(true));
    let dir = scratch("shadow");
    let listen = format!("127.0.0.1:{}", free_port());
    let shadow = Command::new(env!("CARGO_BIN_EXE_rmm"))
        .args(["shadow", "--listen", &listen, "--primary", &primary])
        .args(["--candidate", &candidate, "--report", "report"])
        .args(["--record", "recorded", "--secret", "name"])
        .current_dir(&dir)
        .stderr(Stdio::piped())
        .spawn()
        .expect("rmm shadow starts");
    let mut up = false;
    for _ in 0..200 {
        if TcpStream::connect(&listen).is_ok() {
            up = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(25));
    }
    assert!(up, "rmm shadow listens on {listen}");

    let client = GreeterClient::new(format!("http://{listen}"));
    runtime.block_on(async {
        for binding in Binding::ALL {
            let client = client.over(binding);
            // The client gets the primary's sum, not the candidate's.
            assert_eq!(client.add(&Add { a: 2, b: 3 }).await.unwrap().result, 5);
            let name = Some("Ann".to_owned());
            let greeting = client.greet(&Greet { name: name.clone() }).await.unwrap();
            assert_eq!(greeting.result, name);
        }
    });

    // Stopped as a service manager stops it; by its PID.
    let killed = Command::new("kill")
        .args(["-TERM", &shadow.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let output = shadow.wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{said}");
    assert!(
        said.contains(
            "8 requests; the candidate's answers: 4 identical, 0 noise only, 4 different, 0 failed"
        ),
        "{said}"
    );
    let shadowed = report(&dir.join("report"));
    assert_eq!(sum(&shadowed, "different"), 4);
    assert_eq!(shadowed["classes"].as_array().unwrap().len(), 4);
    assert!(std::fs::read_to_string(dir.join("report/report.html"))
        .unwrap()
        .contains("Differences (4 classes)"));
    let recorded: Vec<PathBuf> = std::fs::read_dir(dir.join("recorded"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(recorded.len(), 8);
    for file in &recorded {
        // The request's name is redacted (the answer, which echoes it, is the service's).
        let text = std::fs::read_to_string(file).unwrap();
        let request = text.split("### ==== RESPONSE").next().unwrap();
        assert!(!request.contains("Ann"), "{}: {text}", file.display());
    }

    // The recording replayed: the primary answers as recorded but for the greetings (the
    // name was redacted, and is greeted so), which the rules ignore; the candidate does not.
    std::fs::write(dir.join("rules.txt"), "# redacted names\nGreet *\n").unwrap();
    let replay = |against: &str, report: &str| {
        Command::new(env!("CARGO_BIN_EXE_rmm"))
            .args([
                "replay",
                "recorded",
                "--against",
                against,
                "--report",
                report,
            ])
            .args(["--ignore", "rules.txt"])
            .current_dir(&dir)
            .output()
            .unwrap()
    };
    let same = replay(&primary, "same");
    assert_eq!(
        same.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&same.stderr)
    );
    let same = report(&dir.join("same"));
    assert_eq!(
        (
            sum(&same, "identical"),
            sum(&same, "noise"),
            sum(&same, "different")
        ),
        (4, 4, 0)
    );
    let caught = replay(&candidate, "caught");
    assert_eq!(
        caught.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&caught.stderr)
    );
    assert_eq!(sum(&report(&dir.join("caught")), "different"), 4);

    // The sums respelled (`+5`: the same int to a client). Replayed without the spec, each is
    // a difference of the result; with it (`--spec`), of bytes alone.
    std::fs::create_dir_all(dir.join("respelled")).unwrap();
    let mut respelled = 0;
    for capture in rmm_shadow::capture::read_dir(&dir.join("recorded")).unwrap() {
        let (request, mut response) = (
            capture.http_request().unwrap(),
            capture.http_response().unwrap(),
        );
        let body = String::from_utf8(response.body().to_vec()).unwrap();
        if !body.contains(">5<") {
            continue;
        }
        *response.body_mut() = body.replace(">5<", ">+5<").into();
        let changed =
            rmm_shadow::capture::RawCapture::from_exchange(&capture.name, "", &request, &response);
        let file = dir.join("respelled").join(format!("{}.txt", capture.name));
        std::fs::write(file, changed.to_file()).unwrap();
        respelled += 1;
    }
    assert_eq!(respelled, 4, "Add over the four bindings");
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/build-rs/rmm-spec.yaml");
    let fields = |name: &str, spec: Option<&Path>| -> Vec<String> {
        let mut command = Command::new(env!("CARGO_BIN_EXE_rmm"));
        command
            .args([
                "replay",
                "respelled",
                "--against",
                &primary,
                "--report",
                name,
            ])
            .current_dir(&dir);
        if let Some(spec) = spec {
            command.arg("--spec").arg(spec);
        }
        let output = command.output().unwrap();
        assert_eq!(
            output.status.code(),
            Some(1),
            "other bytes differ, typed or not: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let mut fields: Vec<String> = report(&dir.join(name))["classes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["field"].as_str().unwrap().to_owned())
            .collect();
        fields.sort();
        fields
    };
    assert_eq!(
        fields("untyped", None),
        [
            "Envelope/Body/AddResponse/AddResult",
            "Envelope/Body/AddResponse/AddResult",
            "int",
            "int"
        ]
    );
    assert_eq!(fields("typed", Some(&spec)), ["(bytes)"; 4]);
    // Nothing to replay is an error.
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    let empty = Command::new(env!("CARGO_BIN_EXE_rmm"))
        .args(["replay", "empty", "--against", &primary, "--report", "r"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(empty.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&empty.stderr).contains("no capture file"));
}
