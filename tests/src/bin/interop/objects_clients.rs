//! Two real clients of the third reference service (`tests/interop/asmx/ObjectsService.cs`:
//! classes, arrays, inheritance, flags, out parameters, attributes, text content), each
//! against the host and against rmm's server for it (`rmm_tests::objects_service::ObjectsEcho`):
//!
//! - zeep (`tests/interop/zeep/call_all.py`) over SOAP 1.1 and 1.2, through each server's own
//!   WSDL, with a value of every type read from zeep's introspection (classes filled, arrays
//!   of two items with a nil one, the first concrete class derived from an abstract base,
//!   flags, attributes, text content), printing each result as JSON;
//! - the C# proxies of Mono's `wsdl` tool (`tests/interop/dotnet/run.sh`, `CallAll.cs`) over
//!   SOAP 1.1, SOAP 1.2, HTTP GET and HTTP POST, with ASCII and with non-ASCII strings,
//!   printing each value sent and returned as the XML XmlSerializer writes for it.
//!
//! Checked for each client and binding: every operation the service offers there was called,
//! in the WSDL's order; every call returned on both servers, or both refused it alike; the two
//! servers' outputs are identical line by line, each difference a failed check naming the
//! call; and a few results predicted from the values sent (each `Echo…` operation of one
//! parameter gives back what was sent, zeep's `MakeTags` and `CountLines`).
//!
//! Where the host answers a proxy with wrong data, the known difference is required exactly
//! (`tests/interop/dotnet/README.md`): non-ASCII text over GET/POST, which the proxies send as
//! `%uXXXX` escapes, comes back from the host as [`mono_query`] (GET) or [`mono_form`]
//! (POST) reads it; and where the host's refusal carries an unformatted `{0}` placeholder,
//! the two refusals are compared by their HTTP status only.

use std::collections::BTreeMap;
use std::process::Command;

use rmm_objects::runtime::deps::tokio;
use rmm_objects::Binding;
use serde_json::Value;

use crate::dotnet::{mono_form, mono_query};
use crate::{clone_target, Checks, Target};

/// The non-ASCII text `CallAll.cs` puts in every string of its `nonascii` case.
const NON_ASCII: &str = "Caf\u{e9} \u{2615} \u{1D11E}";

/// Both clients, against `mono` and against `ours` (rmm's objects server), on a blocking
/// thread: the servers go on answering meanwhile.
pub(crate) async fn objects_clients_section(
    checks: &mut Checks,
    python: Option<&str>,
    mono: &Target,
    ours: &Target,
) {
    checks.section("objects service: zeep and Mono's wsdl proxies, on the host and on ours");
    let python = python.unwrap_or_default().to_owned();
    let (mono, ours) = (clone_target(mono), clone_target(ours));
    let run = tokio::task::spawn_blocking(move || {
        let mut own = Checks::default();
        zeep_section(&mut own, &python, &mono, &ours);
        dotnet_section(&mut own, &mono, &ours);
        own.end_section();
        (own.passed, own.failed)
    });
    let (passed, failed) = run.await.unwrap_or((0, 1));
    checks.passed += passed;
    checks.failed += failed;
    checks.section_passed += passed;
    checks.section_failed += failed;
}

/// The wire names of the operations offered over `binding`, in order.
fn offered(binding: Binding) -> Vec<&'static str> {
    rmm_objects::Operation::ALL
        .iter()
        .filter(|op| op.info().bindings.contains(&binding))
        .map(|op| op.name())
        .collect()
}

/// The operations zeep calls on `binding`: zeep keys a binding's operations by the WSDL's
/// operation name, so overloads (`[WebMethod(MessageName)]`, which share their method's name
/// there) are one to it, in the first one's place: it calls the last of them, on both servers
/// alike. The generated client, the .NET proxies and the recorded exchanges call each.
fn offered_to_zeep(binding: Binding) -> Vec<String> {
    let file = rmm_tests::root().join("tests/objects/rmm-spec.yaml");
    let spec = rmm_codegen::spec::load(&file).expect("the objects spec is valid");
    use rmm_codegen::spec::BindingName;
    let binding = match binding {
        Binding::Soap11 => BindingName::Soap11,
        Binding::Soap12 => BindingName::Soap12,
        Binding::HttpGet => BindingName::Get,
        Binding::HttpPost => BindingName::Post,
        // The objects service is no [ScriptService].
        Binding::Json => return Vec::new(),
    };
    let mut names: Vec<String> = Vec::new();
    for op in spec
        .operations
        .iter()
        .filter(|op| op.bindings.contains(&binding))
    {
        let name = op.method.clone().unwrap_or_else(|| op.name.clone());
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// One line of a client's output: the call's key and the line as printed.
struct Line {
    operation: String,
    /// The proxies' protocol and case; empty for zeep (one port, one case).
    protocol: String,
    case: String,
    /// The line, the server's base URL replaced by `{base}`.
    raw: String,
    json: Value,
}

impl Line {
    fn parse(line: &str, base: &str) -> Result<Line, String> {
        let raw = line.replace(base, "{base}");
        let json: Value =
            serde_json::from_str(&raw).map_err(|e| format!("bad output line {line:?}: {e}"))?;
        let text = |key: &str| json[key].as_str().unwrap_or_default().to_owned();
        Ok(Line {
            operation: text("operation"),
            protocol: text("protocol"),
            case: text("case"),
            raw,
            json,
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
        if self.protocol.is_empty() {
            self.operation.clone()
        } else {
            format!("{} over {} ({})", self.operation, self.protocol, self.case)
        }
    }

    fn returned(&self) -> bool {
        self.json.get("result").is_some()
    }

    /// The value sent as the parameter at `index`.
    fn param(&self, index: usize) -> &Value {
        &self.json["params"][index][1]
    }

    /// What the call came to but its result: the fault or error as printed.
    fn failure(&self) -> String {
        let mut parts = Vec::new();
        for key in ["soap_fault", "http_status", "error"] {
            if let Some(v) = self.json.get(key) {
                parts.push(format!("{key} {v}"));
            }
        }
        parts.join(", ")
    }
}

/// Runs `command` and reads its output lines; `Err` when it printed none.
fn lines_of(mut command: Command, base: &str) -> Result<(Vec<Line>, Vec<String>), String> {
    let output = command
        .output()
        .map_err(|e| format!("cannot run {command:?}: {e}"))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let (mut lines, mut bad) = (Vec::new(), Vec::new());
    for line in stdout.lines() {
        match Line::parse(line, base) {
            Ok(l) => lines.push(l),
            Err(e) => bad.push(e),
        }
    }
    if lines.is_empty() {
        return Err(format!(
            "no call (exit {:?})\n{}",
            output.status.code(),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok((lines, bad))
}

/// Where two texts first differ, with some of each around it.
fn first_difference((a_name, a): (&str, &str), (b_name, b): (&str, &str)) -> String {
    let at = a
        .char_indices()
        .zip(b.chars())
        .find(|((_, x), y)| x != y)
        .map(|((i, _), _)| i)
        .unwrap_or_else(|| a.len().min(b.len()));
    let around = |s: &str| -> String {
        let start = boundary(s, at.saturating_sub(60));
        let end = boundary(s, at + 120);
        s[start..end].to_owned()
    };
    format!(
        "differ at byte {at} (of {} and {}):\n     {a_name}: …{}…\n     {b_name}: …{}…",
        a.len(),
        b.len(),
        around(a),
        around(b)
    )
}

/// The char boundary of `s` at or before `at` (the end of `s` past it).
fn boundary(s: &str, at: usize) -> usize {
    let mut at = at.min(s.len());
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// Checks that the operations called over each protocol are those offered there, in order
/// (each with every case of `cases`).
fn check_order(
    checks: &mut Checks,
    name: &str,
    lines: &[Line],
    protocols: &[(&str, Binding)],
    cases: &[&str],
    offered: fn(Binding) -> Vec<String>,
) {
    for (protocol, binding) in protocols {
        let called: Vec<(&str, &str)> = lines
            .iter()
            .filter(|l| l.protocol == *protocol)
            .map(|l| (l.operation.as_str(), l.case.as_str()))
            .collect();
        let names = offered(*binding);
        let want: Vec<(&str, &str)> = names
            .iter()
            .flat_map(|op| cases.iter().map(move |case| (op.as_str(), *case)))
            .collect();
        let over = if protocol.is_empty() {
            String::new()
        } else {
            format!(" {protocol}")
        };
        checks.check(
            &format!("{name}{over}: every operation offered, in the WSDL's order"),
            if called == want {
                Ok(())
            } else {
                Err(format!("called {called:?}\n     want {want:?}"))
            },
        );
    }
}

// ---------------------------------------------------------------------------------------------
// zeep

fn zeep_section(checks: &mut Checks, python: &str, mono: &Target, ours: &Target) {
    checks.section(
        "zeep: the objects service (classes, arrays, xsi:type, flags, out parameters, DataSets), \
         SOAP 1.1 and 1.2, on both",
    );
    let script = rmm_tests::root().join("tests/interop/zeep/call_all.py");
    for (binding_name, binding) in [("soap11", Binding::Soap11), ("soap12", Binding::Soap12)] {
        let mut runs = Vec::new();
        for target in [mono, ours] {
            let name = format!("zeep objects {} {binding_name}", target.label);
            let mut command = Command::new(python);
            command
                .arg(&script)
                .arg(format!("{}{}?wsdl", target.base, rmm_objects::SERVICE.path))
                .arg(binding_name)
                .args(["--with-params", "--timeout", "60"]);
            match lines_of(command, &target.base) {
                Ok((lines, bad)) => {
                    for e in bad {
                        checks.check(&format!("{name}: output"), Err(e));
                    }
                    check_order(
                        checks,
                        &name,
                        &lines,
                        &[("", binding)],
                        &[""],
                        offered_to_zeep,
                    );
                    for line in &lines {
                        zeep_spot_checks(checks, &name, line);
                    }
                    runs.push(lines);
                }
                Err(e) => {
                    checks.check(&name, Err(e));
                }
            }
        }
        if let [by_mono, by_ours] = runs.as_slice() {
            agree(
                checks,
                &format!("zeep objects {binding_name}"),
                by_mono,
                by_ours,
            );
        }
    }
}

/// What zeep reads back of a value it sent: it reads a nil class as an object of null
/// members, a nil array as an empty one and an empty array as none. Both sides of a
/// comparison go through this: such objects and empty arrays become null.
fn zeep_read(value: &Value) -> Value {
    match value {
        // An object sent (zeep's AnyObject, printed with the type it names) comes back as
        // zeep reads the xsi:type: the value.
        Value::Object(map)
            if map.len() == 2 && map.contains_key("_type") && map.contains_key("value") =>
        {
            zeep_read(&map["value"])
        }
        Value::Object(map) => {
            let fields: serde_json::Map<String, Value> =
                map.iter().map(|(k, v)| (k.clone(), zeep_read(v))).collect();
            if fields.iter().all(|(k, v)| k == "_type" || v.is_null()) {
                Value::Null
            } else {
                Value::Object(fields)
            }
        }
        Value::Array(items) if items.is_empty() => Value::Null,
        Value::Array(items) => Value::Array(items.iter().map(zeep_read).collect()),
        other => other.clone(),
    }
}

/// The results predictable from what zeep sent (see the module's doc).
fn zeep_spot_checks(checks: &mut Checks, name: &str, line: &Line) {
    if !line.returned() {
        return;
    }
    let result = &line.json["result"];
    let params = line.json["params"].as_array().map_or(0, Vec::len);
    let op = line.operation.as_str();
    // Raw XML comes back as zeep reads an element in the response, the namespaces in scope
    // there declared on it (in arrays and classes too): compared between the two servers only.
    // A DataSet goes as its schema and diffgram and comes back as zeep reads them (the
    // schema parsed, the rows typed): the rows zeep's value predicts (`call_all.py`'s
    // `data_set`), and the host's reading of it (`DescribeDataSet`).
    let data_set_rows = serde_json::json!([
        {"T1": {"I": 1, "S": "ds-1 <&> é", "_type": "T1"}},
        {"T1": {"I": null, "S": null, "_type": "T1"}},
    ]);
    let check = if op == "EchoDataSet" {
        let rows = &result["_value_1"][0]["_value_2"]["_value_1"];
        Some(if *rows == data_set_rows {
            Ok(())
        } else {
            Err(format!("rows {rows}, want {data_set_rows}"))
        })
    } else if op == "EchoTable" {
        // A lone DataTable goes as a set naming it its main table and comes back as the
        // element came (zeep cannot read its diffgram): the row zeep's value predicts, read
        // and written back, and the row of nulls.
        let rows = concat!(
            r#"<DocumentElement xmlns=""><T1 diffgr:hasChanges="inserted" diffgr:id="T11" msdata:rowOrder="0">"#,
            r#"<I>1</I><S>table-1 &lt;&amp;&gt; é</S></T1>"#,
            r#"<T1 diffgr:hasChanges="inserted" diffgr:id="T12" msdata:rowOrder="1"></T1></DocumentElement>"#
        );
        Some(match result.as_str() {
            Some(text) if text.contains(rows) && text.contains(r#"msdata:MainDataTable="T1""#) => {
                Ok(())
            }
            _ => Err(format!("echoed {result}, want the rows {rows}")),
        })
    } else if op == "DescribeDataSet" {
        let want = "ds | T1 [I:Int32 S:String ] {Added 1 \"ds-1 <&> é\"} {Added null null}";
        Some(if result.as_str() == Some(want) {
            Ok(())
        } else {
            Err(format!("described {result}, want {want:?}"))
        })
    } else if op.starts_with("Echo")
        && params == 1
        && !matches!(
            op,
            "EchoXml" | "EchoNode" | "EchoElements" | "EchoNodes" | "EchoParcel" | "EchoWrapping"
        )
    {
        let (got, mut sent) = (zeep_read(result), zeep_read(line.param(0)));
        if op == "EchoSettings" {
            // A member equal to its `[DefaultValue]` is left out by either server, and zeep
            // reads an absent element as null, not as the schema's `default`.
            for (member, default) in [
                ("Retries", serde_json::json!(3)),
                ("Enabled", serde_json::json!(true)),
                ("Lang", serde_json::json!("en")),
                ("Priority", serde_json::json!("Normal")),
                ("Ratio", serde_json::json!(1.5)),
            ] {
                if let Some(value) = sent.get_mut(member) {
                    if *value == default {
                        *value = Value::Null;
                    }
                }
            }
        }
        if op == "EchoFlagged" {
            // An attribute equal to its `[DefaultValue]` is left out by either server, and zeep
            // reads an absent attribute as the schema's `default` text, not typed: `"false"`.
            for (attribute, default, text) in [
                ("Required", serde_json::json!(false), "false"),
                ("Count", serde_json::json!(7), "7"),
                ("Grade", serde_json::json!("Normal"), "Normal"),
            ] {
                if let Some(value) = sent.get_mut(attribute) {
                    if *value == default {
                        *value = Value::String(text.to_owned());
                    }
                }
            }
        }
        // A simple result is printed as its wire text (an object's int as "101").
        let as_text = |v: &Value| match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        let simple = !got.is_object() && !got.is_array() && !sent.is_object();
        Some(
            if got == sent || (simple && as_text(&got) == as_text(&sent)) {
                Ok(())
            } else {
                Err(format!("sent {sent}\n     got {got}"))
            },
        )
    } else if op == "MakeTags" {
        // `count` tags, the second null.
        let count = line.param(0).as_str().and_then(|c| c.parse::<usize>().ok());
        let tags = result.as_array();
        Some(match (count, tags) {
            (Some(n), Some(tags)) if tags.len() == n && n > 1 && tags[1].is_null() => Ok(()),
            _ => Err(format!("count {count:?}, tags {result}")),
        })
    } else if op == "CountLines" {
        // The order's lines and `extra`.
        let lines = line.param(0)["Lines"].as_array().map(Vec::len);
        let extra = line.param(1).as_str().and_then(|e| e.parse::<usize>().ok());
        let want = lines.zip(extra).map(|(l, e)| (l + e).to_string());
        Some(if want.as_deref() == result.as_str() {
            Ok(())
        } else {
            Err(format!("got {result}, want {want:?}"))
        })
    } else {
        None
    };
    if let Some(check) = check {
        checks.check(
            &format!(
                "{name} {}: the result the values sent predict",
                line.operation
            ),
            check,
        );
    }
}

/// Mono's lines against ours, call by call: each returned on both or was refused alike (an
/// unformatted `{0}` in the host's refusal excused: the status is compared), and the two lines
/// are identical, but for the known wrong text of the host (non-ASCII over GET/POST).
fn agree(checks: &mut Checks, name: &str, by_mono: &[Line], by_ours: &[Line]) {
    let mono: BTreeMap<_, &Line> = by_mono.iter().map(|l| (l.key(), l)).collect();
    let ours: BTreeMap<_, &Line> = by_ours.iter().map(|l| (l.key(), l)).collect();
    for line in by_ours {
        let call = format!("{name} {}", line.name());
        let Some(theirs) = mono.get(&line.key()) else {
            checks.check(&call, Err("not called on Mono".into()));
            continue;
        };
        let unformatted = theirs.json["error"]
            .as_str()
            .is_some_and(|e| e.contains("{0}"));
        let alike = match (theirs.returned(), line.returned()) {
            (true, true) => Ok(()),
            (false, false) if theirs.failure() == line.failure() => Ok(()),
            (false, false)
                if unformatted && theirs.json["http_status"] == line.json["http_status"] =>
            {
                Ok(())
            }
            _ => Err(format!(
                "Mono: {}\n     ours: {}",
                outcome(theirs),
                outcome(line)
            )),
        };
        checks.check(
            &format!("{call}: returned on both, or refused alike"),
            alike,
        );
        let (check, same) = if theirs.raw == line.raw {
            ("Mono and ours print the same line", Ok(()))
        } else if unformatted && theirs.json["params"] == line.json["params"] {
            // Refused alike (checked above), by status: the host's message is unformatted.
            (
                "Mono and ours print the same line, but for the host's unformatted {0} message",
                Ok(()),
            )
        } else if let Some(wrong) = known_wrong(line) {
            (
                "the host's known wrong text of %u escapes, ours the true one",
                {
                    let mut want = line.json.clone();
                    if let Some(Value::String(r)) = want.get_mut("result") {
                        *r = r.replace(NON_ASCII, &wrong(NON_ASCII));
                    }
                    if want == theirs.json {
                        Ok(())
                    } else {
                        let text = |v: &Value| serde_json::to_string(v).unwrap_or_default();
                        Err(first_difference(
                            ("Mono", &text(&theirs.json)),
                            ("want", &text(&want)),
                        ))
                    }
                },
            )
        } else {
            (
                "Mono and ours print the same line",
                Err(first_difference(("Mono", &theirs.raw), ("ours", &line.raw))),
            )
        };
        checks.check(&format!("{call}: {check}"), same);
        if let Some(wrong) = known_wrong(line) {
            // Ours reads the escapes as the text they stand for (as .NET Framework does).
            let result = line.json["result"].as_str().unwrap_or_default();
            checks.check(
                &format!("{call}: ours reads the %u escapes as the text they stand for"),
                if result.contains(&wrong(NON_ASCII)) {
                    Err(format!("ours answered {result:?}"))
                } else {
                    Ok(())
                },
            );
        }
    }
    if let Some(key) = mono.keys().find(|k| !ours.contains_key(*k)) {
        checks.check(name, Err(format!("{key:?} called on Mono only")));
    }
}

/// A call's result or failure, for a message.
fn outcome(line: &Line) -> String {
    if line.returned() {
        let result = line.json["result"].to_string();
        format!("returned {}", &result[..boundary(&result, 200)])
    } else {
        line.failure()
    }
}

/// How the host misreads the strings of `line`'s call, if it does: non-ASCII text over HTTP
/// GET or POST (`tests/interop/dotnet/README.md`).
fn known_wrong(line: &Line) -> Option<fn(&str) -> String> {
    match (line.case.as_str(), line.protocol.as_str()) {
        ("nonascii", "HttpGet") => Some(mono_query),
        ("nonascii", "HttpPost") => Some(mono_form),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------
// The .NET proxies

/// The protocols, as `wsdl -protocol:` names them, and their bindings.
const PROTOCOLS: [(&str, Binding); 4] = [
    ("SOAP", Binding::Soap11),
    ("SOAP12", Binding::Soap12),
    ("HttpGet", Binding::HttpGet),
    ("HttpPost", Binding::HttpPost),
];
/// The cases `CallAll.cs` runs for this service (no `fault`: nothing here faults on a value).
pub(crate) const CASES: [&str; 2] = ["ascii", "nonascii"];

fn dotnet_section(checks: &mut Checks, mono: &Target, ours: &Target) {
    checks.section(
        "dotnet: the objects service through Mono's wsdl proxies, SOAP 1.1, 1.2, GET and POST, \
         on both",
    );
    let root = rmm_tests::root();
    let mut runs = Vec::new();
    for target in [mono, ours] {
        let name = format!("dotnet objects {}", target.label);
        let mut command = Command::new("bash");
        command
            .arg(root.join("tests/interop/dotnet/run.sh"))
            .arg(&target.base)
            .arg(
                root.join("target/interop/dotnet")
                    .join(format!("objects-{}", target.label.to_lowercase())),
            )
            .env("RMM_SPEC", root.join("tests/objects/rmm-spec.yaml"))
            .env("RMM_CASES", CASES.join(","));
        match lines_of(command, &target.base) {
            Ok((lines, bad)) => {
                for e in bad {
                    checks.check(&format!("{name}: output"), Err(e));
                }
                check_order(checks, &name, &lines, &PROTOCOLS, &CASES, |binding| {
                    offered(binding).into_iter().map(str::to_owned).collect()
                });
                for line in &lines {
                    dotnet_spot_check(checks, &name, line, target.label == mono.label);
                }
                runs.push(lines);
            }
            Err(e) => {
                checks.check(&format!("{name}: run.sh"), Err(e));
            }
        }
    }
    if let [by_mono, by_ours] = runs.as_slice() {
        agree(checks, "dotnet objects", by_mono, by_ours);
    }
}

/// Each `Echo…` operation of one parameter gives back the value sent, as XmlSerializer
/// writes both; over GET/POST a null string travels as an empty one (a query or form has no
/// null), or the call is refused on both servers (checked in [`agree`]).
fn dotnet_spot_check(checks: &mut Checks, name: &str, line: &Line, on_mono: bool) {
    let params = line.json["params"].as_array().map_or(0, Vec::len);
    if !line.operation.starts_with("Echo") || params != 1 {
        return;
    }
    let http = line.protocol.starts_with("Http");
    if http && !line.returned() {
        return;
    }
    // A typed DataSet, which the proxy cannot send (CallAll.cs says so instead of calling).
    let not_called = line.json["error"]
        .as_str()
        .is_some_and(|e| e.starts_with("not called: "));
    if not_called {
        return;
    }
    let mut want = line.param(0).as_str().unwrap_or_default().to_owned();
    if http {
        want = want.replace(" xsi:nil=\"true\" />", " />");
    }
    if on_mono {
        if let Some(wrong) = known_wrong(line) {
            want = want.replace(NON_ASCII, &wrong(NON_ASCII));
        }
    }
    // A parameter whose element the response holds under the same name (a class with a root,
    // echoed: `Receipt` both ways) is a `ref` parameter of a void method to Mono's wsdl, as
    // to .NET's: the echo is what the call left in it.
    let returned = match (line.json["result"].as_str(), line.json["out"].as_array()) {
        (None, Some(outs)) if outs.len() == 1 => outs[0][1].as_str(),
        (returned, _) => returned,
    };
    let result = match returned {
        Some(got) if got == want => Ok(()),
        Some(got) => Err(first_difference(("got", got), ("want", &want))),
        None => Err(format!("{}\n     want {want}", outcome(line))),
    };
    checks.check(
        &format!("{name} {}: echoes the value sent", line.name()),
        result,
    );
}
