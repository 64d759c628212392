//! The deliberate differences of the objects service's cases (`super::objects`): where the
//! host answers 200 with a value other than the sender's, and we refuse. Each rule is also a
//! named case of `tests/fixtures/objects/asmx/` (`rmm_tests::objects_service::DELIBERATE`).

use crate::raw::Raw;

use super::deliberate::{ours_says, Deliberate};
use super::objects::{soap, soap_headed};

/// Ours refused `xsi:nil` on an element that is not nillable (a member, or a parameter).
fn nil_not_nillable(_: &[u8], _: &Raw, ours: &Raw) -> bool {
    ours_says(ours, "is xsi:nil, but its element is not nillable")
        || ours_says(ours, "is marked xsi:nil")
}

/// Whether the request holds one of the generator's inserted elements (`<b>` around a value,
/// or an unknown element, which may land inside a value of a simple type or an `[XmlText]`
/// class's text; a second change may have given it attributes).
fn has_inserted_element(request: &[u8]) -> bool {
    let text = String::from_utf8_lossy(request);
    ["<b>", "<b ", "urn:o", "xmlns=\"\"", "<Unknown"]
        .iter()
        .any(|marker| text.contains(marker))
}

/// The request holds an inserted element, and ours answered as for malformed XML.
fn element_in_a_value(request: &[u8], _: &Raw, ours: &Raw) -> bool {
    ours.body.is_empty() && has_inserted_element(request)
}

/// The request has an element carrying both `xsi:type` and `xsi:nil`.
fn typed_nil(request: &[u8], _: &Raw, _: &Raw) -> bool {
    let text = String::from_utf8_lossy(request);
    text.split('<').any(|tag| {
        let tag = tag.split('>').next().unwrap_or("");
        tag.contains("xsi:type=") && tag.contains("xsi:nil=\"true\"")
    })
}

/// Ours answered as for malformed XML (a 400 without a body).
fn ours_malformed(_: &[u8], _: &Raw, ours: &Raw) -> bool {
    ours.body.is_empty()
}

/// Ours refused an `xsi:nil` that is not nillable, and the request also has what Mono answers
/// as malformed XML: an element with both `xsi:type` and `xsi:nil`, or an element inside a
/// value.
fn nil_then_malformed(request: &[u8], mono: &Raw, ours: &Raw) -> bool {
    nil_not_nillable(request, mono, ours)
        && (typed_nil(request, mono, ours) || has_inserted_element(request))
}

/// Ours refused an empty (or nil) element of a member with a default value (`Settings`'s
/// `Retries`, `Enabled`, `Priority`, `Ratio`, `Fee`, `Since`) as no value of its type.
fn empty_default_member(_: &[u8], _: &Raw, ours: &Raw) -> bool {
    ["Retries", "Enabled", "Priority", "Ratio", "Fee", "Since"]
        .iter()
        .any(|member| {
            ours_says(ours, &format!("{member} must be"))
                && (ours_says(ours, "and the value '' is not valid")
                    || ours_says(ours, "is not a valid value"))
        })
}

/// The request sends an empty raw XML item or member (`<XmlNode />`, `<XmlElement />`,
/// `<Doc />`, `<Node />`, attributes allowed) that is not `xsi:nil`: .NET's `ReadXmlNode`
/// reads past it as if it had content, taking what follows (the next item, or its parent's
/// end) as its node.
fn empty_raw_item(request: &[u8], _: &Raw, _: &Raw) -> bool {
    let text = String::from_utf8_lossy(request);
    text.split('<').any(|tag| {
        let Some(tag) = tag.split('>').next().and_then(|t| t.strip_suffix('/')) else {
            return false;
        };
        let name = tag.split_whitespace().next().unwrap_or("");
        matches!(name, "XmlNode" | "XmlElement" | "Doc" | "Node")
            && !tag.contains("xsi:nil=\"true\"")
            && !tag.contains("xsi:nil=\"1\"")
    })
}

/// The request sends an empty raw XML parameter (XmlNode or XmlElement) and another element
/// after it.
fn empty_node_then_element(request: &[u8], _: &Raw, _: &Raw) -> bool {
    let text = String::from_utf8_lossy(request);
    ["<node />", "<doc />"].iter().any(|empty| {
        text.split_once(empty)
            .is_some_and(|(_, after)| after.starts_with('<') && !after.starts_with("</"))
    })
}

/// Ours refused an empty element of a member with a default value, and the request also has
/// an element inside a value, which Mono answers as malformed XML.
fn empty_default_then_malformed(request: &[u8], mono: &Raw, ours: &Raw) -> bool {
    empty_default_member(request, mono, ours) && has_inserted_element(request)
}

/// Ours refused an `xsi:nil` that is not nillable, and the request also has a header block
/// marked mustUnderstand that the operation does not know.
fn nil_then_not_understood(request: &[u8], mono: &Raw, ours: &Raw) -> bool {
    let text = String::from_utf8_lossy(request);
    nil_not_nillable(request, mono, ours)
        && (text.contains("mustUnderstand=\"1\"") || text.contains("mustUnderstand=\"true\""))
}

/// Ours refused a DataSet cell or row that .NET would drop, or read past, without a word: a
/// cell or row of a column or table the schema does not declare, a cell sent twice, an
/// element inside a cell; or rows outside a diffgram (a renamed one), which .NET Framework's
/// `ReadXml` loads as plain data and rmm does not read.
fn data_set_loss(_: &[u8], _: &Raw, ours: &Raw) -> bool {
    [
        "the schema does not declare",
        "twice",
        "holds the element",
        "where .NET reads no more",
        "the diffgram's data is",
        "where the set's is",
        "not in a diffgr:diffgram",
    ]
    .iter()
    .any(|what| ours_says(ours, "is not a DataSet rmm reads whole") && ours_says(ours, what))
}

/// Ours refused an object that .NET reads as an `XmlNode[]` (attributes or elements without
/// a type rmm knows, an `xsi:type` of no type of the service), or of a type rmm does not
/// model in an object (`xsd:QName`, a date or time with a zone).
fn object_unmodelled(_: &[u8], _: &Raw, ours: &Raw) -> bool {
    ours_says(ours, "is an object holding") && ours_says(ours, "which rmm does not model")
}

/// Mono failed inside its own DataTable (a repeated row of one id breaks its index).
fn data_set_host_breaks(_: &[u8], mono: &Raw, _: &Raw) -> bool {
    String::from_utf8_lossy(&mono.body).contains("internal index is corrupted")
}

/// Two changes: an element inside a header block's member, then a block with an invalid
/// `mustUnderstand`: Mono reads the Header out of step after the element and never meets the
/// second (a silently wrong 200); ours refuses the attribute.
fn header_element_then_bad_flag(request: &[u8], _: &Raw, ours: &Raw) -> bool {
    has_inserted_element(request) && ours_says(ours, "is not a valid value for the field")
}

/// Both answered a DataSet, alike but for the rows' `diffgr:id`s.
fn data_set_renumbered(_: &[u8], mono: &Raw, ours: &Raw) -> bool {
    fn without_ids(body: &[u8]) -> String {
        let text = String::from_utf8_lossy(body);
        let mut out = String::with_capacity(text.len());
        let mut rest = text.as_ref();
        while let Some(at) = rest.find(" diffgr:id=\"") {
            out.push_str(&rest[..at]);
            let after = &rest[at + " diffgr:id=\"".len()..];
            rest = after.split_once('"').map_or("", |(_, r)| r);
        }
        out.push_str(rest);
        out
    }
    String::from_utf8_lossy(&mono.body).contains("<diffgr:diffgram")
        && mono.body != ours.body
        && without_ids(&mono.body) == without_ids(&ours.body)
}

/// Both echoed the typed DataSet, with the same bytes in another order: its tables and
/// columns put back in the typed order by ours (as .NET Framework's typed set does), as sent
/// by Mono.
fn typed_set_reordered(request: &[u8], mono: &Raw, ours: &Raw) -> bool {
    let sorted = |body: &[u8]| {
        let mut bytes = body.to_vec();
        bytes.sort_unstable();
        bytes
    };
    String::from_utf8_lossy(request).contains("<EchoShop ")
        && String::from_utf8_lossy(&mono.body).contains("<diffgr:diffgram")
        && mono.body != ours.body
        && sorted(&mono.body) == sorted(&ours.body)
}

/// Both answered EchoShop of an element holding no set: Mono a set named after the element
/// (`ds`) without the typed tables, ours the typed set without rows.
fn typed_set_from_nothing(request: &[u8], mono: &Raw, ours: &Raw) -> bool {
    String::from_utf8_lossy(request).contains("<EchoShop ")
        && String::from_utf8_lossy(&mono.body).contains("<xs:schema id=\"ds\"")
        && String::from_utf8_lossy(&ours.body).contains("<xs:schema id=\"ShopDs\"")
}

pub(crate) const OBJECTS_DELIBERATE: &[Deliberate] = &[
    Deliberate {
        class: "objects:",
        mono_status: 500,
        ours_status: 200,
        when: data_set_host_breaks,
        example: || {
            soap(
                false,
                "EchoDataSet",
                r#"<EchoDataSet xmlns="http://rmm.example.com/objects"><ds><xs:schema id="NewDataSet" xmlns="" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:msdata="urn:schemas-microsoft-com:xml-msdata"><xs:element name="NewDataSet" msdata:IsDataSet="true" msdata:UseCurrentLocale="true"><xs:complexType><xs:choice minOccurs="0" maxOccurs="unbounded"><xs:element name="T"><xs:complexType><xs:sequence><xs:element name="I" type="xs:int" minOccurs="0" /><xs:element name="R" type="xs:int" /></xs:sequence></xs:complexType></xs:element></xs:choice></xs:complexType></xs:element></xs:schema><diffgr:diffgram xmlns:msdata="urn:schemas-microsoft-com:xml-msdata" xmlns:diffgr="urn:schemas-microsoft-com:xml-diffgram-v1"><NewDataSet xmlns=""><T diffgr:id="T1" msdata:rowOrder="0" diffgr:hasChanges="inserted" diffgr:hasErrors="true"><R>1</R></T><T diffgr:id="T1" msdata:rowOrder="0" diffgr:hasChanges="inserted" diffgr:hasErrors="true"><R>1</R></T></NewDataSet><diffgr:errors><T diffgr:id="T1" diffgr:Error="e" xmlns=""><I diffgr:Error="c" /></T></diffgr:errors></diffgr:diffgram></ds></EchoDataSet>"#,
            )
        },
        why: "a DataSet row repeated with its diffgr:id and errors, its table holding a column \
              that allows no nulls: Mono's table index breaks (\"DataTable internal index is \
              corrupted\"); we read both rows, the errors on the last of that id, as .NET's \
              table of ids keeps it",
    },
    Deliberate {
        class: "objects:multi:",
        mono_status: 200,
        ours_status: 500,
        when: header_element_then_bad_flag,
        example: || {
            soap_headed(
                false,
                "Hop",
                Some(
                    r#"<AuthHeader xmlns="http://rmm.example.com/objects"><User>a</User><Password><b>pw</b></Password></AuthHeader><TraceHeader xmlns="http://rmm.example.com/objects" soap:mustUnderstand="yes"><Id>t</Id><Hop>3</Hop></TraceHeader>"#,
                ),
                r#"<Hop xmlns="http://rmm.example.com/objects"><n>2</n></Hop>"#,
            )
        },
        why: "two changes, an element inside a header block's member and, after it, a block \
              with an invalid mustUnderstand: Mono reads the Header out of step after the \
              element, never meets the second block (a silently wrong 200: the trace is lost); \
              we refuse the invalid attribute",
    },
    Deliberate {
        class: "objects:",
        mono_status: 200,
        ours_status: 500,
        when: data_set_loss,
        example: || {
            soap(
                false,
                "EchoDataSet",
                r#"<EchoDataSet xmlns="http://rmm.example.com/objects"><ds><xs:schema id="NewDataSet" xmlns="" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:msdata="urn:schemas-microsoft-com:xml-msdata"><xs:element name="NewDataSet" msdata:IsDataSet="true"><xs:complexType><xs:choice minOccurs="0" maxOccurs="unbounded"><xs:element name="T"><xs:complexType><xs:sequence><xs:element name="I" type="xs:int" minOccurs="0" /></xs:sequence></xs:complexType></xs:element></xs:choice></xs:complexType></xs:element></xs:schema><diffgr:diffgram xmlns:msdata="urn:schemas-microsoft-com:xml-msdata" xmlns:diffgr="urn:schemas-microsoft-com:xml-diffgram-v1"><NewDataSet xmlns=""><T><I>7</I><J>8</J></T></NewDataSet></diffgr:diffgram></ds></EchoDataSet>"#,
            )
        },
        why: "a DataSet cell or row of a column or table the schema does not declare, a cell \
              sent twice, or an element inside a cell: the host drops the cell, the row or \
              the second value, or reads past the element, without a word; we refuse",
    },
    Deliberate {
        class: "objects:",
        mono_status: 200,
        ours_status: 500,
        when: object_unmodelled,
        example: || {
            soap(
                false,
                "EchoObject",
                r#"<EchoObject xmlns="http://rmm.example.com/objects"><o xsi:type="xsd:QName">xsd:int</o></EchoObject>"#,
            )
        },
        why: "an object of what rmm does not model in one (xsd:QName, a zoned date), or holding \
              what .NET reads as an XmlNode[] (attributes or elements without a type rmm knows, \
              an xsi:type of no type of the service or of another namespace) where the host \
              still writes it back: the host echoes it; we refuse it by name rather than lose it",
    },
    Deliberate {
        class: "objects:",
        mono_status: 500,
        ours_status: 500,
        when: object_unmodelled,
        example: || {
            soap(
                false,
                "EchoObject",
                r#"<EchoObject xmlns="http://rmm.example.com/objects"><o a="1">x<c>y</c></o></EchoObject>"#,
            )
        },
        why: "an object holding what .NET reads as an XmlNode[] with attributes: a service with \
              an XmlNode[] type of its own (ArrayOfXmlNode) fails writing it back (a server \
              fault: an attribute cannot be an array's item); we refuse it by name (a client \
              fault)",
    },
    Deliberate {
        class: "objects:",
        mono_status: 200,
        ours_status: 200,
        when: typed_set_from_nothing,
        example: || {
            soap(
                false,
                "EchoShop",
                r#"<EchoShop xmlns="http://rmm.example.com/objects"><ds /></EchoShop>"#,
            )
        },
        why: "an element holding no typed DataSet (empty, or text alone): the host answers a \
              set named after the parameter (ds) without the typed tables; we read the typed \
              set with its tables and no rows, as an empty element of a DataSet is an empty set",
    },
    Deliberate {
        class: "objects:",
        mono_status: 200,
        ours_status: 200,
        when: typed_set_reordered,
        example: || {
            // The recorded case's operation element (MakeShop(2)'s set, its tables and two
            // columns swapped in the schema).
            let capture = rmm_tests::captures::load_one_from(
                &rmm_tests::root().join("tests/fixtures/objects/asmx"),
                "soap11-echo-shop-reordered",
            );
            let body = String::from_utf8_lossy(&capture.request.body).into_owned();
            let start = body.find("<EchoShop ").unwrap_or(0);
            let end = body
                .find("</EchoShop>")
                .map_or(body.len(), |e| e + "</EchoShop>".len());
            soap(false, "EchoShop", &body[start..end])
        },
        why: "a typed DataSet whose tables and columns come in another order: .NET Framework's \
              typed set builds its own tables, then merges, and writes them in its order, \
              which we follow; Mono's keeps the order sent",
    },
    Deliberate {
        class: "objects:",
        mono_status: 200,
        ours_status: 200,
        when: data_set_renumbered,
        example: || {
            soap(
                false,
                "EchoDataSet",
                r#"<EchoDataSet xmlns="http://rmm.example.com/objects"><ds><xs:schema id="NewDataSet" xmlns="" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:msdata="urn:schemas-microsoft-com:xml-msdata"><xs:element name="NewDataSet" msdata:IsDataSet="true" msdata:UseCurrentLocale="true"><xs:complexType><xs:choice minOccurs="0" maxOccurs="unbounded"><xs:element name="T"><xs:complexType><xs:sequence><xs:element name="I" type="xs:int" minOccurs="0" /></xs:sequence></xs:complexType></xs:element></xs:choice></xs:complexType></xs:element></xs:schema><diffgr:diffgram xmlns:msdata="urn:schemas-microsoft-com:xml-msdata" xmlns:diffgr="urn:schemas-microsoft-com:xml-diffgram-v1"><NewDataSet xmlns=""><T diffgr:id="T7" msdata:rowOrder="3"><I>1</I></T><T><I>3</I></T></NewDataSet></diffgr:diffgram></ds></EchoDataSet>"#,
            )
        },
        why: "a DataSet's rows are numbered again when written (diffgr:id): we number them by \
              position, as both hosts number the rows they make; Mono numbers rows it read by \
              an internal record counter",
    },
    Deliberate {
        class: "objects:multi:",
        mono_status: 500,
        ours_status: 500,
        when: nil_then_not_understood,
        example: || {
            soap_headed(
                false,
                "WhoAmI",
                Some(
                    r#"<Unknown xmlns="http://rmm.example.com/objects" soap:mustUnderstand="1" /><AuthHeader xmlns="http://rmm.example.com/objects"><User xsi:nil="true">a</User></AuthHeader>"#,
                ),
                r#"<WhoAmI xmlns="http://rmm.example.com/objects"><n>1</n></WhoAmI>"#,
            )
        },
        why: "two changes, xsi:nil on a header's member and a block marked mustUnderstand that \
              the operation does not know: the host reads the nil as a value (a silently wrong \
              read of its own) and then refuses the block; we refuse the nil, as the host reads \
              headers before it checks that each was understood. Both refuse; the fault code \
              differs",
    },
    Deliberate {
        class: "objects:",
        mono_status: 200,
        ours_status: 200,
        when: empty_node_then_element,
        example: || {
            soap(
                false,
                "EchoNode",
                r#"<EchoNode xmlns="http://rmm.example.com/objects"><node /><node /></EchoNode>"#,
            )
        },
        why: "an empty XmlNode or XmlElement parameter followed by another element: Mono \
              reads that next element as the parameter's value (one nobody sent in it); we read \
              the empty parameter as null, as an empty one alone reads on the host",
    },
    Deliberate {
        class: "objects:",
        mono_status: 200,
        ours_status: 200,
        when: empty_raw_item,
        example: || {
            soap(
                false,
                "EchoNodes",
                r#"<EchoNodes xmlns="http://rmm.example.com/objects"><nodes><XmlNode /><XmlNode>t</XmlNode></nodes></EchoNodes>"#,
            )
        },
        why: "an empty XmlNode or XmlElement item or member (not xsi:nil): .NET's ReadXmlNode \
              reads past it as if it had content, taking the next item (or its parent's end, \
              and then the members after it) as its node; we read it as null, as an item of \
              white space reads on the host",
    },
    Deliberate {
        class: "objects:multi:",
        mono_status: 400,
        ours_status: 500,
        when: empty_default_then_malformed,
        example: || {
            soap(
                false,
                "EchoSettings",
                r#"<EchoSettings xmlns="http://rmm.example.com/objects"><settings><Enabled /><Ratio>2.5<Unknown>x</Unknown></Ratio></settings></EchoSettings>"#,
            )
        },
        why: "two changes, an empty element for a member with a default value and, after it, \
              an element inside a value: the host reads the first as absent (a silently wrong \
              read of its own) and answers the second as malformed XML; we refuse the first. \
              Both refuse; which error is named differs",
    },
    Deliberate {
        class: "objects:",
        mono_status: 200,
        ours_status: 500,
        when: nil_not_nillable,
        example: || {
            soap(
                false,
                "EchoOrder",
                r#"<EchoOrder xmlns="http://rmm.example.com/objects"><order><Customer xsi:nil="true" /></order></EchoOrder>"#,
            )
        },
        why: "xsi:nil on a class, string or byte[] element (or a class parameter), which the \
              schema does not declare nillable: the host reads an object with defaults, \"\" or \
              an empty array, not the null the sender meant; we refuse",
    },
    Deliberate {
        class: "objects:",
        mono_status: 200,
        ours_status: 400,
        when: element_in_a_value,
        example: || {
            soap(
                false,
                "EchoOrder",
                r#"<EchoOrder xmlns="http://rmm.example.com/objects"><order><Id><b>1</b></Id></order></EchoOrder>"#,
            )
        },
        why: "an element inside a member of a simple type or an [XmlText] class's text: Mono \
              reads the text around it (or only the last run of text), where .NET Framework's \
              ReadElementString refuses it, as the host refuses it in an item or a parameter; \
              we answer as for malformed XML",
    },
    Deliberate {
        class: "objects:",
        mono_status: 500,
        ours_status: 400,
        when: element_in_a_value,
        example: || {
            soap(
                false,
                "EchoFlags",
                r#"<EchoFlags xmlns="http://rmm.example.com/objects"><perms><Id xmlns="">7</Id>Read</perms></EchoFlags>"#,
            )
        },
        why: "an element inside a value of a simple type: both refuse it, the host with a \
              client fault or as malformed XML depending on where the element stands, we as \
              malformed XML always",
    },
    Deliberate {
        class: "objects:",
        mono_status: 200,
        ours_status: 200,
        when: typed_nil,
        example: || {
            soap(
                false,
                "EchoShapes",
                r#"<EchoShapes xmlns="http://rmm.example.com/objects"><shapes><Shape xsi:type="Circle" xsi:nil="true"><Radius>1</Radius></Shape><Shape xsi:nil="true" /></shapes></EchoShapes>"#,
            )
        },
        why: "an item carrying both xsi:type and xsi:nil: Mono drops items around it; we read \
              it as nil, as XmlSerializer's ReadNull reads xsi:nil before the type",
    },
    Deliberate {
        class: "objects:",
        mono_status: 400,
        ours_status: 200,
        when: typed_nil,
        example: || {
            soap(
                false,
                "EchoDrawing",
                r#"<EchoDrawing xmlns="http://rmm.example.com/objects"><drawing><Shapes><Shape xsi:type="Square" xsi:nil="true"><Side>1</Side></Shape></Shapes></drawing></EchoDrawing>"#,
            )
        },
        why: "an item carrying both xsi:type and xsi:nil, inside a class: Mono answers as for \
              malformed XML; we read it as nil, as XmlSerializer's ReadNull reads xsi:nil \
              before the type",
    },
    Deliberate {
        class: "objects:multi:",
        mono_status: 500,
        ours_status: 400,
        when: ours_malformed,
        example: || {
            soap(
                false,
                "EchoShapes",
                r#"<EchoShapes xmlns="http://rmm.example.com/objects"><shapes><Shape xsi:type="Circle"><Radius>x</Radius></Shape><Shape xsi:type="Circle" xsi:type="Square" /></shapes></EchoShapes>"#,
            )
        },
        why: "two changes, a value the host cannot read and, after it, XML that is not \
              well-formed: the host reads as it goes and faults on the value first; we read a \
              parameter's whole element before its members and answer as for malformed XML. \
              Both refuse; which error is named differs",
    },
    Deliberate {
        class: "objects:multi:",
        mono_status: 400,
        ours_status: 500,
        when: nil_then_malformed,
        example: || {
            soap(
                false,
                "EchoDrawing",
                r#"<EchoDrawing xmlns="http://rmm.example.com/objects"><drawing><Title xsi:nil="true">d</Title><Shapes><Shape xsi:type="Square" xsi:nil="true"><Side>1</Side></Shape></Shapes></drawing></EchoDrawing>"#,
            )
        },
        why: "two changes, xsi:nil on a member or parameter that is not nillable and, after \
              it, an item with both xsi:type and xsi:nil or an element inside a value: the host \
              reads the first as a value (a silently wrong 200 of its own) and answers the \
              second as malformed XML; we refuse the first. Both refuse; which error is named \
              differs",
    },
    Deliberate {
        class: "objects:",
        mono_status: 200,
        ours_status: 500,
        when: empty_default_member,
        example: || {
            soap(
                false,
                "EchoSettings",
                r#"<EchoSettings xmlns="http://rmm.example.com/objects"><settings><Ratio /></settings></EchoSettings>"#,
            )
        },
        why: "an empty or xsi:nil element for a member with a default value ([DefaultValue]), \
              which is no value of its type: the host reads it as absent, so the default, not \
              what the sender wrote; we refuse it as for any member of that type",
    },
    Deliberate {
        class: "objects:multi:",
        mono_status: 200,
        ours_status: 500,
        when: typed_nil,
        example: || {
            soap(
                false,
                "EchoShapes",
                r#"<EchoShapes xmlns="http://rmm.example.com/objects"><shapes><Shape xsi:type="Square" xsi:nil="true"><Name>s1</Name><Side>1</Side></Shape><Shape xsi:type="ColoredCircle"><Name>cc2</Name><Radius /><Color>red</Color></Shape></shapes></EchoShapes>"#,
            )
        },
        why: "two changes, an item with both xsi:type and xsi:nil that holds elements, and a \
              value we refuse in a later item: Mono reads the nil, leaves its content unread and \
              reads the rest of the array out of step (the next item's members into the nil \
              one's type: a Square named cc2 with Side 0), a silently wrong 200 that never \
              meets the second change; we refuse the second",
    },
];
