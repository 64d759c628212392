//! The help pages' sample XML for classes and arrays (the objects service): every sample
//! request and response is well-formed XML once its placeholders are read as text, and it
//! has the shape of the classes: members in wire order, inherited first, attributes and text,
//! two items per array, unwrapped arrays as repeated elements, `out` parameters after the
//! result, and a recursive class that ends.

use rmm_codegen::model::Model;
use rmm_codegen::spec::SoapType;
use rmm_objects::{help, Operation};

const PATH: &str = "/api/rmm/ObjectsService.asmx";
const SERVICE_NS: &str = "http://rmm.example.com/objects";

fn model() -> Model {
    let root = rmm_tests::root();
    let file = "tests/objects/rmm-spec.yaml";
    let spec = rmm_codegen::spec::load(&root.join(file)).expect("the objects spec is valid");
    Model::from_spec(&spec, file).expect("the objects spec is valid")
}

/// The text of every `<pre>` of a page, as the browser shows it: tags (the placeholders'
/// spans) removed, entities decoded.
fn pres(page: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = page;
    while let Some(start) = rest.find("<pre>") {
        let end = rest[start..].find("</pre>").expect("a closed <pre>") + start;
        let html = &rest[start + 5..end];
        let mut shown = String::new();
        let mut in_tag = false;
        for c in html.chars() {
            match c {
                '<' => in_tag = true,
                '>' => in_tag = false,
                c if !in_tag => shown.push(c),
                _ => {}
            }
        }
        out.push(
            shown
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&#39;", "'")
                .replace("&amp;", "&"),
        );
        rest = &rest[end..];
    }
    out
}

/// The XML document of a sample: what follows its headers (the first blank line).
fn document(sample: &str) -> Option<&str> {
    sample.split_once("\n\n").map(|(_, body)| body)
}

/// The SOAP 1.1 request sample's parameter `name` of `operation`, parsed.
fn soap11_request(operation: Operation) -> String {
    let page = help::operation(operation, PATH);
    document(&pres(&page)[0]).expect("a body").to_owned()
}

fn children<'a>(node: roxmltree::Node<'a, 'a>) -> Vec<roxmltree::Node<'a, 'a>> {
    node.children().filter(|n| n.is_element()).collect()
}

fn names(node: roxmltree::Node<'_, '_>) -> Vec<String> {
    children(node)
        .iter()
        .map(|n| n.tag_name().name().to_owned())
        .collect()
}

#[test]
fn every_sample_is_well_formed_xml() {
    let mut documents = 0;
    for operation in Operation::ALL {
        for sample in pres(&help::operation(operation, PATH)) {
            // Form bodies (HTTP POST requests) are no XML.
            let Some(xml) = document(&sample).filter(|body| body.starts_with("<?xml")) else {
                continue;
            };
            roxmltree::Document::parse(xml)
                .unwrap_or_else(|e| panic!("{}: {e}\n{xml}", operation.name()));
            documents += 1;
        }
    }
    // Requests and responses over SOAP 1.1 and 1.2, and a result over HTTP GET/POST.
    assert!(documents > 4 * Operation::ALL.len(), "{documents}");
}

/// A parameter of a class shows every member of it, inherited first, in wire order, and a
/// member of a class type shows that class's members in turn; an array shows two items.
#[test]
fn a_class_shows_its_members_in_wire_order_and_arrays_two_items() {
    let model = model();
    let xml = soap11_request(Operation::EchoOrder);
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let order = doc
        .descendants()
        .find(|n| n.has_tag_name((SERVICE_NS, "order")))
        .expect("the order parameter");
    let class = model.classes.iter().find(|c| c.name == "Order").unwrap();
    let wire: Vec<String> = class.fields().map(|m| m.wire.clone()).collect();
    assert_eq!(names(order), wire);
    // Each member holds what its type holds: a class its members, an array two items named
    // after the item type, a simple value its type's name.
    for (member, element) in class.fields().zip(children(order)) {
        match member.ty {
            SoapType::Class(i) => {
                let inner = &model.classes[usize::from(i)];
                let wire: Vec<String> = inner.fields().map(|m| m.wire.clone()).collect();
                assert_eq!(names(element), wire, "{}", member.wire);
            }
            SoapType::Array(i) => {
                let item = &model.arrays[usize::from(i)].item_name;
                assert_eq!(
                    names(element),
                    [item.as_str(), item.as_str()],
                    "{}",
                    member.wire
                );
            }
            SoapType::Enum(_) => assert_eq!(element.text(), Some("Low or Normal or High")),
            simple => assert_eq!(element.text(), Some(simple.name()), "{}", member.wire),
        }
    }
}

/// `TreeNode` holds its children and its parent: met again inside itself, its class and array
/// members are nil, so the sample ends.
#[test]
fn a_recursive_class_ends_in_nil_members() {
    let xml = soap11_request(Operation::EchoTree);
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let node = doc
        .descendants()
        .find(|n| n.has_tag_name((SERVICE_NS, "node")))
        .unwrap();
    assert_eq!(names(node), ["Name", "Children", "Parent"]);
    let child = children(children(node)[1])[0];
    assert_eq!(names(child), ["Name", "Children", "Parent"]);
    const XSI: &str = "http://www.w3.org/2001/XMLSchema-instance";
    for nil in &children(child)[1..] {
        assert_eq!(nil.attribute((XSI, "nil")), Some("true"));
        assert!(nil.first_child().is_none());
    }
    // Nothing deeper than that second level.
    assert!(
        doc.descendants()
            .filter(|n| n.has_tag_name((SERVICE_NS, "Name")))
            .count()
            <= 4
    );
}

#[test]
fn attributes_text_and_unwrapped_arrays() {
    let xml = soap11_request(Operation::EchoAttributes);
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let value = doc
        .descendants()
        .find(|n| n.has_tag_name((SERVICE_NS, "value")))
        .unwrap();
    assert_eq!(value.attribute("Code"), Some("string"));
    assert_eq!(value.attribute("n"), Some("int"));
    assert_eq!(
        value.attribute("Access"),
        Some("None or Read or Write or Execute or delete")
    );

    let xml = soap11_request(Operation::EchoText);
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let note = doc
        .descendants()
        .find(|n| n.has_tag_name((SERVICE_NS, "note")))
        .unwrap();
    assert_eq!(note.attribute("Lang"), Some("string"));
    assert_eq!(note.text(), Some("string"));

    // `[XmlElement]` on an array: its items are the member's own elements, repeated.
    let xml = soap11_request(Operation::EchoBundle);
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let bundle = doc
        .descendants()
        .find(|n| n.has_tag_name((SERVICE_NS, "bundle")))
        .unwrap();
    assert_eq!(names(bundle), ["Lines", "Tag", "Tag", "Scores", "Rights"]);
}

/// A response holds the result, then the `out` parameters; a bare operation's parameter and
/// result stand in the Body, declaring the namespace.
#[test]
fn out_parameters_and_bare_style() {
    let page = help::operation(Operation::Split, PATH);
    let response = document(&pres(&page)[1]).unwrap().to_owned();
    let doc = roxmltree::Document::parse(&response).unwrap();
    let wrapper = doc
        .descendants()
        .find(|n| n.has_tag_name((SERVICE_NS, "SplitResponse")))
        .unwrap();
    assert_eq!(names(wrapper), ["SplitResult", "head", "count"]);

    let xml = soap11_request(Operation::EchoOrderBare);
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let body = doc
        .descendants()
        .find(|n| n.tag_name().name() == "Body")
        .unwrap();
    let parameters = children(body);
    assert_eq!(parameters.len(), 1);
    assert!(parameters[0].has_tag_name((SERVICE_NS, "order")));
    assert!(names(parameters[0]).starts_with(&["Id".to_owned()]));
}

/// Over HTTP GET/POST a class result is its own document, rooted at the class's name and
/// declaring the instance namespaces, as the host writes it; an array parameter is one pair
/// per item.
#[test]
fn http_samples_of_classes_and_arrays() {
    let page = help::operation(Operation::MakeOrder, PATH);
    let get = pres(&page)
        .into_iter()
        .find(|p| {
            p.starts_with("HTTP/1.1 200 OK\nContent-Type: text/xml") && p.contains("\n<Order ")
        })
        .expect("the HTTP GET result");
    let doc = roxmltree::Document::parse(document(&get).unwrap()).unwrap();
    assert!(doc.root_element().has_tag_name((SERVICE_NS, "Order")));
    assert!(get.contains(r#"<Order xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="http://rmm.example.com/objects">"#));

    let page = help::operation(Operation::EchoIntArray, PATH);
    assert!(
        pres(&page).iter().any(|p| p.starts_with("GET ")
            && p.contains("/EchoIntArray?values=string&values=string HTTP/1.1")),
        "{page}"
    );
}

/// Classes that hold each other (each of eight holds the seven others) would make a sample
/// grow about tenfold per class; past a depth and a size their class members are nil, so the
/// page stays a page.
#[test]
fn classes_holding_each_other_give_a_bounded_page() {
    let names: Vec<String> = (0..8).map(|i| format!("C{i}")).collect();
    let mut spec = String::from(
        "service:\n  name: Web\n  namespace: http://web.example.com/\n  path: /Web.asmx\n\
         credentials: []\ntypes:\n",
    );
    for name in &names {
        spec.push_str(&format!(
            "  - name: {name}\n    members:\n      - Id: int\n"
        ));
        for other in names.iter().filter(|o| *o != name) {
            spec.push_str(&format!("      - {other}: {other}\n"));
        }
    }
    spec.push_str(
        "operations:\n  - name: Echo\n    doc: Echoes.\n    params:\n      - value: C0\n    \
         result: C0\n    bindings: [soap11, soap12]\n",
    );
    let files =
        rmm_codegen::generate_from_source(&spec, "web.yaml").unwrap_or_else(|e| panic!("{e}"));
    let help = &files
        .iter()
        .find(|f| f.path == "help.rs")
        .expect("a help page")
        .contents;
    assert!(help.len() < 2_000_000, "{} bytes", help.len());
    assert!(help.contains("xsi:nil=\"true\""));
}
