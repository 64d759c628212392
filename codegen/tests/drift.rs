//! The drift check's comparison of two specs: what it names, and what a WSDL cannot tell.

use rmm_codegen::drift::differences;
use rmm_codegen::spec;

fn spec_with_header(direction: &str) -> spec::Spec {
    let text = format!(
        "service:\n  name: S\n  namespace: http://s.example.com/\n  path: /S.asmx\n\
         credentials: []\ntypes:\n  - name: Trace\n    members:\n      - Id: string\n\
         operations:\n  - name: Op\n    doc: An operation.\n    headers: [Trace: {direction}]\n\
         \x20   bindings: [soap11, soap12]\n    params:\n      - n: int\n    result: int\n"
    );
    spec::parse(&text, "s.yaml").unwrap_or_else(|e| panic!("{e}\n{text}"))
}

#[test]
fn a_header_direction_is_compared_but_fault_and_out_are_one() {
    let named: Vec<String> = differences(&spec_with_header("In"), &spec_with_header("InOut"))
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        named,
        ["operation Op: SOAP headers [Trace: In] in the spec, [Trace: InOut] by the service"]
    );
    // A WSDL declares a header written with a fault as one written with the response.
    assert!(differences(&spec_with_header("Fault"), &spec_with_header("Out")).is_empty());
    assert!(differences(&spec_with_header("In"), &spec_with_header("In")).is_empty());
}
