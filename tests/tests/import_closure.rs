//! What `rmm import` writes, `rmm gen` accepts: an element reference in a wrapper is a
//! parameter named after the global element; with `--skip-unsupported`, every operation that
//! reaches a type refused for another (through a class, in either order) is left out with it,
//! and so is one that reaches what the generator does not carry (a class of another namespace
//! outside a SOAP header), each with its reason; what no operation reaches goes too.

use rmm_codegen::import::{read, read_skipping_unsupported, Imported};

/// An ASMX-shaped WSDL of the operations `ops` (name, request sequence, response sequence),
/// with `types` in the service's schema (`urn:t`) and `other` as a second schema (`urn:g`,
/// prefix `g`).
fn wsdl(types: &str, other: &str, ops: &[(&str, &str, &str)]) -> String {
    let mut elements = String::new();
    let mut messages = String::new();
    let mut port = String::new();
    let mut binding = String::new();
    for (name, request, response) in ops {
        elements.push_str(&format!(
            "      <s:element name=\"{name}\"><s:complexType><s:sequence>{request}</s:sequence></s:complexType></s:element>\n      \
             <s:element name=\"{name}Response\"><s:complexType><s:sequence>{response}</s:sequence></s:complexType></s:element>\n"
        ));
        messages.push_str(&format!(
            "  <wsdl:message name=\"{name}SoapIn\"><wsdl:part name=\"parameters\" element=\"tns:{name}\" /></wsdl:message>\n  \
             <wsdl:message name=\"{name}SoapOut\"><wsdl:part name=\"parameters\" element=\"tns:{name}Response\" /></wsdl:message>\n"
        ));
        port.push_str(&format!(
            "    <wsdl:operation name=\"{name}\"><wsdl:input message=\"tns:{name}SoapIn\" /><wsdl:output message=\"tns:{name}SoapOut\" /></wsdl:operation>\n"
        ));
        binding.push_str(&format!(
            "    <wsdl:operation name=\"{name}\"><soap:operation soapAction=\"urn:t/{name}\" style=\"document\" /><wsdl:input><soap:body use=\"literal\" /></wsdl:input><wsdl:output><soap:body use=\"literal\" /></wsdl:output></wsdl:operation>\n"
        ));
    }
    format!(
        r#"<?xml version="1.0" encoding="utf-8"?>
<wsdl:definitions xmlns:s="http://www.w3.org/2001/XMLSchema" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:tns="urn:t" xmlns:g="urn:g" targetNamespace="urn:t" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/">
  <wsdl:types>
    <s:schema elementFormDefault="qualified" targetNamespace="urn:t">
      <s:import namespace="urn:g" />
{elements}{types}
    </s:schema>
    <s:schema elementFormDefault="qualified" targetNamespace="urn:g">
{other}
    </s:schema>
  </wsdl:types>
{messages}  <wsdl:portType name="TSoap">
{port}  </wsdl:portType>
  <wsdl:binding name="TSoap" type="tns:TSoap">
    <soap:binding transport="http://schemas.xmlsoap.org/soap/http" />
{binding}  </wsdl:binding>
  <wsdl:service name="T">
    <wsdl:port name="TSoap" binding="tns:TSoap"><soap:address location="http://h/t.asmx" /></wsdl:port>
  </wsdl:service>
</wsdl:definitions>
"#
    )
}

/// The import's operations by name, and its classes by name.
fn names(imported: &Imported) -> (Vec<&str>, Vec<&str>) {
    (
        imported
            .operations
            .iter()
            .map(|o| o.name.as_str())
            .collect(),
        imported.classes.iter().map(|c| c.name.as_str()).collect(),
    )
}

/// What was left out, one line each, without the file's name.
fn skipped(imported: &Imported) -> Vec<String> {
    imported.skipped.iter().map(|e| e.message.clone()).collect()
}

/// `rmm gen` accepts what the import wrote.
fn generates(imported: &Imported) {
    let options = rmm_codegen::CrateOptions {
        runtime: rmm_codegen::RuntimeDependency::Path("../runtime".into()),
        spec: Some("rmm-spec.yaml".into()),
    };
    if let Err(e) = rmm_codegen::generate_crate_from_source(&imported.to_yaml(), "t.yaml", &options)
    {
        panic!(
            "rmm gen refuses what rmm import wrote: {e}\n{}",
            imported.to_yaml()
        );
    }
}

const INT_RESULT: &str = r#"<s:element minOccurs="1" maxOccurs="1" name="R" type="s:int" />"#;

#[test]
fn an_element_reference_in_a_wrapper_is_a_parameter_named_after_it() {
    let text = wsdl(
        r#"      <s:element name="Token" type="s:string" />
      <s:element name="Info" type="tns:Info" />
      <s:complexType name="Info"><s:sequence><s:element minOccurs="0" maxOccurs="1" name="A" type="s:string" /></s:sequence></s:complexType>"#,
        "",
        &[(
            "Login",
            r#"<s:element minOccurs="0" maxOccurs="1" ref="tns:Token" />"#,
            r#"<s:element minOccurs="0" maxOccurs="1" name="LoginResult" type="s:string" /><s:element minOccurs="0" maxOccurs="1" ref="tns:Info" />"#,
        )],
    );
    let imported = read(&text, "t.wsdl").unwrap_or_else(|e| panic!("{e}"));
    let login = &imported.operations[0];
    assert_eq!(login.params, [("Token".to_owned(), "string".to_owned())]);
    assert_eq!(login.result, "string");
    assert_eq!(login.outs, [("Info".to_owned(), "Info".to_owned())]);
    generates(&imported);
}

#[test]
fn a_reference_to_an_element_of_another_namespace_is_refused_by_name() {
    let text = wsdl(
        "",
        r#"      <s:element name="Token" type="s:string" />"#,
        &[(
            "Login",
            r#"<s:element minOccurs="0" maxOccurs="1" ref="g:Token" />"#,
            INT_RESULT,
        )],
    );
    let error = read(&text, "t.wsdl").unwrap_err().to_string();
    assert!(
        error.contains("operation Login: a reference to the element Token of the namespace urn:g, which is not the operation's"),
        "{error}"
    );
}

/// `B` holds a choice of an element and `xs:any`, which rmm does not import yet; `A` holds a
/// `B`.
const A_HOLDS_B: &str = r#"      <s:complexType name="A"><s:sequence><s:element minOccurs="0" maxOccurs="1" name="B" type="tns:B" /></s:sequence></s:complexType>
      <s:complexType name="B"><s:choice><s:element minOccurs="0" maxOccurs="1" name="X" type="s:string" /><s:any minOccurs="0" maxOccurs="1" /></s:choice></s:complexType>"#;

#[test]
fn every_operation_that_reaches_a_refused_type_is_left_out_in_either_order() {
    let use_b = (
        "UseB",
        r#"<s:element minOccurs="0" maxOccurs="1" name="b" type="tns:B" />"#,
        INT_RESULT,
    );
    let use_a = (
        "UseA",
        r#"<s:element minOccurs="0" maxOccurs="1" name="a" type="tns:A" />"#,
        INT_RESULT,
    );
    let plain = (
        "Plain",
        r#"<s:element minOccurs="1" maxOccurs="1" name="n" type="s:int" />"#,
        INT_RESULT,
    );
    for ops in [[use_b, use_a, plain], [use_a, use_b, plain]] {
        let text = wsdl(A_HOLDS_B, "", &ops);
        let imported = read_skipping_unsupported(&text, "t.wsdl").unwrap();
        // `UseA` keeps no parameter-less shadow of itself: it goes, with `A` and `B`.
        assert_eq!(names(&imported), (vec!["Plain"], vec![]), "{ops:?}");
        let left_out = skipped(&imported);
        assert_eq!(left_out.len(), 2, "{left_out:#?}");
        assert!(
            left_out.iter().any(|m| m.starts_with("operation UseA:")),
            "{left_out:#?}"
        );
        assert!(
            left_out.iter().any(|m| m.starts_with("operation UseB:")),
            "{left_out:#?}"
        );
        generates(&imported);
        // As a whole, the import is refused.
        assert!(read(&text, "t.wsdl").is_err());
    }
}

#[test]
fn a_class_of_another_namespace_outside_a_header_is_left_out_with_its_operation() {
    let text = wsdl(
        r#"      <s:complexType name="Envelope"><s:sequence><s:element minOccurs="0" maxOccurs="1" name="Data" type="g:Report" /></s:sequence></s:complexType>"#,
        r#"      <s:complexType name="Report"><s:sequence><s:element minOccurs="0" maxOccurs="1" name="Text" type="s:string" /></s:sequence></s:complexType>"#,
        &[
            (
                "Get",
                r#"<s:element minOccurs="1" maxOccurs="1" name="n" type="s:int" />"#,
                r#"<s:element minOccurs="0" maxOccurs="1" name="GetResult" type="tns:Envelope" />"#,
            ),
            (
                "Plain",
                r#"<s:element minOccurs="1" maxOccurs="1" name="n" type="s:int" />"#,
                INT_RESULT,
            ),
        ],
    );
    let imported = read_skipping_unsupported(&text, "t.wsdl").unwrap();
    assert_eq!(names(&imported), (vec!["Plain"], vec![]));
    assert_eq!(
        skipped(&imported),
        [
            "operation Get: it uses the type Envelope: it holds the class Report of the namespace \
          urn:g, which rmm generates in a SOAP header only yet"
        ]
    );
    generates(&imported);
}
