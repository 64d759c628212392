//! Writing a DataSet as the host writes it: the inline schema (`XmlTreeGen`, web-service
//! form) and the diffgram (`NewDiffgramGen`), as raw XML elements the message writer writes.

use super::cell::GUID_DATA_TYPE;
use super::names::encode_local_name;
use super::{DataSet, DataTable, Locale, RowState, DIFFGRAM_NS, MSDATA_NS};
use crate::raw_xml::{XmlAttribute, XmlContent, XmlElement, XMLNS_NS, XML_NS};
use crate::xml::XSD_NS;

/// What the parameter's or result's element holds: the schema, then the diffgram.
pub(crate) fn holder_children(set: &DataSet) -> Vec<XmlContent> {
    let view = View::of(set);
    vec![
        XmlContent::Element(schema(&view)),
        XmlContent::Element(diffgram(&view)),
    ]
}

/// What the element of a lone `DataTable` holds, as the host writes one: a set `NewDataSet`
/// naming the table its main one (`msdata:MainDataTable`), the rows in a diffgram of
/// `DocumentElement`. `None` for a table without a name, which .NET cannot write.
pub(crate) fn table_holder_children(table: &DataTable) -> Option<Vec<XmlContent>> {
    if table.name.is_empty() {
        return None;
    }
    let view = View {
        name: "NewDataSet",
        locale: &Locale::Current,
        namespace: "",
        tables: std::slice::from_ref(table),
        main: Some(&table.name),
    };
    Some(vec![
        XmlContent::Element(schema(&view)),
        XmlContent::Element(diffgram(&view)),
    ])
}

/// The set being written: a DataSet's, or the one around a lone table.
struct View<'a> {
    name: &'a str,
    locale: &'a Locale,
    /// The set's namespace: its rows' and cells' (empty: none).
    namespace: &'a str,
    tables: &'a [DataTable],
    /// The main table of a lone `DataTable`.
    main: Option<&'a str>,
}

impl<'a> View<'a> {
    fn of(set: &'a DataSet) -> View<'a> {
        View {
            name: &set.name,
            locale: &set.locale,
            namespace: &set.namespace,
            tables: &set.tables,
            main: None,
        }
    }
}

impl DataSet {
    /// The two elements a DataSet is written as, the schema and the diffgram, as raw XML.
    pub fn to_elements(&self) -> [XmlElement; 2] {
        let view = View::of(self);
        [schema(&view), diffgram(&view)]
    }
}

fn element(prefix: &str, local: &str, namespace: &str) -> XmlElement {
    XmlElement {
        prefix: prefix.to_owned(),
        local: local.to_owned(),
        namespace: namespace.to_owned(),
        attributes: Vec::new(),
        children: Vec::new(),
        end_tag: false,
    }
}

fn xs(local: &str) -> XmlElement {
    element("xs", local, XSD_NS)
}

fn attribute(element: &mut XmlElement, local: &str, value: impl Into<String>) {
    element.attributes.push(XmlAttribute {
        prefix: String::new(),
        local: local.to_owned(),
        namespace: String::new(),
        value: value.into(),
    });
}

fn prefixed(element: &mut XmlElement, prefix: &str, local: &str, value: impl Into<String>) {
    let namespace = match prefix {
        "msdata" => MSDATA_NS,
        "diffgr" => DIFFGRAM_NS,
        "xml" => XML_NS,
        _ => unreachable!("a DataSet writes no other prefix"),
    };
    element.attributes.push(XmlAttribute {
        prefix: prefix.to_owned(),
        local: local.to_owned(),
        namespace: namespace.to_owned(),
        value: value.into(),
    });
}

fn declare(element: &mut XmlElement, prefix: &str, namespace: &str) {
    element.attributes.push(if prefix.is_empty() {
        XmlAttribute {
            prefix: String::new(),
            local: "xmlns".to_owned(),
            namespace: XMLNS_NS.to_owned(),
            value: namespace.to_owned(),
        }
    } else {
        XmlAttribute {
            prefix: "xmlns".to_owned(),
            local: prefix.to_owned(),
            namespace: XMLNS_NS.to_owned(),
            value: namespace.to_owned(),
        }
    });
}

fn child(parent: &mut XmlElement, element: XmlElement) -> &mut XmlElement {
    parent.children.push(XmlContent::Element(element));
    match parent.children.last_mut() {
        Some(XmlContent::Element(e)) => e,
        _ => unreachable!("just pushed"),
    }
}

/// `<xs:schema id="…" xmlns="" xmlns:xs="…" xmlns:msdata="…">`: the set, a choice of its
/// tables, each a sequence of its columns. A set of a namespace of its own writes it as the
/// target namespace (`mstns` and the default one), its forms qualified, as .NET's
/// `XmlTreeGen` does.
fn schema(set: &View<'_>) -> XmlElement {
    let name = encode_local_name(set.name);
    let mut schema = xs("schema");
    attribute(&mut schema, "id", name.clone());
    if !set.namespace.is_empty() {
        attribute(&mut schema, "targetNamespace", set.namespace);
        declare(&mut schema, "mstns", set.namespace);
    }
    declare(&mut schema, "", set.namespace);
    declare(&mut schema, "xs", XSD_NS);
    declare(&mut schema, "msdata", MSDATA_NS);
    if !set.namespace.is_empty() {
        attribute(&mut schema, "attributeFormDefault", "qualified");
        attribute(&mut schema, "elementFormDefault", "qualified");
    }
    let set_element = child(&mut schema, xs("element"));
    attribute(set_element, "name", name);
    prefixed(set_element, "msdata", "IsDataSet", "true");
    if let Some(main) = set.main {
        prefixed(
            set_element,
            "msdata",
            "MainDataTable",
            encode_local_name(main),
        );
    }
    match set.locale {
        Locale::Current => prefixed(set_element, "msdata", "UseCurrentLocale", "true"),
        Locale::Named(culture) => prefixed(set_element, "msdata", "Locale", culture.clone()),
    }
    let choice = child(child(set_element, xs("complexType")), xs("choice"));
    attribute(choice, "minOccurs", "0");
    attribute(choice, "maxOccurs", "unbounded");
    for table in set.tables {
        let table_element = child(choice, xs("element"));
        attribute(table_element, "name", encode_local_name(&table.name));
        let complex = child(table_element, xs("complexType"));
        if table.columns.is_empty() {
            // The host writes the type's end tag though it holds nothing.
            complex.end_tag = true;
            continue;
        }
        let sequence = child(complex, xs("sequence"));
        for column in &table.columns {
            let column_element = child(sequence, xs("element"));
            attribute(column_element, "name", encode_local_name(&column.name));
            if column.ty == super::ColumnType::Guid {
                prefixed(column_element, "msdata", "DataType", GUID_DATA_TYPE);
            }
            attribute(
                column_element,
                "type",
                format!("xs:{}", column.ty.xsd_name()),
            );
            if column.allow_null {
                attribute(column_element, "minOccurs", "0");
            }
        }
    }
    schema
}

/// `<diffgr:diffgram …>`: the set's element holding the rows that are not deleted, then
/// `diffgr:before` with the original values of modified and deleted rows, then
/// `diffgr:errors`. Each row is `diffgr:id` its table's name and its position from 1,
/// `msdata:rowOrder` its position from 0.
fn diffgram(set: &View<'_>) -> XmlElement {
    let mut diffgram = diffgram_element();
    if set.tables.iter().all(|t| t.rows.is_empty()) {
        return diffgram;
    }
    let data = child(&mut diffgram, data_element(set));
    for table in set.tables {
        for (position, row) in table.rows.iter().enumerate() {
            if row.state == RowState::Deleted {
                continue;
            }
            let e = current_row(set, table, position, row);
            data.children.push(XmlContent::Element(e));
        }
    }
    let mut before = element("diffgr", "before", DIFFGRAM_NS);
    for table in set.tables {
        for (position, row) in table.rows.iter().enumerate() {
            let values = match (row.state, &row.original) {
                (RowState::Deleted, _) => &row.values,
                (RowState::Modified, Some(original)) => original,
                _ => continue,
            };
            let mut e = row_element(set, table, position);
            prefixed(&mut e, "msdata", "rowOrder", position.to_string());
            cells(&mut e, set, table, values);
            before.children.push(XmlContent::Element(e));
        }
    }
    if !before.children.is_empty() {
        diffgram.children.push(XmlContent::Element(before));
    }
    let mut errors = element("diffgr", "errors", DIFFGRAM_NS);
    for table in set.tables {
        for (position, row) in table.rows.iter().enumerate() {
            if row.error.is_none() && row.cell_errors.is_empty() {
                continue;
            }
            let mut e = row_element(set, table, position);
            if let Some(error) = &row.error {
                prefixed(&mut e, "diffgr", "Error", error.clone());
            }
            for (index, error) in &row.cell_errors {
                let Some(column) = table.columns.get(*index) else {
                    continue;
                };
                let cell = child(
                    &mut e,
                    element("", &encode_local_name(&column.name), set.namespace),
                );
                prefixed(cell, "diffgr", "Error", error.clone());
            }
            errors.children.push(XmlContent::Element(e));
        }
    }
    if !errors.children.is_empty() {
        diffgram.children.push(XmlContent::Element(errors));
    }
    diffgram
}

/// `<diffgr:diffgram …>`, empty.
fn diffgram_element() -> XmlElement {
    let mut diffgram = element("diffgr", "diffgram", DIFFGRAM_NS);
    declare(&mut diffgram, "msdata", MSDATA_NS);
    declare(&mut diffgram, "diffgr", DIFFGRAM_NS);
    diffgram
}

/// The set's element in the diffgram, empty: the rows' parent.
fn data_element(set: &View<'_>) -> XmlElement {
    element(
        "",
        &set.main.map_or_else(
            || encode_local_name(set.name),
            |_| "DocumentElement".to_owned(),
        ),
        set.namespace,
    )
}

/// A row of the set's element in the diffgram (not a deleted one): its id, order, state,
/// whether it has errors, its current values.
fn current_row(
    set: &View<'_>,
    table: &DataTable,
    position: usize,
    row: &super::DataRow,
) -> XmlElement {
    let mut e = row_element(set, table, position);
    prefixed(&mut e, "msdata", "rowOrder", position.to_string());
    match row.state {
        RowState::Added => prefixed(&mut e, "diffgr", "hasChanges", "inserted"),
        RowState::Modified => prefixed(&mut e, "diffgr", "hasChanges", "modified"),
        RowState::Unchanged | RowState::Deleted => {}
    }
    if row.error.is_some() || !row.cell_errors.is_empty() {
        prefixed(&mut e, "diffgr", "hasErrors", "true");
    }
    cells(&mut e, set, table, &row.values);
    e
}

/// A DataSet written a row at a time (a server's streamed answer): the elements the whole
/// writer writes, in parts. The set gives the schema; its rows are not looked at.
#[cfg(feature = "server")]
pub(crate) struct StreamedSet<'a> {
    view: View<'a>,
}

#[cfg(feature = "server")]
impl<'a> StreamedSet<'a> {
    pub(crate) fn new(set: &'a DataSet) -> StreamedSet<'a> {
        StreamedSet {
            view: View::of(set),
        }
    }

    /// `<xs:schema>`, whole.
    pub(crate) fn schema(&self) -> XmlElement {
        schema(&self.view)
    }

    /// `<diffgr:diffgram>` without children: whole, the diffgram of a set without rows; its
    /// start tag otherwise.
    pub(crate) fn diffgram(&self) -> XmlElement {
        diffgram_element()
    }

    /// The set's element in the diffgram, without children: its start tag.
    pub(crate) fn data(&self) -> XmlElement {
        data_element(&self.view)
    }

    /// The element of `row`, the one at `position` of the table at `table` (an index among
    /// the set's tables), neither deleted nor modified nor with errors.
    pub(crate) fn row(&self, table: usize, position: usize, row: &super::DataRow) -> XmlElement {
        current_row(&self.view, &self.view.tables[table], position, row)
    }
}

/// `<Table diffgr:id="Table1"`: the row element at `position`, its id set; in the set's
/// namespace, which the raw XML writer declares where it is not in scope (after the row's
/// attributes in `diffgr:before` and `diffgr:errors`, as the host writes it).
fn row_element(set: &View<'_>, table: &DataTable, position: usize) -> XmlElement {
    let mut e = element("", &encode_local_name(&table.name), set.namespace);
    prefixed(
        &mut e,
        "diffgr",
        "id",
        format!("{}{}", table.name, position + 1),
    );
    e
}

/// The row's cells that are not null, in column order: a string of white space alone marked
/// `xml:space="preserve"`, an empty one an empty element.
fn cells(row: &mut XmlElement, set: &View<'_>, table: &DataTable, values: &[Option<super::Cell>]) {
    for (column, value) in table.columns.iter().zip(values) {
        let Some(value) = value else { continue };
        let mut text = String::new();
        value.write(&mut text);
        let mut cell = element("", &encode_local_name(&column.name), set.namespace);
        if !text.is_empty() && crate::xml::is_blank(&text) {
            prefixed(&mut cell, "xml", "space", "preserve");
        }
        if !text.is_empty() {
            cell.children.push(XmlContent::Text(text));
        }
        row.children.push(XmlContent::Element(cell));
    }
}
