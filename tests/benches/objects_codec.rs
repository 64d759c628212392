//! A class-heavy message through rmm's generated codec, beside gSOAP 2.8's generated from the
//! same WSDL: `EchoOrder` of the objects service (`rmm-objects`) over SOAP 1.1, with an order
//! of 100 lines (each an `OrderLine` of a string, an int and two decimals, one of them
//! sometimes nil) under the nested customer, address, string, int, enum and jagged arrays and
//! base64 of [`full_order`].
//!
//! `cargo bench -p rmm-tests --bench objects_codec` measures rmm's four steps: the client
//! encoding the request, the server decoding it, the server encoding the response, the client
//! decoding it. With `RMM_BENCH_GSOAP=1`, after
//! `bash tests/bench/gsoap/install.sh && bash tests/bench/gsoap/build.sh`, the same run also
//! runs gSOAP's driver (`tests/bench/gsoap/driver.c`) on the very bytes rmm's encoders wrote
//! (`target/bench/gsoap/request.xml`, `response.xml`), checks that it decoded the order, and
//! writes both sets of figures side by side, with the ratio, to
//! `target/bench/objects_codec.md` (also printed). `RMM_BENCH_GSOAP_ITERATIONS` and
//! `RMM_BENCH_GSOAP_RUNS` size the driver's loops (2000 and 7).
//!
//! rmm's figures in the table are criterion's medians of this run; gSOAP's are the median over
//! the runs of the mean of each run. Each step is checked once before it is timed: a
//! benchmark of a failing path measures nothing.

use std::collections::HashMap;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

use criterion::Criterion;
use rmm_objects::runtime::deps::bytes::Bytes;
use rmm_objects::runtime::deps::http::{Request, Response};
use rmm_objects::{Binding, Credentials, EchoOrder, EchoOrderResponse, Order};
use rmm_tests::objects_service::bench_order;

/// The criterion group; its benchmarks are `EchoOrder_100_lines/<step>`.
const GROUP: &str = "EchoOrder_100_lines";
/// The four steps, in the table's order.
const STEPS: [&str; 4] = [
    "decode_request",
    "decode_response",
    "encode_request",
    "encode_response",
];
/// The order's lines.
const LINES: usize = 100;

struct Wire {
    order: Order,
    request: Request<Bytes>,
    response: Response<Bytes>,
}

fn wire() -> Wire {
    let order = bench_order(LINES);
    let request = EchoOrder {
        order: Some(order.clone()),
    }
    .encode_request(&Credentials::default(), Binding::Soap11)
    .expect("encodes");
    let response = EchoOrderResponse {
        result: Some(order.clone()),
    }
    .encode_response(Binding::Soap11)
    .expect("encodes");

    // Each decoder once: it must give back the order.
    let (_, decoded) = EchoOrder::decode_request(&request, Binding::Soap11).expect("decodes");
    assert_eq!(decoded.order.as_ref(), Some(&order), "decode_request");
    let decoded = EchoOrderResponse::decode_response(&response, Binding::Soap11).expect("decodes");
    assert_eq!(decoded.result.as_ref(), Some(&order), "decode_response");
    Wire {
        order,
        request,
        response,
    }
}

fn bench(c: &mut Criterion, w: &Wire) {
    let mut g = c.benchmark_group(GROUP);
    let request = EchoOrder {
        order: Some(w.order.clone()),
    };
    let response = EchoOrderResponse {
        result: Some(w.order.clone()),
    };
    let credentials = Credentials::default();

    // Server: read the request.
    g.bench_function("decode_request", |b| {
        b.iter(|| EchoOrder::decode_request(black_box(&w.request), Binding::Soap11))
    });
    // Client: read the response.
    g.bench_function("decode_response", |b| {
        b.iter(|| EchoOrderResponse::decode_response(black_box(&w.response), Binding::Soap11))
    });
    // Client: write the request.
    g.bench_function("encode_request", |b| {
        b.iter(|| black_box(&request).encode_request(black_box(&credentials), Binding::Soap11))
    });
    // Server: write the response.
    g.bench_function("encode_response", |b| {
        b.iter(|| black_box(&response).encode_response(Binding::Soap11))
    });
    g.finish();
}

/// Where criterion writes its estimates, found as criterion finds it.
fn criterion_dir() -> PathBuf {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return PathBuf::from(home);
    }
    if let Some(target) = std::env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(target).join("criterion");
    }
    rmm_tests::root().join("target/criterion")
}

/// Criterion's median for one step, in ns, if this run measured it (written after `since`).
fn criterion_median(step: &str, since: SystemTime) -> Option<f64> {
    let path = criterion_dir()
        .join(GROUP)
        .join(step)
        .join("new/estimates.json");
    let modified = std::fs::metadata(&path).ok()?.modified().ok()?;
    if modified < since {
        return None;
    }
    let text = std::fs::read_to_string(&path).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    v["median"]["point_estimate"].as_f64()
}

/// The values the driver prints on its `check` lines, as rmm's order holds them.
fn expected_check(order: &Order) -> Vec<(String, String)> {
    let lines = order.lines.as_ref().expect("lines");
    let line1 = lines[1].as_ref().expect("line 1");
    let last = lines[LINES - 1].as_ref().expect("the last line");
    let customer = order.customer.as_ref().expect("a customer");
    let v = vec![
        ("id", order.id.to_string()),
        ("lines", lines.len().to_string()),
        ("line1.sku", line1.sku.clone().expect("a sku")),
        ("line1.quantity", line1.quantity.to_string()),
        ("line1.price", line1.price.to_string()),
        (
            "line1.discount",
            line1.discount.map_or("(nil)".into(), |d| d.to_string()),
        ),
        ("last.sku", last.sku.clone().expect("a sku")),
        ("last.quantity", last.quantity.to_string()),
        (
            "customer.address.zip",
            customer
                .address
                .as_ref()
                .expect("an address")
                .zip
                .to_string(),
        ),
        (
            "blob.size",
            order.blob.as_ref().map_or(0, Vec::len).to_string(),
        ),
        ("customer.name", customer.name.clone().expect("a name")),
    ];
    v.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
}

/// Checks one of the driver's `check <step> k=v ... customer.name=<name>` lines against the
/// order.
fn check_driver_line(line: &str, order: &Order) {
    let rest = line.splitn(3, ' ').nth(2).unwrap_or("");
    let (fields, name) = rest
        .split_once(" customer.name=")
        .unwrap_or_else(|| panic!("gSOAP's driver printed no customer: {line}"));
    let mut got: HashMap<&str, &str> = fields
        .split(' ')
        .filter_map(|kv| kv.split_once('='))
        .collect();
    got.insert("customer.name", name);
    for (k, want) in expected_check(order) {
        assert_eq!(
            got.get(k.as_str()).copied(),
            Some(want.as_str()),
            "gSOAP decoded {k} otherwise than rmm encoded it: {line}"
        );
    }
}

/// Runs gSOAP's driver on rmm's bytes: its ns per step, checked to have decoded the order.
fn run_gsoap(w: &Wire) -> HashMap<String, f64> {
    let dir = rmm_tests::root().join("target/bench/gsoap");
    let driver = dir.join("driver");
    assert!(
        driver.exists(),
        "RMM_BENCH_GSOAP=1 but {} is not built: bash tests/bench/gsoap/install.sh && bash \
         tests/bench/gsoap/build.sh",
        driver.display()
    );
    let request = dir.join("request.xml");
    let response = dir.join("response.xml");
    std::fs::write(&request, w.request.body()).expect("writes request.xml");
    std::fs::write(&response, w.response.body()).expect("writes response.xml");
    let iterations = std::env::var("RMM_BENCH_GSOAP_ITERATIONS").unwrap_or_else(|_| "2000".into());
    let runs = std::env::var("RMM_BENCH_GSOAP_RUNS").unwrap_or_else(|_| "7".into());
    eprintln!("gSOAP: {} {iterations} {runs}", driver.display());
    let out = Command::new(&driver)
        .arg(&request)
        .arg(&response)
        .arg(&iterations)
        .arg(&runs)
        .current_dir(&dir)
        .output()
        .expect("runs gSOAP's driver");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "gSOAP's driver failed ({}):\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let mut figures = HashMap::new();
    let mut checked = 0;
    for line in stdout.lines() {
        println!("gSOAP: {line}");
        if line.starts_with("check decode_") {
            check_driver_line(line, &w.order);
            checked += 1;
        } else if let Some((step, ns)) = line.split_once(' ') {
            if let Ok(ns) = ns.trim().parse::<f64>() {
                figures.insert(step.to_owned(), ns);
            }
        }
    }
    assert_eq!(checked, 2, "gSOAP's driver checked both decodes:\n{stdout}");
    figures
}

fn report(w: &Wire, rmm: &HashMap<String, f64>, gsoap: &HashMap<String, f64>) -> String {
    let fmt = |v: Option<&f64>| v.map_or("—".to_owned(), |ns| format!("{ns:.0}"));
    let mut md = String::new();
    md.push_str(&format!(
        "# EchoOrder, {LINES} lines, SOAP 1.1: rmm against gSOAP {}\n\n",
        gsoap_version()
    ));
    md.push_str(&format!(
        "Request envelope {} bytes, response envelope {} bytes (the same bytes for both).\n\
         rmm: criterion's median; gSOAP: median of the runs' means (C, -O2, SOAP_ENC_PLAIN | \
         SOAP_XML_TREE | SOAP_C_UTFSTRING, memory input and output).\n\n",
        w.request.body().len(),
        w.response.body().len()
    ));
    md.push_str("| operation | rmm ns/op | gSOAP ns/op | ratio (gSOAP / rmm) |\n");
    md.push_str("|---|---:|---:|---:|\n");
    for step in STEPS {
        let r = rmm.get(step);
        let g = gsoap.get(step);
        let ratio = match (r, g) {
            (Some(r), Some(g)) if *r > 0.0 => format!("{:.2}×", g / r),
            _ => "—".into(),
        };
        md.push_str(&format!("| {step} | {} | {} | {ratio} |\n", fmt(r), fmt(g)));
    }
    md
}

fn gsoap_version() -> String {
    Command::new("pkg-config")
        .args(["--modversion", "gsoap"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_else(|| "2.8".into())
}

fn main() {
    let w = wire();
    let since = SystemTime::now();
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c, &w);
    c.final_summary();

    if std::env::var_os("RMM_BENCH_GSOAP").is_some_and(|v| v == "1") {
        let gsoap = run_gsoap(&w);
        let rmm: HashMap<String, f64> = STEPS
            .iter()
            .filter_map(|s| criterion_median(s, since).map(|ns| (s.to_string(), ns)))
            .collect();
        let md = report(&w, &rmm, &gsoap);
        let path: &Path = &rmm_tests::root().join("target/bench/objects_codec.md");
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("creates target/bench");
        std::fs::write(path, &md).expect("writes objects_codec.md");
        println!("\n{md}\nwritten to {}", path.display());
    }
}
