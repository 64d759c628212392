//! Bad-input tests of the generator (spec loader and model): every file in `tests/bad-specs/` must be refused, and
//! the messages it gets are snapshotted (one snapshot per case) so that a change in what the
//! user reads shows up in review.

use std::path::Path;

use rmm_codegen::spec;

/// The repository root (this crate lives in `tests/`).
fn repo_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests crate sits in the repository")
}

#[test]
fn refused() {
    insta::glob!("../bad-specs", "*.yaml", |path| {
        let case = path
            .file_name()
            .and_then(|name| name.to_str())
            .expect("a UTF-8 file name");
        // Named relative to the repository root, so messages are the same on every machine.
        let file = format!("tests/bad-specs/{case}");
        let text = std::fs::read_to_string(path).expect("the case is readable");
        // The whole generator: spec validation, then the model's naming checks.
        let errors = match rmm_codegen::generate_from_source(&text, &file) {
            Ok(_) => panic!("{file} was accepted, but every bad spec must be refused"),
            Err(errors) => errors,
        };
        assert!(!errors.0.is_empty(), "{file}: an Err with no error in it");
        insta::assert_snapshot!(errors.to_string());
    });
}

#[test]
fn the_real_spec_loads() {
    let spec = spec::load(&repo_root().join("rmm-spec.yaml")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(spec.operations.len(), 20);
}

#[test]
fn an_unreadable_spec_names_its_path() {
    let path = repo_root().join("tests/bad-specs/no-such-case.yaml");
    let errors = spec::load(&path).expect_err("a missing file cannot load");
    let shown = errors.to_string();
    assert!(
        shown.starts_with(&format!("{}: cannot read the spec file: ", path.display())),
        "{shown}"
    );
}
