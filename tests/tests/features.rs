//! What a downstream compiles with each feature set of the generated crate, read from Cargo's
//! own resolution (`cargo tree`, offline): one that only calls the service gets no server side
//! of hyper, one that only serves it no reqwest, and the default has both.

use std::process::Command;

/// `cargo tree -p rmm-mobile ARGS…`, offline, from the workspace root: (success, stdout+stderr).
fn tree(args: &[&str]) -> (bool, String) {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .current_dir(rmm_tests::root())
        .args(["tree", "--offline", "-p", "rmm-mobile"])
        .args(args)
        .output()
        .expect("cargo runs");
    let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&output.stderr));
    (output.status.success(), text)
}

fn hyper_features(features: &[&str]) -> String {
    let mut args = vec!["-e", "features", "-i", "hyper"];
    args.extend_from_slice(features);
    let (ok, text) = tree(&args);
    assert!(ok, "{text}");
    text
}

fn has_reqwest(features: &[&str]) -> bool {
    let mut args = vec!["-i", "reqwest"];
    args.extend_from_slice(features);
    let (ok, text) = tree(&args);
    assert!(ok || text.contains("did not match any packages"), "{text}");
    ok
}

const CLIENT: &[&str] = &["--no-default-features", "--features", "client"];
const SERVER: &[&str] = &["--no-default-features", "--features", "server"];

#[test]
fn a_client_only_downstream_compiles_no_server_side_of_hyper() {
    let hyper = hyper_features(CLIENT);
    assert!(hyper.contains("hyper feature \"client\""), "{hyper}");
    assert!(!hyper.contains("hyper feature \"server\""), "{hyper}");
    assert!(!hyper.contains("hyper-util feature \"server\""), "{hyper}");
    assert!(has_reqwest(CLIENT));
}

#[test]
fn a_server_only_downstream_compiles_no_reqwest() {
    assert!(!has_reqwest(SERVER));
    assert!(hyper_features(SERVER).contains("hyper feature \"server\""));
}

#[test]
fn the_default_has_both() {
    assert!(has_reqwest(&[]));
    assert!(hyper_features(&[]).contains("hyper feature \"server\""));
}
