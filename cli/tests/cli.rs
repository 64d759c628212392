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
fn gen_writes_a_crate_on_the_runtimes_version_and_check_names_what_is_stale() {
    let dir = scratch("gen");
    std::fs::copy(root().join("rmm-spec.yaml"), dir.join("rmm-spec.yaml")).expect("the spec");
    let written = rmm(&dir, &["gen", "--out", "mobile"]);
    assert!(written.status.success(), "{}", stderr(&written));
    let manifest = std::fs::read_to_string(dir.join("mobile/Cargo.toml")).expect("a manifest");
    assert!(
        manifest.contains(&format!(
            "rmm-runtime = {{ version = \"{}\", default-features = false }}",
            env!("CARGO_PKG_VERSION")
        )),
        "{manifest}"
    );
    assert!(dir.join("mobile/src/lib.rs").is_file());

    let current = rmm(&dir, &["gen", "--out", "mobile", "--check"]);
    assert!(current.status.success(), "{}", stderr(&current));
    std::fs::write(dir.join("mobile/src/wsdl.rs"), "// edited\n").expect("an edit");
    let stale = rmm(&dir, &["gen", "--out", "mobile", "--check"]);
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

    // With --runtime-path, a path from the crate to that directory.
    let pathed = rmm(
        &dir,
        &[
            "gen",
            "--out",
            "mobile",
            "--runtime-path",
            root().join("runtime").to_str().unwrap(),
        ],
    );
    assert!(pathed.status.success(), "{}", stderr(&pathed));
    let manifest = std::fs::read_to_string(dir.join("mobile/Cargo.toml")).expect("a manifest");
    let runtime = root().join("runtime");
    let expected = pathdiff(&dir.join("mobile"), &runtime);
    assert!(
        manifest.contains(&format!("rmm-runtime = {{ path = \"{expected}\"")),
        "{manifest}"
    );
}

/// `to` relative to `from`, both absolute and without `..`.
fn pathdiff(from: &Path, to: &Path) -> String {
    let from: Vec<_> = from.components().collect();
    let to: Vec<_> = to.components().collect();
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<String> = vec!["..".to_owned(); from.len() - common];
    parts.extend(
        to[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    parts.join("/")
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
    assert!(!dir.join("generated").exists(), "nothing is written");
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
