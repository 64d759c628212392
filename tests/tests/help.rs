//! The HTML help pages: the index and an operation page as snapshots, every parameter on
//! its operation's page, and escaping of everything that comes from the spec or the request.

use rmm_codegen::model::Model;
use rmm_mobile::{help, Operation};
use rmm_tests::spec_path;

const PATH: &str = "/api/rmm/MobileService.asmx";

fn model() -> Model {
    let spec = rmm_codegen::spec::load(&spec_path()).expect("rmm-spec.yaml is valid");
    Model::from_spec(&spec, "rmm-spec.yaml").expect("rmm-spec.yaml is valid")
}

#[test]
fn index_page() {
    insta::assert_snapshot!(help::index(PATH));
}

#[test]
fn operation_page_of_mobile_task_create() {
    insta::assert_snapshot!(help::operation(Operation::MobileTaskCreate, PATH));
}

#[test]
fn index_links_every_operation_and_the_wsdl() {
    let page = help::index(PATH);
    assert!(page.contains("<title>MobileService Web Service</title>"));
    assert!(page.contains(r#"<a href="?wsdl">"#));
    for op in Operation::ALL {
        let link = format!(r#"<a href="?op={0}">{0}</a>"#, op.name());
        assert_eq!(page.matches(&link).count(), 1, "{link}");
    }
}

/// Each page names its operation, every parameter in the table in wire order with its
/// type and position, in the SOAP samples with its type as placeholder, and in the HTTP
/// GET and POST samples as `name=string`.
#[test]
fn every_operation_page_names_every_parameter() {
    let model = model();
    assert_eq!(model.operations.len(), Operation::ALL.len());
    for (op, operation) in model.operations.iter().zip(Operation::ALL) {
        assert_eq!(op.wire, operation.name());
        let page = help::operation(operation, PATH);
        assert!(
            page.contains(&format!("<h2>{}</h2>", op.wire)),
            "{}",
            op.wire
        );
        let mut table_at = 0;
        let mut soap_at = [0, 0];
        for p in &op.params {
            let ty = format!("{:?}", p.ty).to_lowercase();
            let row = format!(
                "<tr><td>{}</td><td>{}</td><td>{ty}</td></tr>",
                p.position, p.wire
            );
            let at = page[table_at..]
                .find(&row)
                .unwrap_or_else(|| panic!("{}: no row {row} after byte {table_at}", op.wire));
            table_at += at + row.len();
            let element = format!(
                r#"&lt;{0}&gt;<span class="value">{ty}</span>&lt;/{0}&gt;"#,
                p.wire
            );
            // Once in the SOAP 1.1 and once in the SOAP 1.2 request, each in order.
            assert_eq!(page.matches(&element).count(), 2, "{}: {element}", op.wire);
            for (i, at) in page.match_indices(&element).map(|(i, _)| i).enumerate() {
                assert!(at > soap_at[i], "{}: {} out of order", op.wire, p.wire);
                soap_at[i] = at;
            }
            let field = format!(r#"{}=<span class="value">string</span>"#, p.wire);
            // Once in the GET query, once in the POST body (at least: names may prefix others).
            assert!(page.matches(&field).count() >= 2, "{}: {field}", op.wire);
        }
        let query = op
            .params
            .iter()
            .map(|p| format!(r#"{}=<span class="value">string</span>"#, p.wire))
            .collect::<Vec<_>>()
            .join("&amp;");
        assert!(
            page.contains(&format!("GET {PATH}/{}?{query} HTTP/1.1\n", op.wire)),
            "{}",
            op.wire
        );
        assert!(
            page.contains(&format!("\n\n{query}</pre>")),
            "{}: POST body",
            op.wire
        );
        assert!(page.contains(&format!(
            "SOAPAction: \"http://rmm.example.com/mobile/{}\"\n",
            op.wire
        )));
        assert!(page.contains(&format!(
            "Content-Type: application/soap+xml; charset=utf-8; action=\"http://rmm.example.com/mobile/{}\"\n",
            op.wire
        )));
        assert!(page.contains(&format!("POST {PATH}/{} HTTP/1.1\n", op.wire)));
        assert_eq!(page.matches(&format!("POST {PATH} HTTP/1.1\n")).count(), 2);
        assert_eq!(
            page.matches(r#"&lt;string xmlns="http://rmm.example.com/mobile"&gt;<span class="value">string</span>&lt;/string&gt;"#)
                .count(),
            2,
            "the HTTP GET and POST results"
        );
    }
}

/// The request path is the only thing spliced in at run time, and it is escaped.
#[test]
fn path_is_html_escaped() {
    let path = r#"/x"><script>alert('1')</script>&"#;
    let escaped = "/x&quot;&gt;&lt;script&gt;alert(&#39;1&#39;)&lt;/script&gt;&amp;";
    let index = help::index(path);
    let page = help::operation(Operation::MobileAccountSearch, path);
    for page in [&index, &page] {
        assert!(!page.contains("<script>"));
        assert!(page.contains(escaped));
    }
    // The discovery link, the back link and four request lines.
    assert_eq!(page.matches(escaped).count(), 6);
    assert_eq!(index.matches(escaped).count(), 1);
}

/// Everything the spec puts on a page is HTML-escaped when the pages are generated.
#[test]
fn spec_text_is_html_escaped() {
    let spec = r###"service:
  name: Svc
  namespace: "urn:x?a=1"
  path: /svc.asmx
credentials: [key]
secrets: []
operations:
  - name: Ping
    doc: Says <script>&"'hi'</script> back, "#1 and "##2.
    params:
      - text: string
      - key: string
    result: string
"###;
    let files = rmm_codegen::generate_from_source(spec, "x.yaml").expect("the spec is valid");
    let help = &files.iter().find(|f| f.path == "help.rs").unwrap().contents;
    assert!(!help.contains("<script>"), "{help}");
    assert!(!help.contains("</script>"));
    assert!(
        help.contains(r###"Says &lt;script&gt;&amp;"'hi'&lt;/script&gt; back, "#1 and "##2."###)
    );
    // Raw string literals with enough hashes for the quotes and hashes of the doc.
    assert!(help.contains("r###\""));
    // The namespace reaches the samples (markup in a namespace is refused by the spec).
    assert!(help.contains("urn:x?a=1"));
}
