//! `rmm diff SPEC WSDL`: how a live service (or a saved WSDL) has drifted from a spec.

use std::path::{Path, PathBuf};

use crate::Outcome;

/// How [`diff`] prints the differences.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DiffFormat {
    /// One difference a line: `subject: what differs`.
    Text,
    /// A JSON object: `equal`, the spec and service compared, and each difference's `kind`,
    /// `subject` and `message`.
    Json,
}

/// What [`diff`] compares.
#[derive(Debug, Clone)]
pub struct DiffOptions {
    /// The spec, or the directory of a crate `rmm gen` wrote.
    pub spec: PathBuf,
    /// The service's WSDL: a URL or a file.
    pub source: String,
    /// How to print.
    pub format: DiffFormat,
}

/// Imports the service's WSDL (fetching what it imports) and names each way it differs from
/// the spec, on standard output. [`Outcome::Differs`] when there is one.
pub fn diff(options: &DiffOptions) -> Result<Outcome, String> {
    let spec_path = spec_of(&options.spec)?;
    let spec = rmm_codegen::spec::load(&spec_path).map_err(|e| e.to_string())?;
    let text = crate::import::wsdl_text(&options.source)?;
    let mut imported = rmm_codegen::import::read_fetching(
        &text,
        &options.source,
        false,
        &mut crate::import::fetch_schema,
    )
    .map_err(|e| e.to_string())?;
    let probed = crate::import::with_script_face(&mut imported, &options.source);
    let yaml = imported.to_yaml();
    let mut service = rmm_codegen::spec::parse(&yaml, &options.source)
        .map_err(|e| format!("the spec the service's WSDL imports to does not load: {e}"))?;
    // What the service does not show is not compared: its JSON face where no live service was
    // asked for its `/js` (a saved WSDL), and which operations answer JSON calls in XML
    // (`[ScriptMethod(ResponseFormat = Xml)]`, in no proxy).
    if !probed {
        service.service.script = spec.service.script.clone();
    }
    for op in &mut service.operations {
        if let Some(ours) = spec.operations.iter().find(|o| o.name == op.name) {
            op.script_xml = ours.script_xml;
            if !probed {
                op.script_get = ours.script_get;
            }
        }
    }
    let differences = rmm_codegen::drift::differences(&spec, &service);
    match options.format {
        DiffFormat::Text => {
            for difference in &differences {
                println!("{difference}");
            }
            // Standard output stays one difference a line; a person is told on standard error.
            if differences.is_empty() {
                eprintln!(
                    "no difference: {} and {} agree",
                    spec_path.display(),
                    options.source
                );
            }
        }
        DiffFormat::Json => {
            let items: Vec<serde_json::Value> = differences
                .iter()
                .map(|d| {
                    serde_json::json!({
                        "kind": d.kind,
                        "subject": d.subject,
                        "message": d.message,
                    })
                })
                .collect();
            let report = serde_json::json!({
                "equal": differences.is_empty(),
                "spec": spec_path.display().to_string(),
                "service": options.source,
                "differences": items,
            });
            println!(
                "{}",
                serde_json::to_string_pretty(&report).expect("JSON values serialize")
            );
        }
    }
    Ok(if differences.is_empty() {
        Outcome::Done
    } else {
        Outcome::Differs
    })
}

/// The spec at `path`, or the one a crate directory's `Cargo.toml` names
/// (`[package.metadata.rmm] spec`, a path from the crate).
pub(crate) fn spec_of(path: &Path) -> Result<PathBuf, String> {
    if !path.is_dir() {
        return Ok(path.to_path_buf());
    }
    let manifest = path.join("Cargo.toml");
    let text =
        std::fs::read_to_string(&manifest).map_err(|e| format!("{}: {e}", manifest.display()))?;
    let value: toml::Table = text
        .parse()
        .map_err(|e| format!("{}: {e}", manifest.display()))?;
    let spec = value
        .get("package")
        .and_then(|p| p.get("metadata"))
        .and_then(|m| m.get("rmm"))
        .and_then(|r| r.get("spec"))
        .and_then(|s| s.as_str())
        .ok_or_else(|| {
            format!(
                "{} names no spec ([package.metadata.rmm] spec): is it a crate `rmm gen` wrote?",
                manifest.display()
            )
        })?;
    Ok(path.join(spec))
}
