//! `--record DIR`: records the reference host's answers into the project's fixtures (`DIR` is
//! `tests/fixtures` or a copy of it): the Mobile service's exchanges into `DIR/asmx/`, the
//! types service's into `DIR/types/asmx/`, the objects service's into `DIR/objects/asmx/`, the
//! script service's into `DIR/script/asmx/`.
//!
//! Each service's request set is of two kinds:
//!
//! - **written** cases: every `NAME.txt` whose request was written by hand (the error
//!   cases, WSDL, help pages, discovery, malformed HTTP, …). A new one is a file holding the
//!   two title lines and a request section; the recorder fills its response in.
//! - **generated** cases, made here from the spec on every run: for the Mobile service, every
//!   operation × binding as the generated client sends it with the sample values, and the
//!   client's error cases (a fault, a type error, a missing parameter) on every binding; for
//!   the types, objects and script services, their `generated_cases`. They follow the spec,
//!   so a new operation is recorded without writing anything.
//!
//! Each request goes to the host byte for byte as the file holds it, on a connection of its
//! own, and the response is kept byte for byte as it came, up to its end by its framing (or
//! the connection's end). The host is told the
//! recorded `Host` (`127.0.0.1:18081`), whatever port it listens on, so the addresses it
//! writes (WSDL, help pages) do not depend on the run; recording twice gives the same files
//! but for the `Date` header (and the `Expires` that the script service's JavaScript proxies
//! set a year after it). Each directory's `INDEX.md` lists its cases.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::net::SocketAddr;
use std::path::Path;

use rmm_mobile::{Binding, Operation};
use rmm_tests::captures::{self, RawCapture};
use rmm_tests::{objects_service, script_service, types_service};

use crate::client::{encode, pairs_for, ErrorCase, ERROR_CASES};
use crate::mutation::mutate;
use crate::raw::{exchange_bytes, parse_response, raw_request};

/// The `Host` every recorded request carries.
pub(crate) const RECORDED_HOST: &str = "127.0.0.1:18081";

/// The file-name prefix of a binding's cases.
fn prefix(binding: Binding) -> &'static str {
    match binding {
        Binding::Soap11 => "soap11",
        Binding::Soap12 => "soap12",
        Binding::HttpGet => "get",
        Binding::HttpPost => "post",
        Binding::Json => "json",
    }
}

/// `op07`: the operation's number in the interface's table (the spec's order).
fn op_label(op: Operation) -> String {
    let n = Operation::ALL.iter().position(|o| *o == op).unwrap_or(0) + 1;
    format!("op{n:02}")
}

/// The generated cases: every operation × binding, and the client's error cases.
pub(crate) fn generated() -> Result<Vec<RawCapture>, String> {
    let mut cases = Vec::new();
    for binding in Binding::ALL {
        for op in Operation::ALL {
            let request = encode(op, &pairs_for(op, binding), binding)
                .map_err(|e| format!("{} over {binding}: cannot encode: {e}", op.name()))?;
            cases.push(RawCapture {
                name: format!("{}-{}-client-sample", prefix(binding), op_label(op)),
                what: format!(
                    "{binding}: {} as the generated client sends it, with the sample values",
                    op.name()
                ),
                request: raw_request(&request, RECORDED_HOST),
                response: None,
            });
        }
        for case in ERROR_CASES {
            let op = case.operation();
            let request = encode(op, &case.pairs(), binding)
                .map_err(|e| format!("{} over {binding}: cannot encode: {e}", case.label()))?;
            let request = mutate(request, case.mutation());
            let slug = match case {
                ErrorCase::Fault => "fault",
                ErrorCase::TypeError => "type-error",
                ErrorCase::Missing => "missing",
            };
            cases.push(RawCapture {
                name: format!("{}-{}-client-{slug}", prefix(binding), op_label(op)),
                what: format!(
                    "{binding}: {}, {} (the generated client's request)",
                    op.name(),
                    case.label()
                ),
                request: raw_request(&request, RECORDED_HOST),
                response: None,
            });
        }
    }
    Ok(cases)
}

/// The names of the generated cases (they are also replayed live from the spec, not the file).
pub(crate) fn generated_names() -> Vec<String> {
    generated()
        .map(|cases| cases.into_iter().map(|c| c.name).collect())
        .unwrap_or_default()
}

/// Records the services' exchanges from the host at `addr` into `fixtures` (the project's
/// `tests/fixtures`, or a copy of it): the Mobile service's into `asmx/`, the types service's
/// into `types/asmx/`, the objects service's into `objects/asmx/`, the script service's into
/// `script/asmx/`.
pub(crate) async fn record(addr: SocketAddr, fixtures: &Path) -> Result<(), String> {
    record_into(addr, &fixtures.join("asmx"), generated()?, INDEX_HEAD).await?;
    record_into(
        addr,
        &fixtures.join("types/asmx"),
        types_generated(),
        TYPES_INDEX_HEAD,
    )
    .await?;
    record_into(
        addr,
        &fixtures.join("objects/asmx"),
        objects_generated(),
        OBJECTS_INDEX_HEAD,
    )
    .await?;
    record_into(
        addr,
        &fixtures.join("script/asmx"),
        script_generated(),
        SCRIPT_INDEX_HEAD,
    )
    .await
}

/// The script service's generated cases (`rmm_tests::script_service::generated_cases`): over
/// JSON, then the WSDL's four bindings.
fn script_generated() -> Vec<RawCapture> {
    let mut cases = Vec::new();
    let bindings = std::iter::once(rmm_script::Binding::Json).chain(rmm_script::Binding::ALL);
    for binding in bindings {
        for case in script_service::generated_cases(binding) {
            cases.push(client_capture(
                (types_service::prefix(binding), &binding.to_string()),
                case.operation.name(),
                case.slug,
                &case.request,
            ));
        }
    }
    cases
}

/// The objects service's generated cases (`rmm_tests::objects_service::generated_cases`).
fn objects_generated() -> Vec<RawCapture> {
    let mut cases = Vec::new();
    for binding in rmm_objects::Binding::ALL {
        for case in objects_service::generated_cases(binding) {
            cases.push(client_capture(
                (types_service::prefix(binding), &binding.to_string()),
                case.operation.name(),
                &case.slug,
                &case.request,
            ));
        }
    }
    cases
}

/// A generated case of a service's spec, as its generated client sends it over the binding
/// named `(prefix, label)`.
fn client_capture(
    (prefix, label): (&str, &str),
    operation: &str,
    slug: &str,
    request: &rmm_mobile::runtime::deps::http::Request<rmm_mobile::runtime::deps::bytes::Bytes>,
) -> RawCapture {
    RawCapture {
        name: format!("{prefix}-client-{slug}"),
        what: format!("{label}: {operation} as the generated client sends it ({slug})"),
        request: raw_request(request, RECORDED_HOST),
        response: None,
    }
}

/// The types service's generated cases (`rmm_tests::types_service::generated_cases`).
fn types_generated() -> Vec<RawCapture> {
    let mut cases = Vec::new();
    for binding in rmm_types::Binding::ALL {
        for case in types_service::generated_cases(binding) {
            cases.push(client_capture(
                (types_service::prefix(binding), &binding.to_string()),
                case.operation.name(),
                case.slug,
                &case.request,
            ));
        }
    }
    cases
}

/// Records every case of `dir` and every `generated` case from the host at `addr` into
/// `dir`, with an `INDEX.md` that starts with `head`.
async fn record_into(
    addr: SocketAddr,
    dir: &Path,
    generated: Vec<RawCapture>,
    head: &str,
) -> Result<(), String> {
    let mut cases: BTreeMap<String, RawCapture> = BTreeMap::new();
    for case in captures::load_raw(dir)? {
        cases.insert(case.name.clone(), case);
    }
    let from_spec = generated.len();
    for case in generated {
        cases.insert(case.name.clone(), case);
    }
    println!(
        "recording {} cases ({from_spec} generated from the spec) from {addr} into {}",
        cases.len(),
        dir.display()
    );
    let mut index = String::from(head);
    for case in cases.values_mut() {
        let response = exchange_bytes(addr, &case.request)
            .await
            .map_err(|e| format!("{}: {e}", case.name))?;
        let parsed = parse_response(&response, true).map_err(|e| format!("{}: {e}", case.name))?;
        let _ = writeln!(
            index,
            "| {}.txt | {} | {} | {} |",
            case.name,
            cell(&case.what),
            parsed.status,
            parsed.header("content-type").unwrap_or("")
        );
        case.response = Some(response);
        let path = dir.join(format!("{}.txt", case.name));
        std::fs::write(&path, case.to_file())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let path = dir.join("INDEX.md");
    std::fs::write(&path, index).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    println!("recorded {} cases; index: {}", cases.len(), path.display());
    Ok(())
}

/// Text safe in a Markdown table cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

const INDEX_HEAD: &str = "\
# The reference host's exchanges

Recorded by `cargo xtask interop --record` from the project's Mono ASMX host
(`tests/interop/asmx/`); the tests and `cargo xtask interop` read them from here. Each
`NAME.txt` holds the request exactly as sent and the response exactly as received (the format
is described in `tests/src/captures.rs`). Cases named `*-client-*` are generated from the spec
on every recording; the others are written by hand: add a file with a request section to add
one. Recording again changes nothing but the `Date` headers.

| file | what | status | content type |
|---|---|---|---|
";

const TYPES_INDEX_HEAD: &str = "\
# The types service's exchanges

The second reference service (`tests/interop/asmx/TypesService.cs`), recorded by
`cargo xtask interop --record` from the project's Mono ASMX host; `tests/tests/types_fidelity.rs`
replays every request through rmm's server for it (`rmm_tests::types_service::TypesEcho`) and
`cargo xtask interop` sends them to the live host and to rmm's server. The file format is the
Mobile service's (`tests/src/captures.rs`). Cases named `*-client-*` are generated on every
recording (`rmm_tests::types_service::generated_cases`); the others are written by hand: add a
file with a request section to add one.

| file | what | status | content type |
|---|---|---|---|
";

const OBJECTS_INDEX_HEAD: &str = "\
# The objects service's exchanges

The third reference service (`tests/interop/asmx/ObjectsService.cs`: classes, arrays, nesting,
recursion), recorded by `cargo xtask interop --record` from the project's Mono ASMX host;
`tests/tests/objects_fidelity.rs` replays every request through rmm's server for it
(`rmm_tests::objects_service::ObjectsEcho`). The file format is the Mobile service's
(`tests/src/captures.rs`). Cases named `*-client-*` are generated on every recording
(`rmm_tests::objects_service::generated_cases`); the others are written by hand: add a file with
a request section to add one.

| file | what | status | content type |
|---|---|---|---|
";

const SCRIPT_INDEX_HEAD: &str = "\
# The script service's exchanges

The fourth recorded reference service (`tests/interop/asmx/ScriptService.cs`: a
`[ScriptService]`, ASMX's JSON face beside its SOAP 1.1, SOAP 1.2, HTTP GET and HTTP POST),
recorded by `cargo xtask interop --record` from the project's Mono ASMX host;
`tests/tests/script_fidelity.rs` replays every request through rmm's server for it
(`rmm_tests::script_service::ScriptEcho`). The file format is the Mobile service's
(`tests/src/captures.rs`). Cases named `*-client-*` are generated on every recording
(`rmm_tests::script_service::generated_cases`; the session operations are left out, their
answers carrying a new random `ASP.NET_SessionId` each time); the others are written by hand:
add a file with a request section to add one. Recording again changes nothing but the `Date`
headers and the proxies' (`js`, `jsdebug`) `Expires`, a year after it.

| file | what | status | content type |
|---|---|---|---|
";
