//! Generates the calculator's client from its WSDL, kept beside this crate: nothing generated
//! is committed, and a changed WSDL regenerates on the next build.

fn main() {
    rmm_codegen::Builder::wsdl("../calculator.wsdl")
        .server(false)
        .generate_or_exit();
}
