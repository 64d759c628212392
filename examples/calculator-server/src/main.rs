//! Serves the calculator: `cargo run -p calculator-server -- [ADDR]` (127.0.0.1:8080 by
//! default) answers SOAP 1.1 and 1.2 at `/calculator.asmx`, with its `?WSDL` and help pages,
//! as the legacy host does.

use calculator_server::{CalculatorServer, MyCalculator};

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:8080".to_owned());
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    println!("serving http://{}/calculator.asmx", listener.local_addr()?);
    CalculatorServer::new(MyCalculator).serve(listener).await
}
