//! Prints the WSDL the objects crate serves, for the address given (or the recorded one).
fn main() {
    let address = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "http://127.0.0.1:18081/api/rmm/ObjectsService.asmx".into());
    print!("{}", rmm_objects::wsdl::document(&address));
}
