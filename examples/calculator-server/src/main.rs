//! Serves the calculator: `cargo run -p calculator-server` answers SOAP 1.1 and 1.2 at
//! `http://127.0.0.1:8080/calculator.asmx`, with its `?WSDL` and help pages, as the legacy
//! host does. Every setting is a flag or its environment variable (`-- --help` lists them):
//! `-- --listen 0.0.0.0:80 --admin 0.0.0.0:9090` (or `RMM_LISTEN`, `RMM_ADMIN`) serves on
//! port 80 with health probes and metrics on 9090. SIGTERM drains it.

use std::process::ExitCode;

use calculator_server::{CalculatorServer, MyCalculator};
use rmm_runtime::server::operate::Settings;

#[tokio::main]
async fn main() -> ExitCode {
    let settings = Settings::from_args();
    let served = async {
        let bound = settings.bind().await?;
        println!("serving http://{}/calculator.asmx", bound.local_addr());
        if let Some(admin) = bound.admin_addr() {
            println!("probes and metrics on http://{admin}/healthz/ready and /metrics");
        }
        bound
            .run(|config| CalculatorServer::new(MyCalculator).with_config(config))
            .await
    };
    match served.await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("calculator-server: {e}");
            ExitCode::FAILURE
        }
    }
}
