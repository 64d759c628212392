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
