//! The script service (rmm's `ScriptEcho`, crate `rmm-script`) as a process of its own, run by
//! rmm-runtime's `Settings` (every setting a flag or its environment variable; `--help` lists
//! them): one replica of the replicas run (`tests/src/bin/replicas.rs`).
//!
//! The address it bound is printed on the first line of stdout (`listening on
//! 127.0.0.1:PORT`), the admin address, when there is one, on the second (`admin on
//! 127.0.0.1:PORT`). On SIGTERM or SIGINT it drains: readiness fails, then no new connection,
//! then the calls in flight finish, then it exits.

use std::process::ExitCode;

use rmm_runtime::server::operate::Settings;
use rmm_script::ScriptServiceServer;
use rmm_tests::script_service::ScriptEcho;

#[tokio::main]
async fn main() -> ExitCode {
    let settings = Settings::from_args();
    let bound = match settings.bind().await {
        Ok(bound) => bound,
        Err(e) => {
            eprintln!("script_server: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!("listening on {}", bound.local_addr());
    if let Some(admin) = bound.admin_addr() {
        println!("admin on {admin}");
    }
    match bound
        .run(|config| ScriptServiceServer::new(ScriptEcho).with_config(config))
        .await
    {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("script_server: {e}");
            ExitCode::FAILURE
        }
    }
}
