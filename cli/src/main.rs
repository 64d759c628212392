//! `rmm`: import an ASMX service's WSDL into a spec, generate its crate, check it is current.
//! Every subcommand is a call into [`rmm_cli`], which `cargo xtask` calls too.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = rmm_cli::Cli::parse();
    match rmm_cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{message}");
            ExitCode::FAILURE
        }
    }
}
