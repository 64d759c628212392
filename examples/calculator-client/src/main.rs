//! Calls the calculator: `cargo run -p calculator-client -- [BASE_URL]`, the public one at
//! `http://www.dneonline.com` by default, or any other that answers as it does (a replacement,
//! `rmm shadow` in front of one).

use calculator_client::{Add, Binding, CalculatorClient, Divide, Multiply};

#[tokio::main]
async fn main() -> Result<(), calculator_client::CallError> {
    let base = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "http://www.dneonline.com".to_owned());
    // The service takes no credentials: the client needs only where it is.
    let client = CalculatorClient::new(base);

    let sum = client.add(&Add { int_a: 2, int_b: 3 }).await?;
    println!("2 + 3 = {}", sum.result);

    // SOAP 1.1 by default; another binding for one call.
    let product = client
        .over(Binding::Soap12)
        .multiply(&Multiply { int_a: 6, int_b: 7 })
        .await?;
    println!("6 * 7 = {}", product.result);

    // A fault is the call's error, its code and text kept.
    match client.divide(&Divide { int_a: 1, int_b: 0 }).await {
        Ok(answer) => println!("1 / 0 = {}", answer.result),
        Err(error) => match error.fault() {
            Some(fault) => println!("1 / 0: a {:?} fault", fault.code),
            None => return Err(error),
        },
    }
    Ok(())
}
