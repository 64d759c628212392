//! Real services' WSDLs that have no committed crate: `tests/fixtures/survey/` (in the fixing
//! loop) and `tests/fixtures/heldout/` (held out of it, reported apart). Each imports as a
//! whole or not, imports with `--skip-unsupported`, and what it imports must generate: a spec
//! `rmm import` writes is one `rmm gen` accepts, always. Each folder's IMPORT.md reports the
//! figures (rewrite them with `RMM_WRITE_SURVEY=1`), so a change to the import shows there.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use rmm_codegen::import;

/// The folder's WSDLs, by file name, in name order.
fn wsdls(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str().map(str::to_owned))
        .filter(|n| n.ends_with(".wsdl"))
        .collect();
    names.sort();
    names
}

/// How many operations the SOAP 1.1 binding's port type declares, counted as `stats.py`
/// counts them (every `wsdl:operation` of the first `wsdl:portType`).
fn declared_operations(wsdl: &str) -> usize {
    let document = roxmltree::Document::parse(wsdl).expect("well-formed");
    let port_type = document
        .descendants()
        .find(|n| n.tag_name().name() == "portType");
    port_type.map_or(0, |pt| {
        pt.children()
            .filter(|n| n.tag_name().name() == "operation")
            .count()
    })
}

/// A problem's message without its operation, parameter and type names: what kind of
/// construct it refuses (`it uses the type T, which has a choice (xs:choice)`).
fn kind(message: &str) -> String {
    let first_line = message.lines().next().unwrap_or_default();
    let mut words: Vec<&str> = Vec::new();
    let mut after = "";
    for word in first_line.split(' ') {
        let named = matches!(
            after,
            "operation"
                | "parameter"
                | "type"
                | "class"
                | "member"
                | "element"
                | "header"
                | "attribute"
                | "namespace"
                | "items"
        ) || (after == "of" && words.len() >= 2 && words[words.len() - 2] == "…")
            || word.starts_with("(http");
        words.push(if named { "…" } else { word });
        after = word;
    }
    words
        .join(" ")
        .replace("…:", "…")
        .chars()
        .take(140)
        .collect()
}

/// Imports and generates every WSDL of `folder`; returns its report, and the WSDLs whose
/// imported spec `rmm gen` refuses.
fn survey(root: &Path, folder: &str) -> (String, Vec<String>) {
    let dir = root.join(folder);
    let names = wsdls(&dir);
    let mut report = String::from(
        "| WSDL | operations | imported whole | imported with --skip-unsupported | share |\n|---|---|---|---|---|\n",
    );
    let (mut total, mut imported_total) = (0, 0);
    let mut refused = Vec::new();
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    for name in &names {
        let file = format!("{folder}/{name}");
        let wsdl = std::fs::read_to_string(dir.join(name)).unwrap();
        let declared = declared_operations(&wsdl);
        let whole = import::read(&wsdl, &file).is_ok();
        let imported = match import::read_skipping_unsupported(&wsdl, &file) {
            Ok(imported) => imported,
            Err(errors) => {
                let _ = writeln!(
                    report,
                    "| {name} | {declared} | no | none: {} |  |",
                    kind(&errors.to_string())
                );
                total += declared;
                continue;
            }
        };
        for problem in &imported.skipped {
            *kinds.entry(kind(&problem.message)).or_default() += 1;
        }
        let options = rmm_codegen::CrateOptions {
            runtime: rmm_codegen::RuntimeDependency::Path("../runtime".into()),
            spec: Some("rmm-spec.yaml".into()),
        };
        if let Err(e) =
            rmm_codegen::generate_crate_from_source(&imported.to_yaml(), &file, &options)
        {
            refused.push(format!(
                "{file}: rmm gen refuses what rmm import wrote: {e}"
            ));
        }
        let got = imported.operations.len();
        total += declared;
        imported_total += got;
        let _ = writeln!(
            report,
            "| {name} | {declared} | {} | {got} | {}% |",
            if whole { "yes" } else { "no" },
            (got * 100).checked_div(declared).unwrap_or(100)
        );
    }
    let _ = writeln!(
        report,
        "| **total ({} files)** | **{total}** | | **{imported_total}** | **{}%** |",
        names.len(),
        (imported_total * 100).checked_div(total).unwrap_or(100)
    );
    let mut by_count: Vec<_> = kinds.into_iter().collect();
    by_count.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    report.push_str("\nWhat was left out, by kind (problems, each an operation or a type it uses):\n\n| problems | kind |\n|---|---|\n");
    for (kind, count) in by_count {
        let _ = writeln!(report, "| {count} | {} |", kind.replace('|', "\\|"));
    }
    (report, refused)
}

fn check(folder: &str, title: &str) {
    let root = rmm_tests::root();
    let (table, refused) = survey(&root, folder);
    let report = format!(
        "# {title}\n\nWritten by `tests/tests/survey.rs` (run it with `RMM_WRITE_SURVEY=1` to rewrite \
         this file): each WSDL of this folder imported as a whole (without `--skip-unsupported`), \
         and with it; the share is of the operations its port type declares.\n\n{table}"
    );
    let path = root.join(folder).join("IMPORT.md");
    if std::env::var_os("RMM_WRITE_SURVEY").is_some() {
        std::fs::write(&path, &report).unwrap();
    } else {
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == report,
            "{folder}/IMPORT.md is not what importing gives; rerun with RMM_WRITE_SURVEY=1 and \
             read the difference:\n{report}"
        );
    }
    assert!(refused.is_empty(), "{}", refused.join("\n"));
}

#[test]
fn the_survey_imports_and_generates() {
    check(
        "tests/fixtures/survey",
        "What of the survey's services imports",
    );
}

#[test]
fn the_held_out_services_import_and_generate() {
    check(
        "tests/fixtures/heldout",
        "What of the held-out services imports (never tuned on)",
    );
}
