//! Writes the fuzz targets' seeds, made from the recorded exchanges
//! (`tests/fixtures/asmx/*.txt`, and `tests/fixtures/objects/asmx/*.txt` for `objects`) and the specs in the repository, into `DIR/TARGET/`:
//!
//! ```sh
//! cargo run -p rmm-fuzz --example seeds -- DIR
//! ```
//!
//! `cargo xtask fuzz` runs this before each run; `tests/corpus.rs` replays the same seeds.

use std::path::{Path, PathBuf};

use rmm_fuzz::{http_request, seed, Target};
use rmm_mobile::runtime::deps::bytes::Bytes;
use rmm_mobile::runtime::deps::http::{header, Method, Request};
use rmm_mobile::{Binding, Operation, SERVICE};

/// One seed: its target, a file name, the input.
pub type Seed = (Target, String, Vec<u8>);

/// Every seed, in a fixed order.
pub fn seeds() -> Vec<Seed> {
    let root = rmm_tests::root();
    let mut seeds = Vec::new();
    let captures = rmm_tests::captures::load_raw(&rmm_tests::captures::captures_dir())
        .expect("the recorded exchanges");
    for capture in captures {
        seeds.push((
            Target::Handle,
            capture.name.clone(),
            capture.request.clone(),
        ));
        let Some(request) = http_request(&capture.request) else {
            continue;
        };
        let Some((op, binding)) = routed(&request) else {
            continue;
        };
        let content_type = request
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        let name = capture.name.clone();
        seeds.push(if binding.is_soap() {
            let input = seed::soap_request(op, binding, content_type, request.body());
            (Target::SoapRequest, name.clone(), input)
        } else {
            let form = match binding {
                Binding::HttpGet => request.uri().query().unwrap_or("").as_bytes(),
                _ => request.body().as_ref(),
            };
            let input = seed::form_request(op, binding, content_type, form);
            (Target::FormRequest, name.clone(), input)
        });
        if let Some((status, content_type, body)) = capture.response.as_deref().and_then(response) {
            let input = seed::response(op, binding, status, content_type.as_deref(), &body);
            seeds.push((Target::Response, name, input));
        }
    }
    seeds.extend(objects_seeds());
    seeds.extend(shadow_seeds());
    seeds.extend(import_seeds(&root));
    let mut specs = vec![
        ("mobile".to_owned(), root.join("rmm-spec.yaml")),
        ("stock".to_owned(), root.join("tests/stock/rmm-spec.yaml")),
    ];
    for path in files(&root.join("tests/bad-specs")) {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        specs.push((format!("bad-{name}"), path));
    }
    for (name, path) in specs {
        let text = std::fs::read(&path).expect("a spec in the repository");
        seeds.push((Target::Spec, name, text));
    }
    seeds
}

/// The `import` seeds: each construct of the construct table (`tests/fixtures/constructs/`),
/// the reference services' WSDLs, and the real WSDLs of the corpora under 100 kB (the larger
/// ones would slow the replay more than they add: the wire run imports them all).
fn import_seeds(root: &Path) -> Vec<Seed> {
    let mut seeds = Vec::new();
    let folders = ["constructs", "survey", "heldout", "wild"];
    for folder in folders {
        for path in files(&root.join("tests/fixtures").join(folder)) {
            if path.extension().is_none_or(|e| e != "wsdl") {
                continue;
            }
            let text = std::fs::read(&path).expect("a WSDL of the corpus");
            if text.len() <= 100_000 {
                let name = path.file_stem().unwrap().to_string_lossy();
                seeds.push((Target::Import, format!("{folder}-{name}"), text));
            }
        }
    }
    for service in ["types", "objects", "stock"] {
        let path = root.join("tests/fixtures").join(service).join("wsdl.xml");
        if let Ok(text) = std::fs::read(&path) {
            seeds.push((Target::Import, format!("service-{service}"), text));
        }
    }
    seeds
}

/// The `shadow` seeds: each recorded exchange of the objects service as a capture file, also
/// cut short (a broken file); and its response's body against itself with one value changed,
/// and against the next exchange's.
fn shadow_seeds() -> Vec<Seed> {
    let mut seeds = Vec::new();
    let dir = rmm_tests::objects_service::exchanges_dir();
    let captures =
        rmm_tests::captures::load_raw(&dir).expect("the recorded exchanges of the objects service");
    let body = |raw: &[u8]| -> Vec<u8> {
        let at = raw
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .map_or(0, |at| at + 4);
        raw[at..].to_vec()
    };
    for (i, capture) in captures.iter().enumerate().step_by(7) {
        let file = capture.to_file();
        seeds.push((
            Target::Shadow,
            format!("capture-{}", capture.name),
            [&[0u8][..], &file].concat(),
        ));
        let cut = &file[..file.len() / 2];
        seeds.push((
            Target::Shadow,
            format!("capture-cut-{}", capture.name),
            [&[0u8][..], cut].concat(),
        ));
        let Some(response) = &capture.response else {
            continue;
        };
        let first = body(response);
        let changed: Vec<u8> = first
            .iter()
            .map(|&b| if b == b'1' { b'2' } else { b })
            .collect();
        let next = captures[(i + 1) % captures.len()]
            .response
            .as_deref()
            .map(body)
            .unwrap_or_default();
        for (what, second) in [("changed", changed), ("next", next)] {
            let input = [&[1u8][..], &first, &[rmm_fuzz::shadow::SPLIT], &second].concat();
            seeds.push((
                Target::Shadow,
                format!("answers-{what}-{}", capture.name),
                input,
            ));
        }
    }
    // Two spellings of one value of each type `rmm shadow --spec` reads, and of another.
    let values: [(u8, &str, &str); 11] = [
        (0, "a", "a "),
        (1, " urn:a", "urn:a"),
        (2, "1", "true"),
        (3, "+5", " 5"),
        (4, "1.50", "+01.50"),
        (5, "1E+20", "1e20"),
        (6, "0.1", "0.100000001"),
        (
            7,
            "2026-11-28T10:00:00+01:00",
            "2026-11-28T09:00:00.0000000+00:00",
        ),
        (
            8,
            "0F8FAD5B-D9CB-469F-A165-70867728950E",
            "{0f8fad5b-d9cb-469f-a165-70867728950e}",
        ),
        (9, "AAEC\nAw==", "AAECAw=="),
        (10, "Red Blue", "Blue Red"),
    ];
    for (lexical, a, b) in values {
        let input = [
            &[2u8, lexical][..],
            a.as_bytes(),
            &[rmm_fuzz::shadow::SPLIT],
            b.as_bytes(),
        ]
        .concat();
        seeds.push((Target::Shadow, format!("values-{lexical}"), input));
    }
    seeds
}

/// The `objects` seeds: every call recorded from the third service's host
/// (`tests/fixtures/objects/asmx`), its request (SOAP, query or form) and its response.
fn objects_seeds() -> Vec<Seed> {
    let mut seeds = Vec::new();
    let dir = rmm_tests::objects_service::exchanges_dir();
    let captures =
        rmm_tests::captures::load_raw(&dir).expect("the recorded exchanges of the objects service");
    let names = rmm_objects::Operation::ALL.map(rmm_objects::Operation::name);
    for capture in captures {
        let Some(request) = http_request(&capture.request) else {
            continue;
        };
        let Some((at, binding)) = routed_in(&request, rmm_objects::SERVICE.path, &names) else {
            continue;
        };
        let op = rmm_objects::Operation::ALL[at];
        let content_type = request
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        let message = match binding {
            Binding::HttpGet => request.uri().query().unwrap_or("").as_bytes(),
            _ => request.body().as_ref(),
        };
        let input = seed::objects_request(op, binding, content_type, message);
        seeds.push((Target::Objects, format!("request-{}", capture.name), input));
        if let Some((status, content_type, body)) = capture.response.as_deref().and_then(response) {
            let input = seed::objects_response(op, binding, status, content_type.as_deref(), &body);
            seeds.push((Target::Objects, format!("response-{}", capture.name), input));
        }
    }
    seeds
}

/// The operation and binding a request of the Mobile service reaches, if it reaches one.
fn routed(request: &Request<Bytes>) -> Option<(Operation, Binding)> {
    let names = Operation::ALL.map(Operation::name);
    let (at, binding) = routed_in(request, SERVICE.path, &names)?;
    Some((Operation::ALL[at], binding))
}

/// The operation (its index in `names`) and binding a request to the service at `service`
/// whose operations are `names` reaches, if it reaches one.
fn routed_in(request: &Request<Bytes>, service: &str, names: &[&str]) -> Option<(usize, Binding)> {
    let path = request.uri().path();
    let rest = path.strip_prefix(service)?;
    if let Some(name) = rest.strip_prefix('/') {
        let op = names.iter().position(|n| *n == name)?;
        let binding = match *request.method() {
            Method::GET => Binding::HttpGet,
            _ => Binding::HttpPost,
        };
        return Some((op, binding));
    }
    if !rest.is_empty() || request.method() != Method::POST {
        return None;
    }
    let content_type = request.headers().get(header::CONTENT_TYPE)?.to_str().ok()?;
    let binding = if content_type.starts_with("application/soap+xml") {
        Binding::Soap12
    } else {
        Binding::Soap11
    };
    // The operation whose element the body holds (the longest name that matches, so that no
    // name is taken for a longer one it begins).
    let body = request.body();
    let op = (0..names.len())
        .filter(|&at| {
            let name = names[at].as_bytes();
            body.windows(name.len() + 1)
                .any(|w| &w[..name.len()] == name && matches!(w[name.len()], b' ' | b'>' | b'/'))
        })
        .max_by_key(|&at| names[at].len())?;
    Some((op, binding))
}

/// A raw response's status, content type and body (all that follows the head).
fn response(raw: &[u8]) -> Option<(u16, Option<String>, Vec<u8>)> {
    let at = raw.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = std::str::from_utf8(&raw[..at]).ok()?;
    let mut lines = head.split("\r\n");
    let status = lines.next()?.split(' ').nth(1)?.parse().ok()?;
    let content_type = lines.find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case("content-type")
            .then(|| value.trim().to_owned())
    });
    Some((status, content_type, raw[at + 4..].to_vec()))
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.sort();
    files
}

#[allow(dead_code)]
fn main() {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: seeds DIR");
        std::process::exit(2);
    };
    let dir = PathBuf::from(dir);
    let mut written = 0;
    for (target, name, input) in seeds() {
        let folder = dir.join(target.name());
        std::fs::create_dir_all(&folder).expect("a seed folder");
        std::fs::write(folder.join(&name), input).expect("a seed file");
        written += 1;
    }
    println!("{written} seeds in {}", dir.display());
}
