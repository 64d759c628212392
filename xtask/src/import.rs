//! `cargo xtask import WSDL [--out PATH] [--skip-unsupported]`: `rmm import`, the same
//! function (rmm-cli's), with xtask's argument syntax.

/// Runs the task with the arguments after `import`.
pub fn run(args: &[String]) -> Result<(), String> {
    let mut source = None;
    let mut out = None;
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
    rmm_cli::import(&rmm_cli::ImportOptions {
        source,
        out,
        // The workspace's imports are regenerated over their committed specs.
        force: true,
        skip_unsupported,
    })
}
