//! `rmm import` (and `cargo xtask import`): the spec an ASMX service's WSDL describes. With
//! `skip_unsupported`, an operation using what rmm does not import yet is left out, and listed
//! (on standard error and at the top of the spec) with where and why, rather than failing.

use std::path::PathBuf;

/// What [`import`] does.
#[derive(Debug, Clone)]
pub struct ImportOptions {
    /// The WSDL: a file (as messages name it), or an http(s) URL.
    pub source: String,
    /// Where to write the spec (absolute); standard output if `None`.
    pub out: Option<PathBuf>,
    /// Replace a file at `out`, where there is one.
    pub force: bool,
    /// Leave out what does not import, listing it.
    pub skip_unsupported: bool,
}

/// Reads the WSDL (fetching it from a URL) and the schema documents it imports (a typed
/// DataSet's `?schema=Name`, fetched from where the WSDL says, whether it came from a URL or
/// a file), and writes the spec. The error is what to print.
pub fn import(options: &ImportOptions) -> Result<(), String> {
    let source = &options.source;
    // Refused before anything is fetched: a spec there may hold what was filled in by hand.
    if let Some(path) = &options.out {
        if !options.force && path.exists() {
            return Err(format!(
                "{} is there already: give --force to replace it, or --out another file \
                 (`rmm diff {} {source}` names what changed in the service)",
                path.display(),
                path.display()
            ));
        }
    }
    let text = wsdl_text(source)?;
    let mut imported = rmm_codegen::import::read_fetching(
        &text,
        source,
        options.skip_unsupported,
        &mut fetch_schema,
    )
    .map_err(|e| e.to_string())?;
    with_script_face(&mut imported, source);
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
    match &options.out {
        Some(path) => {
            std::fs::write(path, spec).map_err(|e| format!("{}: {e}", path.display()))?;
            eprintln!("wrote {}", path.display());
        }
        None => print!("{spec}"),
    }
    Ok(())
}

/// The WSDL's text: fetched from a URL, or read from a file.
pub(crate) fn wsdl_text(source: &str) -> Result<String, String> {
    if is_url(source) {
        fetch(source)
    } else {
        let path = crate::absolute(std::path::Path::new(source))?;
        std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// A schema document the WSDL imports, fetched from where it says.
pub(crate) fn fetch_schema(location: &str) -> Result<String, String> {
    if is_url(location) {
        fetch(location)
    } else {
        Err(format!("{location} is not an http(s) URL"))
    }
}

/// A live service's JSON face, which its WSDL does not show: a [ScriptService] serves its
/// JavaScript proxy at {path}/js (another answers an error page). Written into `imported` when
/// `source` is a URL that serves one; whether the face was looked for (a file's WSDL has no
/// service to ask).
pub(crate) fn with_script_face(imported: &mut rmm_codegen::import::Imported, source: &str) -> bool {
    if !is_url(source) {
        return false;
    }
    let proxy_url = format!("{}/js", source.split('?').next().unwrap_or(source));
    if let Ok(proxy) = fetch(&proxy_url) {
        match imported.with_script_proxy(&proxy) {
            Ok(()) => eprintln!(
                "{proxy_url}: the service is a [ScriptService]: `script:` written (its JSON face)"
            ),
            Err(why) => eprintln!(
                "{proxy_url}: the service is a [ScriptService], but rmm does not carry it over \
                 JSON yet ({why}): `script:` left out"
            ),
        }
    }
    true
}

fn is_url(text: &str) -> bool {
    text.starts_with("http://") || text.starts_with("https://")
}

/// The body of a `GET url`, which must answer 200.
fn fetch(url: &str) -> Result<String, String> {
    let response = reqwest::blocking::Client::builder()
        .timeout(std::time::Duration::from_secs(60))
        .build()
        .and_then(|client| client.get(url).send())
        .map_err(|e| format!("{url}: {}", crate::with_causes(&e)))?;
    let status = response.status();
    if !status.is_success() {
        return Err(format!("{url}: the server answered {status}"));
    }
    response
        .text()
        .map_err(|e| format!("{url}: {}", crate::with_causes(&e)))
}
