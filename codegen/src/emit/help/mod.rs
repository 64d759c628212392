//! `help.rs`: the HTML help pages of the service.
//!
//! The pages follow the classic .NET ASMX help page (`DefaultWsdlHelpGenerator.aspx`): an
//! index listing the operations with their documentation, and one page per operation
//! (`?op=Name`) with its parameters and, for each of the four bindings, a sample request
//! and response as the wire carries them, placeholders in place of values. Everything is
//! written here, at generation time, with every text taken from the spec HTML-escaped; the
//! generated functions only splice in the request path, escaping it at run time.

use proc_macro2::TokenStream;
use quote::quote;

use super::wsdl::{http_location, text_literal};
use super::{ident, type_name};
use crate::model::{Model, OperationModel};
use crate::spec::{BindingName, SoapType};

mod sample;

use sample::Sampler;

/// A piece of a page being built: fixed text or the request path.
enum Piece {
    Text(String),
    Path,
}

/// A page being built: text with the places where the request path goes.
#[derive(Default)]
struct Page(Vec<Piece>);

impl Page {
    fn text(&mut self, text: &str) {
        match self.0.last_mut() {
            Some(Piece::Text(last)) => last.push_str(text),
            _ => self.0.push(Piece::Text(text.to_owned())),
        }
    }

    fn path(&mut self) {
        self.0.push(Piece::Path);
    }

    /// `&[Text(HEAD), Path, Text(r#"…"#), …, Text(FOOT)]`: the shared head and foot are
    /// named, the rest is written out.
    fn tokens(&self) -> TokenStream {
        let pieces = self.0.iter().map(|piece| match piece {
            Piece::Text(text) => {
                let literal = text_literal(text);
                quote!(Text(#literal))
            }
            Piece::Path => quote!(Path),
        });
        quote!(&[Text(HEAD), Path, #(#pieces,)* Text(FOOT)])
    }
}

/// `text` as HTML element content.
fn text(value: &str) -> String {
    escape(value, false)
}

/// `value` as the content of a quoted HTML attribute.
fn attr(value: &str) -> String {
    escape(value, true)
}

fn escape(value: &str, quotes: bool) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if quotes => out.push_str("&quot;"),
            '\'' if quotes => out.push_str("&#39;"),
            // A CR would not survive a raw string literal; as a reference it reads the same.
            '\r' => out.push_str("&#13;"),
            c => out.push(c),
        }
    }
    out
}

/// What a page says of an operation: the service's description as plain text, as ASP.NET's
/// help page shows a `[WebMethod(Description)]`, or else the spec's doc.
fn shown_doc(op: &OperationModel, indent: &str) -> String {
    match &op.description {
        Some(description) => text(description.trim()),
        None => doc_html(&op.doc, indent),
    }
}

/// Documentation as HTML: escaped, `code` spans as `<code>`, every line indented by `indent`
/// (so that no line of a page starts at the margin), paragraphs separated by a blank line.
fn doc_html(doc: &str, indent: &str) -> String {
    let mut out = String::new();
    let mut blank = false;
    for line in doc.lines().map(str::trim) {
        if line.is_empty() {
            blank = true;
            continue;
        }
        if !out.is_empty() {
            out.push('\n');
            out.push_str(indent);
            if blank {
                out.push_str("<br><br>");
            }
        }
        blank = false;
        out.push_str(&code_spans(&text(line)));
    }
    out
}

/// Pairs of backticks in (escaped) `line` as `<code>` elements; an unpaired one stays.
fn code_spans(line: &str) -> String {
    let parts: Vec<&str> = line.split('`').collect();
    if parts.len() % 2 == 0 {
        return line.to_owned();
    }
    let mut out = String::with_capacity(line.len() + 16);
    for (i, part) in parts.iter().enumerate() {
        if i % 2 == 1 {
            out.push_str("<code>");
            out.push_str(part);
            out.push_str("</code>");
        } else {
            out.push_str(part);
        }
    }
    out
}

/// A placeholder for a value, as the .NET help page marks it.
fn placeholder(what: &str) -> String {
    format!(r#"<span class="value">{what}</span>"#)
}

const CSS: &str = r#"      BODY { color: #000000; background-color: white; font-family: Verdana; margin-left: 0px; margin-top: 0px; }
      #content { margin-left: 30px; font-size: .70em; padding-bottom: 2em; }
      A:link { color: #336699; font-weight: bold; text-decoration: underline; }
      A:visited { color: #6699cc; font-weight: bold; text-decoration: underline; }
      A:active { color: #336699; font-weight: bold; text-decoration: underline; }
      A:hover { color: #cc3300; font-weight: bold; text-decoration: underline; }
      P { color: #000000; margin-top: 0px; margin-bottom: 12px; font-family: Verdana; }
      pre { background-color: #e5e5cc; padding: 5px; font-family: Courier New; font-size: x-small; margin-top: -5px; border: 1px #f0f0e0 solid; }
      td { color: #000000; font-family: Verdana; font-size: .7em; }
      h2 { font-size: 1.5em; font-weight: bold; margin-top: 25px; margin-bottom: 10px; border-top: 1px solid #003366; margin-left: -15px; color: #003366; }
      h3 { font-size: 1.1em; color: #000000; margin-left: -15px; margin-top: 10px; margin-bottom: 10px; }
      ul { margin-top: 10px; margin-left: 20px; }
      li { margin-top: 10px; color: #000000; }
      span.value { color: darkblue; font-weight: bold; }
      .heading1 { color: #ffffff; font-family: Tahoma; font-size: 26px; font-weight: normal; background-color: #003366; margin-top: 0px; margin-bottom: 0px; margin-left: -30px; padding-top: 10px; padding-bottom: 3px; padding-left: 15px; width: 105%; }
      .frmheader { color: #000000; background: #dcdcdc; font-family: Verdana; font-size: .7em; font-weight: normal; border-bottom: 1px solid #dcdcdc; padding-top: 2px; padding-bottom: 2px; }
      .intro { margin-left: -15px; }
"#;

/// The start of every page, up to the request path in its discovery link.
fn head(model: &Model) -> String {
    let title = text(&model.service.name);
    format!(
        "<!DOCTYPE html>\n<html>\n  <head>\n    <meta charset=\"utf-8\">\n    \
         <title>{title} Web Service</title>\n    <style type=\"text/css\">\n{CSS}    </style>\n    \
         <link rel=\"alternate\" type=\"text/xml\" href=\""
    )
}

/// The end of every page.
const FOOT: &str = "    </div>\n  </body>\n</html>\n";

/// From the end of the discovery link to the page's own content.
fn body_start(model: &Model) -> String {
    format!(
        "?disco\" />\n  </head>\n  <body>\n    <div id=\"content\">\n      \
         <p class=\"heading1\">{}</p><br>\n",
        text(&model.service.name)
    )
}

fn index(model: &Model) -> Page {
    let mut page = Page::default();
    page.text(&body_start(model));
    // The service's description, as ASP.NET's help page shows a `[WebService(Description)]`.
    if let Some(description) = &model.service.description {
        page.text(&format!(
            "      <span>\n        <p class=\"intro\">{}</p>\n      </span>\n",
            text(description.trim())
        ));
    }
    page.text(
        "      <div>\n        <p class=\"intro\">The following operations are supported. \
         For a formal definition, please review the <a href=\"?wsdl\">Service Description</a>.</p>\n        <ul>\n",
    );
    for op in &model.operations {
        page.text(&format!(
            "          <li>\n            <a href=\"?op={}\">{}</a>\n            <span>\n              <br>{}\n            </span>\n          </li>\n",
            attr(&op.wire),
            text(&op.wire),
            shown_doc(op, "              "),
        ));
    }
    page.text("        </ul>\n      </div>\n");
    page
}

/// The sample request and response of one binding.
struct Sample {
    /// `SOAP 1.1`, …
    label: &'static str,
    /// The request line's method (`POST`, `GET`).
    method: &'static str,
    /// What follows the path in the request line, up to ` HTTP/1.1` (operation path, query).
    target: String,
    /// Request headers after `Host`, and the body, HTML-escaped.
    request: String,
    /// The whole response, HTML-escaped.
    response: String,
}

/// A SOAP 1.1 response of `op` holding a concrete sample of its result and `out` parameters
/// (every member present, as `Sampler::concrete` makes it), as the host would write it: what
/// `rmm mock --answer sample` decodes once and answers with on every binding.
pub fn sample_response(model: &Model, op: &OperationModel) -> String {
    let mut sampler = Sampler::concrete(model);
    let namespace = &model.service.namespace;
    let body = if op.bare {
        if op.result == SoapType::Void {
            String::new()
        } else {
            sampler
                .element(&op.result_name, op.result)
                .with_namespace(namespace)
                .xml()
        }
    } else {
        let mut elements = String::new();
        if op.result != SoapType::Void {
            elements.push_str(&sampler.element(&op.result_name, op.result).xml());
        }
        for out in &op.outs {
            for element in sampler.member(out) {
                elements.push_str(&element.xml());
            }
        }
        format!("{}{elements}{}", op.response_open, op.response_close)
    };
    format!(
        r#"<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><soap:Body>{body}</soap:Body></soap:Envelope>"#
    )
}

fn samples(model: &Model, op: &OperationModel) -> [Sample; 4] {
    const XSI_XSD: &str = r#"xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema""#;
    let length = placeholder("length");
    // The request body as clients write it (the layout of the .NET help page and of the
    // recorded requests): indented, one parameter per line, each with its type as the value.
    let envelope = |prefix: &str, env_ns: &str| {
        let mut body = format!(
            "{}\n{}\n",
            text(r#"<?xml version="1.0" encoding="utf-8"?>"#),
            text(&format!(
                r#"<{prefix}:Envelope {XSI_XSD} xmlns:{prefix}="{env_ns}">"#
            )),
        );
        let mut sampler = Sampler::new(model);
        // The SOAP headers it reads, each a block of the Header in its class's namespace.
        if op.in_headers().next().is_some() {
            body.push_str(&format!("  {}\n", text(&format!("<{prefix}:Header>"))));
            for h in op.in_headers() {
                let block = sampler
                    .element(
                        &h.wire,
                        SoapType::Class(u16::try_from(h.class).expect("an index")),
                    )
                    .with_namespace(&h.namespace);
                body.push_str(&format!("{}\n", block.indented(4)));
            }
            body.push_str(&format!("  {}\n", text(&format!("</{prefix}:Header>"))));
        }
        body.push_str(&format!("  {}\n", text(&format!("<{prefix}:Body>"))));
        if op.bare {
            // No wrapper: each parameter an element of the Body, declaring its namespace.
            for p in &op.params {
                let element = sampler
                    .element(&p.wire, p.ty)
                    .with_namespace(&model.service.namespace);
                body.push_str(&format!("{}\n", element.indented(4)));
            }
        } else if op.params.is_empty() {
            body.push_str(&format!(
                "    {}{}\n",
                text(&op.request_open),
                text(&op.request_close)
            ));
        } else {
            body.push_str(&format!("    {}\n", text(&op.request_open)));
            for p in &op.params {
                body.push_str(&format!("{}\n", sampler.element(&p.wire, p.ty).indented(6)));
            }
            body.push_str(&format!("    {}\n", text(&op.request_close)));
        }
        body.push_str(&format!(
            "  {}\n{}",
            text(&format!("</{prefix}:Body>")),
            text(&format!("</{prefix}:Envelope>"))
        ));
        body
    };
    // The response exactly as the host writes it: one line, prefix `soap` in both versions.
    let void = op.result == SoapType::Void;
    let soap_response = |content_type: &str, env_ns: &str| {
        let mut sampler = Sampler::new(model);
        let envelope_open = text(&format!(
            r#"<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="{env_ns}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">"#
        ));
        let body = if op.bare {
            // No wrapper: the result element in the Body (an empty Body for void).
            if void {
                text("<soap:Body />")
            } else {
                let result = sampler
                    .element(&op.result_name, op.result)
                    .with_namespace(&model.service.namespace);
                format!(
                    "{}{}{}",
                    text("<soap:Body>"),
                    result.compact(),
                    text("</soap:Body>")
                )
            }
        } else {
            // The result, then the `out` parameters, in the response element.
            let mut elements = String::new();
            if !void {
                elements.push_str(&sampler.element(&op.result_name, op.result).compact());
            }
            for out in &op.outs {
                for element in sampler.member(out) {
                    elements.push_str(&element.compact());
                }
            }
            if elements.is_empty() {
                // The empty response element: `<{name}Response xmlns="…" />`.
                let open = &op.response_open;
                text(&format!(
                    "<soap:Body>{} /></soap:Body>",
                    &open[..open.len() - 1]
                ))
            } else {
                format!(
                    "{}{elements}{}",
                    text(&format!("<soap:Body>{}", op.response_open)),
                    text(&format!("{}</soap:Body>", op.response_close)),
                )
            }
        };
        // The SOAP headers it writes, each a block of the Header in its class's namespace.
        let mut header = String::new();
        if op.out_headers().next().is_some() {
            header.push_str(&text("<soap:Header>"));
            for h in op.out_headers() {
                let block = sampler
                    .element(
                        &h.wire,
                        SoapType::Class(u16::try_from(h.class).expect("an index")),
                    )
                    .with_namespace(&h.namespace);
                header.push_str(&block.compact());
            }
            header.push_str(&text("</soap:Header>"));
        }
        format!(
            "HTTP/1.1 200 OK\nContent-Type: {content_type}\nContent-Length: {length}\n\n{envelope_open}{header}{body}{}",
            text("</soap:Envelope>")
        )
    };
    // The HTTP GET/POST result document, its root named after the result's type, indented as
    // the host writes it.
    let string_response = if void {
        // Nothing comes back over HTTP GET/POST, not even a content type.
        "HTTP/1.1 200 OK".to_owned()
    } else {
        let mut root = Sampler::new(model)
            .element(model.root_name(op.result), op.result)
            .with_namespace(&model.service.namespace)
            .standing_alone();
        if matches!(op.result, SoapType::Class(_) | SoapType::Array(_)) {
            root = root.declaring_instance();
        }
        format!(
            "HTTP/1.1 200 OK\nContent-Type: text/xml; charset=utf-8\nContent-Length: {length}\n\n{}\n{}",
            text(r#"<?xml version="1.0" encoding="utf-8"?>"#),
            root.indented(0),
        )
    };
    // HTTP GET and POST carry every parameter as a string.
    let form = op
        .params
        .iter()
        .flat_map(|p| {
            // An array is one pair per item, its key repeated.
            let pairs = if matches!(p.ty, SoapType::Array(_)) {
                2
            } else {
                1
            };
            std::iter::repeat_n(
                format!("{}={}", text(&p.wire), placeholder("string")),
                pairs,
            )
        })
        .collect::<Vec<_>>()
        .join("&amp;");
    let location = text(http_location(model, op));
    const SOAP11_NS: &str = "http://schemas.xmlsoap.org/soap/envelope/";
    const SOAP12_NS: &str = "http://www.w3.org/2003/05/soap-envelope";
    [
        Sample {
            label: "SOAP 1.1",
            method: "POST",
            target: String::new(),
            request: format!(
                "Content-Type: text/xml; charset=utf-8\nContent-Length: {length}\nSOAPAction: {}\n\n{}",
                text(&op.soap_action),
                envelope("soap", SOAP11_NS)
            ),
            response: soap_response("text/xml; charset=utf-8", SOAP11_NS),
        },
        Sample {
            label: "SOAP 1.2",
            method: "POST",
            target: String::new(),
            request: format!(
                "Content-Type: {}\nContent-Length: {length}\n\n{}",
                text(&op.soap12_content_type),
                envelope("soap12", SOAP12_NS)
            ),
            response: soap_response("application/soap+xml; charset=utf-8", SOAP12_NS),
        },
        Sample {
            label: "HTTP GET",
            method: "GET",
            target: if form.is_empty() {
                location.clone()
            } else {
                format!("{location}?{form}")
            },
            request: String::new(),
            response: string_response.clone(),
        },
        Sample {
            label: "HTTP POST",
            method: "POST",
            target: location,
            request: format!(
                "Content-Type: application/x-www-form-urlencoded\nContent-Length: {length}\n\n{form}"
            ),
            response: string_response,
        },
    ]
}

fn operation_page(model: &Model, op: &OperationModel) -> Page {
    let mut page = Page::default();
    page.text(&body_start(model));
    page.text("      <div>\n        <p class=\"intro\">Click <a href=\"");
    page.path();
    page.text(&format!(
        "\">here</a> for a complete list of operations.</p>\n        <h2>{}</h2>\n        <p class=\"intro\">{}</p>\n",
        text(&op.wire),
        shown_doc(op, "          "),
    ));
    page.text(
        "        <h3>Parameters</h3>\n        <table>\n          <tr><td class=\"frmheader\">Position</td><td class=\"frmheader\">Parameter</td><td class=\"frmheader\">Type</td></tr>\n",
    );
    for p in &op.params {
        page.text(&format!(
            "          <tr><td>{}</td><td>{}</td><td>{}</td></tr>\n",
            p.position,
            text(&p.wire),
            type_name(model, p.ty)
        ));
    }
    page.text("        </table>\n");
    // Only the bindings the operation is offered on, as ASMX's page shows them.
    let offered = |label: &str| {
        op.bindings.contains(&match label {
            "SOAP 1.1" => BindingName::Soap11,
            "SOAP 1.2" => BindingName::Soap12,
            "HTTP GET" => BindingName::Get,
            _ => BindingName::Post,
        })
    };
    for sample in samples(model, op).into_iter().filter(|s| offered(s.label)) {
        page.text(&format!(
            "        <div>\n          <h3>{label}</h3>\n          <p>The following is a sample {label} request and response. \
             The <span class=\"value\">placeholders</span> shown need to be replaced with actual values.</p>\n          <pre>{method} ",
            label = sample.label,
            method = sample.method,
        ));
        page.path();
        let request = if sample.request.is_empty() {
            String::new()
        } else {
            format!("\n{}", sample.request)
        };
        page.text(&format!(
            "{} HTTP/1.1\nHost: {}{request}</pre>\n          <pre>{}</pre>\n        </div>\n",
            sample.target,
            placeholder("host"),
            sample.response,
        ));
    }
    page.text("      </div>\n");
    page
}

pub(super) fn emit(model: &Model) -> TokenStream {
    let service = &model.service.name;
    let module_doc = super::inner_doc(&format!(
        "The HTML help pages of `{service}`, in the layout of the classic .NET ASMX help page: \
         [`index`] lists the operations, [`operation`] shows one (`?op=Name`) with its parameters \
         and a sample request and response for each binding.\n\n\
         The pages are fixed text, everything from the spec HTML-escaped when they were generated; \
         only the request path is spliced in, HTML-escaped at run time."
    ));
    let head = text_literal(&head(model));
    let foot = text_literal(FOOT);
    let index = index(model).tokens();
    let pages = model.operations.iter().map(|op| {
        let name = page_const(op);
        let doc = super::doc(&format!("The page of `{}`.", op.wire));
        let pieces = operation_page(model, op).tokens();
        quote! {
            #doc
            const #name: &[Piece] = #pieces;
        }
    });
    let arms = model.operations.iter().map(|op| {
        let variant = ident(&op.rust_name);
        let name = page_const(op);
        quote!(crate::Operation::#variant => #name,)
    });
    quote! {
        #module_doc

        use std::borrow::Cow;

        /// A piece of a page: fixed text, or the request path.
        #[derive(Debug, Clone, Copy)]
        enum Piece {
            /// Written as is.
            Text(&'static str),
            /// The request path, HTML-escaped.
            Path,
        }

        use Piece::{Path, Text};

        /// The start of every page, up to the request path in its discovery link.
        const HEAD: &str = #head;

        /// The end of every page.
        const FOOT: &str = #foot;

        /// The index page.
        const INDEX: &[Piece] = #index;

        #(#pages)*

        /// The page listing every operation; `path` is the path the page was requested at.
        pub fn index(path: &str) -> String {
            render(INDEX, path)
        }

        /// The page of one operation; `path` is the path the page was requested at (the
        /// service's, without the query).
        pub fn operation(operation: crate::Operation, path: &str) -> String {
            let page = match operation {
                #(#arms)*
            };
            render(page, path)
        }

        /// Writes `page` with `path`, HTML-escaped, in its places.
        fn render(page: &[Piece], path: &str) -> String {
            let path = escape(path);
            let len = page
                .iter()
                .map(|piece| match piece {
                    Text(text) => text.len(),
                    Path => path.len(),
                })
                .sum();
            let mut out = String::with_capacity(len);
            for piece in page {
                match piece {
                    Text(text) => out.push_str(text),
                    Path => out.push_str(&path),
                }
            }
            out
        }

        /// `text` for HTML element content and quoted attribute values.
        fn escape(text: &str) -> Cow<'_, str> {
            if !text.contains(['&', '<', '>', '"', '\'']) {
                return Cow::Borrowed(text);
            }
            let mut out = String::with_capacity(text.len() + 16);
            for c in text.chars() {
                match c {
                    '&' => out.push_str("&amp;"),
                    '<' => out.push_str("&lt;"),
                    '>' => out.push_str("&gt;"),
                    '"' => out.push_str("&quot;"),
                    '\'' => out.push_str("&#39;"),
                    c => out.push(c),
                }
            }
            Cow::Owned(out)
        }
    }
}

/// The name of an operation's page constant (`PAGE_MOBILE_TASK_CREATE`).
fn page_const(op: &OperationModel) -> proc_macro2::Ident {
    ident(&format!("PAGE_{}", op.snake.to_ascii_uppercase()))
}
