//! `cargo xtask import WSDL [--out PATH] [--skip-unsupported]`: a spec from an ASMX service's
//! WSDL, a file or the `?WSDL` URL of a live host. With `--skip-unsupported`, an operation
//! using what rmm does not import yet is left out, and listed (on stderr and at the top of the
//! spec) with where and why, rather than failing the import. The reading and writing are rmm-codegen's (`import`); this
//! fetches the document (and the schema documents it imports: a typed DataSet's
//! `?schema=Name`) and writes the result.

use std::path::PathBuf;

/// Runs the task with the arguments after `import`.
pub fn run(args: &[String]) -> Result<(), String> {
    let mut source = None;
    let mut out: Option<PathBuf> = None;
    let mut skip_unsupported = false;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--out" => out = Some(super::absolute(args.next().ok_or("--out needs a path")?)?),
            "--skip-unsupported" => skip_unsupported = true,
            other if source.is_none() && !other.starts_with("--") => {
                source = Some(other.to_owned())
            }
            other => return Err(format!("unknown argument {other:?}\n{}", super::USAGE)),
        }
    }
    let source =
        source.ok_or_else(|| format!("import needs a WSDL file or URL\n{}", super::USAGE))?;
    let text = if source.starts_with("http://") || source.starts_with("https://") {
        fetch(&source)?
    } else {
        let path = super::absolute(&source)?;
        std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?
    };
    // The schema documents the WSDL imports (a typed DataSet's `?schema=Name`) are fetched
    // from where it says, whether it was read from a URL or a file.
    let mut fetch_schema = |location: &str| {
        if location.starts_with("http://") || location.starts_with("https://") {
            fetch(location)
        } else {
            Err(format!("{location} is not an http(s) URL"))
        }
    };
    let imported =
        rmm_codegen::import::read_fetching(&text, &source, skip_unsupported, &mut fetch_schema)
            .map_err(|e| e.to_string())?;
    for skipped in &imported.skipped {
        eprintln!("skipped: {skipped}");
    }
    if !imported.skipped.is_empty() {
        eprintln!(
            "{} operations imported, {} problems left out (listed above and in the spec)",
            imported.operations.len(),
            imported.skipped.len()
        );
    }
    let spec = imported.to_yaml();
    match out {
        Some(path) => {
            std::fs::write(&path, spec).map_err(|e| format!("{}: {e}", path.display()))?;
            eprintln!("wrote {}", path.display());
        }
        None => print!("{spec}"),
    }
    Ok(())
}

/// The body of a `GET url`, which must answer 200.
fn fetch(url: &str) -> Result<String, String> {
    let response = reqwest::blocking::Client::builder()
        .timeout(std::time::Duration::from_secs(60))
        .build()
        .and_then(|client| client.get(url).send())
        .map_err(|e| format!("{url}: {e}"))?;
    let status = response.status();
    if !status.is_success() {
        return Err(format!("{url}: the server answered {status}"));
    }
    response.text().map_err(|e| format!("{url}: {e}"))
}
