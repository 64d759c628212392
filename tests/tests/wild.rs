//! Real services' WSDLs (`tests/fixtures/wild/`, each with its source in `SOURCES.md`):
//! each imports as a whole and with `--skip-unsupported`, and the share of operations that
//! import is what `tests/fixtures/wild/IMPORT.md` reports, so a change to the import shows up
//! there. A WSDL with a generated crate in `tests/wild/NAME/` (which `cargo test --workspace`
//! builds) imports, with `--skip-unsupported`, to the spec committed beside it, and that crate is
//! fresh; the others have no committed crate (it would cost every CI run its build):
//! `tests/wire/run.sh` generates, builds and judges them.

use std::fmt::Write as _;
use std::path::Path;

use rmm_codegen::import;

/// The corpus's WSDLs, by name (`taxcloud` for `taxcloud.wsdl`), in name order.
fn corpus(root: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root.join("tests/fixtures/wild"))
        .unwrap()
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            e.file_name()
                .to_str()
                .and_then(|n| n.strip_suffix(".wsdl"))
                .map(str::to_owned)
        })
        .collect();
    names.sort();
    names
}

/// How many operations the first `wsdl:portType` declares (what a client of the service sees),
/// counted in its text between its tags.
fn declared_operations(wsdl: &str) -> usize {
    let start = wsdl.find(":portType ").or_else(|| wsdl.find("<portType "));
    let Some(start) = start else { return 0 };
    let rest = &wsdl[start..];
    let end = rest.find("portType>").unwrap_or(rest.len());
    rest[..end].matches(":operation name=").count()
        + rest[..end].matches("<operation name=").count()
}

/// The spec committed in `tests/wild/NAME/` is what importing the WSDL with `--skip-unsupported`
/// gives, and the crate there is what generating it gives.
fn check_crate(
    root: &Path,
    name: &str,
    file: &str,
    imported: &import::Imported,
    problems: &mut Vec<String>,
) {
    let spec_file = format!("tests/wild/{name}/rmm-spec.yaml");
    let committed = std::fs::read_to_string(root.join(&spec_file)).unwrap();
    if imported.to_yaml() != committed {
        problems.push(format!(
            "{spec_file} is not what importing {file} gives; run `cargo xtask import {file} --skip-unsupported --out {spec_file}`"
        ));
    }
    let options = rmm_codegen::CrateOptions {
        runtime: rmm_codegen::RuntimeDependency::Path("../../../runtime".into()),
        spec: Some("rmm-spec.yaml".into()),
    };
    let generated = rmm_codegen::generate_crate_from_source(&committed, &spec_file, &options)
        .unwrap_or_else(|e| panic!("{e}"));
    let stale =
        rmm_codegen::stale_crate(&generated, &root.join(format!("tests/wild/{name}"))).unwrap();
    if !stale.is_empty() {
        problems.push(format!(
            "tests/wild/{name} is stale; run `cargo xtask gen --spec {spec_file} --out tests/wild/{name}`: {}",
            stale.join(", ")
        ));
    }
}

#[test]
fn real_services_import_to_their_committed_specs_and_crates() {
    let root = rmm_tests::root();
    let names = corpus(&root);
    assert!(names.len() >= 60, "the corpus holds {} WSDLs", names.len());
    let mut report = String::from(
        "| WSDL | committed crate | operations | imported whole | imported with --skip-unsupported | left out |\n|---|---|---|---|---|---|\n",
    );
    let mut crates = 0;
    let (mut total, mut whole_ops, mut skipped_ops_total) = (0, 0, 0);
    let mut problems = Vec::new();
    for name in &names {
        let file = format!("tests/fixtures/wild/{name}.wsdl");
        let wsdl = std::fs::read_to_string(root.join(&file)).unwrap();
        let declared = declared_operations(&wsdl);
        let whole = import::read(&wsdl, &file).is_ok();
        let has_crate = root.join(format!("tests/wild/{name}")).is_dir();
        let imported = match import::read_skipping_unsupported(&wsdl, &file) {
            Ok(imported) => imported,
            Err(e) if !has_crate => {
                total += declared;
                let _ = writeln!(
                    report,
                    "| {name}.wsdl | no | {declared} | no | none: {} | |",
                    e.to_string().lines().next().unwrap_or_default()
                );
                continue;
            }
            Err(e) => panic!("{file} does not import even skipping: {e}"),
        };
        if has_crate {
            crates += 1;
            check_crate(&root, name, &file, &imported, &mut problems);
        }
        let got = imported.operations.len();
        let left_out: std::collections::BTreeSet<String> = imported
            .skipped
            .iter()
            .filter_map(|e| {
                e.message
                    .strip_prefix("operation ")
                    .and_then(|m| m.split(':').next())
                    .map(str::to_owned)
            })
            .collect();
        total += declared;
        skipped_ops_total += got;
        if whole {
            whole_ops += declared;
        }
        let _ = writeln!(
            report,
            "| {name}.wsdl | {} | {declared} | {} | {got} | {} |",
            if has_crate { "yes" } else { "no" },
            if whole { "yes" } else { "no" },
            left_out.into_iter().collect::<Vec<_>>().join(", ")
        );
    }
    let _ = writeln!(
        report,
        "| **total** | **{crates} of {}** | **{total}** | **{whole_ops} operations ({:.0} %)** | **{skipped_ops_total} ({:.0} %)** | |",
        names.len(),
        100.0 * whole_ops as f64 / total as f64,
        100.0 * skipped_ops_total as f64 / total as f64
    );
    assert!(
        crates >= 20,
        "only {crates} WSDLs have a crate in tests/wild/"
    );
    let report_file = root.join("tests/fixtures/wild/IMPORT.md");
    let head = "# What of the real services imports\n\nWritten by `tests/tests/wild.rs` (run it with `RMM_WRITE_WILD=1` to rewrite this file): each WSDL of this folder imported as a whole (without `--skip-unsupported`), and with it, and which operations were left out. \"committed crate\": yes where `tests/wild/NAME/` holds its generated crate (spec and crate checked fresh here, built by `cargo test --workspace`); the others are generated, built and judged on the wire by `tests/wire/run.sh` only.\n\n";
    let want = format!("{head}{report}");
    if std::env::var_os("RMM_WRITE_WILD").is_some() {
        std::fs::write(&report_file, &want).unwrap();
    }
    let have = std::fs::read_to_string(&report_file).unwrap_or_default();
    if have != want {
        problems.push(format!(
            "tests/fixtures/wild/IMPORT.md is not current (RMM_WRITE_WILD=1 rewrites it):\n{want}"
        ));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
