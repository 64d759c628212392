//! The third reference service, live (`tests/interop/asmx/ObjectsService.cs`: classes,
//! arrays, nesting, recursion): its `?WSDL`, imported from the running host, gives
//! `tests/objects/rmm-spec.yaml` and is what rmm's server serves, byte for byte; the generated
//! client (`rmm-objects`) calls every operation on every binding the host offers it on and
//! must get each value back exactly; and every recorded request goes to the host and to
//! rmm's server, which must answer alike.

use std::fmt::Debug;
use std::future::Future;
use std::time::Duration;

use rmm_codegen::spec;
use rmm_objects::runtime::RawNode;
use rmm_objects::*;

use rmm_tests::captures;
use rmm_tests::objects_service::{
    self, deep_tree, drawing, full_order, make_circle, make_order, make_shapes, make_voucher,
    other_settings,
};
use rmm_tests::{objects_any, objects_data_set};

use crate::compare::compare;
use crate::raw::{exchange, raw_capture_request};
use crate::record::RECORDED_HOST;
use crate::{Checks, Target};

const PATH: &str = "/api/rmm/ObjectsService.asmx";

/// Checks that one call over `binding` gives back `want`.
async fn call<T, F>(checks: &mut Checks, binding: Binding, name: &str, want: T, call: F)
where
    T: PartialEq + Debug,
    F: Future<Output = Result<T, CallError>>,
{
    let got = call.await;
    checks.check(
        &format!("objects {name} over {binding}"),
        match got {
            Ok(got) if got == want => Ok(()),
            Ok(got) => Err(format!("got {got:?}, want {want:?}")),
            Err(e) => Err(e.to_string()),
        },
    );
}

pub(crate) async fn objects_section(checks: &mut Checks, mono: &Target) {
    checks.section("objects service: import from the live host, then every operation × binding");
    let url = format!("{}{PATH}?WSDL", mono.base);
    let live_wsdl = match rmm_objects::runtime::deps::reqwest::Client::new()
        .get(&url)
        .header("host", RECORDED_HOST)
        .send()
        .await
    {
        Ok(r) => r.text().await.map_err(|e| e.to_string()),
        Err(e) => Err(e.to_string()),
    };
    // The typed DataSets' schemas the WSDL imports (`?schema=Name`, at the recorded host's
    // address), fetched from this host for the import.
    let mut schemas: Vec<(String, Result<String, String>)> = Vec::new();
    if let Ok(wsdl) = &live_wsdl {
        for location in wsdl
            .split("schemaLocation=\"")
            .skip(1)
            .filter_map(|rest| rest.split('"').next())
        {
            let here = location.replace(&format!("http://{RECORDED_HOST}"), &mono.base);
            let text = match rmm_objects::runtime::deps::reqwest::Client::new()
                .get(&here)
                .header("host", RECORDED_HOST)
                .send()
                .await
            {
                Ok(r) => r.text().await.map_err(|e| e.to_string()),
                Err(e) => Err(e.to_string()),
            };
            schemas.push((location.to_owned(), text));
        }
    }
    let mut fetch = |location: &str| -> Result<String, String> {
        schemas
            .iter()
            .find(|(l, _)| l == location)
            .map_or_else(|| Err("not fetched".to_owned()), |(_, t)| t.clone())
    };
    let imported = live_wsdl
        .clone()
        .and_then(|wsdl| {
            rmm_codegen::import::read_fetching(&wsdl, &url, false, &mut fetch)
                .map(|i| i.to_yaml())
                .map_err(|e| e.to_string())
        })
        .and_then(|yaml| spec::parse(&yaml, "imported").map_err(|e| e.to_string()));
    let root = rmm_tests::root();
    let committed = std::fs::read_to_string(root.join("tests/objects/rmm-spec.yaml"))
        .map_err(|e| e.to_string())
        .and_then(|s| spec::parse(&s, "tests/objects/rmm-spec.yaml").map_err(|e| e.to_string()));
    checks.check(
        "objects: the live host's WSDL imports as tests/objects/rmm-spec.yaml",
        match (imported, committed) {
            (Ok(mut live), Ok(committed)) => {
                // The import's doc texts and crate name are the committed file's own.
                live.service.crate_name = committed.service.crate_name.clone();
                for (l, c) in live.operations.iter_mut().zip(&committed.operations) {
                    l.doc = c.doc.clone();
                }
                for (i, (l, c)) in live.classes.iter_mut().zip(&committed.classes).enumerate() {
                    l.doc = c.doc.clone();
                    // Nor an [XmlAnyAttribute] member's name (the import's is `AnyAttr`).
                    if l.any_attribute.is_some() && c.any_attribute.is_some() {
                        l.any_attribute = c.any_attribute.clone();
                    }
                    // Nor whether a SOAP header's class has one: its type takes any attribute
                    // either way (`s:anyAttribute`, for the SoapHeader's own).
                    let header = committed
                        .operations
                        .iter()
                        .flat_map(|o| &o.headers)
                        .any(|h| usize::from(h.class) == i);
                    if header && l.any_attribute.is_none() {
                        l.any_attribute = c.any_attribute.clone();
                    }
                    // Nor whether an array member is a List<T> (the committed `list: true`),
                    // nor an [XmlAnyElement] member's name (the import's is wsdl.exe's `Any`).
                    for (lm, cm) in l.members.iter_mut().zip(&c.members) {
                        lm.list = cm.list;
                        if lm.any && cm.any {
                            lm.name = cm.name.clone();
                        }
                    }
                }
                for (l, c) in live.data_sets.iter_mut().zip(&committed.data_sets) {
                    l.doc = c.doc.clone();
                }
                // .NET member names, which a WSDL does not carry, are the committed file's.
                for (l, c) in live.enums.iter_mut().zip(&committed.enums) {
                    l.members = c.members.clone();
                }
                // Nor which values are secrets (a header's password).
                live.secrets = committed.secrets.clone();
                // Nor a header written with a fault from one written with the response: the
                // host declares both in the output's soap:header (the import writes `Out`).
                for (l, c) in live.operations.iter_mut().zip(&committed.operations) {
                    for (lh, ch) in l.headers.iter_mut().zip(&c.headers) {
                        if ch.direction == spec::HeaderDirection::Fault
                            && lh.direction == spec::HeaderDirection::Out
                        {
                            lh.direction = spec::HeaderDirection::Fault;
                        }
                    }
                }
                if live == committed {
                    Ok(())
                } else {
                    // The first part that differs, to say where.
                    let first = live
                        .classes
                        .iter()
                        .zip(&committed.classes)
                        .find(|(l, c)| l != c)
                        .map(|(l, c)| format!("class {l:?}\n     committed {c:?}"))
                        .or_else(|| {
                            live.operations
                                .iter()
                                .zip(&committed.operations)
                                .find(|(l, c)| l != c)
                                .map(|(l, c)| format!("operation {l:?}\n     committed {c:?}"))
                        })
                        .or_else(|| {
                            (live.choices != committed.choices).then(|| {
                                format!(
                                    "choices {:?}\n     committed {:?}",
                                    live.choices, committed.choices
                                )
                            })
                        })
                        .unwrap_or_else(|| "elsewhere (enums, arrays, counts)".to_owned());
                    Err(format!(
                        "the live import differs from the committed spec: {first}"
                    ))
                }
            }
            (Err(e), _) | (_, Err(e)) => Err(e),
        },
    );
    let ours = rmm_objects::wsdl::document(&format!("http://{RECORDED_HOST}{PATH}"));
    checks.check(
        "objects: the live host's WSDL is the generated server's, byte for byte",
        match live_wsdl {
            Ok(live) if live == ours => Ok(()),
            Ok(_) => Err("the WSDLs differ".to_owned()),
            Err(e) => Err(e),
        },
    );

    let client = ObjectsServiceClient::new(&mono.base).with_timeout(Some(Duration::from_secs(60)));
    let strings = |values: &[&str]| -> Option<Vec<Option<String>>> {
        Some(values.iter().map(|v| Some(v.to_string())).collect())
    };
    for binding in Binding::ALL {
        let c = client.over(binding);
        // A SOAP header: the host reads what the generated client sends in the Header (over
        // SOAP), and nothing over HTTP GET/POST.
        let auth = AuthHeader {
            user: Some("ann & co".into()),
            password: None,
            soap: Default::default(),
        };
        for header in [Some(auth), None] {
            let sent = header.clone().filter(|_| binding.is_soap());
            call(
                checks,
                binding,
                &format!("WhoAmI(5) with {:?}", header.is_some()),
                Some(objects_service::who_am_i(sent.as_ref(), 5)),
                async {
                    c.who_am_i(&WhoAmI {
                        n: 5,
                        auth_header: header.clone(),
                    })
                    .await
                    .map(|r| r.result)
                },
            )
            .await;
        }
        // A header written with a fault alone (Fault): read from the refusal, over SOAP.
        for n in [-2, 0, 4] {
            let want = objects_service::attempt(n);
            let got = c.attempt(&Attempt { n }).await;
            let check = match (&want, &got) {
                (Ok(want), Ok(got)) if want == got => Ok(()),
                // HTTP GET/POST carry no header: a refusal is their 500 text error.
                (Err(_), Err(CallError::Response(ResponseError::ErrorBody { .. })))
                    if !binding.is_soap() =>
                {
                    Ok(())
                }
                (Err(want), Err(CallError::Response(error))) => {
                    match AttemptFault::from_response_error(error) {
                        Some(fault)
                            if fault.fault.reason == want.fault.reason
                                && fault.err_header == want.err_header =>
                        {
                            Ok(())
                        }
                        other => Err(format!("read {other:?}, want {want:?}")),
                    }
                }
                _ => Err(format!("got {got:?}, want {want:?}")),
            };
            checks.check(
                &format!("{binding} Attempt({n}) with a Fault header"),
                check,
            );
        }
        // A header of another namespace (urn:rmm:ext), InOut: read there and written back.
        {
            let request = Visit {
                n: 4,
                ext_header: Some(ExtHeader {
                    who: Some("zoë & co".into()),
                    level: -3,
                    note: Some(ExtNote {
                        text: Some("<n>".into()),
                    }),
                    org: Some("org <&>".into()),
                    mode: Some("m".into()),
                    // A qualified attribute (ebXML's MessageHeader's id): its prefix made up.
                    r#ref: Some("r-4".into()),
                    marks: vec![rmm_objects::runtime::raw_xml::XmlAttribute {
                        prefix: "f".into(),
                        local: "x".into(),
                        namespace: "urn:f".into(),
                        value: "<1>".into(),
                    }],
                    dup: Some(rmm_objects::runtime::AnyType::String("dup & co".into())),
                    tag: vec!["t1".into()],
                    more: vec![ExtNote {
                        text: Some("more".into()),
                    }],
                    soap: rmm_objects::runtime::HeaderAttributes {
                        must_understand: true,
                        ..Default::default()
                    },
                }),
            };
            let sent = if binding.is_soap() {
                request.clone()
            } else {
                Visit {
                    n: 4,
                    ext_header: None,
                }
            };
            call(
                checks,
                binding,
                "Visit(4) with an InOut header of another namespace",
                objects_service::visit(sent),
                async { c.visit(&request).await },
            )
            .await;
        }
        // Headers the response carries: the InOut TraceHeader back, moved on, with the
        // attributes it was sent with; the Out StampHeader for n >= 0. None over HTTP GET/POST.
        for n in [3, -2] {
            let request = Hop {
                n,
                auth_header: Some(AuthHeader {
                    user: Some("bo".into()),
                    password: Some("secret".into()),
                    soap: Default::default(),
                }),
                trace_header: Some(TraceHeader {
                    id: Some("t <1>".into()),
                    hop: 10,
                    soap: rmm_objects::runtime::HeaderAttributes {
                        must_understand: true,
                        actor: "urn:next & last".into(),
                        relay: true,
                    },
                }),
            };
            let sent = if binding.is_soap() {
                request.clone()
            } else {
                Hop {
                    n,
                    auth_header: None,
                    trace_header: None,
                }
            };
            let mut expected = objects_service::hop(sent);
            // No header comes back over HTTP GET/POST.
            if !binding.is_soap() {
                expected.stamp_header = None;
            }
            // The host writes relay in SOAP 1.2 only, and so reads it back there alone.
            if binding != Binding::Soap12 {
                if let Some(t) = expected.trace_header.as_mut() {
                    t.soap.relay = false;
                }
            }
            call(
                checks,
                binding,
                &format!("Hop({n}) with an InOut and an Out header"),
                expected,
                async { c.hop(&request).await },
            )
            .await;
        }
        // Raw XML: an element the host's DOM makes, on every binding; echoed over SOAP.
        for (text, n) in [(Some("t & <u>"), 2), (None, 0), (Some("x"), -1)] {
            // HTTP GET/POST send every parameter: a null text is sent as "" there.
            let text = text
                .map(str::to_owned)
                .or((!binding.is_soap()).then(String::new));
            // The host refuses "<" over HTTP GET/POST (request validation).
            if !binding.is_soap() && text.as_deref().is_some_and(|t| t.contains('<')) {
                continue;
            }
            // Compared by meaning: what a reader of the host's text gets holds the declarations
            // the writer added as attributes, and over HTTP GET/POST the indentation as text.
            call(
                checks,
                binding,
                &format!("MakeXml({text:?}, {n})"),
                objects_service::make_xml(text.as_deref(), n).map(|r| xml_meaning(&r)),
                async {
                    c.make_xml(&MakeXml {
                        text: text.clone(),
                        n,
                    })
                    .await
                    .map(|r| r.result.map(|r| xml_meaning(&r)))
                },
            )
            .await;
        }
        // A raw XML node: a text, an element or a CDATA section; over HTTP GET/POST only an
        // element (or nothing) makes a document, the rest is the host's 500.
        for n in [-1, 0, 1, 2] {
            let text = Some("t & <u>".to_owned())
                .filter(|_| binding.is_soap())
                .or(Some("t".into()));
            let made = objects_service::make_node(text.as_deref(), n);
            if !binding.is_soap() && matches!(made, Some(RawNode::Text(_) | RawNode::CData(_))) {
                continue;
            }
            // An element by its meaning; a text or CDATA section as it is.
            let meaning = |node: Option<RawNode>| match node {
                Some(RawNode::Element(raw)) => (None, Some(xml_meaning(&raw))),
                other => (other, None),
            };
            call(
                checks,
                binding,
                &format!("MakeNode({text:?}, {n})"),
                meaning(made),
                async {
                    c.make_node(&MakeNode {
                        text: text.clone(),
                        n,
                    })
                    .await
                    .map(|r| meaning(r.result))
                },
            )
            .await;
        }
        if binding.is_soap() {
            for node in [
                RawNode::Text(" a & b ".into()),
                RawNode::CData("<c>".into()),
                RawNode::Element(
                    rmm_objects::runtime::RawXml::parse("<q:x xmlns:q=\"urn:q\"><y/>t</q:x>")
                        .expect("raw XML"),
                ),
            ] {
                call(
                    checks,
                    binding,
                    &format!("EchoNode({node})"),
                    Some(node.clone()),
                    async {
                        c.echo_node(&EchoNode {
                            node: Some(node.clone()),
                        })
                        .await
                        .map(|r| r.result)
                    },
                )
                .await;
            }
        }
        // Raw XML in arrays and classes: made on every binding, echoed over SOAP.
        for n in [-1, 0, 4] {
            call(
                checks,
                binding,
                &format!("MakeNodes({n})"),
                objects_service::make_nodes(Some("t & u"), n),
                async {
                    c.make_nodes(&MakeNodes {
                        text: Some("t & u".into()),
                        n,
                    })
                    .await
                    .map(|r| r.result)
                },
            )
            .await;
            call(
                checks,
                binding,
                &format!("MakePhrase({n})"),
                (n >= 0).then(|| Phrase {
                    lang: Some(format!("en-{n}")),
                    text: Some(format!("t{n}")),
                }),
                async { c.make_phrase(&MakePhrase { n }).await.map(|r| r.result) },
            )
            .await;
            call(
                checks,
                binding,
                &format!("MakeParcel({n})"),
                objects_service::make_parcel(n),
                async { c.make_parcel(&MakeParcel { n }).await.map(|r| r.result) },
            )
            .await;
            call(
                checks,
                binding,
                &format!("MakeWrapping({n})"),
                objects_service::make_wrapping(n),
                async { c.make_wrapping(&MakeWrapping { n }).await.map(|r| r.result) },
            )
            .await;
        }
        if binding.is_soap() {
            let items = objects_service::raw_elements();
            call(
                checks,
                binding,
                "EchoElements",
                Some(items.clone()),
                async {
                    c.echo_elements(&EchoElements {
                        items: Some(items.clone()),
                    })
                    .await
                    .map(|r| r.result)
                },
            )
            .await;
            let nodes = objects_service::raw_nodes();
            call(checks, binding, "EchoNodes", Some(nodes.clone()), async {
                c.echo_nodes(&EchoNodes {
                    nodes: Some(nodes.clone()),
                })
                .await
                .map(|r| r.result)
            })
            .await;
            for doc in [
                "<a:x xmlns:a=\"urn:a\"><!--c--> lead &amp; <b:y xmlns:b=\"urn:b\">in</b:y></a:x>",
                "<x><![CDATA[<c>]]><y/></x>",
                "<x/>",
            ] {
                let doc = rmm_objects::runtime::RawXml::parse(doc).expect("raw XML");
                let want = objects_service::split_xml(Some(&doc));
                call(
                    checks,
                    binding,
                    &format!("SplitXml({doc})"),
                    (want.result, want.first, want.node),
                    async {
                        c.split_xml(&SplitXml {
                            doc: Some(doc.clone()),
                        })
                        .await
                        .map(|r| (r.result, r.first, r.node))
                    },
                )
                .await;
            }
            let phrase = Phrase {
                lang: Some("zh-Hant".into()),
                text: Some(" 你好 & <hi> ".into()),
            };
            call(checks, binding, "EchoPhrase", Some(phrase.clone()), async {
                c.echo_phrase(&EchoPhrase {
                    p: Some(phrase.clone()),
                })
                .await
                .map(|r| r.result)
            })
            .await;
            let parcel = objects_service::parcel();
            call(checks, binding, "EchoParcel", Some(parcel.clone()), async {
                c.echo_parcel(&EchoParcel {
                    p: Some(parcel.clone()),
                })
                .await
                .map(|r| r.result)
            })
            .await;
            let wrapping = objects_service::make_wrapping(7);
            call(checks, binding, "EchoWrapping", wrapping.clone(), async {
                c.echo_wrapping(&EchoWrapping {
                    w: wrapping.clone(),
                })
                .await
                .map(|r| r.result)
            })
            .await;
        }
        if binding.is_soap() {
            let doc = rmm_objects::runtime::RawXml::parse(
                "<a:x xmlns:a=\"urn:a\" b=\"&quot;1&quot;\"><a:y> t </a:y><!--c--><z xmlns=\"\"/>\
                 <![CDATA[<&>]]></a:x>",
            )
            .expect("raw XML");
            for doc in [Some(doc), None] {
                call(
                    checks,
                    binding,
                    &format!("EchoXml with {}", doc.is_some()),
                    doc.as_ref().map(xml_meaning),
                    async {
                        c.echo_xml(&EchoXml { doc: doc.clone() })
                            .await
                            .map(|r| r.result.map(|r| xml_meaning(&r)))
                    },
                )
                .await;
            }
        }
        // DataSets: every column type, nulls, an empty table, row states, original values and
        // errors, as the host makes them and as it reads what the client sends.
        for n in -1..=3 {
            call(
                checks,
                binding,
                &format!("MakeDataSet({n})"),
                objects_data_set::make_data_set(n),
                async { c.make_data_set(&MakeDataSet { n }).await.map(|r| r.result) },
            )
            .await;
        }
        // Objects: every kind the host makes, alone and in an array; echoed and described as
        // the host reads what the client sends (over SOAP, where ASMX takes an object).
        for kind in 0..=24 {
            call(
                checks,
                binding,
                &format!("MakeObject({kind})"),
                objects_any::make_object(kind),
                async { c.make_object(&MakeObject { kind }).await.map(|r| r.result) },
            )
            .await;
        }
        for n in [-1, 0, 25] {
            call(
                checks,
                binding,
                &format!("MakeObjects({n})"),
                objects_any::make_objects(n),
                async { c.make_objects(&MakeObjects { n }).await.map(|r| r.result) },
            )
            .await;
        }
        if binding.is_soap() {
            for kind in 0..=24 {
                let o = objects_any::make_object(kind);
                call(
                    checks,
                    binding,
                    &format!("EchoObject(MakeObject({kind}))"),
                    o.clone(),
                    async {
                        c.echo_object(&EchoObject { o: o.clone() })
                            .await
                            .map(|r| r.result)
                    },
                )
                .await;
                call(
                    checks,
                    binding,
                    &format!("DescribeObject(MakeObject({kind}))"),
                    Some(objects_any::describe_object(o.as_ref())),
                    async {
                        c.describe_object(&DescribeObject { o: o.clone() })
                            .await
                            .map(|r| r.result)
                    },
                )
                .await;
            }
            let items = objects_any::make_objects(25);
            call(
                checks,
                binding,
                "EchoObjects(MakeObjects(25))",
                items.clone(),
                async {
                    c.echo_objects(&EchoObjects {
                        items: items.clone(),
                    })
                    .await
                    .map(|r| r.result)
                },
            )
            .await;
            let h = Some(Holder {
                value: objects_any::make_object(17),
                values: objects_any::make_objects(25),
                name: Some("h".into()),
            });
            call(checks, binding, "EchoHolder", h.clone(), async {
                c.echo_holder(&EchoHolder { h: h.clone() })
                    .await
                    .map(|r| r.result)
            })
            .await;
        }
        for n in [-1, 0, 3] {
            call(
                checks,
                binding,
                &format!("MakeTable({n})"),
                objects_data_set::make_table(n),
                async { c.make_table(&MakeTable { n }).await.map(|r| r.result) },
            )
            .await;
        }
        if binding.is_soap() {
            for n in [-1, 0, 2] {
                let table = objects_data_set::make_table(n);
                call(
                    checks,
                    binding,
                    &format!("EchoTable(MakeTable({n}))"),
                    table.clone(),
                    async {
                        c.echo_table(&EchoTable {
                            table: table.clone(),
                        })
                        .await
                        .map(|r| r.result)
                    },
                )
                .await;
            }
        }
        if binding.is_soap() {
            for n in [-1, 0, 1, 2, 3] {
                let ds = objects_data_set::make_data_set(n);
                call(
                    checks,
                    binding,
                    &format!("DescribeDataSet(MakeDataSet({n}))"),
                    Some(objects_data_set::describe_data_set(ds.as_ref())),
                    async {
                        c.describe_data_set(&DescribeDataSet { ds: ds.clone() })
                            .await
                            .map(|r| r.result)
                    },
                )
                .await;
                call(
                    checks,
                    binding,
                    &format!("EchoDataSet(MakeDataSet({n}))"),
                    ds.clone(),
                    async {
                        c.echo_data_set(&EchoDataSet { ds: ds.clone() })
                            .await
                            .map(|r| r.result)
                    },
                )
                .await;
            }
        }
        // The typed DataSet: made by the host's typed rows, echoed as it reads what the
        // client sends.
        for n in [-1, 0, 2] {
            let shop = objects_data_set::make_shop(n);
            call(
                checks,
                binding,
                &format!("MakeShop({n})"),
                shop.clone(),
                async { c.make_shop(&MakeShop { n }).await.map(|r| r.result) },
            )
            .await;
            if binding.is_soap() {
                call(
                    checks,
                    binding,
                    &format!("EchoShop(MakeShop({n}))"),
                    shop.clone(),
                    async {
                        c.echo_shop(&EchoShop { ds: shop.clone() })
                            .await
                            .map(|r| r.result)
                    },
                )
                .await;
            }
        }
        // Overloads ([WebMethod(MessageName)]): each named on the wire by its message name.
        for (a, b) in [(2, -5), (i32::MAX, 1)] {
            call(
                checks,
                binding,
                &format!("AddInts({a}, {b})"),
                a.wrapping_add(b),
                async { c.add_ints(&AddInts { a, b }).await.map(|r| r.result) },
            )
            .await;
        }
        call(
            checks,
            binding,
            "AddTexts(\"a & \", \"b\")",
            Some("a & b".to_owned()),
            async {
                c.add_texts(&AddTexts {
                    a: Some("a & ".into()),
                    b: Some("b".into()),
                })
                .await
                .map(|r| r.result)
            },
        )
        .await;
        if binding.is_soap() {
            call(
                checks,
                binding,
                "AddTexts(None, None)",
                Some(String::new()),
                async {
                    c.add_texts(&AddTexts { a: None, b: None })
                        .await
                        .map(|r| r.result)
                },
            )
            .await;
        }
        // A class with a root ([XmlRoot]): its result element is named after the root, and a
        // null is xsi:nil (over HTTP GET/POST the document's root).
        for (code, value) in [(Some("c & d"), -7), (Some(""), i32::MAX)] {
            let code = code.map(str::to_owned);
            call(
                checks,
                binding,
                &format!("MakeVoucher({code:?}, {value})"),
                make_voucher(code.clone(), value),
                async {
                    c.make_voucher(&MakeVoucher {
                        code: code.clone(),
                        value,
                    })
                    .await
                    .map(|r| r.result)
                },
            )
            .await;
        }
        if binding.is_soap() {
            call(checks, binding, "MakeVoucher(None, 0)", None, async {
                c.make_voucher(&MakeVoucher {
                    code: None,
                    value: 0,
                })
                .await
                .map(|r| r.result)
            })
            .await;
            let voucher = make_voucher(Some("v".into()), 1);
            for sent in [voucher, None] {
                call(checks, binding, "EchoVoucher", sent.clone(), async {
                    c.echo_voucher(&EchoVoucher {
                        receipt: sent.clone(),
                    })
                    .await
                    .map(|r| r.result)
                })
                .await;
            }
        }
        for (id, note) in [(5, "a & b é"), (-1, "x"), (0, "")] {
            call(
                checks,
                binding,
                &format!("MakeOrder({id}, {note:?})"),
                make_order(id, Some(note.to_owned())),
                async {
                    c.make_order(&MakeOrder {
                        id,
                        note: Some(note.into()),
                    })
                    .await
                    .map(|r| r.result)
                },
            )
            .await;
        }
        // The last count's answer (about 400 KB) is read in several pieces item by item.
        for count in [3, 0, -1, 20_000] {
            let want = (count >= 0).then(|| {
                (0..count)
                    .map(|i| (i != 1).then(|| format!("t{i}")))
                    .collect::<Vec<_>>()
            });
            call(
                checks,
                binding,
                &format!("MakeTags({count})"),
                want.clone(),
                async { c.make_tags(&MakeTags { count }).await.map(|r| r.result) },
            )
            .await;
            call(
                checks,
                binding,
                &format!("MakeTags({count}) item by item"),
                want.unwrap_or_default(),
                async { c.call_items(&MakeTags { count }).await?.collect().await },
            )
            .await;
        }
        let values = strings(&["a", "", "x & y", " é "]);
        call(checks, binding, "EchoStringArray", values.clone(), async {
            c.echo_string_array(&EchoStringArray {
                values: values.clone(),
            })
            .await
            .map(|r| r.result)
        })
        .await;
        let ints = Some(vec![i32::MIN, -1, 0, i32::MAX]);
        call(checks, binding, "EchoIntArray", ints.clone(), async {
            c.echo_int_array(&EchoIntArray {
                values: ints.clone(),
            })
            .await
            .map(|r| r.result)
        })
        .await;
        for count in [4, -1, 3_000] {
            call(
                checks,
                binding,
                &format!("MakeShapes({count})"),
                make_shapes(count),
                async { c.make_shapes(&MakeShapes { count }).await.map(|r| r.result) },
            )
            .await;
            // Derived classes by `xsi:type`, item by item (the last in several pieces).
            call(
                checks,
                binding,
                &format!("MakeShapes({count}) item by item"),
                make_shapes(count).unwrap_or_default(),
                async { c.call_items(&MakeShapes { count }).await?.collect().await },
            )
            .await;
        }
        for color in ["", "red & blue"] {
            let want = Some(make_circle(2.5, Some(color.to_owned())));
            call(
                checks,
                binding,
                &format!("MakeCircle(2.5, {color:?})"),
                want,
                async {
                    c.make_circle(&MakeCircle {
                        radius: 2.5,
                        color: Some(color.to_owned()),
                    })
                    .await
                    .map(|r| r.result)
                },
            )
            .await;
        }
        // A choice (`xs:choice`) made by the host: each kind's alternative, and none.
        for kind in 0..=4 {
            let want = rmm_tests::objects_service::ObjectsEcho
                .make_pick(MakePick { kind })
                .await
                .ok()
                .and_then(|r| r.result);
            call(checks, binding, &format!("MakePick({kind})"), want, async {
                c.make_pick(&MakePick { kind }).await.map(|r| r.result)
            })
            .await;
        }
        for perms in [Perms::empty(), Perms::READ | Perms::DELETE, Perms::all()] {
            call(
                checks,
                binding,
                &format!("EchoFlags({perms:?})"),
                perms,
                async { c.echo_flags(&EchoFlags { perms }).await.map(|r| r.result) },
            )
            .await;
        }
        let levels = Some(vec![Level::High, Level::Low, Level::Normal]);
        call(checks, binding, "EchoLevels", levels.clone(), async {
            c.echo_levels(&EchoLevels {
                values: levels.clone(),
            })
            .await
            .map(|r| r.result)
        })
        .await;
        if !binding.is_soap() {
            continue;
        }
        for (name, order) in [
            ("full", Some(full_order())),
            ("default", Some(Order::default())),
            ("null", None),
        ] {
            call(
                checks,
                binding,
                &format!("EchoOrder({name})"),
                order.clone(),
                async {
                    c.echo_order(&EchoOrder {
                        order: order.clone(),
                    })
                    .await
                    .map(|r| r.result)
                },
            )
            .await;
        }
        for orders in [
            Some(vec![Some(full_order()), None, Some(Order::default())]),
            Some(vec![]),
            None,
        ] {
            call(checks, binding, "EchoOrders", orders.clone(), async {
                c.echo_orders(&EchoOrders {
                    orders: orders.clone(),
                })
                .await
                .map(|r| r.result)
            })
            .await;
        }
        call(checks, binding, "EchoTree", Some(deep_tree()), async {
            c.echo_tree(&EchoTree {
                node: Some(deep_tree()),
            })
            .await
            .map(|r| r.result)
        })
        .await;
        for values in [None, Some(vec![]), Some(vec![None, Some("b".to_owned())])] {
            call(
                checks,
                binding,
                "EchoStringArray (SOAP)",
                values.clone(),
                async {
                    c.echo_string_array(&EchoStringArray {
                        values: values.clone(),
                    })
                    .await
                    .map(|r| r.result)
                },
            )
            .await;
        }
        for (value, count) in [(Some("ab cd"), 10), (None, 0), (Some("é"), i32::MAX)] {
            let want = objects_service::split(value, count);
            call(
                checks,
                binding,
                &format!("Split({value:?}, {count})"),
                want,
                async {
                    c.split(&Split {
                        value: value.map(str::to_owned),
                        count,
                    })
                    .await
                },
            )
            .await;
        }
        for (dividend, divisor) in [(7, -2), (1, 0)] {
            let want = DivideResponse {
                result: if divisor == 0 { 0 } else { dividend / divisor },
                level: (divisor != 0).then_some(Level::High),
            };
            call(
                checks,
                binding,
                &format!("Divide({dividend}, {divisor})"),
                want,
                async { c.divide(&Divide { dividend, divisor }).await },
            )
            .await;
        }
        for (name, shape) in [
            (
                "square",
                make_shapes(2).and_then(|s| s.into_iter().nth(1)).flatten(),
            ),
            (
                "colored circle",
                make_shapes(3).and_then(|s| s.into_iter().nth(2)).flatten(),
            ),
            ("null", None),
        ] {
            call(
                checks,
                binding,
                &format!("EchoShape({name})"),
                shape.clone(),
                async {
                    c.echo_shape(&EchoShape {
                        shape: shape.clone(),
                    })
                    .await
                    .map(|r| r.result)
                },
            )
            .await;
        }
        call(checks, binding, "EchoShapes", make_shapes(7), async {
            c.echo_shapes(&EchoShapes {
                shapes: make_shapes(7),
            })
            .await
            .map(|r| r.result)
        })
        .await;
        call(checks, binding, "EchoDrawing", Some(drawing()), async {
            c.echo_drawing(&EchoDrawing {
                drawing: Some(drawing()),
            })
            .await
            .map(|r| r.result)
        })
        .await;
        let lines = full_order().lines.map_or(0, |l| l.len() as i32);
        call(checks, binding, "CountLines", lines + 10, async {
            c.count_lines(&CountLines {
                order: Some(full_order()),
                extra: 10,
            })
            .await
            .map(|r| r.result)
        })
        .await;
        // Bare parameter style: over SOAP the parameters and the result stand in the Body;
        // over HTTP GET/POST nothing changes.
        for (text, times, want) in [
            (Some("a&b "), 3, Some("a&b a&b a&b ")),
            (Some("x"), -4, Some("")),
            (Some("é"), 1000, Some("é")),
            (None, 2, None),
        ] {
            if text.is_none() && !binding.is_soap() {
                continue;
            }
            let want = want.map(|w| {
                if w == "é" {
                    "é".repeat(100)
                } else {
                    w.to_owned()
                }
            });
            call(checks, binding, "RepeatBare", want, async {
                c.repeat_bare(&RepeatBare {
                    text: text.map(str::to_owned),
                    times,
                })
                .await
                .map(|r| r.result)
            })
            .await;
        }
        if binding.is_soap() {
            for order in [Some(full_order()), Some(Order::default()), None] {
                call(checks, binding, "EchoOrderBare", order.clone(), async {
                    c.echo_order_bare(&EchoOrderBare {
                        order: order.clone(),
                    })
                    .await
                    .map(|r| r.result)
                })
                .await;
            }
            // Defaults ([DefaultValue]) and optional values (xxxSpecified): what is left out
            // and what is sent comes back as it was.
            for settings in [
                Settings::default(),
                Settings {
                    lang: Some("fr".into()),
                    ..other_settings()
                },
                Settings {
                    lang: Some(String::new()),
                    limit: Some(i32::MIN),
                    ..Settings::default()
                },
            ] {
                call(
                    checks,
                    binding,
                    "EchoSettings",
                    Some(settings.clone()),
                    async {
                        c.echo_settings(&EchoSettings {
                            settings: Some(settings.clone()),
                        })
                        .await
                        .map(|r| r.result)
                    },
                )
                .await;
            }
            // A null string with a default is left out, as the default is: it comes back as
            // the default (the .NET field initializer), on the host as on any client.
            {
                let settings = Settings {
                    lang: None,
                    ..Settings::default()
                };
                call(
                    checks,
                    binding,
                    "EchoSettings",
                    Some(Settings::default()),
                    async {
                        c.echo_settings(&EchoSettings {
                            settings: Some(settings.clone()),
                        })
                        .await
                        .map(|r| r.result)
                    },
                )
                .await;
            }
            // List<T> members: what is sent comes back; absent ones come back empty, as the
            // host creates them before reading.
            let basket = Basket {
                owner: Some("o".into()),
                items: Some(vec![Some(OrderLine::default()), None]),
                notes: Some(vec![Some("n".into()), None]),
            };
            let empty = Basket {
                items: Some(vec![]),
                notes: Some(vec![]),
                ..Basket::default()
            };
            for (sent, want) in [(basket.clone(), basket), (Basket::default(), empty)] {
                call(checks, binding, "EchoBasket", Some(want), async {
                    c.echo_basket(&EchoBasket { basket: Some(sent) })
                        .await
                        .map(|r| r.result)
                })
                .await;
            }
            // [XmlType] and [XmlElement] renames, an [XmlIgnore] member, List<T>.
            let tag = Label {
                key: Some("k".into()),
                tag_value: Some("v & w".into()),
            };
            call(checks, binding, "EchoRenamed", Some(tag.clone()), async {
                c.echo_renamed(&EchoRenamed {
                    tag: Some(tag.clone()),
                })
                .await
                .map(|r| r.result)
            })
            .await;
            for values in [Some(vec![3, -1, i32::MAX]), Some(vec![]), None] {
                call(checks, binding, "EchoIntList", values.clone(), async {
                    c.echo_int_list(&EchoIntList {
                        values: values.clone(),
                    })
                    .await
                    .map(|r| r.result)
                })
                .await;
            }
            let lines = Some(vec![Some(OrderLine::default()), None]);
            call(checks, binding, "EchoLineList", lines.clone(), async {
                c.echo_line_list(&EchoLineList {
                    lines: lines.clone(),
                })
                .await
                .map(|r| r.result)
            })
            .await;
        }
        // Renamed wrappers and results ([SoapDocumentMethod(RequestElementName,
        // ResponseElementName)], [return: XmlElement]).
        for value in [0, -7] {
            call(checks, binding, "EchoNumber", value, async {
                c.echo_number(&EchoNumber { value }).await.map(|r| r.result)
            })
            .await;
        }
        // A null string is sent over SOAP only (HTTP GET/POST cannot carry one).
        let words = [Some("w&ö".to_owned()), Some(String::new()), None];
        for word in words
            .into_iter()
            .filter(|w| w.is_some() || binding.is_soap())
        {
            call(checks, binding, "EchoWord", word.clone(), async {
                c.echo_word(&EchoWord { word: word.clone() })
                    .await
                    .map(|r| r.result)
            })
            .await;
        }
        if binding.is_soap() {
            // Attributes, text content, unwrapped and renamed arrays: what the host reads
            // from the generated client is what it gives back.
            let attributed = Attributed {
                code: Some("c&\"<>\t\n".into()),
                n: i32::MIN,
                access: Perms::READ | Perms::EXECUTE,
                body: Some("b".into()),
            };
            // The host writes a tab in an attribute raw, which every XML reader turns into a
            // space (the request's `&#x9;` reaches it as a tab: the recording shows both).
            let echoed = Attributed {
                code: Some("c&\"<> \n".into()),
                ..attributed.clone()
            };
            call(checks, binding, "EchoAttributes", Some(echoed), async {
                c.echo_attributes(&EchoAttributes {
                    value: Some(attributed.clone()),
                })
                .await
                .map(|r| r.result)
            })
            .await;
            let note = Note {
                lang: Some("en".into()),
                text: Some("hello <world> & \"all\"".into()),
            };
            call(checks, binding, "EchoText", Some(note.clone()), async {
                c.echo_text(&EchoText {
                    note: Some(note.clone()),
                })
                .await
                .map(|r| r.result)
            })
            .await;
            let bundle = Bundle {
                lines: Some(vec![Some(OrderLine::default()), None]),
                tag: vec!["a".into(), String::new(), "c".into()],
                scores: Some(vec![Some(1), None]),
                rights: Some(vec![Perms::READ, Perms::empty()]),
            };
            call(checks, binding, "EchoBundle", Some(bundle.clone()), async {
                c.echo_bundle(&EchoBundle {
                    bundle: Some(bundle.clone()),
                })
                .await
                .map(|r| r.result)
            })
            .await;
            // Choices: each alternative of a single one (a derived class's with its
            // `xsi:type`), none, and repeated ones in a mixed order.
            let items = [
                None,
                Some(PickItem::Shape(AnyShape::ColoredCircle(ColoredCircle {
                    tag: Some("t".into()),
                    name: Some("cc".into()),
                    radius: -0.5,
                    color: Some("red".into()),
                }))),
                Some(PickItem::Shape(AnyShape::Square(Square {
                    side: 2.0,
                    ..Square::default()
                }))),
                Some(PickItem::Label(String::new())),
                Some(PickItem::Label("l & <l>".into())),
                Some(PickItem::Count(i32::MIN)),
                Some(PickItem::Level(Level::High)),
            ];
            for item in items {
                let pick = Pick {
                    name: Some("n".into()),
                    item: item.clone(),
                    tail: 3,
                };
                call(
                    checks,
                    binding,
                    &format!("EchoPick({item:?})"),
                    Some(pick.clone()),
                    async {
                        c.echo_pick(&EchoPick {
                            pick: Some(pick.clone()),
                        })
                        .await
                        .map(|r| r.result)
                    },
                )
                .await;
            }
            let picks = Picks {
                items: vec![
                    PicksItems::Size(2),
                    PicksItems::Note("a".into()),
                    PicksItems::Line(OrderLine {
                        sku: Some("s".into()),
                        quantity: 1,
                        ..OrderLine::default()
                    }),
                    PicksItems::Note(String::new()),
                    PicksItems::Size(-1),
                ],
                name: Some("ps".into()),
            };
            for picks in [picks, Picks::default()] {
                call(checks, binding, "EchoPicks", Some(picks.clone()), async {
                    c.echo_picks(&EchoPicks {
                        picks: Some(picks.clone()),
                    })
                    .await
                    .map(|r| r.result)
                })
                .await;
            }
            // Nillable alternatives, with values (a nil one the host reads, and writes back
            // as nothing: see the recorded soap11-echo-maybe-choice-* exchanges).
            let maybe = Maybe {
                item: Some(MaybeItem::Line(Some(OrderLine {
                    sku: Some("s".into()),
                    ..OrderLine::default()
                }))),
                items: vec![
                    MaybeItems::Text(Some("t".into())),
                    MaybeItems::Entry(Some(OrderLine::default())),
                    MaybeItems::Text(Some(String::new())),
                ],
                item1: Some(MaybeItem1::Left(Some("l".into()))),
                items1: vec![MaybeItems1::Down(Some("d".into()))],
            };
            // Attributes that may be absent: each given, then none.
            for marked in [
                Marked {
                    count: Some(0),
                    grade: Some(Level::Low),
                    when: rmm_objects::runtime::deps::chrono::NaiveDate::from_ymd_opt(2026, 1, 2)
                        .and_then(|d| d.and_hms_opt(3, 4, 5))
                        .map(DateTime::unspecified),
                    fixed: 7,
                    body: Some("b".into()),
                },
                Marked::default(),
            ] {
                call(checks, binding, "EchoMarked", Some(marked.clone()), async {
                    c.echo_marked(&EchoMarked {
                        marked: Some(marked.clone()),
                    })
                    .await
                    .map(|r| r.result)
                })
                .await;
            }
            // Attributes with defaults: set, at their defaults (left out), strings null.
            for flagged in [
                Flagged {
                    required: true,
                    caption: Some("c".into()),
                    visible: Some("False".into()),
                    count: 3,
                    grade: Level::High,
                    name: Some("n".into()),
                },
                Flagged::default(),
            ] {
                call(
                    checks,
                    binding,
                    "EchoFlagged",
                    Some(flagged.clone()),
                    async {
                        c.echo_flagged(&EchoFlagged {
                            flagged: Some(flagged.clone()),
                        })
                        .await
                        .map(|r| r.result)
                    },
                )
                .await;
            }
            call(checks, binding, "EchoMaybe", Some(maybe.clone()), async {
                c.echo_maybe(&EchoMaybe {
                    maybe: Some(maybe.clone()),
                })
                .await
                .map(|r| r.result)
            })
            .await;
            for item in [
                Some(NamedItem::First("f".into())),
                Some(NamedItem::Last("l".into())),
                None,
            ] {
                let named = Named {
                    item,
                    items: vec![
                        NamedItems::Code("c1".into()),
                        NamedItems::Tag("t".into()),
                        NamedItems::Code("c2".into()),
                    ],
                };
                call(checks, binding, "EchoNamed", Some(named.clone()), async {
                    c.echo_named(&EchoNamed {
                        named: Some(named.clone()),
                    })
                    .await
                    .map(|r| r.result)
                })
                .await;
            }
        }
    }
}

/// Every recorded exchange of the objects service (`tests/fixtures/objects/asmx/`), its
/// request sent byte for byte to the host and to rmm's server for it: the same answer, but
/// for the differences a rule explains (`compare`) and the deliberate ones, where ours must
/// give its own status and the host still its recorded one.
pub(crate) async fn objects_fidelity_section(checks: &mut Checks, mono: &Target, ours: &Target) {
    checks.section("objects service: every recorded request, to Mono and to ours");
    let dir = objects_service::exchanges_dir();
    let mut recorded = captures::load_calls(&dir);
    for page in objects_service::PAGES {
        recorded.push(captures::load_one_from(&dir, page));
    }
    checks.check(
        "objects: the recorded exchanges are there",
        if recorded.len() >= 80 {
            Ok(())
        } else {
            Err(format!("only {} in {}", recorded.len(), dir.display()))
        },
    );
    for c in &recorded {
        let raw = raw_capture_request(c, RECORDED_HOST);
        let (m, o) = match (
            exchange(mono.addr, &raw).await,
            exchange(ours.addr, &raw).await,
        ) {
            (Ok(m), Ok(o)) => (m, o),
            (m, o) => {
                let why = format!("no answer: {:?} / {:?}", m.err(), o.err());
                checks.check(&format!("objects fidelity {}", c.name), Err(why));
                continue;
            }
        };
        let deliberate = objects_service::DELIBERATE
            .iter()
            .find(|(name, _, _)| *name == c.name);
        let result = match deliberate {
            Some((_, want, why)) => {
                let recorded_status = captures::status(&c.response);
                if o.status != *want {
                    Err(format!(
                        "ours answered {}, want our deliberate {want} ({why})",
                        o.status
                    ))
                } else if m.status != recorded_status {
                    Err(format!(
                        "Mono answered {} live but {recorded_status} when recorded",
                        m.status
                    ))
                } else {
                    Ok(())
                }
            }
            None => {
                let verdict = compare(&m, &o);
                if verdict.unexplained.is_empty() {
                    Ok(())
                } else {
                    Err(verdict.unexplained.join("; "))
                }
            }
        };
        checks.check(&format!("objects fidelity {}", c.name), result);
    }
}

/// Raw XML by its meaning: elements and attributes by namespace and name, text, CDATA,
/// comments and processing instructions, without the namespace declarations (which a writer
/// adds where a reader needs them) and the white space between elements alone (which an
/// indenting writer adds).
fn xml_meaning(raw: &rmm_objects::runtime::RawXml) -> rmm_objects::runtime::raw_xml::XmlElement {
    use rmm_objects::runtime::raw_xml::{XmlContent, XmlElement};
    fn strip(element: &XmlElement) -> XmlElement {
        XmlElement {
            prefix: String::new(),
            local: element.local.clone(),
            namespace: element.namespace.clone(),
            attributes: element
                .attributes
                .iter()
                .filter(|a| !a.is_declaration())
                .map(|a| rmm_objects::runtime::raw_xml::XmlAttribute {
                    prefix: String::new(),
                    ..a.clone()
                })
                .collect(),
            children: element
                .children
                .iter()
                .filter(|c| !matches!(c, XmlContent::Text(t) if t.trim().is_empty()))
                .map(|c| match c {
                    XmlContent::Element(e) => XmlContent::Element(strip(e)),
                    other => other.clone(),
                })
                .collect(),
            end_tag: false,
        }
    }
    strip(raw.root())
}
