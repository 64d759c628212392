//! The construct table's cases (`tests/fixtures/constructs/`: one small ASMX-shaped WSDL per
//! construct of `docs/src/constructs.md`, the constructs .NET's importer maps or refuses):
//! whatever `rmm import` does with each, `rmm gen` agrees. A case either does not import (its
//! problems named), or what it imports (with `--skip-unsupported`) generates.
//!
//! The cases where they do not agree yet are listed in [`DISAGREE`], each with what gen says:
//! the test fails when one of them starts to agree (take it off the list) as when another
//! stops.

use std::collections::BTreeMap;

use rmm_codegen::import;

/// Cases whose import `rmm gen` refuses today: the case and a word of why.
const DISAGREE: &[(&str, &str)] = &[];

/// What gen says of each case's import, for the cases whose import it refuses.
fn disagreements() -> BTreeMap<String, String> {
    let dir = rmm_tests::root().join("tests/fixtures/constructs");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str().map(str::to_owned))
        .filter(|n| n.ends_with(".wsdl"))
        .collect();
    names.sort();
    assert!(names.len() >= 300, "{} cases", names.len());
    let options = rmm_codegen::CrateOptions {
        runtime: rmm_codegen::RuntimeDependency::Path("../runtime".into()),
        spec: Some("rmm-spec.yaml".into()),
    };
    let mut out = BTreeMap::new();
    for name in names {
        let file = format!("tests/fixtures/constructs/{name}");
        let text = std::fs::read_to_string(dir.join(&name)).unwrap();
        let Ok(imported) = import::read_skipping_unsupported(&text, &file) else {
            continue;
        };
        if imported.operations.is_empty() {
            continue;
        }
        if let Err(e) =
            rmm_codegen::generate_crate_from_source(&imported.to_yaml(), &file, &options)
        {
            let first = e.to_string().lines().next().unwrap_or_default().to_owned();
            out.insert(name.trim_end_matches(".wsdl").to_owned(), first);
        }
    }
    out
}

#[test]
fn what_rmm_import_writes_of_each_construct_rmm_gen_accepts() {
    let found = disagreements();
    let listed: BTreeMap<String, String> = DISAGREE
        .iter()
        .map(|(case, why)| ((*case).to_owned(), (*why).to_owned()))
        .collect();
    let new: Vec<String> = found
        .iter()
        .filter(|(case, _)| !listed.contains_key(*case))
        .map(|(case, why)| format!("{case}: {why}"))
        .collect();
    let fixed: Vec<&String> = listed
        .keys()
        .filter(|case| !found.contains_key(*case))
        .collect();
    assert!(
        new.is_empty() && fixed.is_empty(),
        "import and gen disagree on:\n{}\nand agree now on (take them off DISAGREE): {fixed:?}",
        new.join("\n")
    );
}

/// What .NET refuses or skips, or what a class of plain members would lose, rmm refuses at
/// import, by name: each case and a part of its message.
#[test]
fn what_would_be_lost_is_refused_by_name() {
    let dir = rmm_tests::root().join("tests/fixtures/constructs");
    for (case, says) in [
        (
            "s_transport_other",
            "a SOAP binding of the transport \"http://schemas.xmlsoap.org/soap/jms\"",
        ),
        (
            "s_transport_slash",
            "a SOAP binding of the transport \"http://schemas.xmlsoap.org/soap/http/\"",
        ),
        (
            "s_dupbindingop",
            "operation Op2: bound twice in one binding",
        ),
        (
            "s_nosoapop",
            "operation Op2: a SOAP binding's operation without soap:operation",
        ),
        ("s_nobody", "operation Op2: a message without soap:body"),
        (
            "doc_2parts",
            "operation Op: a message of 2 parts that are not bare parameters",
        ),
        (
            "s_wrapper_attr",
            "operation Op: attribute on the wrapper element Op",
        ),
        (
            "rep_seq",
            "which has a repeated sequence (maxOccurs on xs:sequence)",
        ),
        ("mixed", "which has mixed content"),
        ("mixed_derived", "which has mixed content"),
        ("el_noname", "which has an element without a name"),
        ("attr_noname", "which has an attribute without a name"),
        ("dup_diff", "which declares the member a twice"),
        (
            "cc_redecl",
            "which declares the member x twice (or again after its base)",
        ),
        ("dup_wrapper", "the element a twice in a wrapper"),
        ("el_ref_missing", "a reference to the element"),
        ("s_nobindingop", "operation Op2: no binding offers it"),
        ("el_fixed", "whose member a has a fixed value"),
        (
            "s_solicit",
            "operation Op2: solicit-response (its output first)",
        ),
        (
            "efd_unqual",
            "the service's schema is not elementFormDefault=\"qualified\"",
        ),
        ("attr_fixed", "which has an attribute with a fixed value"),
    ] {
        let file = format!("tests/fixtures/constructs/{case}.wsdl");
        let text = std::fs::read_to_string(dir.join(format!("{case}.wsdl"))).unwrap();
        let error = import::read(&text, &file)
            .err()
            .unwrap_or_else(|| panic!("{case} imports"))
            .to_string();
        assert!(error.contains(says), "{case}: {error}");
    }
    // A [Flags] list of more values than 64 bits hold is a string, as .NET imports it.
    let text = std::fs::read_to_string(dir.join("list_enum64.wsdl")).unwrap();
    let imported = import::read(&text, "list_enum64.wsdl").unwrap();
    assert!(imported.enums.is_empty(), "{:?}", imported.enums);
    assert_eq!(imported.operations[0].params[0].1, "string");
    // A simpleType that is no enum is the type .NET makes of it: a restriction's base (facets
    // and a non-string base's enumerations ignored, chains and inline bases walked), a
    // union's string; one no operation uses no longer fails the import.
    for (case, ty) in [
        ("facets_int", "int"),
        ("facets_str", "string"),
        ("enum_int", "int"),
        ("restr_chain", "decimal"),
        ("restr_inline", "int"),
        ("union", "string"),
        ("unused_st", "int"),
    ] {
        let text = std::fs::read_to_string(dir.join(format!("{case}.wsdl"))).unwrap();
        let imported = import::read(&text, case).unwrap_or_else(|e| panic!("{case}: {e}"));
        assert_eq!(imported.operations[0].params[0].1, ty, "{case}");
    }
    // Enumerations of a string-like base (`token`, `NMTOKEN`) are an enum, as of a string.
    for case in ["enum_token", "enum_nmtoken"] {
        let text = std::fs::read_to_string(dir.join(format!("{case}.wsdl"))).unwrap();
        let imported = import::read(&text, case).unwrap_or_else(|e| panic!("{case}: {e}"));
        assert_eq!(imported.enums.len(), 1, "{case}");
        assert_eq!(imported.operations[0].params[0].1, "S", "{case}");
    }
    // A value-type attribute not `use="required"` is .NET's `xxxSpecified`: optional; a
    // required one, a reference one and one of no type (.NET's string) are plain.
    for (case, want) in [
        (
            "attr_opt",
            vec![("a", "{type: \"int\", optional: true}"), ("f", "string")],
        ),
        ("attr_req", vec![("b", "int")]),
        ("attr_notype", vec![("d", "string")]),
    ] {
        let text = std::fs::read_to_string(dir.join(format!("{case}.wsdl"))).unwrap();
        let imported = import::read(&text, case).unwrap_or_else(|e| panic!("{case}: {e}"));
        let got: Vec<(&str, &str)> = imported.classes[0]
            .attributes
            .iter()
            .map(|(n, t)| (n.as_str(), t.as_str()))
            .collect();
        assert_eq!(got, want, "{case}");
    }
    // A prohibited attribute is none.
    let text = std::fs::read_to_string(dir.join("attr_proh.wsdl")).unwrap();
    let imported = import::read(&text, "attr_proh.wsdl").unwrap();
    assert!(
        imported.classes[0].attributes.is_empty(),
        "{:?}",
        imported.classes
    );
}

/// An `xs:choice` is a choice member, named as wsdl.exe names it (`Item`, `Items` where it
/// repeats, numbered apart from the class's elements), its alternatives in order; a class
/// that is a repeated choice alone (.NET's array of `[XmlArrayItem]`s, the same elements) is
/// a class of one repeated choice; a nillable alternative is `Type?`. What rmm does not carry
/// of a choice is refused by name.
#[test]
fn a_choice_imports_as_a_choice_member() {
    let dir = rmm_tests::root().join("tests/fixtures/constructs");
    let member = |case: &str, class: &str| -> Vec<(String, String)> {
        let text = std::fs::read_to_string(dir.join(format!("{case}.wsdl"))).unwrap();
        let imported = import::read(&text, case).unwrap_or_else(|e| panic!("{case}: {e}"));
        imported
            .classes
            .iter()
            .find(|c| c.name == class)
            .unwrap_or_else(|| panic!("{case}: no class {class}"))
            .members
            .clone()
    };
    let pair = |m: &str, ty: &str| (m.to_owned(), ty.to_owned());
    assert_eq!(
        member("choice", "C"),
        [pair("Item", "{choice: [x: K1, \"y\": K2]}")]
    );
    assert_eq!(
        member("choice_rep", "C"),
        [pair(
            "Items",
            "{choice: [x: K1, \"y\": K2], repeated: true}"
        )]
    );
    assert_eq!(
        member("choice_sametype", "C"),
        [pair("Item", "{choice: [x: string, \"y\": string]}")]
    );
    assert_eq!(
        member("aw_choice", "W"),
        [pair("Items", "{choice: [a: K1, b: K2], repeated: true}")]
    );
    assert_eq!(
        member("choice_top", "C"),
        [pair("Item", "{choice: [Item: string, \"n\": int]}")]
    );
    assert_eq!(
        member("choice_values", "C"),
        [
            pair("Item", "string"),
            pair("Item1", "{choice: [\"n\": int, d: dateTime, e: E]}"),
            pair("tail", "int"),
        ]
    );
    // A nillable alternative is `Type?`, whatever its type.
    assert_eq!(
        member("choice_nillable", "C"),
        [pair("Item", "{choice: [x: \"int?\", \"y\": string]}")]
    );
    for (case, says) in [
        (
            "choice_seq",
            "which has a choice (xs:choice) holding xs:sequence",
        ),
        (
            "choice_any",
            "which has a choice (xs:choice) holding xs:any",
        ),
        (
            "choice_array",
            "whose alternative x is of the type string[] (rmm imports alternatives of simple \
             types, enums and classes)",
        ),
    ] {
        let text = std::fs::read_to_string(dir.join(format!("{case}.wsdl"))).unwrap();
        let error = import::read(&text, case)
            .err()
            .unwrap_or_else(|| panic!("{case} imports"))
            .to_string();
        assert!(error.contains(says), "{case}: {error}");
    }
}

/// Two types of one name in two namespaces are two types: the second is refused by name, not
/// read as the first (a class that held itself).
#[test]
fn a_type_of_the_same_name_in_another_namespace_is_not_the_first() {
    let dir = rmm_tests::root().join("tests/fixtures/constructs");
    let text = std::fs::read_to_string(dir.join("ns_samename.wsdl")).unwrap();
    let error = import::read(&text, "ns_samename.wsdl")
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("member o of C is of the type C of the namespace http://o.example/, and a type C of the namespace http://t.example/ is imported too"),
        "{error}"
    );
}

/// Two enums of one name in two namespaces are refused by name, as classes are; a guid default
/// (a member's or an attribute's) is kept, as the service whose WSDL shows it has it.
#[test]
fn an_enum_of_the_same_name_elsewhere_is_refused_and_a_guid_default_kept() {
    let dir = rmm_tests::root().join("tests/fixtures/constructs");
    let read = |case: &str| {
        let text = std::fs::read_to_string(dir.join(format!("{case}.wsdl"))).unwrap();
        import::read(&text, case)
    };
    let error = read("enum_ns_samename").unwrap_err().to_string();
    assert!(
        error.contains("parameter k is of the enum Kind of the namespace http://o.example/, and an enum Kind of the namespace http://t.example/ is imported too"),
        "{error}"
    );
    let member = read("default_guid").unwrap();
    assert_eq!(
        member.classes[0].members[0].1,
        "{type: \"guid\", default: \"00000000-0000-0000-0000-000000000000\"}"
    );
    let attributes = read("attr_default_guid").unwrap();
    let got: Vec<&str> = attributes.classes[0]
        .attributes
        .iter()
        .map(|(_, t)| t.as_str())
        .collect();
    assert_eq!(
        got,
        [
            "{type: \"guid\", default: \"00000000-0000-0000-0000-000000000000\"}",
            "{type: \"guid\", default: \"0F8FAD5B-D9CB-469F-A165-70867728950E\"}"
        ]
    );
}
