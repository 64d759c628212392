//! Writing a DataSet as the host writes it: the inline schema (`XmlTreeGen`, web-service
//! form) and the diffgram (`NewDiffgramGen`), as raw XML elements the message writer writes.

use super::cell::GUID_DATA_TYPE;
use super::names::encode_local_name;
use super::{DataSet, DataTable, Locale, RowState, DIFFGRAM_NS, MSDATA_NS};
use crate::raw_xml::{write_child, write_close, write_open_child, Open, Scope};
use crate::raw_xml::{XmlAttribute, XmlContent, XmlElement, XMLNS_NS, XML_NS};
use crate::xml::XSD_NS;

/// The set being written: a DataSet's, or the one around a lone table.
struct View<'a> {
    name: &'a str,
    locale: &'a Locale,
    /// The set's namespace: its rows' and cells' (empty: none).
    namespace: &'a str,
    tables: &'a [DataTable],
    /// The main table of a lone `DataTable`.
    main: Option<&'a str>,
    /// Each table's name and its columns' names as XML names (`Named_x0020_Set`), encoded
    /// once for all its rows.
    wire: Vec<(String, Vec<String>)>,
}

impl<'a> View<'a> {
    fn of(set: &'a DataSet) -> View<'a> {
        View {
            name: &set.name,
            locale: &set.locale,
            namespace: &set.namespace,
            tables: &set.tables,
            main: None,
            wire: wire_names(&set.tables),
        }
    }

    /// The set `NewDataSet` around a lone table, its main one.
    fn of_table(table: &'a DataTable) -> View<'a> {
        let tables = std::slice::from_ref(table);
        View {
            name: "NewDataSet",
            locale: &Locale::Current,
            namespace: "",
            tables,
            main: Some(&table.name),
            wire: wire_names(tables),
        }
    }
}

/// Each table's name and its columns' names, as XML names.
fn wire_names(tables: &[DataTable]) -> Vec<(String, Vec<String>)> {
    (tables.iter())
        .map(|t| {
            let columns = t.columns.iter().map(|c| encode_local_name(&c.name));
            (encode_local_name(&t.name), columns.collect())
        })
        .collect()
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
    for (section, rows, kept_empty) in sections(set) {
        let mut section = section;
        section.children.extend(rows.map(XmlContent::Element));
        if kept_empty || !section.children.is_empty() {
            diffgram.children.push(XmlContent::Element(section));
        }
    }
    diffgram
}

/// The diffgram's sections, each its element (empty), its rows' elements, made as they are
/// asked for, and whether it is written when it holds none: the set's element (always),
/// `diffgr:before`, `diffgr:errors`.
fn sections<'v>(
    set: &'v View<'v>,
) -> [(XmlElement, Box<dyn Iterator<Item = XmlElement> + 'v>, bool); 3] {
    let rows = move || {
        set.tables.iter().enumerate().flat_map(|(t, table)| {
            (table.rows.iter().enumerate()).map(move |(position, row)| (t, position, row))
        })
    };
    let current = rows()
        .filter(|(_, _, row)| row.state != RowState::Deleted)
        .map(move |(t, position, row)| current_row(set, t, position, row));
    let before = rows().filter_map(move |(t, position, row)| {
        let values = match (row.state, &row.original) {
            (RowState::Deleted, _) => &row.values,
            (RowState::Modified, Some(original)) => original,
            _ => return None,
        };
        let mut e = row_element(set, t, position);
        prefixed(&mut e, "msdata", "rowOrder", position.to_string());
        cells(&mut e, set, t, values);
        Some(e)
    });
    let errors = rows().filter_map(move |(t, position, row)| {
        if row.error.is_none() && row.cell_errors.is_empty() {
            return None;
        }
        let mut e = row_element(set, t, position);
        if let Some(error) = &row.error {
            prefixed(&mut e, "diffgr", "Error", error.clone());
        }
        for (index, error) in &row.cell_errors {
            let Some(column) = set.wire[t].1.get(*index) else {
                continue;
            };
            let cell = child(&mut e, element("", column, set.namespace));
            prefixed(cell, "diffgr", "Error", error.clone());
        }
        Some(e)
    });
    [
        (data_element(set), Box::new(current), true),
        (
            element("diffgr", "before", DIFFGRAM_NS),
            Box::new(before),
            false,
        ),
        (
            element("diffgr", "errors", DIFFGRAM_NS),
            Box::new(errors),
            false,
        ),
    ]
}

/// Writes what the element of `set` holds, the schema and the diffgram, as the children of
/// the element `parent` opened: byte for byte as the tree of [`DataSet::to_elements`] is
/// written, each row's element made when it is written, so that the memory held is a row's
/// elements and the text, not a tree of the set.
fn write_view(
    out: &mut String,
    set: &View<'_>,
    parent: &Open,
    scope: &mut Scope,
) -> Result<(), u32> {
    write_child(out, parent, &schema(set), scope)?;
    let diffgram = diffgram_element();
    if set.tables.iter().all(|t| t.rows.is_empty()) {
        return write_child(out, parent, &diffgram, scope);
    }
    let open = write_open_child(out, parent, &diffgram, scope)?;
    for (section, rows, kept_empty) in sections(set) {
        let mut rows = rows.peekable();
        match rows.peek() {
            None if kept_empty => write_child(out, &open, &section, scope)?,
            None => {}
            Some(_) => {
                let section_open = write_open_child(out, &open, &section, scope)?;
                for row in rows {
                    write_child(out, &section_open, &row, scope)?;
                }
                write_close(out, &section, section_open, scope);
            }
        }
    }
    write_close(out, &diffgram, open, scope);
    Ok(())
}

/// What the element of a [`DataHolder`](super::DataHolder) holds, ready to be written: a
/// DataSet, or the set around a lone `DataTable`.
#[doc(hidden)] // for the runtime's writers
pub struct HolderView<'a> {
    view: View<'a>,
}

impl HolderView<'_> {
    /// Writes the schema and the diffgram as the children of the element `parent` opened
    /// (see [`write_view`]); the error is the code point of a character XML cannot carry.
    pub(crate) fn write(
        &self,
        out: &mut String,
        parent: &Open,
        scope: &mut Scope,
    ) -> Result<(), u32> {
        write_view(out, &self.view, parent, scope)
    }
}

/// The view of `set`'s element.
pub(crate) fn holder_view(set: &DataSet) -> HolderView<'_> {
    HolderView {
        view: View::of(set),
    }
}

/// The view of a lone `DataTable`'s element, as the host writes one: a set `NewDataSet`
/// naming the table its main one (`msdata:MainDataTable`), the rows in a diffgram of
/// `DocumentElement`. `None` for a table without a name, which .NET cannot write.
pub(crate) fn table_holder_view(table: &DataTable) -> Option<HolderView<'_>> {
    (!table.name.is_empty()).then(|| HolderView {
        view: View::of_table(table),
    })
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
fn current_row(set: &View<'_>, t: usize, position: usize, row: &super::DataRow) -> XmlElement {
    let mut e = row_element(set, t, position);
    prefixed(&mut e, "msdata", "rowOrder", position.to_string());
    match row.state {
        RowState::Added => prefixed(&mut e, "diffgr", "hasChanges", "inserted"),
        RowState::Modified => prefixed(&mut e, "diffgr", "hasChanges", "modified"),
        RowState::Unchanged | RowState::Deleted => {}
    }
    if row.error.is_some() || !row.cell_errors.is_empty() {
        prefixed(&mut e, "diffgr", "hasErrors", "true");
    }
    cells(&mut e, set, t, &row.values);
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
        current_row(&self.view, table, position, row)
    }
}

/// `<Table diffgr:id="Table1"`: the row element at `position` of the table at `t`, its id
/// set; in the set's namespace, which the raw XML writer declares where it is not in scope
/// (after the row's attributes in `diffgr:before` and `diffgr:errors`, as the host writes it).
fn row_element(set: &View<'_>, t: usize, position: usize) -> XmlElement {
    let mut e = element("", &set.wire[t].0, set.namespace);
    prefixed(
        &mut e,
        "diffgr",
        "id",
        format!("{}{}", set.tables[t].name, position + 1),
    );
    e
}

/// The cells that are not null of a row of the table at `t`, in column order: a string of
/// white space alone marked `xml:space="preserve"`, an empty one an empty element.
fn cells(row: &mut XmlElement, set: &View<'_>, t: usize, values: &[Option<super::Cell>]) {
    for (column, value) in set.wire[t].1.iter().zip(values) {
        let Some(value) = value else { continue };
        let mut text = String::new();
        value.write(&mut text);
        let mut cell = element("", column, set.namespace);
        if !text.is_empty() && crate::xml::is_blank(&text) {
            prefixed(&mut cell, "xml", "space", "preserve");
        }
        if !text.is_empty() {
            cell.children.push(XmlContent::Text(text));
        }
        row.children.push(XmlContent::Element(cell));
    }
}
