//! `cargo xtask import` is the inverse of the WSDL a server serves: importing the reference
//! host's `?WSDL` of the Mobile service (recorded in `tests/fixtures/asmx/wsdl.txt`) and the
//! WSDL our generated server serves both give back `rmm-spec.yaml` (operations, parameters,
//! types, results and bindings; documentation and credential lists aside). A WSDL outside
//! rmm's types is refused with its `file:line:col`.

use rmm_codegen::import::{self, import, read};
use rmm_codegen::spec::{self, BindingName, Spec};

/// The spec's parts a WSDL carries: each operation's name, parameters (name, type, nullable),
/// result and bindings, and the service's name, namespace and path.
fn shape(spec: &Spec) -> Vec<String> {
    let mut lines = vec![format!(
        "{} {} {}",
        spec.service.name, spec.service.namespace, spec.service.path
    )];
    for op in &spec.operations {
        let params: Vec<String> = op
            .params
            .iter()
            .map(|p| {
                format!(
                    "{}:{}{}",
                    p.name,
                    spec.type_name(p.ty),
                    if p.nullable { "?" } else { "" }
                )
            })
            .collect();
        let bindings: Vec<&str> = op.bindings.iter().map(|b| b.name()).collect();
        lines.push(format!(
            "{}({}) -> {}{} [{}]",
            op.name,
            params.join(", "),
            spec.type_name(op.result),
            if op.result_nullable { "?" } else { "" },
            bindings.join(" ")
        ));
    }
    lines
}

fn imported_spec(wsdl: &str, source: &str) -> Spec {
    let yaml = import::read_fetching(wsdl, source, false, &mut host_schema)
        .unwrap_or_else(|e| panic!("{e}"))
        .to_yaml();
    spec::parse(&yaml, "imported.yaml").unwrap_or_else(|e| panic!("{e}\n{yaml}"))
}

/// What the objects host serves at `?schema=ShopDs` (recorded), for a WSDL importing it.
fn host_schema(location: &str) -> Result<String, String> {
    let expected = "http://127.0.0.1:18081/api/rmm/ObjectsService.asmx?schema=ShopDs";
    if location != expected {
        return Err(format!("no recorded schema at {location}"));
    }
    let dir = rmm_tests::root().join("tests/fixtures/objects/asmx");
    let capture = rmm_tests::captures::load_one_from(&dir, "schema-shop");
    Ok(String::from_utf8(capture.response.body).expect("UTF-8"))
}

#[test]
fn importing_the_hosts_wsdl_gives_back_the_spec() {
    let capture = rmm_tests::captures::load_one("wsdl");
    let wsdl = String::from_utf8(capture.response.body).unwrap();
    let imported = imported_spec(&wsdl, "tests/fixtures/asmx/wsdl.txt");
    let ours = rmm_tests::spec();
    assert_eq!(shape(&imported), shape(&ours));
    // The host's WSDL documents nothing: each doc says so, for the user to fill in.
    assert_eq!(
        imported.operations[0].doc,
        "MobileTaskCreate: no description in the WSDL."
    );
    assert!(imported.credentials.is_empty() && imported.secrets.is_empty());
}

#[test]
fn importing_the_wsdl_we_serve_gives_back_the_spec() {
    let wsdl = rmm_mobile::wsdl::document("http://127.0.0.1:8080/api/rmm/MobileService.asmx");
    let imported = imported_spec(
        &wsdl,
        "http://127.0.0.1:8080/api/rmm/MobileService.asmx?WSDL",
    );
    assert_eq!(shape(&imported), shape(&rmm_tests::spec()));
}

#[test]
fn the_second_crates_wsdl_round_trips_with_every_type() {
    // tests/stock: every simple type, nullable values, enums and SOAP-only operations.
    let wsdl = rmm_stock::wsdl::document("http://127.0.0.1:8080/services/v2/Stock.asmx");
    let imported = imported_spec(&wsdl, "stock.wsdl");
    let root = rmm_tests::root();
    let source = std::fs::read_to_string(root.join("tests/stock/rmm-spec.yaml")).unwrap();
    let stock = spec::parse(&source, "tests/stock/rmm-spec.yaml").unwrap();
    assert_eq!(shape(&imported), shape(&stock));
    assert_eq!(
        imported.enums,
        stock
            .enums
            .iter()
            .map(|e| {
                // A WSDL carries no .NET member names: the import guesses the Pascal case of
                // a wire name no member can have (`very-good` → `VeryGood`), which the spec
                // may name otherwise (`2nd-hand` is `SecondHand` there, `V2ndHand` guessed).
                let mut e = e.clone();
                e.doc = None;
                e.members = e
                    .values
                    .iter()
                    .zip(&e.members)
                    .map(|(wire, member)| match wire.as_str() {
                        "2nd-hand" => "V2ndHand".to_owned(),
                        _ => member.clone(),
                    })
                    .collect();
                e
            })
            .collect::<Vec<_>>()
    );
    assert_eq!(
        imported
            .operations
            .iter()
            .find(|o| o.name == "Count")
            .unwrap()
            .bindings,
        [BindingName::Soap11, BindingName::Soap12]
    );
}

/// A minimal ASMX-shaped WSDL around `types` (schema content) and `operation`'s messages.
fn wsdl_with(schema: &str, binding_extra: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="utf-8"?>
<wsdl:definitions xmlns:s="http://www.w3.org/2001/XMLSchema" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:tns="urn:t" targetNamespace="urn:t" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/">
  <wsdl:types>
    <s:schema elementFormDefault="qualified" targetNamespace="urn:t">
{schema}
    </s:schema>
  </wsdl:types>
  <wsdl:message name="OpSoapIn"><wsdl:part name="parameters" element="tns:Op" /></wsdl:message>
  <wsdl:message name="OpSoapOut"><wsdl:part name="parameters" element="tns:OpResponse" /></wsdl:message>
  <wsdl:portType name="TSoap">
    <wsdl:operation name="Op">
      <wsdl:input message="tns:OpSoapIn" />
      <wsdl:output message="tns:OpSoapOut" />
    </wsdl:operation>
  </wsdl:portType>
  <wsdl:binding name="TSoap" type="tns:TSoap">
    <soap:binding transport="http://schemas.xmlsoap.org/soap/http" />
    <wsdl:operation name="Op">
      <soap:operation soapAction="urn:t/Op" style="document"{binding_extra} />
      <wsdl:input><soap:body use="literal" /></wsdl:input>
      <wsdl:output><soap:body use="literal" /></wsdl:output>
    </wsdl:operation>
  </wsdl:binding>
  <wsdl:service name="T">
    <wsdl:port name="TSoap" binding="tns:TSoap"><soap:address location="http://h/t.asmx" /></wsdl:port>
  </wsdl:service>
</wsdl:definitions>
"#
    )
}

const OP_RESPONSE: &str = r#"      <s:element name="OpResponse"><s:complexType><s:sequence><s:element minOccurs="1" maxOccurs="1" name="OpResult" type="s:int" /></s:sequence></s:complexType></s:element>"#;

fn refused(wsdl: &str) -> String {
    read(wsdl, "t.wsdl").unwrap_err().to_string()
}

#[test]
fn what_lies_outside_the_types_is_refused_where_the_wsdl_shows_it() {
    let array = wsdl_with(
        &format!(
            r#"      <s:element name="Op"><s:complexType><s:sequence><s:element minOccurs="0" maxOccurs="unbounded" name="items" type="s:string" /></s:sequence></s:complexType></s:element>
{OP_RESPONSE}"#
        ),
        "",
    );
    assert_eq!(
        refused(&array),
        "t.wsdl:5:55: operation Op: parameter items has maxOccurs=\"unbounded\" (an array without a wrapper, [XmlElement] on an array); rmm does not import one yet"
    );
    // Classes with what rmm does not import yet: each refused where it is, naming the
    // operation, the type and the construct.
    let classes = wsdl_with(
        &format!(
            r#"      <s:element name="Op"><s:complexType><s:sequence><s:element minOccurs="0" maxOccurs="1" name="a" type="tns:Tagged" /><s:element minOccurs="0" maxOccurs="1" name="b" type="tns:Circle" /><s:element minOccurs="0" maxOccurs="1" name="c" type="tns:ArrayOfLine" /><s:element minOccurs="0" maxOccurs="1" name="d" type="tns:Nowhere" /></s:sequence></s:complexType></s:element>
      <s:complexType name="Tagged"><s:sequence><s:element minOccurs="1" maxOccurs="1" name="Id" type="s:int" /></s:sequence><s:anyAttribute namespace="urn:other" /></s:complexType>
      <s:complexType name="Circle"><s:complexContent mixed="false"><s:restriction base="tns:Shape" /></s:complexContent></s:complexType>
      <s:complexType name="ArrayOfLine"><s:sequence><s:element minOccurs="0" maxOccurs="unbounded" name="Line" nillable="true" type="tns:OrderLine" /></s:sequence></s:complexType>
      <s:complexType name="OrderLine"><s:sequence><s:element minOccurs="0" maxOccurs="1" name="Sku" type="s:string" /></s:sequence></s:complexType>
{OP_RESPONSE}"#
        ),
        "",
    );
    assert_eq!(
        refused(&classes),
        "t.wsdl:5:264: operation Op: parameter d has the type Nowhere (urn:t), which the WSDL's schema does not define\n\
         t.wsdl:6:125: operation Op: parameter a uses the type Tagged, which has xs:anyAttribute of a namespace ([XmlAnyAttribute] takes any); rmm does not import it yet\n\
         t.wsdl:7:68: operation Op: parameter b uses the type Circle, which has a restriction of a complex type; rmm does not import it yet\n\
         t.wsdl:8:53: operation Op: parameter c: the items of ArrayOfLine are named Line, not after their type OrderLine (an [XmlArrayItem] rename), which rmm imports for a class's member only"
    );
    let rpc = wsdl_with(
        &format!(
            r#"      <s:element name="Op"><s:complexType /></s:element>
{OP_RESPONSE}"#
        ),
        "",
    )
    .replace(r#"style="document""#, r#"style="rpc""#);
    assert_eq!(
        refused(&rpc),
        "t.wsdl:21:19: operation Op: style=\"rpc\" with use=\"literal\" (rpc/literal, [SoapRpcMethod(Use = Literal)]), which rmm does not import yet"
    );
    // A [Flags] enum (an s:list of values) imports as a flags enum, its zero value guessed.
    let flags = wsdl_with(
        &format!(
            r#"      <s:element name="Op"><s:complexType><s:sequence><s:element minOccurs="1" maxOccurs="1" name="f" type="tns:Flags" /></s:sequence></s:complexType></s:element>
      <s:simpleType name="Flags"><s:list><s:simpleType><s:restriction base="s:string"><s:enumeration value="None" /><s:enumeration value="A" /></s:restriction></s:simpleType></s:list></s:simpleType>
{OP_RESPONSE}"#
        ),
        "",
    );
    let yaml = import(&flags, "t.wsdl").unwrap();
    assert!(
        yaml.contains(
            "  - name: Flags\n    flags: true\n    zero: None  # the value with no flag is a guess: check it\n    values:\n      - None\n      - A\n"
        ),
        "{yaml}"
    );
    assert_eq!(
        refused("<a>\n  <b></a>"),
        "t.wsdl:2:6: not well-formed XML: expected 'b' tag, not 'a'"
    );
    assert_eq!(
        refused("<definitions/>"),
        "t.wsdl:1:1: the root element is definitions, not a WSDL 1.1 wsdl:definitions"
    );
}

#[test]
fn enums_and_nullable_values_are_written_as_the_spec_spells_them() {
    let wsdl = wsdl_with(
        &format!(
            r#"      <s:element name="Op"><s:complexType><s:sequence><s:element minOccurs="1" maxOccurs="1" name="level" type="tns:Level" /><s:element minOccurs="1" maxOccurs="1" name="n" nillable="true" type="s:int" /></s:sequence></s:complexType></s:element>
      <s:simpleType name="Level"><s:restriction base="s:string"><s:enumeration value="Low" /><s:enumeration value="very-high" /></s:restriction></s:simpleType>
{OP_RESPONSE}"#
        ),
        "",
    );
    let yaml = import(&wsdl, "t.wsdl").unwrap();
    assert!(yaml.ends_with(
        "enums:\n  - name: Level\n    values:\n      - Low\n      - very-high: VeryHigh  # the member name is a guess: check it\noperations:\n  - name: Op\n    doc: \"Op: no description in the WSDL.\"\n    bindings: [soap11]\n    params:\n      - level: Level\n      - \"n\": int?\n    result: int\n"
    ), "{yaml}");
    // An empty response element is a void result.
    let void = wsdl_with(
        r#"      <s:element name="Op"><s:complexType /></s:element>
      <s:element name="OpResponse"><s:complexType /></s:element>"#,
        "",
    );
    assert!(import(&void, "t.wsdl")
        .unwrap()
        .ends_with("    params: []\n    result: void\n"));
}

/// The objects crate's WSDL (classes, arrays, nesting, recursion) and the reference host's
/// (`tests/fixtures/objects/wsdl.xml`) import to its spec: the same operations, and the same
/// classes with the same members and types; and the two WSDLs are the same bytes.
#[test]
fn the_objects_crates_wsdl_round_trips_with_its_classes_and_arrays() {
    let root = rmm_tests::root();
    let source = std::fs::read_to_string(root.join("tests/objects/rmm-spec.yaml")).unwrap();
    let objects = spec::parse(&source, "tests/objects/rmm-spec.yaml").unwrap();
    let ours = rmm_objects::wsdl::document("http://127.0.0.1:18081/api/rmm/ObjectsService.asmx");
    let imported = imported_spec(&ours, "ours");
    assert_eq!(shape(&imported), shape(&objects));
    assert_eq!(classes(&imported), classes(&objects));
    // A WSDL does not carry .NET member names: the committed spec names `Delete` for the wire
    // name `delete`, by hand, as the import's comment asks.
    let without_members = |spec: &Spec| -> Vec<(String, Vec<String>, bool, Option<usize>)> {
        spec.enums
            .iter()
            .map(|e| (e.name.clone(), e.values.clone(), e.flags, e.zero))
            .collect()
    };
    assert_eq!(without_members(&imported), without_members(&objects));
    // The host's WSDL imports to the same spec, and is what the generated server serves, byte
    // for byte.
    let host = std::fs::read_to_string(root.join("tests/fixtures/objects/wsdl.xml")).unwrap();
    let from_host = imported_spec(&host, "tests/fixtures/objects/wsdl.xml");
    assert_eq!(shape(&from_host), shape(&objects));
    assert_eq!(classes(&from_host), classes(&objects));
    assert_eq!(without_members(&from_host), without_members(&objects));
    // The typed DataSet, from the schema the WSDL imports (its doc is the spec's own).
    let data_sets = |spec: &Spec| -> Vec<String> {
        spec.data_sets
            .iter()
            .map(|d| format!("{} {} {:?} {:?}", d.name, d.namespace, d.locale, d.tables))
            .collect()
    };
    assert_eq!(data_sets(&imported), data_sets(&objects));
    assert_eq!(data_sets(&from_host), data_sets(&objects));
    assert!(
        ours == host,
        "the objects crate's WSDL differs from the host's"
    );
    assert_eq!(
        classes(&imported)[0],
        "Order { Id: int, Placed: dateTime, Priority: Level, Customer: Customer, Lines: \
         OrderLine[], Tags: string[], Scores: int?[], Levels: Level[], Rating: double?, \
         Matrix: int[][], Blob: base64Binary }"
    );
    let shapes: Vec<String> = classes(&imported)
        .into_iter()
        .filter(|c| c.contains("Shape") || c.contains("Circle") || c.contains("Square"))
        .collect();
    assert_eq!(
        shapes,
        [
            "abstract Shape { Name: string }",
            "Square: Shape { Side: double }",
            "Circle: Shape { Radius: double }",
            "ColoredCircle: Circle { Color: string }",
            "Drawing { Title: string, Main: Shape, Ring: Circle, Shapes: Shape[] }",
        ]
    );
}

/// Each class with its members' names and types, as the spec spells them.
fn classes(spec: &Spec) -> Vec<String> {
    spec.classes
        .iter()
        .map(|c| {
            let members: Vec<String> = c
                .members
                .iter()
                .map(|m| {
                    let q = if m.nullable { "?" } else { "" };
                    // A WSDL does not carry an [XmlAnyElement] member's name.
                    let name = if m.any { "[XmlAnyElement]" } else { &m.name };
                    format!("{name}: {}{q}", spec.type_name(m.ty))
                })
                .collect();
            let base = c
                .base
                .map(|b| format!(": {}", spec.classes[usize::from(b)].name))
                .unwrap_or_default();
            let kind = if c.is_abstract { "abstract " } else { "" };
            format!("{kind}{}{base} {{ {} }}", c.name, members.join(", "))
        })
        .collect()
}

/// The second reference service: its spec (`tests/types/rmm-spec.yaml`) is what importing the
/// host's WSDL gives, and importing the WSDL its generated server serves gives it back too.
#[test]
fn the_types_service_round_trips_through_its_generated_server() {
    let root = rmm_tests::root();
    let host = std::fs::read_to_string(root.join("tests/fixtures/types/wsdl.xml")).unwrap();
    let source = std::fs::read_to_string(root.join("tests/types/rmm-spec.yaml")).unwrap();
    let types = spec::parse(&source, "tests/types/rmm-spec.yaml").unwrap();
    let from_host = imported_spec(&host, "tests/fixtures/types/wsdl.xml");
    assert_eq!(shape(&from_host), shape(&types));
    // The documentation is the WSDL's, once.
    assert_eq!(from_host.operations[0].doc, "Echoes a string.");
    let docs =
        |spec: &Spec| -> Vec<String> { spec.operations.iter().map(|o| o.doc.clone()).collect() };
    assert_eq!(docs(&from_host), docs(&types));
    assert_eq!(from_host.enums, types.enums);
    let ours = rmm_types::wsdl::document("http://127.0.0.1:18081/api/rmm/TypesService.asmx");
    let from_ours = imported_spec(&ours, "ours");
    assert_eq!(shape(&from_ours), shape(&types));
    assert_eq!(from_ours.enums, types.enums);
}

/// `cargo test` catches a forgotten regeneration of the types crate.
#[test]
fn the_types_crate_is_fresh() {
    let root = rmm_tests::root();
    let spec_file = "tests/types/rmm-spec.yaml";
    let source = std::fs::read_to_string(root.join(spec_file)).unwrap();
    let options = rmm_codegen::CrateOptions {
        runtime: rmm_codegen::RuntimeDependency::Path("../../runtime".into()),
        spec: Some("rmm-spec.yaml".into()),
    };
    let generated = rmm_codegen::generate_crate_from_source(&source, spec_file, &options)
        .unwrap_or_else(|e| panic!("{e}"));
    let problems = rmm_codegen::stale_crate(&generated, &root.join("tests/types")).unwrap();
    assert!(
        problems.is_empty(),
        "tests/types is stale; run `cargo xtask gen --spec {spec_file} --out tests/types`:\n{}",
        problems.join("\n")
    );
}

/// A nillable parameter of a class is named after the class's root ([XmlRoot]) only where a
/// result shows that root; without one it is `[XmlElement(IsNullable = true)]` on the
/// parameter, which is refused with its place rather than read as a root. The objects
/// service's `Receipt` stays a root.
#[test]
fn a_nillable_class_parameter_is_a_root_only_where_a_result_names_it() {
    let root = rmm_tests::root();
    let host = std::fs::read_to_string(root.join("tests/fixtures/objects/wsdl.xml")).unwrap();
    let plain = r#"<s:element minOccurs="0" maxOccurs="1" name="order" type="tns:Order" />"#;
    assert!(host.contains(plain));
    let nillable = host.replacen(
        plain,
        r#"<s:element minOccurs="1" maxOccurs="1" name="order" nillable="true" type="tns:Order" />"#,
        1,
    );
    let errors = import(&nillable, "objects.wsdl").unwrap_err().to_string();
    assert!(
        errors
            .contains("operation EchoOrder: parameter order is a nillable element of class Order"),
        "{errors}"
    );
    assert!(!errors.contains("Receipt"), "{errors}");
    let imported = imported_spec(&host, "objects.wsdl");
    let voucher = imported
        .classes
        .iter()
        .find(|c| c.name == "Voucher")
        .unwrap();
    assert_eq!(voucher.root.as_deref(), Some("Receipt"));
    let order = imported.classes.iter().find(|c| c.name == "Order").unwrap();
    assert_eq!(order.root, None);
}

/// A WSDL all of whose operations use what rmm does not import (here a typed DataSet) fails
/// to import even with `--skip-unsupported`, naming what it left out, rather than writing a
/// spec without operations that `gen` then refuses.
#[test]
fn a_service_left_without_operations_does_not_import() {
    let wsdl = wsdl_with(
        r#"      <s:import namespace="urn:shop.xsd" />
      <s:element name="Op"><s:complexType /></s:element>
      <s:element name="OpResponse"><s:complexType><s:sequence><s:element minOccurs="0" maxOccurs="1" name="OpResult"><s:complexType><s:sequence><s:any namespace="urn:shop.xsd" /></s:sequence></s:complexType></s:element></s:sequence></s:complexType></s:element>"#,
        "",
    );
    let errors = import::read_skipping_unsupported(&wsdl, "t.wsdl")
        .expect_err("no operation is left: the import fails");
    let last = errors.0.last().expect("errors").to_string();
    assert!(
        last.starts_with("t.wsdl: every operation of the service uses a construct"),
        "{last}"
    );
    assert!(last.contains("Op"), "{last}");
    assert!(
        errors
            .0
            .iter()
            .any(|e| e.message.starts_with("operation Op:")),
        "{errors}"
    );
}

/// A typed DataSet (an `xs:any` of the set's own namespace, its schema imported from
/// `?schema=Name`, as the host declares one made by `xsd /dataset`) imports from that schema,
/// fetched by the caller; without it, or where the schema holds what rmm does not model, it
/// is refused by name, where the WSDL or the schema shows it.
#[test]
fn a_typed_data_set_imports_from_the_schema_its_wsdl_imports() {
    let wsdl = |imports: &str| {
        wsdl_with(
            &format!(
                r#"{imports}
      <s:element name="Op"><s:complexType /></s:element>
      <s:element name="OpResponse"><s:complexType><s:sequence><s:element minOccurs="0" maxOccurs="1" name="OpResult"><s:complexType><s:sequence><s:any namespace="urn:shop.xsd" /></s:sequence></s:complexType></s:element></s:sequence></s:complexType></s:element>"#
            ),
            "",
        )
    };
    let bare = wsdl(r#"      <s:import namespace="urn:shop.xsd" />"#);
    let error = import(&bare, "t.wsdl").unwrap_err().to_string();
    assert!(
        error.contains(
            "operation Op: the result is a typed DataSet (an xs:any of its namespace \
             urn:shop.xsd), whose schema the WSDL does not import with a schemaLocation"
        ),
        "{error}"
    );
    let located = wsdl(
        r#"      <s:import namespace="urn:shop.xsd" />
      <s:import schemaLocation="http://h/S.asmx?schema=Shop" namespace="urn:shop.xsd" />"#,
    );
    // Not fetched: where the schema is, and why it was not read.
    let error = import(&located, "t.wsdl").unwrap_err().to_string();
    assert!(
        error.contains(
            "whose schema at http://h/S.asmx?schema=Shop could not be read: it is not fetched here"
        ),
        "{error}"
    );
    let schema = |column: &str| {
        format!(
            r#"<?xml version="1.0" encoding="utf-8"?>
<xs:schema xmlns:msdata="urn:schemas-microsoft-com:xml-msdata" xmlns="urn:shop.xsd" xmlns:mstns="urn:shop.xsd" attributeFormDefault="qualified" elementFormDefault="qualified" targetNamespace="urn:shop.xsd" id="Shop" xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:element msdata:IsDataSet="true" msdata:Locale="fr-FR" name="Shop">
    <xs:complexType>
      <xs:choice minOccurs="0" maxOccurs="unbounded">
        <xs:element name="Shop_x0020_Lines">
          <xs:complexType>
            <xs:sequence>
              <xs:element name="Id" type="xs:int" />
              {column}
            </xs:sequence>
          </xs:complexType>
        </xs:element>
      </xs:choice>
    </xs:complexType>
  </xs:element>
</xs:schema>"#
        )
    };
    let good = schema(
        r#"<xs:element msdata:DataType="System.Guid, mscorlib, Version=4.0.0.0, Culture=neutral, PublicKeyToken=b77a5c561934e089" minOccurs="0" name="Key" type="xs:string" />"#,
    );
    let imported = import::read_fetching(&located, "t.wsdl", false, &mut |_| Ok(good.clone()))
        .unwrap_or_else(|e| panic!("{e}"));
    let yaml = imported.to_yaml();
    assert!(
        yaml.contains(
            "data_sets:\n  - name: Shop\n    namespace: urn:shop.xsd\n    locale: \"fr-FR\"\n    \
             tables:\n      - name: \"Shop Lines\"\n        columns:\n          - Id: int\n          \
             - Key: guid?\n"
        ),
        "{yaml}"
    );
    let spec = spec::parse(&yaml, "imported.yaml").unwrap_or_else(|e| panic!("{e}\n{yaml}"));
    assert_eq!(spec.type_name(spec.operations[0].result), "Shop");
    // A column of a default value, which rmm does not model: refused where the schema shows it.
    let defaulted =
        schema(r#"<xs:element name="Count" type="xs:int" default="0" minOccurs="0" />"#);
    let error = import::read_fetching(&located, "t.wsdl", false, &mut |_| Ok(defaulted.clone()))
        .unwrap_err()
        .to_string();
    assert!(
        error.contains(
            "http://h/S.asmx?schema=Shop:10:15: column Count of table Shop_x0020_Lines of the \
             typed DataSet Shop is not one rmm models"
        ),
        "{error}"
    );
}

/// A built-in XML Schema type rmm carries no Rust type for (`xs:ID`, `xs:date`) is named as
/// such, not as a type the schema lacks.
#[test]
fn an_xml_schema_type_rmm_does_not_carry_is_named() {
    let wsdl = wsdl_with(
        &format!(
            r#"      <s:element name="Op"><s:complexType><s:sequence><s:element minOccurs="0" maxOccurs="1" name="id" type="s:ID" /></s:sequence></s:complexType></s:element>
{OP_RESPONSE}"#
        ),
        "",
    );
    let error = import(&wsdl, "t.wsdl").unwrap_err().to_string();
    assert!(
        error.contains(
            "parameter id is of the XML Schema type ID (.NET's DataType = \"ID\"), which rmm \
             does not carry yet"
        ),
        "{error}"
    );
}

/// A qualified attribute (`form="qualified"`, of the class's namespace, written with a
/// prefix) imports as one (`qualified: true`), not as one of no namespace, which would lose
/// it; one of an XML Schema type .NET reads as a trimmed string (`xs:ID`) carries it as its
/// `data_type`, as does a member element of one.
#[test]
fn a_qualified_attribute_and_an_id_import_as_such() {
    let wsdl = wsdl_with(
        &format!(
            r#"      <s:element name="Op"><s:complexType><s:sequence><s:element minOccurs="0" maxOccurs="1" name="a" type="tns:Tagged" /></s:sequence></s:complexType></s:element>
      <s:complexType name="Tagged"><s:sequence><s:element minOccurs="1" maxOccurs="1" name="Id" type="s:int" /><s:element minOccurs="0" maxOccurs="1" name="Link" type="s:anyURI" /></s:sequence><s:attribute form="qualified" name="version" type="s:string" /><s:attribute form="qualified" name="id" type="s:ID" /><s:attribute name="lang" type="s:language" /></s:complexType>
{OP_RESPONSE}"#
        ),
        "",
    );
    let yaml = import(&wsdl, "t.wsdl").unwrap_or_else(|e| panic!("{e}"));
    let expected = r#"  - name: Tagged
    attributes:
      - version: {type: "string", qualified: true}
      - id: {type: "string", qualified: true, data_type: ID}
      - lang: {type: "string", data_type: language}
    members:
      - Id: int
      - Link: {type: "string", data_type: anyURI}
"#;
    assert!(yaml.contains(expected), "{yaml}");
    // The spec it gives is valid.
    let spec = spec::parse(&yaml, "t.yaml").unwrap_or_else(|e| panic!("{e}\n{yaml}"));
    let tagged = &spec.classes[0];
    assert!(tagged.attributes[0].qualified && tagged.attributes[1].qualified);
    assert_eq!(tagged.attributes[1].data_type.as_deref(), Some("ID"));
    assert_eq!(tagged.members[1].data_type.as_deref(), Some("anyURI"));
}

/// The XML Schema types a spec's `data_type` may name are read by the runtime as the
/// trimmed strings they are (`runtime::any_type::COLLAPSED_STRINGS`, which also reads `Name`,
/// `NCName` and the `NMTOKEN`s in an `object`, where .NET's `ReadTypedPrimitive` trims them).
#[test]
fn every_data_type_is_one_the_runtime_reads_trimmed() {
    let runtime = rmm_objects::runtime::any_type::COLLAPSED_STRINGS;
    for data_type in rmm_codegen::model::COLLAPSED_STRINGS {
        assert!(runtime.contains(&data_type), "{data_type}");
    }
    for name_like in ["Name", "NCName", "NMTOKEN", "NMTOKENS"] {
        assert!(!rmm_codegen::model::COLLAPSED_STRINGS.contains(&name_like));
        assert!(runtime.contains(&name_like));
    }
}

/// Attributes through inheritance: a base's attribute and a derived class's own (in its
/// `s:extension`, after its sequence) import onto the classes that declare them, and the spec
/// they give generates a WSDL that declares them so again.
#[test]
fn attributes_of_a_base_and_a_derived_class_import_where_declared() {
    let wsdl = wsdl_with(
        &format!(
            r#"      <s:element name="Op"><s:complexType><s:sequence><s:element minOccurs="0" maxOccurs="1" name="a" type="tns:Base" /></s:sequence></s:complexType></s:element>
      <s:complexType name="Base"><s:sequence><s:element minOccurs="0" maxOccurs="1" name="Name" type="s:string" /></s:sequence><s:attribute name="Tag" type="s:string" /></s:complexType>
      <s:complexType name="Derived"><s:complexContent mixed="false"><s:extension base="tns:Base"><s:sequence><s:element minOccurs="1" maxOccurs="1" name="Size" type="s:int" /></s:sequence><s:attribute name="Code" type="s:int" use="required" /></s:extension></s:complexContent></s:complexType>
{OP_RESPONSE}"#
        ),
        "",
    );
    let yaml = import(&wsdl, "t.wsdl").unwrap_or_else(|e| panic!("{e}"));
    let spec = spec::parse(&yaml, "t.yaml").unwrap_or_else(|e| panic!("{e}\n{yaml}"));
    let attributes = |name: &str| -> Vec<String> {
        let class = spec.classes.iter().find(|c| c.name == name).unwrap();
        class.attributes.iter().map(|a| a.name.clone()).collect()
    };
    assert_eq!(attributes("Base"), ["Tag"]);
    assert_eq!(attributes("Derived"), ["Code"]);
    let model =
        rmm_codegen::model::Model::from_spec(&spec, "t.yaml").unwrap_or_else(|e| panic!("{e}"));
    let derived = model.classes.iter().find(|c| c.name == "Derived").unwrap();
    let wire: Vec<&str> = derived.attributes.iter().map(|a| a.wire.as_str()).collect();
    assert_eq!(wire, ["Tag", "Code"], "inherited first");
    assert_eq!(derived.inherited_attributes, 1);
}

/// The encoded service's WSDL (RPC/encoded, `[SoapRpcService]`), the host's and the one the
/// generated server serves, import to its spec: the service's style, every operation's
/// parameters, result, out and ref parameters, renamed result and namespaces, the classes,
/// arrays and enums. What a WSDL cannot carry is set from the committed spec: the docs, the
/// crate's name and the enum's .NET member name (`High` for the wire's `hi`).
#[test]
fn the_encoded_services_wsdl_imports_to_its_spec() {
    let root = rmm_tests::root();
    let source = std::fs::read_to_string(root.join("tests/encoded/rmm-spec.yaml")).unwrap();
    let committed = spec::parse(&source, "tests/encoded/rmm-spec.yaml").unwrap();
    let host = std::fs::read_to_string(root.join("tests/fixtures/encoded/wsdl.xml")).unwrap();
    let ours = rmm_encoded::wsdl::document("http://127.0.0.1:18081/api/rmm/EncodedService.asmx");
    for (wsdl, source) in [(&host, "the host's"), (&ours, "ours")] {
        let mut imported = imported_spec(wsdl, source);
        assert_eq!(imported.service.style, spec::ServiceStyle::Rpc);
        imported.service.crate_name = committed.service.crate_name.clone();
        for (op, theirs) in imported.operations.iter_mut().zip(&committed.operations) {
            op.doc = theirs.doc.clone();
        }
        for (class, theirs) in imported.classes.iter_mut().zip(&committed.classes) {
            class.doc = theirs.doc.clone();
        }
        for (e, theirs) in imported.enums.iter_mut().zip(&committed.enums) {
            e.members = theirs.members.clone();
        }
        assert_eq!(imported, committed, "{source} WSDL");
    }
}
