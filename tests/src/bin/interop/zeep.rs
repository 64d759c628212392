//! The zeep section: `tests/interop/zeep/call_all.py` (run by `--python PY`) calls every
//! operation over SOAP 1.1 and 1.2 on each server, through that server's own WSDL; each
//! result must be the exact echo of the values sent.

use std::process::Command;

use rmm_mobile::{Operation, SERVICE};
use rmm_tests::samples::echo_of;

use crate::{Checks, Target};

pub(crate) fn zeep_section(checks: &mut Checks, python: &str, targets: &[&Target]) {
    checks.section("zeep: every operation over SOAP 1.1 and 1.2, through each server's own WSDL");
    let script = rmm_tests::root().join("tests/interop/zeep/call_all.py");
    for target in targets {
        let wsdl = format!("{}{}?wsdl", target.base, SERVICE.path);
        for binding in ["soap11", "soap12"] {
            let name = format!("zeep {} {binding}", target.label);
            let output = match Command::new(python)
                .arg(&script)
                .arg(&wsdl)
                .arg(binding)
                .arg("--with-params")
                .arg("--timeout")
                .arg("60")
                .output()
            {
                Ok(o) => o,
                Err(e) => {
                    checks.check(&name, Err(format!("cannot run {python}: {e}")));
                    continue;
                }
            };
            let stdout = String::from_utf8_lossy(&output.stdout);
            let mut called = Vec::new();
            for line in stdout.lines() {
                let line: serde_json::Value = match serde_json::from_str(line) {
                    Ok(v) => v,
                    Err(e) => {
                        checks.check(&name, Err(format!("bad output line {line:?}: {e}")));
                        continue;
                    }
                };
                let operation = line["operation"].as_str().unwrap_or("?").to_owned();
                let params: Vec<(String, String)> = line["params"]
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .map(|p| {
                                (
                                    p[0].as_str().unwrap_or_default().to_owned(),
                                    p[1].as_str().unwrap_or_default().to_owned(),
                                )
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                let want = echo_of(&operation, &params);
                let result = match (line["result"].as_str(), line["error"].as_str()) {
                    (Some(got), _) if got == want => Ok(()),
                    (Some(got), _) => Err(format!("result {got:?}\n     want {want:?}")),
                    (None, Some(error)) => Err(format!("raised {error}")),
                    _ => Err(format!("no result: {line}")),
                };
                checks.check(&format!("{name} {operation}"), result);
                called.push(operation);
            }
            let all: Vec<String> = Operation::ALL.iter().map(|o| o.name().to_owned()).collect();
            if called != all {
                checks.check(
                    &format!("{name}: every operation, in order"),
                    Err(format!(
                        "called {called:?} (exit {:?})\n{}",
                        output.status.code(),
                        String::from_utf8_lossy(&output.stderr)
                    )),
                );
            }
        }
    }
}

/// One zeep call as `call_all.py` reports it: the operation, the result's wire text (`None`
/// for none), the values sent, or the error it raised.
struct ZeepCall {
    operation: String,
    result: Option<String>,
    params: Vec<(String, String)>,
    error: Option<String>,
}

/// Runs `call_all.py` on `wsdl` over `binding`; the calls it reports, or why it could not run.
fn zeep_calls(python: &str, wsdl: &str, binding: &str) -> Result<Vec<ZeepCall>, String> {
    let script = rmm_tests::root().join("tests/interop/zeep/call_all.py");
    let output = Command::new(python)
        .arg(&script)
        .arg(wsdl)
        .arg(binding)
        .args(["--with-params", "--timeout", "60"])
        .output()
        .map_err(|e| format!("cannot run {python}: {e}"))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let mut calls = Vec::new();
    for line in stdout.lines() {
        let line: serde_json::Value =
            serde_json::from_str(line).map_err(|e| format!("bad output line {line:?}: {e}"))?;
        let text = |v: &serde_json::Value| v.as_str().map(str::to_owned);
        calls.push(ZeepCall {
            operation: text(&line["operation"]).unwrap_or_default(),
            result: text(&line["result"]),
            params: line["params"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .map(|p| {
                            (
                                text(&p[0]).unwrap_or_default(),
                                text(&p[1]).unwrap_or_default(),
                            )
                        })
                        .collect()
                })
                .unwrap_or_default(),
            error: text(&line["error"]),
        });
    }
    if calls.is_empty() {
        return Err(format!(
            "no call (exit {:?})\n{}",
            output.status.code(),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(calls)
}

/// zeep against the types service on each server, through that server's own WSDL: every
/// operation of the SOAP port, in order, with a value of each type (`call_all.py`'s samples);
/// each echo gives back the value sent, `Ping` nothing, and both servers give the same
/// answer to every call (`Describe`'s line included).
pub(crate) fn types_zeep_section(checks: &mut Checks, python: &str, targets: &[&Target]) {
    checks.section("zeep: the types service, every operation over SOAP 1.1 and 1.2, on both");
    let all: Vec<String> = rmm_types::Operation::ALL
        .iter()
        .map(|o| o.name().to_owned())
        .collect();
    for binding in ["soap11", "soap12"] {
        let mut answers: Vec<(String, Vec<ZeepCall>)> = Vec::new();
        for target in targets {
            let name = format!("zeep types {} {binding}", target.label);
            let wsdl = format!("{}{}?wsdl", target.base, rmm_types::SERVICE.path);
            let calls = match zeep_calls(python, &wsdl, binding) {
                Ok(calls) => calls,
                Err(e) => {
                    checks.check(&name, Err(e));
                    continue;
                }
            };
            for call in &calls {
                let result = match (&call.error, call.operation.as_str()) {
                    (Some(error), _) => Err(format!("raised {error}")),
                    (None, "Ping") if call.result.is_none() => Ok(()),
                    (None, "Ping") => Err(format!("Ping answered {:?}", call.result)),
                    (None, "Describe") => Ok(()),
                    (None, _) => match call.params.first() {
                        Some((_, sent)) if call.result.as_deref() == Some(sent) => Ok(()),
                        sent => Err(format!("sent {sent:?}, got {:?}", call.result)),
                    },
                };
                checks.check(&format!("{name} {}", call.operation), result);
            }
            let called: Vec<String> = calls.iter().map(|c| c.operation.clone()).collect();
            checks.check(
                &format!("{name}: every operation, in order"),
                if called == all {
                    Ok(())
                } else {
                    Err(format!("called {called:?}"))
                },
            );
            answers.push((target.label.to_owned(), calls));
        }
        if let [(a, first), (b, second)] = answers.as_slice() {
            let differ: Vec<String> = first
                .iter()
                .zip(second)
                .filter(|(x, y)| x.operation != y.operation || x.result != y.result)
                .map(|(x, y)| format!("{}: {a} {:?}, {b} {:?}", x.operation, x.result, y.result))
                .collect();
            checks.check(
                &format!("zeep types {binding}: {a} and {b} answer every call alike"),
                if differ.is_empty() && first.len() == second.len() {
                    Ok(())
                } else {
                    Err(differ.join("\n     "))
                },
            );
        }
    }
}
