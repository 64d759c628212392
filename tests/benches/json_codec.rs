//! The JSON face's codec beside a floor: `EchoPoints` of the script service (`rmm-script`)
//! over JSON with 100 points (two ints, a string with a few escapes, a date), through rmm's
//! generated code (the server reading the call, the server writing the answer, the client
//! reading it), and the same message through serde_json and serde's derive on plain structs
//! of the same shape: a floor, not a rival (serde_json writes no `__type`, no `\/Date(ms)\/`
//! and none of .NET's escapes, and reads strict JSON only).
//!
//! `cargo bench -p rmm-tests --bench json_codec` runs both in one process, interleaved by
//! criterion's groups, so the ratio holds from machine to machine.

use std::hint::black_box;

use criterion::Criterion;
use rmm_script::runtime::deps::bytes::Bytes;
use rmm_script::runtime::deps::chrono::DateTime as Chrono;
use rmm_script::runtime::deps::http::{Request, Response};
use rmm_script::{Binding, DateTime, EchoPoints, EchoPointsResponse, Point};
use serde::{Deserialize, Serialize};

/// The message's points.
const POINTS: usize = 100;

fn points() -> Vec<Option<Point>> {
    (0..POINTS as i32)
        .map(|i| {
            let when = Chrono::from_timestamp_millis(1_700_000_000_000 + i64::from(i) * 60_000)
                .expect("a time")
                .naive_utc();
            Some(Point {
                x: i,
                y: -i * 7,
                name: Some(format!("point \"{i}\" <{}>", i * 3)),
                when: DateTime::utc(when),
            })
        })
        .collect()
}

/// The floor's point: the same fields, serde's derive.
#[derive(Serialize, Deserialize)]
#[allow(non_snake_case)]
struct FloorPoint {
    X: i32,
    Y: i32,
    Name: Option<String>,
    When: String,
}

#[derive(Serialize, Deserialize)]
struct FloorCall {
    value: Vec<Option<FloorPoint>>,
}

#[derive(Serialize, Deserialize)]
struct FloorAnswer {
    d: Vec<Option<FloorPoint>>,
}

fn floor_points(points: &[Option<Point>]) -> Vec<Option<FloorPoint>> {
    points
        .iter()
        .map(|p| {
            p.as_ref().map(|p| FloorPoint {
                X: p.x,
                Y: p.y,
                Name: p.name.clone(),
                When: format!(
                    "/Date({})/",
                    rmm_script::runtime::json::date_milliseconds(&p.when)
                ),
            })
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let points = points();
    let call = EchoPoints {
        value: Some(points.clone()),
    };
    // EchoPoints is SOAP-only in the WSDL, and offered over JSON: the client's request.
    let request: Request<Bytes> = call
        .encode_request(&rmm_script::Credentials::default(), Binding::Json)
        .expect("encodes");
    let answer = EchoPointsResponse {
        result: Some(points.clone()),
    };
    let response: Response<Bytes> = answer.encode_response(Binding::Json).expect("encodes");
    // Each path checked once before it is timed.
    let (_, decoded) = EchoPoints::decode_request(&request, Binding::Json).expect("decodes");
    assert_eq!(decoded, call);
    let read = EchoPointsResponse::decode_response(&response, Binding::Json).expect("decodes");
    assert_eq!(read, answer);

    let floor_call = serde_json::to_vec(&FloorCall {
        value: floor_points(&points),
    })
    .expect("serializes");
    let floor_answer = FloorAnswer {
        d: floor_points(&points),
    };
    let floor_bytes = serde_json::to_vec(&floor_answer).expect("serializes");
    println!(
        "message sizes: rmm call {} B, answer {} B; serde_json call {} B, answer {} B",
        request.body().len(),
        response.body().len(),
        floor_call.len(),
        floor_bytes.len()
    );

    let mut group = c.benchmark_group("EchoPoints_100_json");
    group.bench_function("rmm/decode_request", |b| {
        b.iter(|| EchoPoints::decode_request(black_box(&request), Binding::Json).expect("decodes"))
    });
    group.bench_function("serde_json/decode_request", |b| {
        b.iter(|| serde_json::from_slice::<FloorCall>(black_box(&floor_call)).expect("decodes"))
    });
    group.bench_function("rmm/encode_response", |b| {
        b.iter(|| {
            black_box(&answer)
                .encode_response(Binding::Json)
                .expect("encodes")
        })
    });
    group.bench_function("serde_json/encode_response", |b| {
        b.iter(|| serde_json::to_vec(black_box(&floor_answer)).expect("encodes"))
    });
    group.bench_function("rmm/decode_response", |b| {
        b.iter(|| {
            EchoPointsResponse::decode_response(black_box(&response), Binding::Json)
                .expect("decodes")
        })
    });
    group.bench_function("serde_json/decode_response", |b| {
        b.iter(|| serde_json::from_slice::<FloorAnswer>(black_box(&floor_bytes)).expect("decodes"))
    });
    group.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
}
