//! The `rmm` command as a user runs it, from a directory outside the workspace: its exit
//! statuses, the crate it writes (depending on rmm-runtime by version unless told a path),
//! and the messages it prints.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The workspace root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("cli/ has a parent")
        .to_path_buf()
}

/// A fresh scratch directory of its own for `name`.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("cli")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// `rmm args…` run in `dir`.
fn rmm(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rmm"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("rmm runs")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn gen_writes_a_crate_on_the_checkouts_runtime_and_check_names_what_is_stale() {
    let dir = scratch("gen");
    std::fs::copy(root().join("rmm-spec.yaml"), dir.join("rmm-spec.yaml")).expect("the spec");
    // No flag: the crate is named after the spec's crate and takes rmm-runtime by version
    // from this checkout's runtime/ (this `rmm` was built from it), by its absolute path.
    let written = rmm(&dir, &["gen"]);
    assert!(written.status.success(), "{}", stderr(&written));
    let manifest = std::fs::read_to_string(dir.join("rmm-mobile/Cargo.toml")).expect("a manifest");
    let runtime = std::fs::canonicalize(root().join("runtime")).expect("the runtime");
    assert!(
        manifest.contains(&format!(
            "# From the rmm checkout `rmm` was installed from: delete `path = …` to take \
             rmm-runtime from crates.io.\nrmm-runtime = {{ version = \"{}\", path = \"{}\", \
             default-features = false }}",
            env!("CARGO_PKG_VERSION"),
            runtime.display()
        )),
        "{manifest}"
    );
    assert!(dir.join("rmm-mobile/src/lib.rs").is_file());

    let current = rmm(&dir, &["gen", "--check"]);
    assert!(current.status.success(), "{}", stderr(&current));
    std::fs::write(dir.join("rmm-mobile/src/wsdl.rs"), "// edited\n").expect("an edit");
    let stale = rmm(&dir, &["gen", "--check"]);
    assert_eq!(stale.status.code(), Some(1));
    let message = stderr(&stale);
    assert!(
        message.contains("is out of date with rmm-spec.yaml"),
        "{message}"
    );
    assert!(message.contains("wsdl.rs"), "{message}");
    assert!(
        message.contains("run `rmm gen` (with the same --spec and --out)"),
        "{message}"
    );

    // --runtime-registry: the version alone, for a registry that has it.
    let registry = rmm(&dir, &["gen", "--out", "mobile", "--runtime-registry"]);
    assert!(registry.status.success(), "{}", stderr(&registry));
    let manifest = std::fs::read_to_string(dir.join("mobile/Cargo.toml")).expect("a manifest");
    assert!(
        manifest.contains(&format!(
            "\nrmm-runtime = {{ version = \"{}\", default-features = false }}",
            env!("CARGO_PKG_VERSION")
        )),
        "{manifest}"
    );

    // --runtime-path: that directory, by its absolute path, so the crate can move.
    let elsewhere = dir.join("runtime-copy");
    let pathed = rmm(
        &dir,
        &["gen", "--out", "mobile", "--runtime-path", "runtime-copy"],
    );
    assert!(pathed.status.success(), "{}", stderr(&pathed));
    let manifest = std::fs::read_to_string(dir.join("mobile/Cargo.toml")).expect("a manifest");
    assert!(
        manifest.contains(&format!(
            "rmm-runtime = {{ version = \"{}\", path = \"{}\"",
            env!("CARGO_PKG_VERSION"),
            elsewhere.display()
        )),
        "{manifest}"
    );
    let both = rmm(&dir, &["gen", "--runtime-path", "x", "--runtime-registry"]);
    assert_eq!(both.status.code(), Some(2), "{}", stderr(&both));
}

#[test]
fn a_bad_spec_is_named_where_it_is_wrong_and_fails() {
    let dir = scratch("bad");
    std::fs::copy(
        root().join("tests/bad-specs/typed-data-set.yaml"),
        dir.join("bad.yaml"),
    )
    .expect("a bad spec");
    let output = rmm(&dir, &["gen", "--spec", "bad.yaml"]);
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert!(
        message.contains("bad.yaml:16:16: data set \"ShopDs\" has an empty namespace"),
        "{message}"
    );
    let entries: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(entries, ["bad.yaml"], "nothing is written");
    // A usage error is clap's: status 2, the usage named.
    let usage = rmm(&dir, &["gen", "--nope"]);
    assert_eq!(usage.status.code(), Some(2));
    assert!(
        stderr(&usage).contains("Usage: rmm gen"),
        "{}",
        stderr(&usage)
    );
}

#[test]
fn import_writes_the_spec_a_saved_wsdl_describes() {
    let dir = scratch("import");
    let wsdl = root().join("tests/fixtures/types/wsdl.xml");
    let output = rmm(
        &dir,
        &["import", wsdl.to_str().unwrap(), "--out", "types.yaml"],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let spec = std::fs::read_to_string(dir.join("types.yaml")).expect("a spec");
    assert!(spec.contains("name: TypesService"), "{spec}");
    let generated = rmm(&dir, &["gen", "--spec", "types.yaml", "--out", "types"]);
    assert!(generated.status.success(), "{}", stderr(&generated));
}

/// The quick start's two commands with no flag: `rmm import` writes rmm-spec.yaml, which
/// `rmm gen` reads, as the imported spec's header says; a second import does not replace
/// that spec (it may hold credential lists filled in by hand) unless told to.
#[test]
fn import_then_gen_need_no_flags_and_an_import_keeps_an_edited_spec() {
    let dir = scratch("import-defaults");
    let wsdl = root().join("tests/fixtures/wild/dneonline-calculator.wsdl");
    let wsdl = wsdl.to_str().unwrap();
    let output = rmm(&dir, &["import", wsdl]);
    assert!(output.status.success(), "{}", stderr(&output));
    let spec = std::fs::read_to_string(dir.join("rmm-spec.yaml")).expect("rmm-spec.yaml");
    assert!(spec.contains("Then run `rmm gen`."), "{spec}");
    let generated = rmm(&dir, &["gen"]);
    assert!(generated.status.success(), "{}", stderr(&generated));
    assert!(dir.join("rmm-calculator/src/client.rs").is_file());

    std::fs::write(dir.join("rmm-spec.yaml"), format!("{spec}# edited\n")).unwrap();
    let again = rmm(&dir, &["import", wsdl]);
    assert_eq!(again.status.code(), Some(1));
    assert!(
        stderr(&again).contains("rmm-spec.yaml is there already: give --force to replace it"),
        "{}",
        stderr(&again)
    );
    let kept = std::fs::read_to_string(dir.join("rmm-spec.yaml")).unwrap();
    assert!(kept.ends_with("# edited\n"), "the spec is kept");
    let forced = rmm(&dir, &["import", wsdl, "--force"]);
    assert!(forced.status.success(), "{}", stderr(&forced));
    assert_eq!(
        std::fs::read_to_string(dir.join("rmm-spec.yaml")).unwrap(),
        spec
    );
    // `--out -`: standard output.
    let printed = rmm(&dir, &["import", wsdl, "--out", "-"]);
    assert!(printed.status.success(), "{}", stderr(&printed));
    assert_eq!(String::from_utf8(printed.stdout).unwrap(), spec);
}

/// A fetch that fails says why, down to the cause (here a refused connection), not only
/// that sending failed.
#[test]
fn a_failed_fetch_names_its_cause() {
    let dir = scratch("fetch-cause");
    // A port bound and never listened on, held while rmm runs: the kernel refuses every
    // connection to it, and no other test's server can take it meanwhile.
    let refusing = greeter::runtime::deps::tokio::net::TcpSocket::new_v4().unwrap();
    refusing.bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let port = refusing.local_addr().unwrap().port();
    let url = format!("http://127.0.0.1:{port}/Svc.asmx?WSDL");
    let spec = root().join("rmm-spec.yaml");
    let diff = rmm(&dir, &["diff", spec.to_str().unwrap(), &url]);
    assert_eq!(diff.status.code(), Some(2));
    let message = stderr(&diff);
    assert!(message.contains(&url), "{message}");
    assert!(message.contains("Connection refused"), "{message}");
    let import = rmm(&dir, &["import", &url]);
    assert_eq!(import.status.code(), Some(1));
    assert!(
        stderr(&import).contains("Connection refused"),
        "{}",
        stderr(&import)
    );
}

/// The types reference host's WSDL (recorded) and its committed spec, changed by `edits`
/// (each a `(from, to)` replacement of the spec's text, which must apply once).
fn types_spec_with(dir: &Path, edits: &[(&str, &str)]) -> PathBuf {
    let mut text = std::fs::read_to_string(root().join("tests/types/rmm-spec.yaml")).unwrap();
    for (from, to) in edits {
        assert_eq!(text.matches(from).count(), 1, "{from:?} once in the spec");
        text = text.replacen(from, to, 1);
    }
    let path = dir.join("types.yaml");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn diff_names_each_seeded_difference_and_exits_1_and_0_when_equal() {
    let dir = scratch("diff");
    let wsdl = root().join("tests/fixtures/types/wsdl.xml");
    let wsdl = wsdl.to_str().unwrap();
    // The committed spec, and the crate made from it (its Cargo.toml names its spec).
    for spec in [
        root().join("tests/types/rmm-spec.yaml"),
        root().join("tests/types"),
    ] {
        let same = rmm(&dir, &["diff", spec.to_str().unwrap(), wsdl]);
        assert_eq!(same.status.code(), Some(0), "{}", stderr(&same));
        assert!(same.stdout.is_empty());
        // A person is told they agree, on standard error (standard output stays the list).
        assert!(
            stderr(&same).starts_with("no difference: ") && stderr(&same).contains(" agree"),
            "{}",
            stderr(&same)
        );
    }
    let spec = types_spec_with(
        &dir,
        &[
            // An operation the service does not offer, and one it offers left out.
            ("  - name: EchoBoolean\n", "  - name: EchoBool\n"),
            // A parameter renamed, one retyped, a result retyped.
            (
                "  - name: EchoInt\n    description: \"Echoes an int.\"\n    params:\n      - value: int",
                "  - name: EchoInt\n    description: \"Echoes an int.\"\n    params:\n      - number: int",
            ),
            (
                "      - value: long\n    result: long",
                "      - value: int\n    result: int",
            ),
            // A binding the service offers, withdrawn here.
            (
                "  - name: EchoLevel\n    description: \"Echoes an enum value.\"\n",
                "  - name: EchoLevel\n    description: \"Echoes an enum value.\"\n    bindings: [soap11, soap12]\n",
            ),
            // An enum value, the namespace and the path.
            ("      - Normal\n", "      - Medium\n"),
            (
                "namespace: http://rmm.example.com/types",
                "namespace: http://rmm.example.com/types2",
            ),
            ("path: /api/rmm/TypesService.asmx", "path: /api/TypesService.asmx"),
        ],
    );
    let text = rmm(&dir, &["diff", spec.to_str().unwrap(), wsdl]);
    assert_eq!(text.status.code(), Some(1), "{}", stderr(&text));
    let lines: Vec<String> = String::from_utf8_lossy(&text.stdout)
        .lines()
        .map(str::to_owned)
        .collect();
    let expected = [
        "service: namespace \"http://rmm.example.com/types2\" in the spec, \"http://rmm.example.com/types\" by the service",
        "service: path \"/api/TypesService.asmx\" in the spec, \"/api/rmm/TypesService.asmx\" by the service",
        "operation EchoBool: in the spec, not offered by the service",
        "operation EchoInt: parameter number: int is in the spec, not taken by the service",
        "operation EchoInt: parameter value: int is taken by the service, not in the spec",
        "operation EchoLong: parameter value: int in the spec is value: long by the service",
        "operation EchoLong: the result is int in the spec, long by the service",
        "operation EchoLevel: offered over get by the service, not in the spec",
        "operation EchoLevel: offered over post by the service, not in the spec",
        "operation EchoBoolean: offered by the service, not in the spec",
        "enum Level: values added by the service: [Normal]; removed: [Medium]",
    ];
    assert_eq!(lines, expected);

    let json = rmm(
        &dir,
        &["diff", spec.to_str().unwrap(), wsdl, "--format", "json"],
    );
    assert_eq!(json.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    assert_eq!(report["equal"], false);
    let kinds: Vec<&str> = report["differences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "namespace-changed",
            "path-changed",
            "operation-withdrawn",
            "parameter-removed",
            "parameter-added",
            "parameter-retyped",
            "result-retyped",
            "binding-offered",
            "binding-offered",
            "operation-added",
            "enum-values-changed",
        ]
    );

    // An error (no such WSDL) is status 2, named.
    let error = rmm(&dir, &["diff", spec.to_str().unwrap(), "no-such.wsdl"]);
    assert_eq!(error.status.code(), Some(2));
    assert!(
        stderr(&error).contains("no-such.wsdl"),
        "{}",
        stderr(&error)
    );
}

/// `rmm diff` of the encoded service: its spec and the host's WSDL agree; a SOAPAction, a
/// request namespace and the service's style changed in the spec are each named.
#[test]
fn diff_names_actions_styles_and_rpc_namespaces() {
    let dir = scratch("diff-encoded");
    let wsdl = root().join("tests/fixtures/encoded/wsdl.xml");
    let wsdl = wsdl.to_str().unwrap();
    let committed = root().join("tests/encoded/rmm-spec.yaml");
    let same = rmm(&dir, &["diff", committed.to_str().unwrap(), wsdl]);
    assert_eq!(same.status.code(), Some(0), "{}", stderr(&same));
    let text = std::fs::read_to_string(&committed)
        .unwrap()
        .replacen("  - name: Add\n", "  - name: Add\n    action: urn:add\n", 1)
        .replace(
            "request_namespace: \"urn:rmm:req\"",
            "request_namespace: \"urn:rmm:other\"",
        );
    let seeded = dir.join("encoded.yaml");
    std::fs::write(&seeded, text).unwrap();
    let out = rmm(&dir, &["diff", seeded.to_str().unwrap(), wsdl]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).lines().collect::<Vec<_>>(),
        [
            "operation Add: the SOAPAction is \"urn:add\" in the spec, \"http://rmm.example.com/encoded/Add\" by the service",
            "operation Renamed: the request element's namespace is \"urn:rmm:other\" in the spec, \"urn:rmm:req\" by the service",
        ]
    );
    // A spec of a document/literal service, against the rpc one: the style is named first.
    let document = std::fs::read_to_string(&committed)
        .unwrap()
        .replacen("  style: rpc\n", "", 1)
        .replace("    request_namespace: \"urn:rmm:req\"\n", "")
        .replace("    response_namespace: \"urn:rmm:resp\"\n", "");
    std::fs::write(&seeded, document).unwrap();
    let out = rmm(&dir, &["diff", seeded.to_str().unwrap(), wsdl]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let lines = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(
        lines.lines().next(),
        Some("service: document/literal in the spec, rpc/encoded (style: rpc) by the service"),
        "{lines}"
    );
}
