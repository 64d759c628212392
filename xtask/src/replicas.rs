//! `cargo xtask replicas`: the script service's generated server as three replicas sharing
//! their sessions in a real Redis, behind a real nginx, one replica killed mid-run
//! (`tests/src/bin/replicas.rs`). Installs redis-server and nginx from Debian's packages first
//! (`tests/replicas/install.sh`, a no-op when present).

use std::process::Command;

pub(crate) fn run(args: &[String]) -> Result<(), String> {
    if let Some(arg) = args.first() {
        return Err(format!(
            "cargo xtask replicas takes no argument, not {arg:?}"
        ));
    }
    let root = super::root();
    let install = root.join("tests/replicas/install.sh");
    println!("\n== xtask replicas: installing redis-server and nginx (if missing)");
    let status = Command::new("bash")
        .arg(&install)
        .current_dir(&root)
        .status()
        .map_err(|e| format!("cannot run {}: {e}", install.display()))?;
    if !status.success() {
        return Err(format!("{} failed ({status})", install.display()));
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    println!("\n== xtask replicas: building the replica and the run");
    let status = Command::new(&cargo)
        .current_dir(&root)
        .args(["build", "--quiet", "--locked", "-p", "rmm-tests"])
        .args(["--bin", "script_server", "--bin", "replicas"])
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err(format!("building the replicas run failed ({status})"));
    }
    println!("\n== xtask replicas: three replicas, one Redis, nginx, one replica killed");
    let status = Command::new(&cargo)
        .current_dir(&root)
        .args([
            "run",
            "--quiet",
            "--locked",
            "-p",
            "rmm-tests",
            "--bin",
            "replicas",
        ])
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("the replicas run failed ({status})"))
    }
}
