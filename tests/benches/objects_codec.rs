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
//! writes both sets of figures side by side, with the ratio and a floor (see `run_floor`), to
//! `target/bench/objects_codec.md` (also printed) and as a chart to
//! `target/bench/objects_codec.svg` (the guide's performance chapter shows it).
//!
//! The two sides of the ratio run interleaved in this process: `RMM_BENCH_GSOAP_ROUNDS` (9)
//! rounds, each rmm's four steps timed as the driver times its own, then the driver, each
//! step a warm-up run and a timed run of `RMM_BENCH_GSOAP_ITERATIONS` (2000). A ratio is the
//! median of the rounds' ratios: a machine that slows down for a while slows both sides of
//! the rounds it spans, and the ratio holds from machine to machine. Each step is checked once before it is timed: a
//! benchmark of a failing path measures nothing.

use std::collections::HashMap;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Instant, SystemTime};

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

/// Runs gSOAP's driver on rmm's bytes, `runs` runs of `iterations` (after a warm-up run): its
/// ns per step (the median over the runs of each run's mean), checked to have decoded the
/// order.
fn run_gsoap(w: &Wire, iterations: u32, runs: u32) -> HashMap<String, f64> {
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
    let out = Command::new(&driver)
        .arg(&request)
        .arg(&response)
        .arg(iterations.to_string())
        .arg(runs.to_string())
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

/// rmm's four steps timed as gSOAP's driver times its own: a warm-up run, then one run of
/// `iterations`; the mean ns per iteration of each step.
fn run_rmm(w: &Wire, iterations: u32) -> HashMap<String, f64> {
    let request = EchoOrder {
        order: Some(w.order.clone()),
    };
    let response = EchoOrderResponse {
        result: Some(w.order.clone()),
    };
    let credentials = Credentials::default();
    let time = |step: &dyn Fn()| -> f64 {
        for _ in 0..iterations {
            step();
        }
        let started = Instant::now();
        for _ in 0..iterations {
            step();
        }
        started.elapsed().as_nanos() as f64 / f64::from(iterations)
    };
    let mut figures = HashMap::new();
    figures.insert(
        "decode_request".to_owned(),
        time(&|| {
            black_box(EchoOrder::decode_request(
                black_box(&w.request),
                Binding::Soap11,
            ))
            .ok();
        }),
    );
    figures.insert(
        "decode_response".to_owned(),
        time(&|| {
            black_box(EchoOrderResponse::decode_response(
                black_box(&w.response),
                Binding::Soap11,
            ))
            .ok();
        }),
    );
    figures.insert(
        "encode_request".to_owned(),
        time(&|| {
            black_box(black_box(&request).encode_request(black_box(&credentials), Binding::Soap11))
                .ok();
        }),
    );
    figures.insert(
        "encode_response".to_owned(),
        time(&|| {
            black_box(black_box(&response).encode_response(Binding::Soap11)).ok();
        }),
    );
    figures
}

/// The floor of each step on the same bytes, timed as `run_rmm` times rmm's: reading is
/// quick-xml's reader taking every token of the message and nothing else (no name matched, no
/// value parsed, nothing allocated), the least an XML decoder does; writing is copying the
/// message's bytes into a new buffer, the least an encoder does.
fn run_floor(w: &Wire, iterations: u32) -> HashMap<String, f64> {
    let time = |step: &dyn Fn()| -> f64 {
        for _ in 0..iterations {
            step();
        }
        let started = Instant::now();
        for _ in 0..iterations {
            step();
        }
        started.elapsed().as_nanos() as f64 / f64::from(iterations)
    };
    let tokens = |body: &[u8]| {
        let mut reader = quick_xml::Reader::from_reader(body);
        let mut count = 0usize;
        loop {
            match reader.read_event() {
                Ok(quick_xml::events::Event::Eof) | Err(_) => break,
                Ok(event) => {
                    black_box(event);
                    count += 1;
                }
            }
        }
        count
    };
    let copy = |body: &[u8]| {
        let mut out = Vec::with_capacity(body.len());
        out.extend_from_slice(body);
        out
    };
    let (request, response) = (w.request.body(), w.response.body());
    let mut figures = HashMap::new();
    figures.insert(
        "decode_request".to_owned(),
        time(&|| {
            black_box(tokens(black_box(request)));
        }),
    );
    figures.insert(
        "decode_response".to_owned(),
        time(&|| {
            black_box(tokens(black_box(response)));
        }),
    );
    figures.insert(
        "encode_request".to_owned(),
        time(&|| {
            black_box(copy(black_box(request)));
        }),
    );
    figures.insert(
        "encode_response".to_owned(),
        time(&|| {
            black_box(copy(black_box(response)));
        }),
    );
    figures
}

/// One step's figures over the interleaved rounds: each side's ns per round (and the
/// floor's), and the ratio (gSOAP / rmm) of each round.
#[derive(Default)]
struct Rounds {
    rmm: Vec<f64>,
    gsoap: Vec<f64>,
    floor: Vec<f64>,
    ratio: Vec<f64>,
}

fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    }
}

/// `rounds` rounds, each rmm's steps, the floor's, then gSOAP's driver on the same bytes, one after the
/// other in this process, so that both sides of a round's ratio ran on the machine as it was
/// then.
fn interleaved(w: &Wire, rounds: u32, iterations: u32) -> HashMap<&'static str, Rounds> {
    let mut steps: HashMap<&'static str, Rounds> = HashMap::new();
    for round in 0..rounds {
        let rmm = run_rmm(w, iterations);
        let floor = run_floor(w, iterations);
        let gsoap = run_gsoap(w, iterations, 1);
        for step in STEPS {
            let (r, g) = (rmm[step], gsoap[step]);
            let figures = steps.entry(step).or_default();
            figures.rmm.push(r);
            figures.gsoap.push(g);
            figures.floor.push(floor[step]);
            figures.ratio.push(g / r);
        }
        eprintln!("round {}/{rounds} done", round + 1);
    }
    steps
}

fn report(w: &Wire, rmm: &HashMap<String, f64>, gsoap: &HashMap<&'static str, Rounds>) -> String {
    let fmt = |v: Option<&f64>| v.map_or("—".to_owned(), |ns| format!("{ns:.0}"));
    let mut md = String::new();
    md.push_str(&format!(
        "# EchoOrder, {LINES} lines, SOAP 1.1: rmm against gSOAP {}\n\n",
        gsoap_version()
    ));
    let rounds = gsoap.values().next().map_or(0, |r| r.ratio.len());
    md.push_str(&format!(
        "Request envelope {} bytes, response envelope {} bytes (the same bytes for both). \
         {rounds} rounds, interleaved in one process: in each, rmm's four steps, the floor's, \
         then gSOAP's driver (C, -O2, SOAP_ENC_PLAIN | SOAP_XML_TREE | SOAP_C_UTFSTRING, memory input and \
         output), each step a warm-up run then one timed run of the same iterations. The \
         figures are the medians over the rounds; the ratio is the median of the rounds' \
         ratios, with their range. rmm's criterion median of the same run is beside them.\n\n",
        w.request.body().len(),
        w.response.body().len()
    ));
    md.push_str(
        "| step | rmm ns/op | gSOAP ns/op | gSOAP / rmm | range over rounds | floor ns/op | rmm, criterion |\n",
    );
    md.push_str("|---|---:|---:|---:|---:|---:|---:|\n");
    for step in STEPS {
        let Some(r) = gsoap.get(step) else {
            continue;
        };
        let (low, high) = r
            .ratio
            .iter()
            .fold((f64::MAX, 0f64), |(lo, hi), &x| (lo.min(x), hi.max(x)));
        md.push_str(&format!(
            "| {step} | {:.0} | {:.0} | {:.2}× | {low:.2}–{high:.2}× | {:.0} | {} |\n",
            median(&r.rmm),
            median(&r.gsoap),
            median(&r.ratio),
            median(&r.floor),
            fmt(rmm.get(step))
        ));
    }
    md.push_str(
        "\nThe floor reads every token of the same message with quick-xml's reader and nothing \
         else (reading), or copies its bytes into a new buffer (writing): the least a decoder \
         or an encoder does.\n",
    );
    md
}

/// The rounds' medians as a bar chart (SVG): per step, rmm, gSOAP and the floor in µs on one
/// linear scale, with the ratio.
fn chart(w: &Wire, gsoap: &HashMap<&'static str, Rounds>) -> String {
    const WIDTH: f64 = 760.0;
    const LABEL: f64 = 150.0;
    const BAR: f64 = 16.0;
    const GAP: f64 = 18.0;
    let bars = [
        ("rmm", "#2b6cb0"),
        ("gSOAP 2.8", "#c05621"),
        (
            "floor: quick-xml's tokens (read), a copy of the bytes (write)",
            "#718096",
        ),
    ];
    let most = STEPS
        .iter()
        .filter_map(|s| gsoap.get(s))
        .map(|r| median(&r.gsoap).max(median(&r.rmm)))
        .fold(1.0, f64::max);
    let scale = (WIDTH - LABEL - 150.0) / most;
    let group = BAR * bars.len() as f64 + GAP;
    let height = 60.0 + group * STEPS.len() as f64;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{height}\" \
         font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">EchoOrder, {LINES} lines, \
         SOAP 1.1 ({} / {} bytes): µs a message, medians over rounds</text>\n",
        w.request.body().len(),
        w.response.body().len()
    );
    for (i, (name, color)) in bars.iter().enumerate() {
        let x = 10.0 + 120.0 * i as f64;
        svg.push_str(&format!(
            "<rect x=\"{x}\" y=\"32\" width=\"12\" height=\"12\" fill=\"{color}\"/>\
             <text x=\"{}\" y=\"42\">{name}</text>\n",
            x + 16.0
        ));
    }
    for (k, step) in STEPS.iter().enumerate() {
        let Some(r) = gsoap.get(step) else {
            continue;
        };
        let top = 60.0 + group * k as f64;
        svg.push_str(&format!(
            "<text x=\"10\" y=\"{}\">{step}</text>\n",
            top + BAR * 1.5 + 4.0
        ));
        let values = [median(&r.rmm), median(&r.gsoap), median(&r.floor)];
        for (i, ((_, color), ns)) in bars.iter().zip(values).enumerate() {
            let y = top + BAR * i as f64;
            let width = (ns * scale).max(1.0);
            let note = if i == 0 {
                format!(" (gSOAP takes {:.1}×)", median(&r.ratio))
            } else {
                String::new()
            };
            svg.push_str(&format!(
                "<rect x=\"{LABEL}\" y=\"{y}\" width=\"{width:.1}\" height=\"{}\" fill=\"{color}\"/>\
                 <text x=\"{:.1}\" y=\"{}\">{:.1} µs{note}</text>\n",
                BAR - 3.0,
                LABEL + width + 6.0,
                y + BAR - 5.0,
                ns / 1000.0
            ));
        }
    }
    svg.push_str("</svg>\n");
    svg
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
        let number = |name: &str, default: u32| -> u32 {
            std::env::var(name)
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(default)
        };
        let gsoap = interleaved(
            &w,
            number("RMM_BENCH_GSOAP_ROUNDS", 9),
            number("RMM_BENCH_GSOAP_ITERATIONS", 2000),
        );
        let rmm: HashMap<String, f64> = STEPS
            .iter()
            .filter_map(|s| criterion_median(s, since).map(|ns| (s.to_string(), ns)))
            .collect();
        let md = report(&w, &rmm, &gsoap);
        let path: &Path = &rmm_tests::root().join("target/bench/objects_codec.md");
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("creates target/bench");
        std::fs::write(path, &md).expect("writes objects_codec.md");
        let svg = path.with_extension("svg");
        std::fs::write(&svg, chart(&w, &gsoap)).expect("writes objects_codec.svg");
        println!(
            "\n{md}\nwritten to {} and, as a chart, {}",
            path.display(),
            svg.display()
        );
    }
}
