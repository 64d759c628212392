//! The third reference service (`tests/interop/asmx/ObjectsService.cs`, crate `rmm-objects`):
//! classes, arrays, nesting and recursion. rmm's implementation of it, the request set its
//! recording is made of, and where its recorded exchanges live (`tests/fixtures/objects/asmx/`,
//! written by `cargo xtask interop --record`).

use std::path::PathBuf;

use rmm_objects::runtime::deps::bytes::Bytes;
use rmm_objects::runtime::deps::chrono::NaiveDate;
use rmm_objects::runtime::deps::http::Request;
use rmm_objects::runtime::{server, HeaderAttributes, RawNode, RawXml};
use rmm_objects::wire::OperationRequest;
use rmm_objects::*;

/// `tests/fixtures/objects/asmx` in the workspace.
pub fn exchanges_dir() -> PathBuf {
    crate::root().join("tests/fixtures/objects/asmx")
}

/// Where our answer differs from the host's on purpose: (recorded exchange, our status, why).
/// `tests/tests/objects_fidelity.rs` replays these through our server.
pub const DELIBERATE: &[(&str, u16, &str)] = &[
    (
        "soap11-echo-number-own-name",
        500,
        "the body element is the operation's name, not its renamed wrapper NumberRequest: the \
         host runs the operation with every parameter at its default (as for any body element \
         its action does not name); we refuse it",
    ),
    (
        "soap11-visit-nil",
        500,
        "the host reads xsi:nil on a header block as an object of empty members (and writes \
         it back so); the sender meant none",
    ),
    (
        "soap11-echo-object-nil",
        500,
        "the host reads xsi:nil on an object parameter, which is not nillable, as an XmlNode[] \
         of the attribute; the sender meant a null (then fails to write it back as the ArrayOfXmlNode the service has: a \
         server fault)",
    ),
    (
        "soap11-echo-holder-nil-value",
        500,
        "the host reads xsi:nil on an object member, which is not nillable, as an XmlNode[] of \
         the attribute; the sender meant a null (then fails to write it back as the ArrayOfXmlNode the service has: a \
         server fault)",
    ),
    (
        "soap11-echo-object-unknown-type",
        500,
        "an object whose xsi:type names no type of the service: the host reads an XmlNode[] (the \
         type among its attributes), which rmm does not model; refused by name (then fails to write it back as the ArrayOfXmlNode the service has: a \
         server fault)",
    ),
    (
        "soap11-echo-object-foreign-type",
        500,
        "an object whose xsi:type is of another namespace: the host reads an XmlNode[], which \
         rmm does not model; refused by name (then fails to write it back as the ArrayOfXmlNode the service has: a \
         server fault)",
    ),
    (
        "soap11-echo-object-date-zone",
        500,
        "an object of xsd:date with a zone: the host converts it to its own local time (2020-01-02 \
         at +05:00 comes back as 2020-01-01T19:00:00), another day; refused by name",
    ),
    (
        "soap11-echo-object-mixed",
        500,
        "an object of no type holding attributes and elements: the host reads an XmlNode[], \
         which rmm does not model; refused by name (then fails to write it back as the ArrayOfXmlNode the service has: a \
         server fault)",
    ),
    (
        "soap11-echo-order-nil-order",
        500,
        "the host reads xsi:nil on a class parameter, which is not nillable, as an object with \
         defaults; the sender meant a null",
    ),
    (
        "soap11-count-lines-nil-order",
        500,
        "the host reads xsi:nil on a class parameter, which is not nillable, as an object with \
         defaults; the sender meant a null",
    ),
    (
        "soap11-echo-order-nil-customer",
        500,
        "the host reads xsi:nil on a class member, which is not nillable, as an object with \
         defaults; the sender meant a null",
    ),
    (
        "soap11-echo-order-nil-string-member",
        500,
        "the host reads xsi:nil on a string member, which is not nillable, as \"\"; the sender \
         meant a null",
    ),
    (
        "soap11-echo-order-nil-base64-member",
        500,
        "the host reads xsi:nil on a byte array member, which is not nillable, as an empty \
         array; the sender meant a null",
    ),
    (
        "soap11-echo-order-member-holds-element",
        400,
        "Mono reads the text inside an element held by an int member; .NET Framework's \
         ReadElementString refuses it, and so does the host for an item or a parameter",
    ),
    (
        "soap11-echo-string-array-unqualified",
        500,
        "the host reads an unqualified parameter as absent; refused, as for the other services",
    ),
    (
        "soap11-echo-nodes-empty-item",
        200,
        "an empty XmlNode item followed by another: the host reads that next item as the empty \
         one's node and loses it from the array (.NET's ReadXmlNode does not check for an empty \
         element); we read the empty item as null, as the host reads an item of white space",
    ),
    (
        "soap11-echo-node-empty-then-element",
        200,
        "an empty XmlNode parameter followed by another element: Mono reads that element as the \
         node, a value nobody sent in it; we read the empty parameter as null, as the host reads \
         an empty one alone",
    ),
    (
        "soap12-visit-qualified-dup-text",
        500,
        "a text without type in the object of a header class of another namespace: the host \
         takes it as the service's XmlNode[] and writes it back as that type under a prefix of \
         the service namespace (q1:ArrayOfXmlNode), which rmm does not model there; refused by \
         name",
    ),
    (
        "soap11-echo-xml-unqualified",
        500,
        "the host reads an unqualified parameter as absent (a null XmlElement); refused, as any \
         other unqualified parameter",
    ),
    (
        "soap11-echo-data-set-renumbered",
        200,
        "a DataSet's rows are numbered again when written (diffgr:id, msdata:rowOrder): we number \
         them by position (the table's name and 1, 2, 3, as both hosts number rows they make); \
         Mono numbers rows it read by an internal record counter (T4, T6, T7 here)",
    ),
    (
        "soap11-echo-data-set-no-locale",
        200,
        "a DataSet schema stating no locale: .NET Framework reads it as not set by the user and \
         writes msdata:UseCurrentLocale back (DataSet.ShouldSerializeLocale), which we follow; \
         Mono writes msdata:Locale=\"en-US\"",
    ),
    (
        "soap11-echo-data-set-no-schema",
        500,
        "a diffgram whose rows the schema (none here) does not declare: the host drops the rows \
         without a word; refused",
    ),
    (
        "soap11-echo-shop-diffgram-only",
        500,
        "a typed DataSet sent as a diffgram without a schema: the host answers an empty set \
         named after the parameter (ds), its tables and rows dropped without a word; refused",
    ),
    (
        "soap11-echo-shop-reordered",
        200,
        "a typed DataSet whose tables and columns come in another order: .NET Framework's \
         typed set (its generated ReadXmlSerializable) builds its own tables, then merges, \
         and writes them in its order, which we follow; Mono's keeps the order sent",
    ),
    (
        "soap11-echo-shop-empty",
        200,
        "an empty element for a typed DataSet: the host answers a set named after the \
         parameter (ds), without the typed tables (a .NET handler's ds.Orders is null); we \
         read the typed set with its tables and no rows, as an empty element of a DataSet is \
         an empty set",
    ),
    (
        "soap11-echo-shop-other",
        500,
        "a DataSet of other tables (Other: T) in place of the typed ShopDs: the host takes it as \
         one without the typed tables (a .NET handler's ds.Orders is null) and echoes it; \
         refused, naming the typed table it lacks",
    ),
    (
        "soap11-echo-data-set-unknown-column",
        500,
        "a DataSet cell of a column the schema does not declare: the host drops it without a \
         word; refused",
    ),
    (
        "soap11-echo-data-set-twice",
        500,
        "a DataSet cell sent twice: the host keeps the first and drops the second without a \
         word; refused",
    ),
    (
        "soap11-echo-data-set-element-in-cell",
        500,
        "an element inside a DataSet cell: the host reads the text around it, without a word; \
         refused",
    ),
    (
        "soap11-echo-data-set-row-order",
        200,
        "a DataSet's rows are numbered again when written: we number them by position; Mono \
         numbers rows it read by an internal record counter (two rows T1 here)",
    ),
    (
        "soap11-echo-data-set-constraint",
        500,
        "a DataSet schema with a constraint (xs:unique, a primary key), which rmm does not model \
         yet: refused rather than echoed without it",
    ),
    (
        "get-echo-flags-number",
        500,
        "the host reads a number as the flags of that value (Enum.Parse); we read member names \
         only, as for the types service's enums",
    ),
    (
        "soap11-echo-text-mixed",
        400,
        "the host keeps only the last run of text of an [XmlText] element holding an element, \
         a comment and CDATA (\"d\" of \"a<b>x</b>c<!--k--><![CDATA[d]]>\"); refused as a \
         member of a simple type holding an element is",
    ),
    (
        "soap11-echo-text-nil",
        500,
        "the host reads xsi:nil on a class parameter, which is not nillable, as a note without \
         text; the sender meant a null",
    ),
    (
        "soap11-echo-bundle-tag-nil",
        500,
        "the host reads xsi:nil on an item of an array without a wrapper, which is not \
         nillable, as \"\"; the sender meant a null",
    ),
    (
        "soap11-echo-pick-choice-label-nil",
        500,
        "the host reads xsi:nil on a choice's string alternative, which is not nillable, as \
         \"\" (and writes it back <Label />); the sender meant a null",
    ),
    (
        "soap11-echo-picks-choice-note-nil",
        500,
        "the host reads xsi:nil on a repeated choice's string item, which is not nillable, as \
         \"\"; the sender meant a null",
    ),
    (
        "soap11-echo-picks-choice-line-nil",
        500,
        "the host reads xsi:nil on a repeated choice's class item, which is not nillable, as a \
         line of default values; the sender meant a null",
    ),
    (
        "soap11-echo-named-choice-first-nil",
        500,
        "the host reads xsi:nil on a choice's alternative (told apart by a choice identifier), \
         which is not nillable, as \"\"; the sender meant a null",
    ),
    (
        "soap11-echo-named-choice-last-nil",
        500,
        "the host reads xsi:nil on a choice's alternative (told apart by a choice identifier), \
         which is not nillable, as \"\"; the sender meant a null",
    ),
    (
        "soap11-echo-named-choice-parts-nil",
        500,
        "the host reads xsi:nil on a repeated choice's items, which are not nillable, as \"\"; \
         the sender meant nulls",
    ),
    (
        "soap11-echo-pick-choice-count-elem",
        400,
        "an element inside a choice's int alternative (<Count><b>1</b></Count>): Mono reads \
         its text and loses the rest of the class (Tail comes back 0); refused as a member of \
         a simple type holding an element is",
    ),
    (
        "soap11-echo-picks-choice-size-elem",
        400,
        "an element inside a repeated choice's int item: Mono reads its text and loses every \
         later item and member; refused as a member of a simple type holding an element is",
    ),
    (
        "soap11-echo-picks-choice-line-qty-elem",
        400,
        "an element inside an int member of a repeated choice's class item: Mono reads its \
         text and loses every later item and member; refused as a member of a simple type \
         holding an element is",
    ),
    (
        "soap11-echo-order-bare-nil",
        500,
        "the host reads xsi:nil on a bare parameter, whose element is not nillable, as an \
         object with defaults; the sender meant a null",
    ),
    (
        "soap11-repeat-bare-text-nil",
        500,
        "the host reads xsi:nil on a bare string parameter, whose element is not nillable, as \
         \"\"; the sender meant a null",
    ),
    (
        "soap11-repeat-bare-unqualified",
        500,
        "the host reads bare parameters outside the service namespace as absent; refused, as \
         wrapped ones are",
    ),
    (
        "soap11-echo-order-bare-other-action",
        500,
        "EchoOrder's action with EchoOrderBare's parameter in the Body: the host runs EchoOrder \
         with every parameter absent; refused, as an action naming one operation and a body \
         holding another is for every service",
    ),
    (
        "soap11-echo-order-bare-wrapped",
        500,
        "EchoOrderBare's parameter inside a wrapper, as a wrapped operation's: the host skips \
         the unknown element and answers a null order; refused, as a bare operation's Body \
         holding elements but none of its parameters",
    ),
    (
        "soap11-echo-order-wrapped-bare-action",
        500,
        "EchoOrderBare's action with EchoOrder's element in the Body: the host runs \
         EchoOrderBare with no order; refused, as an action naming one operation and a body \
         holding another",
    ),
    (
        "soap12-repeat-bare-unknown-only",
        500,
        "a Body holding an unknown element only, for a bare operation: the host reads every \
         parameter absent and answers a null; refused, as a bare operation's Body holding \
         elements but none of its parameters",
    ),
    (
        "soap11-echo-int-list-repeated",
        200,
        "a List<int> parameter sent twice: the host appends the two lists; a WSDL does not \
         tell List<T> from T[], so rmm reads it as an array parameter: the first wins (our \
         answer holds 1, the host's 1 and 2)",
    ),
    (
        "soap11-echo-settings-nil-retries",
        500,
        "the host reads xsi:nil on an int member with a default value, which is not nillable, \
         as absent (the default); refused as xsi:nil on any int member is",
    ),
    (
        "soap11-echo-settings-since-utc",
        200,
        "a UTC reading of a dateTime member's default time: the host (its zone UTC) compares \
         readings, not kinds, and leaves it out as the default, which then reads back with no \
         zone; we write it, keeping the kind sent (a host in another zone converts it, and \
         writes it too)",
    ),
    (
        "help-op-echo-order",
        200,
        "an operation's help page at ?op=, as ASP.NET on .NET Framework serves it; Mono \
         answers 500 there (its own pages are at ?page=op)",
    ),
];

/// The recorded exchanges that are not calls: the WSDL and the help pages.
pub const PAGES: [&str; 3] = ["wsdl", "help", "help-op-echo-order"];

/// The objects service as rmm serves it, as `ObjectsService.cs` does: each echo returns its
/// value; `MakeOrder`, `MakeTags` and `CountLines` compute as the C# does.
pub struct ObjectsEcho;

impl ObjectsService for ObjectsEcho {
    async fn echo_order(&self, r: EchoOrder) -> Result<EchoOrderResponse, Fault> {
        Ok(EchoOrderResponse { result: r.order })
    }

    async fn echo_orders(&self, r: EchoOrders) -> Result<EchoOrdersResponse, Fault> {
        Ok(EchoOrdersResponse { result: r.orders })
    }

    async fn echo_tree(&self, r: EchoTree) -> Result<EchoTreeResponse, Fault> {
        Ok(EchoTreeResponse { result: r.node })
    }

    async fn echo_string_array(
        &self,
        r: EchoStringArray,
    ) -> Result<EchoStringArrayResponse, Fault> {
        Ok(EchoStringArrayResponse { result: r.values })
    }

    async fn make_order(&self, r: MakeOrder) -> Result<MakeOrderResponse, Fault> {
        Ok(MakeOrderResponse {
            result: make_order(r.id, r.note),
        })
    }

    async fn make_tags(&self, r: MakeTags) -> Result<MakeTagsResponse, Fault> {
        let result = (r.count >= 0).then(|| {
            (0..r.count)
                .map(|i| (i != 1).then(|| format!("t{i}")))
                .collect()
        });
        Ok(MakeTagsResponse { result })
    }

    /// The tags as they are made, so that the server writes a large count in chunks (the
    /// same items as `make_tags`, whose bytes the recorded exchanges and the difftest hold).
    async fn make_tags_items(&self, r: MakeTags) -> Result<server::Items<Option<String>>, Fault> {
        if r.count < 0 {
            return Ok(server::Items::whole(None));
        }
        Ok(server::Items::iter(
            (0..r.count).map(|i| (i != 1).then(|| format!("t{i}"))),
        ))
    }

    async fn echo_int_array(&self, r: EchoIntArray) -> Result<EchoIntArrayResponse, Fault> {
        Ok(EchoIntArrayResponse { result: r.values })
    }

    async fn echo_levels(&self, r: EchoLevels) -> Result<EchoLevelsResponse, Fault> {
        Ok(EchoLevelsResponse { result: r.values })
    }

    async fn echo_shape(&self, r: EchoShape) -> Result<EchoShapeResponse, Fault> {
        Ok(EchoShapeResponse { result: r.shape })
    }

    async fn echo_shapes(&self, r: EchoShapes) -> Result<EchoShapesResponse, Fault> {
        Ok(EchoShapesResponse { result: r.shapes })
    }

    async fn echo_drawing(&self, r: EchoDrawing) -> Result<EchoDrawingResponse, Fault> {
        Ok(EchoDrawingResponse { result: r.drawing })
    }

    async fn make_shapes(&self, r: MakeShapes) -> Result<MakeShapesResponse, Fault> {
        Ok(MakeShapesResponse {
            result: make_shapes(r.count),
        })
    }

    /// The shapes as they are made, one at a time from a stream (the same as `make_shapes`).
    async fn make_shapes_items(
        &self,
        r: MakeShapes,
    ) -> Result<server::Items<Option<AnyShape>>, Fault> {
        if r.count < 0 {
            return Ok(server::Items::whole(None));
        }
        let shapes =
            futures_util::StreamExt::map(futures_util::stream::iter(0..r.count), |i| Ok(shape(i)));
        Ok(server::Items::stream(shapes))
    }

    async fn make_circle(&self, r: MakeCircle) -> Result<MakeCircleResponse, Fault> {
        Ok(MakeCircleResponse {
            result: Some(make_circle(r.radius, r.color)),
        })
    }

    async fn echo_flags(&self, r: EchoFlags) -> Result<EchoFlagsResponse, Fault> {
        Ok(EchoFlagsResponse { result: r.perms })
    }

    async fn echo_flags_array(&self, r: EchoFlagsArray) -> Result<EchoFlagsArrayResponse, Fault> {
        Ok(EchoFlagsArrayResponse { result: r.values })
    }

    async fn split(&self, r: Split) -> Result<SplitResponse, Fault> {
        Ok(split(r.value.as_deref(), r.count))
    }

    async fn divide(&self, r: Divide) -> Result<DivideResponse, Fault> {
        Ok(DivideResponse {
            result: r.dividend.checked_div(r.divisor).unwrap_or(0),
            level: (r.divisor != 0).then_some(Level::High),
        })
    }

    async fn echo_attributes(&self, r: EchoAttributes) -> Result<EchoAttributesResponse, Fault> {
        Ok(EchoAttributesResponse { result: r.value })
    }

    async fn echo_text(&self, r: EchoText) -> Result<EchoTextResponse, Fault> {
        Ok(EchoTextResponse { result: r.note })
    }

    async fn make_note(&self, r: MakeNote) -> Result<MakeNoteResponse, Fault> {
        Ok(MakeNoteResponse {
            result: Some(Note {
                lang: r.lang,
                text: r.text,
            }),
        })
    }

    async fn echo_bundle(&self, r: EchoBundle) -> Result<EchoBundleResponse, Fault> {
        Ok(EchoBundleResponse { result: r.bundle })
    }

    async fn count_lines(&self, r: CountLines) -> Result<CountLinesResponse, Fault> {
        let lines = match r.order.and_then(|o| o.lines) {
            Some(lines) => lines.len() as i32,
            None => -1,
        };
        Ok(CountLinesResponse {
            result: lines.wrapping_add(r.extra),
        })
    }

    async fn echo_renamed(&self, r: EchoRenamed) -> Result<EchoRenamedResponse, Fault> {
        Ok(EchoRenamedResponse { result: r.tag })
    }

    async fn echo_settings(&self, r: EchoSettings) -> Result<EchoSettingsResponse, Fault> {
        Ok(EchoSettingsResponse { result: r.settings })
    }

    async fn echo_basket(&self, r: EchoBasket) -> Result<EchoBasketResponse, Fault> {
        Ok(EchoBasketResponse { result: r.basket })
    }

    async fn echo_int_list(&self, r: EchoIntList) -> Result<EchoIntListResponse, Fault> {
        Ok(EchoIntListResponse { result: r.values })
    }

    async fn echo_line_list(&self, r: EchoLineList) -> Result<EchoLineListResponse, Fault> {
        Ok(EchoLineListResponse { result: r.lines })
    }

    async fn make_voucher(&self, r: MakeVoucher) -> Result<MakeVoucherResponse, Fault> {
        Ok(MakeVoucherResponse {
            result: make_voucher(r.code, r.value),
        })
    }

    async fn echo_voucher(&self, r: EchoVoucher) -> Result<EchoVoucherResponse, Fault> {
        Ok(EchoVoucherResponse { result: r.receipt })
    }

    async fn add_ints(&self, r: AddInts) -> Result<AddIntsResponse, Fault> {
        // C#'s unchecked addition.
        Ok(AddIntsResponse {
            result: r.a.wrapping_add(r.b),
        })
    }

    async fn add_texts(&self, r: AddTexts) -> Result<AddTextsResponse, Fault> {
        // C#'s `+` on strings reads a null as "".
        Ok(AddTextsResponse {
            result: Some(format!(
                "{}{}",
                r.a.unwrap_or_default(),
                r.b.unwrap_or_default()
            )),
        })
    }

    async fn who_am_i(&self, r: WhoAmI) -> Result<WhoAmIResponse, Fault> {
        Ok(WhoAmIResponse {
            result: Some(who_am_i(r.auth_header.as_ref(), r.n)),
        })
    }

    async fn echo_xml(&self, r: EchoXml) -> Result<EchoXmlResponse, Fault> {
        Ok(EchoXmlResponse { result: r.doc })
    }

    async fn make_xml(&self, r: MakeXml) -> Result<MakeXmlResponse, Fault> {
        Ok(MakeXmlResponse {
            result: make_xml(r.text.as_deref(), r.n),
        })
    }

    async fn echo_node(&self, r: EchoNode) -> Result<EchoNodeResponse, Fault> {
        Ok(EchoNodeResponse { result: r.node })
    }

    async fn make_node(&self, r: MakeNode) -> Result<MakeNodeResponse, Fault> {
        Ok(MakeNodeResponse {
            result: make_node(r.text.as_deref(), r.n),
        })
    }

    async fn hop(&self, r: Hop) -> Result<HopResponse, Fault> {
        Ok(hop(r))
    }

    async fn echo_elements(&self, r: EchoElements) -> Result<EchoElementsResponse, Fault> {
        Ok(EchoElementsResponse { result: r.items })
    }

    async fn echo_nodes(&self, r: EchoNodes) -> Result<EchoNodesResponse, Fault> {
        Ok(EchoNodesResponse { result: r.nodes })
    }

    async fn make_nodes(&self, r: MakeNodes) -> Result<MakeNodesResponse, Fault> {
        Ok(MakeNodesResponse {
            result: make_nodes(r.text.as_deref(), r.n),
        })
    }

    async fn echo_phrase(&self, r: EchoPhrase) -> Result<EchoPhraseResponse, Fault> {
        Ok(EchoPhraseResponse { result: r.p })
    }

    async fn make_phrase(&self, r: MakePhrase) -> Result<MakePhraseResponse, Fault> {
        Ok(MakePhraseResponse {
            result: (r.n >= 0).then(|| Phrase {
                lang: Some(format!("en-{}", r.n)),
                text: Some(format!("t{}", r.n)),
            }),
        })
    }

    async fn split_xml(&self, r: SplitXml) -> Result<SplitXmlResponse, Fault> {
        Ok(split_xml(r.doc.as_ref()))
    }

    async fn echo_parcel(&self, r: EchoParcel) -> Result<EchoParcelResponse, Fault> {
        Ok(EchoParcelResponse { result: r.p })
    }

    async fn make_parcel(&self, r: MakeParcel) -> Result<MakeParcelResponse, Fault> {
        Ok(MakeParcelResponse {
            result: make_parcel(r.n),
        })
    }

    async fn echo_wrapping(&self, r: EchoWrapping) -> Result<EchoWrappingResponse, Fault> {
        Ok(EchoWrappingResponse { result: r.w })
    }

    async fn make_wrapping(&self, r: MakeWrapping) -> Result<MakeWrappingResponse, Fault> {
        Ok(MakeWrappingResponse {
            result: make_wrapping(r.n),
        })
    }

    async fn make_data_set(&self, r: MakeDataSet) -> Result<MakeDataSetResponse, Fault> {
        Ok(MakeDataSetResponse {
            result: crate::objects_data_set::make_data_set(r.n),
        })
    }

    /// Streams the set's rows as it makes them, but for the sets whose changes are not
    /// accepted (n = 2, 3), which cannot stream.
    async fn make_data_set_rows(&self, r: MakeDataSet) -> Result<server::Rows, Fault> {
        Ok(match crate::objects_data_set::make_data_set_rows(r.n) {
            Some((schema, rows)) => server::Rows::iter(schema, rows),
            None => server::Rows::whole(crate::objects_data_set::make_data_set(r.n)),
        })
    }

    async fn echo_data_set(&self, r: EchoDataSet) -> Result<EchoDataSetResponse, Fault> {
        Ok(EchoDataSetResponse { result: r.ds })
    }

    async fn make_table(&self, r: MakeTable) -> Result<MakeTableResponse, Fault> {
        Ok(MakeTableResponse {
            result: crate::objects_data_set::make_table(r.n),
        })
    }

    async fn echo_table(&self, r: EchoTable) -> Result<EchoTableResponse, Fault> {
        Ok(EchoTableResponse { result: r.table })
    }

    async fn describe_data_set(
        &self,
        r: DescribeDataSet,
    ) -> Result<DescribeDataSetResponse, Fault> {
        Ok(DescribeDataSetResponse {
            result: Some(crate::objects_data_set::describe_data_set(r.ds.as_ref())),
        })
    }

    async fn visit(&self, r: Visit) -> Result<VisitResponse, Fault> {
        Ok(visit(r))
    }

    async fn attempt(&self, r: Attempt) -> Result<AttemptResponse, AttemptFault> {
        attempt(r.n)
    }

    async fn echo_object(&self, r: EchoObject) -> Result<EchoObjectResponse, Fault> {
        Ok(EchoObjectResponse { result: r.o })
    }

    async fn echo_objects(&self, r: EchoObjects) -> Result<EchoObjectsResponse, Fault> {
        Ok(EchoObjectsResponse { result: r.items })
    }

    async fn echo_holder(&self, r: EchoHolder) -> Result<EchoHolderResponse, Fault> {
        Ok(EchoHolderResponse { result: r.h })
    }

    async fn make_object(&self, r: MakeObject) -> Result<MakeObjectResponse, Fault> {
        Ok(MakeObjectResponse {
            result: crate::objects_any::make_object(r.kind),
        })
    }

    async fn make_objects(&self, r: MakeObjects) -> Result<MakeObjectsResponse, Fault> {
        Ok(MakeObjectsResponse {
            result: crate::objects_any::make_objects(r.n),
        })
    }

    async fn describe_object(&self, r: DescribeObject) -> Result<DescribeObjectResponse, Fault> {
        Ok(DescribeObjectResponse {
            result: Some(crate::objects_any::describe_object(r.o.as_ref())),
        })
    }

    async fn make_shop(&self, r: MakeShop) -> Result<MakeShopResponse, Fault> {
        Ok(MakeShopResponse {
            result: crate::objects_data_set::make_shop(r.n),
        })
    }

    async fn echo_shop(&self, r: EchoShop) -> Result<EchoShopResponse, Fault> {
        Ok(EchoShopResponse { result: r.ds })
    }

    async fn echo_pick(&self, r: EchoPick) -> Result<EchoPickResponse, Fault> {
        Ok(EchoPickResponse { result: r.pick })
    }

    async fn echo_picks(&self, r: EchoPicks) -> Result<EchoPicksResponse, Fault> {
        Ok(EchoPicksResponse { result: r.picks })
    }

    async fn echo_named(&self, r: EchoNamed) -> Result<EchoNamedResponse, Fault> {
        Ok(EchoNamedResponse { result: r.named })
    }

    async fn echo_maybe(&self, r: EchoMaybe) -> Result<EchoMaybeResponse, Fault> {
        Ok(EchoMaybeResponse { result: r.maybe })
    }

    async fn echo_marked(&self, r: EchoMarked) -> Result<EchoMarkedResponse, Fault> {
        Ok(EchoMarkedResponse { result: r.marked })
    }

    async fn echo_flagged(&self, r: EchoFlagged) -> Result<EchoFlaggedResponse, Fault> {
        Ok(EchoFlaggedResponse { result: r.flagged })
    }

    async fn echo_number(&self, r: EchoNumber) -> Result<EchoNumberResponse, Fault> {
        Ok(EchoNumberResponse { result: r.value })
    }

    async fn echo_word(&self, r: EchoWord) -> Result<EchoWordResponse, Fault> {
        Ok(EchoWordResponse { result: r.word })
    }

    async fn make_pick(&self, r: MakePick) -> Result<MakePickResponse, Fault> {
        // As the C# does: p, tail 9, and the item of the kind (none for any other).
        let item = match r.kind {
            1 => Some(PickItem::Shape(AnyShape::Circle(Circle {
                name: Some("c".to_owned()),
                radius: 1.5,
                ..Circle::default()
            }))),
            2 => Some(PickItem::Label("text".to_owned())),
            3 => Some(PickItem::Count(7)),
            4 => Some(PickItem::Level(Level::High)),
            _ => None,
        };
        Ok(MakePickResponse {
            result: Some(Pick {
                name: Some("p".to_owned()),
                item,
                tail: 9,
            }),
        })
    }

    async fn echo_order_bare(&self, r: EchoOrderBare) -> Result<EchoOrderBareResponse, Fault> {
        Ok(EchoOrderBareResponse { result: r.order })
    }

    async fn repeat_bare(&self, r: RepeatBare) -> Result<RepeatBareResponse, Fault> {
        // As the C# does: at most 100 times, none for a negative count.
        let times = r.times.clamp(0, 100) as usize;
        Ok(RepeatBareResponse {
            result: r.text.map(|text| text.repeat(times)),
        })
    }
}

/// Settings with every member sent and none at its default (a null `Lang` aside, which is
/// left out as its default is): the value of the recorded `echo-settings-others` case.
pub fn other_settings() -> Settings {
    Settings {
        name: Some("n".into()),
        retries: 0,
        enabled: false,
        lang: None,
        priority: Level::High,
        ratio: -2.25,
        limit: Some(0),
        mode: Some(Level::Low),
        fee: rmm_objects::runtime::deps::rust_decimal::Decimal::new(-1025, 2),
        since: rmm_objects::runtime::DateTime::unspecified(
            NaiveDate::from_ymd_opt(2026, 1, 2)
                .and_then(|d| d.and_hms_opt(3, 4, 5))
                .expect("a date"),
        ),
        flag: Some(None),
    }
}

/// What `MakeXml(text, n)` answers on the host: `<x:Made at="n" xmlns:x="urn:made">`
/// holding `<x:Text>` with the text and an `<Empty />` of no namespace; none for a negative
/// `n`.
pub fn make_xml(text: Option<&str>, n: i32) -> Option<RawXml> {
    use rmm_objects::runtime::raw_xml::{XmlAttribute, XmlContent, XmlElement};
    let element = |prefix: &str, local: &str, namespace: &str, children| XmlElement {
        prefix: prefix.into(),
        local: local.into(),
        namespace: namespace.into(),
        attributes: Vec::new(),
        children,
        end_tag: false,
    };
    if n < 0 {
        return None;
    }
    // Setting InnerText adds a text node, an empty one for a null or empty text.
    let text = Some(XmlContent::Text(text.unwrap_or_default().to_owned()));
    let mut made = element(
        "x",
        "Made",
        "urn:made",
        vec![
            XmlContent::Element(element("x", "Text", "urn:made", text.into_iter().collect())),
            XmlContent::Element(element("", "Empty", "", Vec::new())),
        ],
    );
    made.attributes.push(XmlAttribute {
        prefix: String::new(),
        local: "at".into(),
        namespace: String::new(),
        value: n.to_string(),
    });
    Some(RawXml::new(made))
}

/// What `MakeNode(text, n)` answers on the host: none for a negative `n` (or above 2), a
/// text node for 0, `<x:Made xmlns:x="urn:made">` holding the text for 1, a CDATA section
/// for 2.
pub fn make_node(text: Option<&str>, n: i32) -> Option<RawNode> {
    use rmm_objects::runtime::raw_xml::{XmlContent, XmlElement};
    let text = text.unwrap_or_default().to_owned();
    match n {
        0 => Some(RawNode::Text(text)),
        1 => Some(RawNode::Element(RawXml::new(XmlElement {
            prefix: "x".into(),
            local: "Made".into(),
            namespace: "urn:made".into(),
            attributes: Vec::new(),
            children: vec![XmlContent::Text(text)],
            end_tag: false,
        }))),
        2 => Some(RawNode::CData(text)),
        _ => None,
    }
}

/// An element `prefix:local` of `namespace`, its attributes in no namespace and its content.
fn element(
    prefix: &str,
    local: &str,
    namespace: &str,
    attributes: &[(&str, String)],
    children: Vec<rmm_objects::runtime::raw_xml::XmlContent>,
) -> RawXml {
    use rmm_objects::runtime::raw_xml::{XmlAttribute, XmlElement};
    RawXml::new(XmlElement {
        prefix: prefix.into(),
        local: local.into(),
        namespace: namespace.into(),
        attributes: attributes
            .iter()
            .map(|(name, value)| XmlAttribute {
                prefix: String::new(),
                local: (*name).into(),
                namespace: String::new(),
                value: value.clone(),
            })
            .collect(),
        children,
        end_tag: false,
    })
}

/// What `MakeNodes(text, n)` answers on the host: none for a negative `n`, else `n` nodes, in
/// turn a text node, `<x:Made xmlns:x="urn:made" at="i">` holding the text (a text node, an
/// empty one for a null or empty text, as .NET's `InnerText` sets it) and a CDATA section.
pub fn make_nodes(text: Option<&str>, n: i32) -> Option<Vec<Option<RawNode>>> {
    use rmm_objects::runtime::raw_xml::XmlContent;
    let text = text.unwrap_or_default().to_owned();
    let n = usize::try_from(n).ok()?;
    Some(
        (0..n)
            .map(|i| {
                Some(match i % 3 {
                    0 => RawNode::Text(text.clone()),
                    1 => RawNode::Element(element(
                        "x",
                        "Made",
                        "urn:made",
                        &[("at", i.to_string())],
                        vec![XmlContent::Text(text.clone())],
                    )),
                    _ => RawNode::CData(text.clone()),
                })
            })
            .collect(),
    )
}

/// What `SplitXml(doc)` answers on the host: the element's name (with its prefix), its first
/// child element, and its first node that is an element, a text (not white space alone) or a
/// CDATA section; null and none for none.
pub fn split_xml(doc: Option<&RawXml>) -> SplitXmlResponse {
    use rmm_objects::runtime::raw_xml::XmlContent;
    let Some(doc) = doc else {
        return SplitXmlResponse::default();
    };
    let root = doc.root();
    let name = if root.prefix.is_empty() {
        root.local.clone()
    } else {
        format!("{}:{}", root.prefix, root.local)
    };
    let first = root.children.iter().find_map(|c| match c {
        XmlContent::Element(e) => Some(RawXml::new(e.clone())),
        _ => None,
    });
    let node = root.children.iter().find_map(|c| match c {
        XmlContent::Element(e) => Some(RawNode::Element(RawXml::new(e.clone()))),
        XmlContent::Text(t) if !t.trim_matches([' ', '\t', '\r', '\n']).is_empty() => {
            Some(RawNode::Text(t.clone()))
        }
        XmlContent::CData(t) => Some(RawNode::CData(t.clone())),
        _ => None,
    });
    SplitXmlResponse {
        result: Some(name),
        first,
        node,
    }
}

/// What `MakeParcel(n)` answers on the host: none for a negative `n`, else the parcel `Pn`
/// of kind `kn`, marked `y:extra="vn"` and `z:other="o"` (both `urn:attr`) and `plain="p"`,
/// counting `n`, its extra elements in turn `<x:Made xmlns:x="urn:made" at="i" />` and
/// `<Plain />` of no namespace.
pub fn make_parcel(n: i32) -> Option<Parcel> {
    let count = usize::try_from(n).ok()?;
    let mark = |prefix: &str, local: &str, namespace: &str, value: String| {
        rmm_objects::runtime::raw_xml::XmlAttribute {
            prefix: prefix.into(),
            local: local.into(),
            namespace: namespace.into(),
            value,
        }
    };
    Some(Parcel {
        kind: Some(format!("k{n}")),
        seal: None,
        marks: vec![
            mark("y", "extra", "urn:attr", format!("v{n}")),
            mark("", "plain", "", "p".into()),
            mark("z", "other", "urn:attr", "o".into()),
        ],
        label: Some(format!("P{n}")),
        extra: (0..count)
            .map(|i| {
                if i % 2 == 0 {
                    element(
                        "x",
                        "Made",
                        "urn:made",
                        &[("at", i.to_string())],
                        Vec::new(),
                    )
                } else {
                    element("", "Plain", "", &[], Vec::new())
                }
            })
            .collect(),
        count: n,
    })
}

/// What `MakeWrapping(n)` answers on the host: none for a negative `n`, else `Doc`
/// `<x:Made xmlns:x="urn:made" at="n" />`, `Node` the text of `n`, `Docs` `<Plain />` then
/// null, `Nodes` the text `tn` then the CDATA section `cn`, `Last` `<Tail />` of the service
/// namespace.
pub fn make_wrapping(n: i32) -> Option<Wrapping> {
    if n < 0 {
        return None;
    }
    Some(Wrapping {
        doc: Some(element(
            "x",
            "Made",
            "urn:made",
            &[("at", n.to_string())],
            Vec::new(),
        )),
        node: Some(RawNode::Text(n.to_string())),
        docs: Some(vec![Some(element("", "Plain", "", &[], Vec::new())), None]),
        nodes: Some(vec![
            Some(RawNode::Text(format!("t{n}"))),
            Some(RawNode::CData(format!("c{n}"))),
        ]),
        last: Some(element(
            "",
            "Tail",
            "http://rmm.example.com/objects",
            &[],
            Vec::new(),
        )),
    })
}

/// XmlElement items: an element with a prefix of its own and an attribute, a null, and an
/// element of no namespace.
pub fn raw_elements() -> Vec<Option<RawXml>> {
    vec![
        Some(RawXml::parse("<q:x xmlns:q=\"urn:q\" a=\"1 &amp; 2\"><y/>t</q:x>").expect("raw XML")),
        None,
        Some(RawXml::parse("<Plain/>").expect("raw XML")),
    ]
}

/// XmlNode items: a text with white space around, a CDATA section, an element and a null.
pub fn raw_nodes() -> Vec<Option<RawNode>> {
    vec![
        Some(RawNode::Text(" a & b ".into())),
        Some(RawNode::CData("<c>".into())),
        Some(RawNode::Element(
            RawXml::parse("<q:x xmlns:q=\"urn:q\"><!--c-->t</q:x>").expect("raw XML"),
        )),
        None,
    ]
}

/// A parcel whose extra elements are of another namespace, of none, and of the service's.
pub fn parcel() -> Parcel {
    let mark = |prefix: &str, local: &str, namespace: &str, value: &str| {
        rmm_objects::runtime::raw_xml::XmlAttribute {
            prefix: prefix.into(),
            local: local.into(),
            namespace: namespace.into(),
            value: value.into(),
        }
    };
    Parcel {
        kind: Some("gift".into()),
        // A qualified attribute: its prefix made up (`d4p1`), the members then take it.
        seal: Some("sealed & <tight>".into()),
        marks: vec![
            mark("q", "a", "urn:q", "1 & 2"),
            mark("", "b", "", "2"),
            mark("xml", "lang", rmm_objects::runtime::raw_xml::XML_NS, "en"),
        ],
        label: Some("p & q".into()),
        extra: vec![
            RawXml::parse("<q:x xmlns:q=\"urn:q\" a=\"1\">t</q:x>").expect("raw XML"),
            RawXml::parse("<Plain/>").expect("raw XML"),
            RawXml::parse("<Extra xmlns=\"http://rmm.example.com/objects\"><In/></Extra>")
                .expect("raw XML"),
        ],
        count: 3,
    }
}

/// What `Hop(n)` answers on the host: the InOut TraceHeader moved `n` hops on (its
/// attributes as they came), the result its new hop (-1 without one), and the Out
/// StampHeader naming the AuthHeader's user, none for a negative `n`.
pub fn hop(r: Hop) -> HopResponse {
    let trace_header = r.trace_header.map(|mut t| {
        t.hop = t.hop.wrapping_add(r.n);
        t
    });
    HopResponse {
        result: trace_header.as_ref().map_or(-1, |t| t.hop),
        stamp_header: (r.n >= 0).then(|| StampHeader {
            by: r.auth_header.and_then(|a| a.user),
            hops: r.n,
            soap: Default::default(),
        }),
        trace_header,
    }
}

/// What `Visit(n)` answers on the host: the ExtHeader read (`who/level/note/n`, C#'s `+`
/// reading a null string as ""), and the header written back, its Level raised by n.
pub fn visit(r: Visit) -> VisitResponse {
    let Some(mut ext) = r.ext_header else {
        return VisitResponse {
            result: Some(format!("none/{}", r.n)),
            ext_header: None,
        };
    };
    let seen = format!(
        "{}/{}/{}/{}",
        ext.who.as_deref().unwrap_or_default(),
        ext.level,
        ext.note
            .as_ref()
            .map_or("-", |note| note.text.as_deref().unwrap_or_default()),
        r.n
    );
    ext.level = ext.level.wrapping_add(r.n);
    VisitResponse {
        result: Some(seen),
        ext_header: Some(ext),
    }
}

/// What `Attempt(n)` answers on the host: a client fault for a negative n, a server fault
/// for 0, each with the ErrHeader; `ok n` otherwise.
pub fn attempt(n: i32) -> Result<AttemptResponse, AttemptFault> {
    let err_header = Some(Box::new(ErrHeader {
        code: Some(format!("E{n}")),
        retry: if n < 0 { 3 } else { 1 },
        soap: Default::default(),
    }));
    match n {
        n if n < 0 => Err(AttemptFault {
            fault: Fault::client(format!("failed {n}")),
            err_header,
        }),
        0 => Err(AttemptFault {
            fault: Fault::server("boom"),
            err_header,
        }),
        n => Ok(AttemptResponse {
            result: Some(format!("ok {n}")),
        }),
    }
}

/// What `WhoAmI(n)` answers on the host with the AuthHeader `header` (C#'s `+` reads a null
/// string as "").
pub fn who_am_i(header: Option<&AuthHeader>, n: i32) -> String {
    match header {
        None => format!("none/{n}"),
        Some(h) => format!(
            "{}|{}/{n}",
            h.user.as_deref().unwrap_or_default(),
            h.password.as_deref().unwrap_or_default()
        ),
    }
}

/// What `MakeVoucher(code, value)` answers on the host.
pub fn make_voucher(code: Option<String>, value: i32) -> Option<Voucher> {
    code.map(|code| Voucher {
        code: Some(code),
        value,
    })
}

/// What `MakeOrder(id, note)` answers on the host.
pub fn make_order(id: i32, note: Option<String>) -> Option<Order> {
    (id >= 0).then(|| Order {
        id,
        priority: Level::High,
        tags: note.map(|note| vec![Some(note), None, Some(String::new())]),
        customer: Some(Customer {
            address: Some(Address::default()),
            ..Default::default()
        }),
        lines: Some(vec![Some(OrderLine::default()), None]),
        matrix: Some(vec![Some(vec![id]), None, Some(vec![])]),
        ..Default::default()
    })
}

/// What `Split(value, count)` answers on the host: the rest after the first space, the head
/// before it, and `count` plus the value's length in UTF-16 units.
pub fn split(value: Option<&str>, count: i32) -> SplitResponse {
    let Some(value) = value else {
        return SplitResponse {
            result: None,
            head: None,
            count,
        };
    };
    let count = count.wrapping_add(value.encode_utf16().count() as i32);
    match value.split_once(' ') {
        None => SplitResponse {
            result: None,
            head: Some(value.to_owned()),
            count,
        },
        Some((head, rest)) => SplitResponse {
            result: Some(rest.to_owned()),
            head: Some(head.to_owned()),
            count,
        },
    }
}

/// What `MakeShapes(count)` answers on the host: circles, squares and colored circles in turn.
pub fn make_shapes(count: i32) -> Option<Vec<Option<AnyShape>>> {
    (count >= 0).then(|| (0..count).map(shape).collect())
}

/// `MakeShapes`' shape number `i`: circles, squares and colored circles in turn.
pub fn shape(i: i32) -> Option<AnyShape> {
    Some(match i % 3 {
        0 => AnyShape::Circle(Circle {
            tag: None,
            name: Some(format!("c{i}")),
            radius: f64::from(i) + 0.5,
        }),
        1 => AnyShape::Square(Square {
            tag: None,
            name: Some(format!("s{i}")),
            side: f64::from(i),
        }),
        _ => AnyShape::ColoredCircle(ColoredCircle {
            tag: None,
            name: Some(format!("cc{i}")),
            radius: f64::from(i),
            color: Some("red".into()),
        }),
    })
}

/// What `MakeCircle(radius, color)` answers on the host: a colored circle when a color is
/// given.
pub fn make_circle(radius: f64, color: Option<String>) -> AnyCircle {
    let name = Some("made".to_owned());
    match color.filter(|c| !c.is_empty()) {
        None => AnyCircle::Circle(Circle {
            tag: None,
            name,
            radius,
        }),
        Some(color) => AnyCircle::ColoredCircle(ColoredCircle {
            tag: None,
            name,
            radius,
            color: Some(color),
        }),
    }
}

/// A drawing holding a value of every kind of shape, at every kind of member.
pub fn drawing() -> Drawing {
    Drawing {
        title: Some("d".into()),
        main: Some(AnyShape::Square(Square {
            // An attribute the square inherits from Shape, written before its members.
            tag: Some("t & <1>".into()),
            name: Some("main".into()),
            side: 2.5,
        })),
        ring: Some(AnyCircle::ColoredCircle(ColoredCircle {
            tag: Some("ring".into()),
            name: None,
            radius: 1.0,
            color: Some("blue".into()),
        })),
        shapes: make_shapes(4).map(|mut shapes| {
            shapes.insert(1, None);
            shapes
        }),
    }
}

/// [`full_order`] with `lines` lines of varied values, a third of them without a discount:
/// the class-heavy message of the benchmarks.
pub fn order_with_lines(lines: usize) -> Order {
    let mut order = full_order();
    order.lines = Some(
        (0..lines)
            .map(|i| {
                Some(OrderLine {
                    sku: Some(format!(
                        "SKU-{:05}-{}",
                        i * 37 % 10007,
                        ["A", "BB", "CCC"][i % 3]
                    )),
                    quantity: (i as i32) * 3 + 1,
                    price: Decimal::new((1000 + i as i64 * 713) % 100_000, 2),
                    discount: (i % 3 != 0).then(|| Decimal::new(-(i as i64 % 50 + 1), 2)),
                })
            })
            .collect(),
    );
    order
}

/// An order with every member set, most at a bound: nulls and empties at every level.
pub fn full_order() -> Order {
    let placed = NaiveDate::from_ymd_opt(2026, 11, 24)
        .and_then(|d| d.and_hms_nano_opt(10, 0, 0, 123_400_000))
        .expect("a date");
    Order {
        id: i32::MIN,
        placed: DateTime::unspecified(placed),
        priority: Level::Normal,
        customer: Some(Customer {
            name: Some("Ann & <Bo> \"é\"".into()),
            address: Some(Address {
                street: None,
                city: Some(String::new()),
                zip: i32::MAX,
            }),
            phones: Some(vec![Some("1".into()), None, Some(String::new())]),
        }),
        lines: Some(vec![
            Some(OrderLine {
                sku: Some("A-1".into()),
                quantity: 2,
                price: "79228162514264337593543950335".parse().expect("a decimal"),
                discount: Some("-0.50".parse().expect("a decimal")),
            }),
            None,
            Some(OrderLine::default()),
        ]),
        tags: Some(vec![]),
        scores: Some(vec![Some(1), None, Some(i32::MIN)]),
        levels: Some(vec![Level::High, Level::Low]),
        rating: Some(f64::MAX),
        matrix: Some(vec![Some(vec![1, 2]), None, Some(vec![])]),
        blob: Some(vec![0, 1, 254, 255]),
    }
}

/// A tree four levels deep, with a parent, empty and null children.
pub fn deep_tree() -> TreeNode {
    let leaf = |name: &str| TreeNode {
        name: Some(name.into()),
        children: Some(vec![]),
        parent: None,
    };
    TreeNode {
        name: Some("root".into()),
        parent: Some(Box::new(TreeNode {
            name: Some("up".into()),
            ..Default::default()
        })),
        children: Some(vec![
            Some(TreeNode {
                name: Some("a".into()),
                children: Some(vec![Some(TreeNode {
                    name: Some("a1".into()),
                    children: Some(vec![Some(leaf("a1x")), None]),
                    parent: None,
                })]),
                parent: None,
            }),
            None,
            Some(leaf("b")),
        ]),
    }
}

/// One request of the recorded set: its name (without the binding's prefix), what it is,
/// and the request as the generated client encodes it.
pub struct GeneratedCase {
    /// `echo-order-full`: the file is `{binding prefix}-client-{slug}.txt`.
    pub slug: String,
    /// The operation called.
    pub operation: Operation,
    /// The call, as the generated client sends it.
    pub request: Request<Bytes>,
}

/// The generated part of the recorded set, for one binding: every operation the host offers
/// on it, with values at their bounds, as the generated client sends them.
pub fn generated_cases(binding: Binding) -> Vec<GeneratedCase> {
    let none = Credentials::default();
    let mut cases = Vec::new();
    let mut add = |slug: &str, call: Result<(Operation, Request<Bytes>), EncodeError>| {
        let (operation, request) = call.unwrap_or_else(|e| panic!("{slug} over {binding}: {e}"));
        cases.push(GeneratedCase {
            slug: slug.to_owned(),
            operation,
            request,
        });
    };
    fn encode<T: OperationRequest>(
        call: T,
        none: &Credentials,
        binding: Binding,
    ) -> Result<(Operation, Request<Bytes>), EncodeError> {
        Ok((T::OPERATION, call.encode_request(none, binding)?))
    }
    let strings = |values: &[&str]| Some(values.iter().map(|v| Some(v.to_string())).collect());
    add(
        "make-order",
        encode(
            MakeOrder {
                id: 5,
                note: Some("a & b".into()),
            },
            &none,
            binding,
        ),
    );
    add(
        "make-order-null",
        encode(
            MakeOrder {
                id: -1,
                note: Some(String::new()),
            },
            &none,
            binding,
        ),
    );
    add(
        "make-tags-three",
        encode(MakeTags { count: 3 }, &none, binding),
    );
    add(
        "make-tags-empty",
        encode(MakeTags { count: 0 }, &none, binding),
    );
    add(
        "make-tags-null",
        encode(MakeTags { count: -1 }, &none, binding),
    );
    add(
        "echo-string-array",
        encode(
            EchoStringArray {
                values: strings(&["a", "", "x & y"]),
            },
            &none,
            binding,
        ),
    );
    add(
        "echo-int-array",
        encode(
            EchoIntArray {
                values: Some(vec![i32::MIN, 0, i32::MAX]),
            },
            &none,
            binding,
        ),
    );
    add(
        "echo-levels",
        encode(
            EchoLevels {
                values: Some(vec![Level::High, Level::Low, Level::Normal]),
            },
            &none,
            binding,
        ),
    );
    add(
        "make-shapes",
        encode(MakeShapes { count: 4 }, &none, binding),
    );
    add(
        "make-shapes-null",
        encode(MakeShapes { count: -1 }, &none, binding),
    );
    add(
        "make-circle",
        encode(
            MakeCircle {
                radius: 1.5,
                color: Some(String::new()),
            },
            &none,
            binding,
        ),
    );
    add(
        "make-circle-colored",
        encode(
            MakeCircle {
                radius: -0.25,
                color: Some("red".into()),
            },
            &none,
            binding,
        ),
    );
    add(
        "repeat-bare",
        encode(
            RepeatBare {
                text: Some("a&b ".into()),
                times: 3,
            },
            &none,
            binding,
        ),
    );
    add(
        "repeat-bare-zero",
        encode(
            RepeatBare {
                text: Some("x".into()),
                times: -4,
            },
            &none,
            binding,
        ),
    );
    // Overloads named by [WebMethod(MessageName)].
    add(
        "add-ints",
        encode(AddInts { a: i32::MAX, b: 1 }, &none, binding),
    );
    add(
        "add-texts",
        encode(
            AddTexts {
                a: Some("a & ".into()),
                b: Some("b".into()),
            },
            &none,
            binding,
        ),
    );
    add(
        "who-am-i-no-header",
        encode(
            WhoAmI {
                n: 3,
                auth_header: None,
            },
            &none,
            binding,
        ),
    );
    add(
        "make-xml",
        encode(
            MakeXml {
                text: Some("a & <b>".into()),
                n: 3,
            },
            &none,
            binding,
        ),
    );
    add(
        "make-xml-empty",
        encode(
            MakeXml {
                text: Some(String::new()),
                n: 0,
            },
            &none,
            binding,
        ),
    );
    add(
        "make-xml-null",
        encode(
            MakeXml {
                text: Some(String::new()),
                n: -1,
            },
            &none,
            binding,
        ),
    );
    for (case, n) in [("text", 0), ("element", 1), ("cdata", 2), ("null", -1)] {
        add(
            match case {
                "text" => "make-node-text",
                "element" => "make-node-element",
                "cdata" => "make-node-cdata",
                _ => "make-node-null",
            },
            encode(
                MakeNode {
                    text: Some("a & b".into()),
                    n,
                },
                &none,
                binding,
            ),
        );
    }
    for n in [-1, 0, 4] {
        add(
            &format!("make-nodes-{n}"),
            encode(
                MakeNodes {
                    text: Some("t & u".into()),
                    n,
                },
                &none,
                binding,
            ),
        );
        add(
            &format!("make-phrase-{n}"),
            encode(MakePhrase { n }, &none, binding),
        );
        add(
            &format!("make-parcel-{n}"),
            encode(MakeParcel { n }, &none, binding),
        );
        add(
            &format!("make-wrapping-{n}"),
            encode(MakeWrapping { n }, &none, binding),
        );
    }
    add(
        "hop-no-header",
        encode(
            Hop {
                n: 4,
                auth_header: None,
                trace_header: None,
            },
            &none,
            binding,
        ),
    );
    add(
        "make-voucher",
        encode(
            MakeVoucher {
                code: Some("c & d".into()),
                value: -7,
            },
            &none,
            binding,
        ),
    );
    // DataSets: none, tables without rows but the nulls, values of every column type, row
    // states with original values, and errors.
    for (slug, n) in [
        ("make-data-set-null", -1),
        ("make-data-set-empty", 0),
        ("make-data-set", 1),
        ("make-data-set-changes", 2),
        ("make-data-set-errors", 3),
        ("make-data-set-namespaced", 4),
    ] {
        add(slug, encode(MakeDataSet { n }, &none, binding));
    }
    for (slug, n) in [
        ("make-table-null", -1),
        ("make-table-empty", 0),
        ("make-table", 3),
    ] {
        add(slug, encode(MakeTable { n }, &none, binding));
    }
    if binding.is_soap() {
        for (slug, n) in [("echo-table", 2), ("echo-table-null", -1)] {
            let table = crate::objects_data_set::make_table(n);
            add(slug, encode(EchoTable { table }, &none, binding));
        }
    }
    if binding.is_soap() {
        for (echo, describe, n) in [
            ("echo-data-set-null", "describe-data-set-null", -1),
            ("echo-data-set", "describe-data-set", 1),
            ("echo-data-set-changes", "describe-data-set-changes", 2),
            ("echo-data-set-errors", "describe-data-set-errors", 3),
            (
                "echo-data-set-namespaced",
                "describe-data-set-namespaced",
                4,
            ),
        ] {
            let ds = crate::objects_data_set::make_data_set(n);
            add(echo, encode(EchoDataSet { ds: ds.clone() }, &none, binding));
            add(describe, encode(DescribeDataSet { ds }, &none, binding));
        }
    }
    // The typed DataSet: none, its row of nulls and its note, every column type; echoed
    // over SOAP (HTTP GET/POST take none).
    for (slug, n) in [
        ("make-shop-null", -1),
        ("make-shop-empty", 0),
        ("make-shop", 2),
    ] {
        add(slug, encode(MakeShop { n }, &none, binding));
    }
    if binding.is_soap() {
        for (slug, n) in [("echo-shop-null", -1), ("echo-shop", 2)] {
            let ds = crate::objects_data_set::make_shop(n);
            add(slug, encode(EchoShop { ds }, &none, binding));
        }
    }
    // A header of another namespace, read and written back (over SOAP; HTTP GET/POST carry
    // none).
    add(
        "visit",
        encode(
            Visit {
                n: 2,
                ext_header: Some(ExtHeader {
                    who: Some("ann & co".into()),
                    level: 5,
                    note: Some(ExtNote {
                        text: Some("<note>".into()),
                    }),
                    org: Some("org & co".into()),
                    mode: Some("fast & <safe>".into()),
                    // An ID is read trimmed.
                    r#ref: Some(" r-1 ".into()),
                    marks: vec![rmm_objects::runtime::raw_xml::XmlAttribute {
                        prefix: "f".into(),
                        local: "x".into(),
                        namespace: "urn:f".into(),
                        value: "1 & 2".into(),
                    }],
                    dup: Some(rmm_objects::runtime::AnyType::Int(7)),
                    tag: vec!["a".into(), "b & c".into()],
                    more: vec![
                        ExtNote {
                            text: Some("m1".into()),
                        },
                        ExtNote { text: None },
                    ],
                    soap: Default::default(),
                }),
            },
            &none,
            binding,
        ),
    );
    add(
        "visit-no-header",
        encode(
            Visit {
                n: 1,
                ext_header: None,
            },
            &none,
            binding,
        ),
    );
    // A header written with a fault alone: a client fault, a server fault, and none.
    for (slug, n) in [
        ("attempt-client", -2),
        ("attempt-server", 0),
        ("attempt", 4),
    ] {
        add(slug, encode(Attempt { n }, &none, binding));
    }
    // Objects: every kind MakeObject makes, and arrays of them.
    for kind in 0..=24 {
        add(
            &format!("make-object-{kind}"),
            encode(MakeObject { kind }, &none, binding),
        );
    }
    for (slug, n) in [
        ("make-objects-null", -1),
        ("make-objects-empty", 0),
        ("make-objects", 25),
    ] {
        add(slug, encode(MakeObjects { n }, &none, binding));
    }
    if binding.is_soap() {
        // Each kind echoed and described as the host reads it (a null parameter too).
        for kind in 0..=24 {
            let o = crate::objects_any::make_object(kind);
            add(
                &format!("echo-object-{kind}"),
                encode(EchoObject { o: o.clone() }, &none, binding),
            );
            add(
                &format!("describe-object-{kind}"),
                encode(DescribeObject { o }, &none, binding),
            );
        }
        add(
            "echo-objects",
            encode(
                EchoObjects {
                    items: crate::objects_any::make_objects(25),
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-holder",
            encode(
                EchoHolder {
                    h: Some(Holder {
                        value: crate::objects_any::make_object(22),
                        values: crate::objects_any::make_objects(5),
                        name: Some("h".into()),
                    }),
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-holder-empty",
            encode(
                EchoHolder {
                    h: Some(Holder::default()),
                },
                &none,
                binding,
            ),
        );
    }
    if binding.is_soap() {
        // A SOAP header: sent in the Header by the generated client (over SOAP only).
        add(
            "who-am-i",
            encode(
                WhoAmI {
                    n: 7,
                    auth_header: Some(AuthHeader {
                        user: Some("ann & co".into()),
                        password: Some("pw".into()),
                        soap: Default::default(),
                    }),
                },
                &none,
                binding,
            ),
        );
        // Raw XML: an element with a prefix of its own, one declared outside it, the
        // envelope's, text, a comment, CDATA and a processing instruction.
        add(
            "echo-xml",
            encode(
                EchoXml {
                    doc: Some(
                        RawXml::parse(
                            "<a:x xmlns:a=\"urn:a\" b='1 &amp; 2'><a:y xsi:type=\"xsd:int\" \
                             xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">t</a:y>\
                             <!--c--><![CDATA[<z>]]><?pi d?><plain> </plain></a:x>",
                        )
                        .expect("raw XML"),
                    ),
                },
                &none,
                binding,
            ),
        );
        for (case, node) in [
            ("echo-node-text", RawNode::Text("  a & b ".into())),
            ("echo-node-cdata", RawNode::CData("<c>".into())),
            (
                "echo-node-element",
                RawNode::Element(RawXml::parse("<q:x xmlns:q=\"urn:q\">t</q:x>").expect("raw XML")),
            ),
        ] {
            add(case, encode(EchoNode { node: Some(node) }, &none, binding));
        }
        add(
            "echo-xml-null",
            encode(EchoXml { doc: None }, &none, binding),
        );
        // Raw XML in arrays and classes: items of every kind, a null one, and elements no
        // member takes.
        add(
            "echo-elements",
            encode(
                EchoElements {
                    items: Some(raw_elements()),
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-nodes",
            encode(
                EchoNodes {
                    nodes: Some(raw_nodes()),
                },
                &none,
                binding,
            ),
        );
        for (case, doc) in [
            (
                "split-xml",
                "<a:x xmlns:a=\"urn:a\"><!--c--> lead &amp; <b:y xmlns:b=\"urn:b\" q=\"1\">in</b:y><z/></a:x>",
            ),
            ("split-xml-cdata", "<x><?p d?><![CDATA[<c>]]><y/></x>"),
            ("split-xml-element", "<x>\n  <y>t</y>\n</x>"),
            ("split-xml-empty", "<x/>"),
        ] {
            add(
                case,
                encode(
                    SplitXml {
                        doc: Some(RawXml::parse(doc).expect("raw XML")),
                    },
                    &none,
                    binding,
                ),
            );
        }
        add(
            "echo-phrase",
            encode(
                EchoPhrase {
                    p: Some(Phrase {
                        lang: Some("fr-CA".into()),
                        text: Some("bonjour & salut".into()),
                    }),
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-parcel",
            encode(EchoParcel { p: Some(parcel()) }, &none, binding),
        );
        add(
            "echo-wrapping",
            encode(
                EchoWrapping {
                    w: make_wrapping(7),
                },
                &none,
                binding,
            ),
        );
        // An InOut header and an Out one: the response's Header.
        add(
            "hop",
            encode(
                Hop {
                    n: 2,
                    auth_header: Some(AuthHeader {
                        user: Some("ann".into()),
                        password: None,
                        soap: Default::default(),
                    }),
                    trace_header: Some(TraceHeader {
                        id: Some("t & 1".into()),
                        hop: 3,
                        soap: Default::default(),
                    }),
                },
                &none,
                binding,
            ),
        );
        // The block's attributes, sent and echoed in the binding's own version; no
        // StampHeader for a negative n.
        add(
            "hop-attributes",
            encode(
                Hop {
                    n: -1,
                    auth_header: None,
                    trace_header: Some(TraceHeader {
                        id: None,
                        hop: 1,
                        soap: HeaderAttributes {
                            must_understand: true,
                            actor: "http://a.example/b?x=1&y=\"2\"".into(),
                            relay: true,
                        },
                    }),
                },
                &none,
                binding,
            ),
        );
        add(
            "make-voucher-null",
            encode(
                MakeVoucher {
                    code: None,
                    value: 0,
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-voucher",
            encode(
                EchoVoucher {
                    receipt: Some(Voucher {
                        code: Some("v".into()),
                        value: i32::MAX,
                    }),
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-voucher-null",
            encode(EchoVoucher { receipt: None }, &none, binding),
        );
        add(
            "repeat-bare-null",
            encode(
                RepeatBare {
                    text: None,
                    times: 2,
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-order-bare",
            encode(
                EchoOrderBare {
                    order: Some(full_order()),
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-order-bare-null",
            encode(EchoOrderBare { order: None }, &none, binding),
        );
        add(
            "echo-renamed",
            encode(
                EchoRenamed {
                    tag: Some(Label {
                        key: Some("k".into()),
                        tag_value: Some("v & w".into()),
                    }),
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-settings-defaults",
            encode(
                EchoSettings {
                    settings: Some(Settings::default()),
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-settings-others",
            encode(
                EchoSettings {
                    settings: Some(other_settings()),
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-basket",
            encode(
                EchoBasket {
                    basket: Some(Basket {
                        owner: Some("o".into()),
                        items: Some(vec![Some(OrderLine::default()), None]),
                        notes: Some(vec![Some("n".into())]),
                    }),
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-basket-empty",
            encode(
                EchoBasket {
                    basket: Some(Basket::default()),
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-int-list",
            encode(
                EchoIntList {
                    values: Some(vec![3, -1, 0]),
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-int-list-null",
            encode(EchoIntList { values: None }, &none, binding),
        );
        add(
            "echo-line-list",
            encode(
                EchoLineList {
                    lines: Some(vec![Some(OrderLine::default()), None]),
                },
                &none,
                binding,
            ),
        );
        add(
            "split",
            encode(
                Split {
                    value: Some("ab cd".into()),
                    count: 10,
                },
                &none,
                binding,
            ),
        );
        add(
            "split-null",
            encode(
                Split {
                    value: None,
                    count: 0,
                },
                &none,
                binding,
            ),
        );
        add(
            "split-no-space",
            encode(
                Split {
                    value: Some("é".into()),
                    count: i32::MAX,
                },
                &none,
                binding,
            ),
        );
        add(
            "divide",
            encode(
                Divide {
                    dividend: 7,
                    divisor: -2,
                },
                &none,
                binding,
            ),
        );
        add(
            "divide-by-zero",
            encode(
                Divide {
                    dividend: 1,
                    divisor: 0,
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-bundle",
            encode(
                EchoBundle {
                    bundle: Some(Bundle {
                        lines: Some(vec![Some(OrderLine::default()), None]),
                        tag: vec!["a".into(), String::new(), "c".into()],
                        scores: Some(vec![Some(1), None]),
                        rights: Some(vec![Perms::READ, Perms::empty()]),
                    }),
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-bundle-empty",
            encode(
                EchoBundle {
                    bundle: Some(Bundle::default()),
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-pick",
            encode(
                EchoPick {
                    pick: Some(Pick {
                        name: Some("n".into()),
                        item: Some(PickItem::Shape(AnyShape::ColoredCircle(ColoredCircle {
                            tag: Some("t".into()),
                            name: Some("cc".into()),
                            radius: 2.5,
                            color: Some("red".into()),
                        }))),
                        tail: 3,
                    }),
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-picks",
            encode(
                EchoPicks {
                    picks: Some(Picks {
                        items: vec![
                            PicksItems::Size(2),
                            PicksItems::Note("a".into()),
                            PicksItems::Line(OrderLine::default()),
                            PicksItems::Size(-1),
                        ],
                        name: Some("ps".into()),
                    }),
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-maybe",
            encode(
                EchoMaybe {
                    maybe: Some(Maybe {
                        item: Some(MaybeItem::Note(Some("n".into()))),
                        items: vec![
                            MaybeItems::Entry(Some(OrderLine::default())),
                            MaybeItems::Text(None),
                            MaybeItems::Entry(None),
                            MaybeItems::Text(Some(String::new())),
                        ],
                        item1: Some(MaybeItem1::Right(None)),
                        items1: vec![MaybeItems1::Down(None), MaybeItems1::Up(Some("u".into()))],
                    }),
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-marked",
            encode(
                EchoMarked {
                    marked: Some(Marked {
                        count: Some(-3),
                        grade: None,
                        when: NaiveDate::from_ymd_opt(2026, 1, 2)
                            .and_then(|d| d.and_hms_opt(3, 4, 5))
                            .map(DateTime::utc),
                        fixed: 0,
                        body: Some("b".into()),
                    }),
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-named",
            encode(
                EchoNamed {
                    named: Some(Named {
                        item: Some(NamedItem::Last("l".into())),
                        items: vec![NamedItems::Code("c".into()), NamedItems::Tag("t".into())],
                    }),
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-attributes",
            encode(
                EchoAttributes {
                    value: Some(Attributed {
                        code: Some("c&\"<>\t\n".into()),
                        n: i32::MIN,
                        access: Perms::READ | Perms::EXECUTE,
                        body: Some("b".into()),
                    }),
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-attributes-default",
            encode(
                EchoAttributes {
                    value: Some(Attributed::default()),
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-text",
            encode(
                EchoText {
                    note: Some(Note {
                        lang: Some("en".into()),
                        text: Some("hello <world> & \"all\"".into()),
                    }),
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-text-none",
            encode(
                EchoText {
                    note: Some(Note::default()),
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-flags-array",
            encode(
                EchoFlagsArray {
                    values: Some(vec![Perms::empty(), Perms::WRITE | Perms::EXECUTE]),
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-shape-square",
            encode(
                EchoShape {
                    shape: Some(AnyShape::Square(Square {
                        tag: Some("sq-tag".into()),
                        name: Some("sq".into()),
                        side: 2.0,
                    })),
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-shape-colored-circle",
            encode(
                EchoShape {
                    shape: Some(AnyShape::ColoredCircle(ColoredCircle::default())),
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-shape-null",
            encode(EchoShape { shape: None }, &none, binding),
        );
        add(
            "echo-shapes",
            encode(
                EchoShapes {
                    shapes: make_shapes(5),
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-drawing",
            encode(
                EchoDrawing {
                    drawing: Some(drawing()),
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-drawing-plain-circle",
            encode(
                EchoDrawing {
                    drawing: Some(Drawing {
                        ring: Some(AnyCircle::Circle(Circle {
                            tag: None,
                            name: Some("r".into()),
                            radius: 2.0,
                        })),
                        ..Default::default()
                    }),
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-order-full",
            encode(
                EchoOrder {
                    order: Some(full_order()),
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-order-default",
            encode(
                EchoOrder {
                    order: Some(Order::default()),
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-order-null",
            encode(EchoOrder { order: None }, &none, binding),
        );
        add(
            "echo-orders",
            encode(
                EchoOrders {
                    orders: Some(vec![Some(full_order()), None, Some(Order::default())]),
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-orders-empty",
            encode(
                EchoOrders {
                    orders: Some(vec![]),
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-tree",
            encode(
                EchoTree {
                    node: Some(deep_tree()),
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-string-array-null",
            encode(EchoStringArray { values: None }, &none, binding),
        );
        add(
            "echo-string-array-empty",
            encode(
                EchoStringArray {
                    values: Some(vec![]),
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-string-array-nil-item",
            encode(
                EchoStringArray {
                    values: Some(vec![None, Some("b".into())]),
                },
                &none,
                binding,
            ),
        );
        add(
            "count-lines",
            encode(
                CountLines {
                    order: Some(full_order()),
                    extra: 10,
                },
                &none,
                binding,
            ),
        );
    }
    if binding.is_soap() {
        // Attributes with defaults: each other than its default, then each equal to it
        // (left out), the string ones empty and null too.
        for (slug, flagged) in [
            (
                "echo-flagged-set",
                Flagged {
                    required: true,
                    caption: Some("c & d".into()),
                    visible: Some("False".into()),
                    count: -3,
                    grade: Level::High,
                    name: Some("n".into()),
                },
            ),
            ("echo-flagged-defaults", Flagged::default()),
            (
                "echo-flagged-null-strings",
                Flagged {
                    caption: None,
                    visible: None,
                    ..Flagged::default()
                },
            ),
        ] {
            add(
                slug,
                encode(
                    EchoFlagged {
                        flagged: Some(flagged),
                    },
                    &none,
                    binding,
                ),
            );
        }
    }
    // Renamed wrappers and results, on every binding: over HTTP GET/POST only the
    // operation's name and the result's type show.
    add(
        "echo-number",
        encode(EchoNumber { value: -7 }, &none, binding),
    );
    add(
        "echo-word",
        encode(
            EchoWord {
                word: Some("w & ö".into()),
            },
            &none,
            binding,
        ),
    );
    if binding.is_soap() {
        add(
            "echo-word-null",
            encode(EchoWord { word: None }, &none, binding),
        );
    }
    cases
}

/// [`full_order`] with `lines` lines of varied values, the message the codec benchmarks
/// measure (`benches/objects_codec.rs`, `examples/wire_instructions.rs`): every line
/// present, a third of them with a nil `Discount`; its int arrays without nil items (gSOAP's
/// C mapping cannot hold them).
pub fn bench_order(lines: usize) -> Order {
    let mut order = full_order();
    order.lines = Some(
        (0..lines)
            .map(|i| {
                Some(OrderLine {
                    sku: Some(format!(
                        "SKU-{:05}-{}",
                        i * 37 % 10007,
                        ["A", "BB", "CCC"][i % 3]
                    )),
                    quantity: (i as i32) * 3 + 1,
                    price: format!("{}.{:02}", 10 + i * 7, i * 13 % 100)
                        .parse()
                        .expect("a decimal"),
                    discount: (i % 3 != 0)
                        .then(|| format!("-0.{:02}", i % 50 + 1).parse().expect("a decimal")),
                })
            })
            .collect(),
    );
    // gSOAP's C mapping (wsdl2h -c) reads the WSDL's nillable `int` items of `ArrayOfInt` and
    // `ArrayOfInt1` items of `ArrayOfArrayOfInt1` as plain `int` and struct arrays, which
    // cannot hold a nil (it refuses `<int xsi:nil="true"/>` as an empty int): those arrays
    // are without nils here, so that both sides read the same message.
    order.scores = Some(vec![Some(1), Some(0), Some(i32::MIN)]);
    order.matrix = Some(vec![Some(vec![1, 2]), Some(vec![]), Some(vec![i32::MAX])]);
    order
}
