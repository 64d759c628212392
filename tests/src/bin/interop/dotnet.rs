//! A real .NET client: C# proxies that Mono's `wsdl` tool generates from each server's own
//! WSDL call every operation over SOAP 1.1, SOAP 1.2, HTTP GET and HTTP POST
//! (`tests/interop/dotnet/run.sh`, which prints one JSON line per call; see `CallAll.cs`).
//!
//! Each operation is called with ordinary ASCII values, with non-ASCII text in its strings
//! (`Café ☕ 𝄞`) and with a string `FAULT`. Checked:
//!
//! - against ours, each result is exactly the echo of the values sent, and each fault call
//!   raises the client fault (`SoapException` code `Client` over SOAP 1.1, `Sender` over
//!   SOAP 1.2, an HTTP 500 quoting `requested fault` over GET/POST);
//! - Mono's outcomes and ours agree call by call, but for the one deliberate difference:
//!   non-ASCII text over HTTP GET/POST, which the proxies send as `%uXXXX` escapes (one per
//!   UTF-16 unit). ASP.NET on .NET Framework decodes each escape as its UTF-16 unit
//!   (`HttpEncoder.UrlDecode`), and so do we: ours must echo the true text. The Mono host
//!   answers 200 with silently wrong text, checked to be exactly the known wrong text
//!   ([`mono_query`], [`mono_form`]), so that a change on either side is seen;
//! - every operation was called over every protocol, with each of the three cases, in the
//!   WSDL's order.
//!
//! [`types_dotnet_section`] does the same for the types service, with a value of each .NET
//! type: each echo is the value sent, and Mono's outcomes and ours agree call by call.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;
use std::process::Command;

use rmm_mobile::Operation;
use rmm_tests::samples::echo_of;

use super::{Checks, Target};

/// The protocols, as `wsdl -protocol:` names them (and as `CallAll.cs` prints them).
const PROTOCOLS: [&str; 4] = ["SOAP", "SOAP12", "HttpGet", "HttpPost"];
/// The calls made of each operation over each protocol, in order.
const CASES: [&str; 3] = ["ascii", "nonascii", "fault"];

const SOAP11_ENV: &str = "http://schemas.xmlsoap.org/soap/envelope/";
const SOAP12_ENV: &str = "http://www.w3.org/2003/05/soap-envelope";

/// What a call came to, as `CallAll.cs` reports it.
#[derive(Debug, Clone, PartialEq)]
enum Outcome {
    /// The operation returned (`None`: a null string).
    Result(Option<String>),
    /// A `SoapException`.
    SoapFault {
        code: String,
        code_ns: String,
        subcode: Option<String>,
        message: String,
    },
    /// A `WebException` with an HTTP response.
    Http { status: u64, error: String },
    /// Anything else the proxy raised.
    Error(String),
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Result(r) => write!(f, "result {r:?}"),
            Outcome::SoapFault {
                code,
                code_ns,
                subcode,
                message,
            } => write!(
                f,
                "SoapException {{{code_ns}}}{code} (subcode {subcode:?}) {message:?}"
            ),
            Outcome::Http { status, error } => write!(f, "WebException HTTP {status} {error:?}"),
            Outcome::Error(e) => write!(f, "raised {e}"),
        }
    }
}

/// One line of `CallAll.cs`'s output.
#[derive(Debug, Clone)]
struct Call {
    operation: String,
    protocol: String,
    case: String,
    /// (name, value as given to the proxy), in wire order.
    params: Vec<(String, String)>,
    outcome: Outcome,
}

impl Call {
    fn parse(line: &str) -> Result<Call, String> {
        let v: serde_json::Value =
            serde_json::from_str(line).map_err(|e| format!("bad output line {line:?}: {e}"))?;
        let text = |key: &str| -> Result<String, String> {
            v[key]
                .as_str()
                .map(str::to_owned)
                .ok_or_else(|| format!("no {key:?} in {line}"))
        };
        let params = v["params"]
            .as_array()
            .ok_or_else(|| format!("no \"params\" in {line}"))?
            .iter()
            .map(|p| match (p[0].as_str(), p[1].as_str()) {
                (Some(n), Some(v)) => Ok((n.to_owned(), v.to_owned())),
                _ => Err(format!("bad parameter {p} in {line}")),
            })
            .collect::<Result<Vec<_>, String>>()?;
        let outcome = if let Some(result) = v.get("result") {
            Outcome::Result(result.as_str().map(str::to_owned))
        } else if let Some(fault) = v.get("soap_fault") {
            Outcome::SoapFault {
                code: fault["code"].as_str().unwrap_or_default().to_owned(),
                code_ns: fault["code_ns"].as_str().unwrap_or_default().to_owned(),
                subcode: fault["subcode"].as_str().map(str::to_owned),
                message: fault["message"].as_str().unwrap_or_default().to_owned(),
            }
        } else if let Some(status) = v["http_status"].as_u64() {
            Outcome::Http {
                status,
                error: text("error")?,
            }
        } else {
            Outcome::Error(text("error")?)
        };
        Ok(Call {
            operation: text("operation")?,
            protocol: text("protocol")?,
            case: text("case")?,
            params,
            outcome,
        })
    }

    fn key(&self) -> (String, String, String) {
        (
            self.protocol.clone(),
            self.operation.clone(),
            self.case.clone(),
        )
    }

    fn name(&self) -> String {
        format!("{} over {} ({})", self.operation, self.protocol, self.case)
    }

    /// The reference service's echo of the values sent.
    fn echo(&self) -> String {
        echo_of(&self.operation, &self.params)
    }

    /// The deliberate difference: non-ASCII text in the strings over HTTP GET or POST.
    fn deliberate(&self) -> Option<fn(&str) -> String> {
        match (self.case.as_str(), self.protocol.as_str()) {
            ("nonascii", "HttpGet") => Some(mono_query),
            ("nonascii", "HttpPost") => Some(mono_form),
            _ => None,
        }
    }
}

/// A text as the proxies send it over GET/POST, `%uXXXX` per UTF-16 unit of each non-ASCII
/// character (upper-case hex), as the Mono host keeps it in a query string: literally.
/// (`Café` → `Caf%u00E9`, `𝄞` → `%uD834%uDD1E`.)
pub(crate) fn mono_query(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            for unit in c.encode_utf16(&mut [0; 2]) {
                out.push_str(&format!("%u{unit:04X}"));
            }
        }
    }
    out
}

/// The same escapes as the Mono host reads them in a form body: each UTF-16 unit alone, a
/// unit up to U+00FF as that one byte, any other as its own UTF-8 (a lone surrogate as
/// U+FFFD's), and the bytes read as UTF-8 with U+FFFD for what is not. So `é` (`%u00E9`,
/// the byte E9) becomes U+FFFD, `☕` (`%u2615`) comes through, and `𝄞` (`%uD834%uDD1E`)
/// becomes two U+FFFD.
pub(crate) fn mono_form(text: &str) -> String {
    let mut bytes = Vec::new();
    for unit in text.encode_utf16() {
        match unit {
            0..=0xFF => bytes.push(unit as u8),
            0xD800..=0xDFFF => bytes.extend_from_slice("\u{FFFD}".as_bytes()),
            _ => {
                let c = char::from_u32(u32::from(unit)).expect("a BMP scalar value");
                bytes.extend_from_slice(c.to_string().as_bytes());
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Runs `run.sh` against `target` (through its own WSDL) and reads its lines.
fn run(target: &Target) -> Result<(Vec<Call>, Vec<String>), String> {
    run_service(target, "rmm-spec.yaml", &target.label.to_lowercase())
}

/// Runs `run.sh` against the service of `spec` (a path in the workspace) at `target`, its
/// files in `target/interop/dotnet/{dir}`, and reads its lines.
fn run_service(target: &Target, spec: &str, dir: &str) -> Result<(Vec<Call>, Vec<String>), String> {
    let root = rmm_tests::root();
    let script = root.join("tests/interop/dotnet/run.sh");
    let out = root.join("target/interop/dotnet").join(dir);
    let output = Command::new("bash")
        .arg(&script)
        .arg(&target.base)
        .arg(&out)
        .env("RMM_SPEC", root.join(spec))
        .output()
        .map_err(|e| format!("cannot run {}: {e}", script.display()))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        return Err(format!(
            "{} exited {:?}:\n{}",
            rel(&script),
            output.status.code(),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let mut calls = Vec::new();
    let mut bad = Vec::new();
    for line in stdout.lines() {
        match Call::parse(line) {
            Ok(c) => calls.push(c),
            Err(e) => bad.push(e),
        }
    }
    Ok((calls, bad))
}

/// The calls of a run, its failure and any line it could not read reported as checks of
/// `name`; `None` when it did not run.
fn reported(
    checks: &mut Checks,
    name: &str,
    run: Result<(Vec<Call>, Vec<String>), String>,
) -> Option<Vec<Call>> {
    match run {
        Ok((calls, bad)) => {
            for e in bad {
                checks.check(&format!("{name}: output"), Err(e));
            }
            Some(calls)
        }
        Err(e) => {
            checks.check(&format!("{name}: run.sh"), Err(e));
            None
        }
    }
}

fn rel(path: &Path) -> String {
    path.strip_prefix(rmm_tests::root())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// What ours must answer to `call`.
fn expect_ours(call: &Call) -> Result<(), String> {
    let got = &call.outcome;
    if call.case != "fault" {
        let want = call.echo();
        return match got {
            Outcome::Result(Some(r)) if *r == want => Ok(()),
            _ => Err(format!("{got}\n     want result {want:?}")),
        };
    }
    let want = match call.protocol.as_str() {
        "SOAP" => Some(("Client", SOAP11_ENV)),
        "SOAP12" => Some(("Sender", SOAP12_ENV)),
        _ => None,
    };
    match (want, got) {
        (
            Some((want_code, want_ns)),
            Outcome::SoapFault {
                code,
                code_ns,
                subcode: None,
                message,
            },
        ) if code == want_code && code_ns == want_ns && message == "requested fault" => Ok(()),
        (Some((code, ns)), _) => Err(format!(
            "{got}\n     want SoapException {{{ns}}}{code} (no subcode) \"requested fault\""
        )),
        (None, Outcome::Http { status: 500, error }) if error.contains("\nrequested fault\n") => {
            Ok(())
        }
        (None, _) => Err(format!(
            "{got}\n     want WebException HTTP 500 quoting \"requested fault\""
        )),
    }
}

/// Mono's outcome of `mono` against ours of `ours` (the same call).
fn agree(mono: &Call, ours: &Call) -> Result<(), String> {
    if mono.params != ours.params {
        return Err(format!(
            "different values sent: Mono {:?}, ours {:?}",
            mono.params, ours.params
        ));
    }
    match mono.deliberate() {
        None if mono.outcome == ours.outcome => Ok(()),
        None => Err(format!(
            "Mono: {}\n     ours: {}",
            mono.outcome, ours.outcome
        )),
        Some(wrong) => {
            let read: Vec<(String, String)> = mono
                .params
                .iter()
                .map(|(n, v)| (n.clone(), wrong(v)))
                .collect();
            let want = echo_of(&mono.operation, &read);
            if want == mono.echo() {
                return Err("the values sent have no non-ASCII text".into());
            }
            match &mono.outcome {
                Outcome::Result(Some(r)) if *r == want => Ok(()),
                got => Err(format!(
                    "Mono: {got}\n     want its known wrong result {want:?}"
                )),
            }
        }
    }
}

pub fn dotnet_section(checks: &mut Checks, mono: &Target, ours: &Target) {
    checks.section(
        "dotnet: Mono's wsdl proxies call every operation over SOAP 1.1, 1.2, GET and POST, \
         through each server's own WSDL",
    );
    let mut runs: Vec<BTreeMap<(String, String, String), Call>> = Vec::new();
    for target in [mono, ours] {
        let name = format!("dotnet {}", target.label);
        let Some(calls) = reported(checks, &name, run(target)) else {
            runs.push(BTreeMap::new());
            continue;
        };
        // Every operation × protocol × case, in the WSDL's order.
        for protocol in PROTOCOLS {
            let called: Vec<(&str, &str)> = calls
                .iter()
                .filter(|c| c.protocol == protocol)
                .map(|c| (c.operation.as_str(), c.case.as_str()))
                .collect();
            let want: Vec<(&str, &str)> = Operation::ALL
                .iter()
                .flat_map(|op| CASES.iter().map(move |case| (op.name(), *case)))
                .collect();
            checks.check(
                &format!("{name} {protocol}: every operation × case, in order"),
                if called == want {
                    Ok(())
                } else {
                    Err(format!(
                        "called {} ({called:?}), want {} ({want:?})",
                        called.len(),
                        want.len()
                    ))
                },
            );
        }
        if target.label == ours.label {
            for call in &calls {
                checks.check(&format!("{name} {}", call.name()), expect_ours(call));
            }
        }
        runs.push(calls.into_iter().map(|c| (c.key(), c)).collect());
    }
    let (by_mono, by_ours) = (&runs[0], &runs[1]);
    for (key, ours_call) in by_ours {
        let name = format!("dotnet Mono and ours agree: {}", ours_call.name());
        let result = match by_mono.get(key) {
            Some(mono_call) => agree(mono_call, ours_call),
            None => Err("not called on Mono".into()),
        };
        checks.check(&name, result);
    }
    if let Some(key) = by_mono.keys().find(|k| !by_ours.contains_key(*k)) {
        checks.check(
            "dotnet Mono and ours agree",
            Err(format!("{key:?} called on Mono only")),
        );
    }
}

/// The types service (`tests/types/rmm-spec.yaml`) through the same proxies: every operation
/// over each protocol it is offered on, with a value of every type (`CallAll.cs`), on Mono and
/// on rmm's server for it. Each echo gives back the text sent, `Ping` nothing, `Describe` a
/// line; the two servers agree call by call, but for the one deliberate difference above
/// (non-ASCII text over GET/POST, where Mono's answer must be its known wrong text).
pub fn types_dotnet_section(checks: &mut Checks, mono: &Target, ours: &Target) {
    checks
        .section("dotnet: the types service through Mono's wsdl proxies, four protocols, on both");
    let mut runs: Vec<BTreeMap<(String, String, String), Call>> = Vec::new();
    for target in [mono, ours] {
        let name = format!("dotnet types {}", target.label);
        let dir = format!("types-{}", target.label.to_lowercase());
        let run = run_service(target, "tests/types/rmm-spec.yaml", &dir);
        let Some(calls) = reported(checks, &name, run) else {
            runs.push(BTreeMap::new());
            continue;
        };
        for (protocol, binding) in PROTOCOLS.into_iter().zip(rmm_types::Binding::ALL) {
            let called: Vec<(&str, &str)> = calls
                .iter()
                .filter(|c| c.protocol == protocol)
                .map(|c| (c.operation.as_str(), c.case.as_str()))
                .collect();
            let want: Vec<(&str, &str)> = rmm_types::Operation::ALL
                .iter()
                .filter(|op| op.info().bindings.contains(&binding))
                .flat_map(|op| CASES.iter().map(move |case| (op.name(), *case)))
                .collect();
            checks.check(
                &format!("{name} {protocol}: every operation offered × case, in order"),
                if called == want {
                    Ok(())
                } else {
                    Err(format!("called {called:?}, want {want:?}"))
                },
            );
        }
        for call in &calls {
            let wrong = if target.label == mono.label {
                call.deliberate()
            } else {
                None
            };
            checks.check(&format!("{name} {}", call.name()), types_echo(call, wrong));
        }
        runs.push(calls.into_iter().map(|c| (c.key(), c)).collect());
    }
    let (by_mono, by_ours) = (&runs[0], &runs[1]);
    for (key, ours_call) in by_ours {
        let result = match by_mono.get(key) {
            None => Err("not called on Mono".into()),
            Some(mono_call) if mono_call.params != ours_call.params => Err(format!(
                "different values sent: Mono {:?}, ours {:?}",
                mono_call.params, ours_call.params
            )),
            // Each side's own answer was checked above, the deliberate one included.
            Some(mono_call) if mono_call.deliberate().is_some() => Ok(()),
            Some(mono_call) if mono_call.outcome == ours_call.outcome => Ok(()),
            Some(mono_call) => Err(format!(
                "Mono: {}\n     ours: {}",
                mono_call.outcome, ours_call.outcome
            )),
        };
        checks.check(
            &format!("dotnet types Mono and ours agree: {}", ours_call.name()),
            result,
        );
    }
}

/// What the types service answers `call`: an echo its value as sent (as `wrong` reads the
/// strings sent, where the host misreads them), `Ping` nothing, `Describe` a line naming each
/// value as sent.
fn types_echo(call: &Call, wrong: Option<fn(&str) -> String>) -> Result<(), String> {
    let read = |text: &str| wrong.map_or_else(|| text.to_owned(), |w| w(text));
    match (call.operation.as_str(), &call.outcome) {
        ("Ping", Outcome::Result(None)) => Ok(()),
        ("Describe", Outcome::Result(Some(line))) => {
            let missing: Vec<&str> = call
                .params
                .iter()
                .map(|(name, _)| name.as_str())
                .filter(|name| !line.contains(&format!("{name}=")))
                .collect();
            if missing.is_empty() && line.starts_with("Describe(") {
                Ok(())
            } else {
                Err(format!("{line:?} names no {missing:?}"))
            }
        }
        (_, Outcome::Result(Some(got))) => match call.params.first() {
            Some((_, sent)) if *got == read(sent) => Ok(()),
            sent => Err(format!("sent {sent:?}, got {got:?}")),
        },
        (_, got) => Err(format!("{got}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_known_wrong_texts() {
        let text = "Caf\u{e9} \u{2615} \u{1D11E}";
        assert_eq!(mono_query(text), "Caf%u00E9 %u2615 %uD834%uDD1E");
        assert_eq!(mono_form(text), "Caf\u{FFFD} \u{2615} \u{FFFD}\u{FFFD}");
        // Units up to U+00FF are bytes: two of them may make a UTF-8 character.
        assert_eq!(mono_form("\u{C3}\u{A9}"), "\u{e9}");
    }
}
