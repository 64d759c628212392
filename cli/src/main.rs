//! `rmm`: import an ASMX service's WSDL into a spec, generate its crate, check it is current.
//! Every subcommand is a call into [`rmm_cli`], which `cargo xtask` calls too.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = rmm_cli::Cli::parse();
    let failure = cli.failure_status();
    match rmm_cli::run(cli) {
        Ok(rmm_cli::Outcome::Done) => ExitCode::SUCCESS,
        Ok(rmm_cli::Outcome::Differs) => ExitCode::from(1),
        Err(message) => {
            eprintln!("{message}");
            ExitCode::from(failure)
        }
    }
}
