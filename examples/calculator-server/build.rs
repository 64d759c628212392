//! Generates the calculator's server from its WSDL, kept beside this crate.

fn main() {
    rmm_codegen::Builder::wsdl("../calculator.wsdl")
        .client(false)
        .generate_or_exit();
}
