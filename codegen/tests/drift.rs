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

fn spec_with_member(member: &str, extra_types: &str) -> spec::Spec {
    let text = format!(
        "service:\n  name: S\n  namespace: http://s.example.com/\n  path: /S.asmx\n\
         credentials: []\ntypes:\n  - name: Settings\n    members:\n      - {member}\n\
         {extra_types}operations:\n  - name: Op\n    doc: An operation.\n    bindings: [soap11, soap12]\n\
         \x20   params:\n\
         \x20     - s: Settings\n    result: int\n"
    );
    spec::parse(&text, "s.yaml").unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn named(spec: &spec::Spec, service: &spec::Spec) -> Vec<String> {
    differences(spec, service)
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn a_members_options_the_wsdl_shows_are_compared() {
    let plain = spec_with_member("Retries: int", "");
    let optional = spec_with_member("Retries: {type: int, optional: true}", "");
    let default = spec_with_member("Retries: {type: int, default: 3}", "");
    assert_eq!(
        named(&plain, &optional),
        ["type Settings: member Retries: int in the spec is Retries: int (optional) by the service"]
    );
    assert_eq!(
        named(&default, &plain),
        ["type Settings: member Retries: int (default \"3\") in the spec is Retries: int by the service"]
    );
    // A List<T> and a T[] have one WSDL: nothing to tell them apart by.
    assert!(named(
        &spec_with_member("Items: {type: 'int[]', list: true}", ""),
        &spec_with_member("Items: 'int[]'", "")
    )
    .is_empty());
}

#[test]
fn a_type_only_the_service_uses_is_named() {
    let extra = "  - name: Extra\n    members:\n      - Id: int\n";
    assert_eq!(
        named(
            &spec_with_member("Retries: int", ""),
            &spec_with_member("Retries: int", extra)
        ),
        ["type Extra: used by the service, not in the spec"]
    );
    assert_eq!(
        named(
            &spec_with_member("Retries: int", extra),
            &spec_with_member("Retries: int", "")
        ),
        ["type Extra: in the spec, not used by the service"]
    );
}

fn script_spec(script: &str, get: bool) -> spec::Spec {
    let text = format!(
        "service:\n  name: S\n  namespace: http://s.example.com/\n  path: /S.asmx\n{script}\
         credentials: []\noperations:\n  - name: Op\n    doc: An operation.\n{}\
         \x20   params:\n      - n: int\n    result: int\n",
        if get {
            "    script:\n      get: true\n"
        } else {
            ""
        }
    );
    spec::parse(&text, "s.yaml").unwrap_or_else(|e| panic!("{e}\n{text}"))
}

#[test]
fn the_json_face_its_namespace_and_each_operations_verb_are_compared() {
    const FACE: &str = "  script:\n    namespace: Legacy\n";
    const OTHER: &str = "  script:\n    namespace: Legacy.Web\n";
    assert!(named(&script_spec(FACE, true), &script_spec(FACE, true)).is_empty());
    assert_eq!(
        named(&script_spec("", false), &script_spec(FACE, false)),
        ["service: the service answers JSON calls ([ScriptService], its /js proxy); the spec has no `script:`"]
    );
    assert_eq!(
        named(&script_spec(FACE, false), &script_spec("", false)),
        ["service: `script:` in the spec; the service answers no JSON calls (no /js proxy)"]
    );
    assert_eq!(
        named(&script_spec(FACE, false), &script_spec(OTHER, true)),
        [
            "service: its classes' .NET namespace (their __type hints) is \"Legacy\" in the spec, \"Legacy.Web\" by the service",
            "operation Op: called over JSON with POST in the spec, with GET by the service ([ScriptMethod(UseHttpGet)])",
        ]
    );
}
