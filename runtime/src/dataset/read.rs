//! Reading a DataSet from the element that holds it, as .NET's `DataSet.ReadXml` reads the
//! schema (`XSDSchema`) and the diffgram (`XMLDiffLoader`), refusing what it would drop.

use std::collections::HashMap;

use super::names::{decode_name, encode_local_name};
use super::{
    Cell, ColumnType, DataColumn, DataRow, DataSet, DataTable, Locale, RowState, DIFFGRAM_NS,
    MSDATA_NS,
};
use crate::raw_xml::{XmlContent, XmlElement, XMLNS_NS};
use crate::xml::{XSD_NS, XSI_NS};

/// Why a DataSet could not be read (or a change to one made).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct DataSetError {
    message: String,
}

impl DataSetError {
    pub(super) fn new(message: impl Into<String>) -> DataSetError {
        DataSetError {
            message: message.into(),
        }
    }

    /// What was wrong.
    pub fn message(&self) -> &str {
        &self.message
    }
}

/// Reads the DataSet the element `holder` (the parameter's or result's element, read whole)
/// holds: its schema and its diffgram, anything else in it skipped as .NET skips it. An
/// element holding nothing (or marked `xsi:nil`, which .NET reads so too) is an empty set.
pub(crate) fn read_holder(holder: &XmlElement) -> Result<DataSet, DataSetError> {
    let mut set = DataSet::default();
    let mut scope = Scope::default();
    scope.enter(holder);
    let mut schema_read = false;
    for child in elements(holder) {
        scope.enter(child);
        match (child.namespace.as_str(), child.local.as_str()) {
            (XSD_NS, "schema") => {
                if schema_read {
                    return Err(DataSetError::new("a second schema"));
                }
                read_schema(child, &mut scope, &mut set)?;
                schema_read = true;
            }
            (DIFFGRAM_NS, "diffgram") => read_diffgram(child, &mut set)?,
            _ => {}
        }
        scope.leave(child);
    }
    Ok(set)
}

fn elements(parent: &XmlElement) -> impl Iterator<Item = &XmlElement> {
    parent.children.iter().filter_map(|c| match c {
        XmlContent::Element(e) => Some(e),
        _ => None,
    })
}

/// The namespace declarations in scope, to resolve the prefix of a `type="xs:int"`.
#[derive(Default)]
struct Scope {
    bindings: Vec<(String, String)>,
    marks: Vec<usize>,
}

impl Scope {
    fn enter(&mut self, element: &XmlElement) {
        self.marks.push(self.bindings.len());
        for a in element.attributes.iter().filter(|a| a.is_declaration()) {
            self.bindings
                .push((a.declared_prefix().to_owned(), a.value.clone()));
        }
    }

    fn leave(&mut self, _element: &XmlElement) {
        let mark = self.marks.pop().unwrap_or(0);
        self.bindings.truncate(mark);
    }

    fn resolve(&self, prefix: &str) -> Option<&str> {
        self.bindings
            .iter()
            .rev()
            .find(|(p, _)| p == prefix)
            .map(|(_, ns)| ns.as_str())
    }
}

/// The value of the attribute `local` in `namespace` (empty: no namespace).
fn attr<'e>(element: &'e XmlElement, namespace: &str, local: &str) -> Option<&'e str> {
    element
        .attributes
        .iter()
        .find(|a| a.namespace == namespace && a.local == local)
        .map(|a| a.value.as_str())
}

/// Refuses an attribute of `element` that is not a declaration and not in `known`
/// (namespace, local name): something of the schema rmm does not model.
fn only_attributes(
    element: &XmlElement,
    known: &[(&str, &str)],
    what: &str,
) -> Result<(), DataSetError> {
    for a in &element.attributes {
        if a.namespace == XMLNS_NS || known.contains(&(a.namespace.as_str(), a.local.as_str())) {
            continue;
        }
        let name = if a.prefix.is_empty() {
            a.local.clone()
        } else {
            format!("{}:{}", a.prefix, a.local)
        };
        return Err(DataSetError::new(format!(
            "{what} has the attribute `{name}=\"{}\"`, which rmm does not model yet",
            a.value
        )));
    }
    Ok(())
}

/// Refuses a child element of `element` that is not in `known` (local names in XML Schema).
fn only_children<'e>(
    element: &'e XmlElement,
    known: &[&str],
    what: &str,
) -> Result<Vec<&'e XmlElement>, DataSetError> {
    let mut out = Vec::new();
    for e in elements(element) {
        if e.namespace != XSD_NS || !known.contains(&e.local.as_str()) {
            return Err(DataSetError::new(format!(
                "{what} holds `{}`, which rmm does not model yet",
                qname(e)
            )));
        }
        out.push(e);
    }
    Ok(out)
}

fn qname(e: &XmlElement) -> String {
    if e.prefix.is_empty() {
        e.local.clone()
    } else {
        format!("{}:{}", e.prefix, e.local)
    }
}

/// `xs:schema` → the set's name, locale, tables and columns.
fn read_schema(
    schema: &XmlElement,
    scope: &mut Scope,
    set: &mut DataSet,
) -> Result<(), DataSetError> {
    if let Some(ns) = attr(schema, "", "targetNamespace").filter(|ns| !ns.is_empty()) {
        return Err(DataSetError::new(format!(
            "the DataSet has a namespace of its own (`{ns}`), which rmm does not model yet"
        )));
    }
    only_attributes(
        schema,
        &[("", "id"), ("", "targetNamespace")],
        "the DataSet's schema",
    )?;
    let top = only_children(schema, &["element"], "the DataSet's schema")?;
    let [set_element] = top.as_slice() else {
        return Err(DataSetError::new(format!(
            "the DataSet's schema declares {} elements, not the set alone",
            top.len()
        )));
    };
    if attr(set_element, MSDATA_NS, "IsDataSet") != Some("true") {
        return Err(DataSetError::new(
            "the DataSet's schema declares an element that is not marked msdata:IsDataSet",
        ));
    }
    only_attributes(
        set_element,
        &[
            ("", "name"),
            (MSDATA_NS, "IsDataSet"),
            (MSDATA_NS, "Locale"),
            (MSDATA_NS, "UseCurrentLocale"),
        ],
        "the DataSet's element",
    )?;
    let name = attr(set_element, "", "name").unwrap_or("NewDataSet");
    set.name = decode_name(name);
    // `msdata:Locale` wins; without it the current culture, which .NET writes back as
    // `UseCurrentLocale` (Mono writes `Locale="en-US"` for a schema stating neither).
    set.locale = match attr(set_element, MSDATA_NS, "Locale") {
        Some(culture) => Locale::Named(culture.to_owned()),
        None => Locale::Current,
    };
    scope.enter(set_element);
    for complex in only_children(set_element, &["complexType"], "the DataSet's element")? {
        scope.enter(complex);
        for choice in only_children(complex, &["choice", "sequence"], "the DataSet's type")? {
            scope.enter(choice);
            for table in only_children(choice, &["element"], "the DataSet's type")? {
                scope.enter(table);
                set.tables.push(read_table(table, scope)?);
                scope.leave(table);
            }
            scope.leave(choice);
        }
        scope.leave(complex);
    }
    scope.leave(set_element);
    Ok(())
}

fn read_table(table: &XmlElement, scope: &mut Scope) -> Result<DataTable, DataSetError> {
    let name =
        attr(table, "", "name").ok_or_else(|| DataSetError::new("a table without a name"))?;
    let what = format!("table `{}`", decode_name(name));
    only_attributes(table, &[("", "name")], &what)?;
    let mut out = DataTable::new(decode_name(name));
    for complex in only_children(table, &["complexType"], &what)? {
        scope.enter(complex);
        for sequence in only_children(complex, &["sequence"], &what)? {
            scope.enter(sequence);
            for column in only_children(sequence, &["element"], &what)? {
                scope.enter(column);
                let read = read_column(column, scope, &what)?;
                scope.leave(column);
                if out.column_index(&read.name).is_some() {
                    return Err(DataSetError::new(format!(
                        "{what} declares column `{}` twice",
                        read.name
                    )));
                }
                out.columns.push(read);
            }
            scope.leave(sequence);
        }
        scope.leave(complex);
    }
    Ok(out)
}

fn read_column(
    column: &XmlElement,
    scope: &Scope,
    table: &str,
) -> Result<DataColumn, DataSetError> {
    let name = attr(column, "", "name")
        .ok_or_else(|| DataSetError::new(format!("a column of {table} without a name")))?;
    let name = decode_name(name);
    let what = format!("column `{name}` of {table}");
    only_attributes(
        column,
        &[
            ("", "name"),
            ("", "type"),
            ("", "minOccurs"),
            (MSDATA_NS, "DataType"),
        ],
        &what,
    )?;
    only_children(column, &[], &what)?;
    let ty =
        attr(column, "", "type").ok_or_else(|| DataSetError::new(format!("{what} has no type")))?;
    let (prefix, local) = ty.split_once(':').unwrap_or(("", ty));
    if scope.resolve(prefix) != Some(XSD_NS) {
        return Err(DataSetError::new(format!(
            "{what} is of type `{ty}`, not an XML Schema type"
        )));
    }
    let data_type = attr(column, MSDATA_NS, "DataType");
    let ty = ColumnType::from_schema(local, data_type).ok_or_else(|| {
        DataSetError::new(format!(
            "{what} is of type `{ty}`{}, which rmm does not model yet",
            data_type.map(|d| format!(" ({d})")).unwrap_or_default()
        ))
    })?;
    let allow_null = match attr(column, "", "minOccurs") {
        Some("0") => true,
        None | Some("1") => false,
        Some(other) => {
            return Err(DataSetError::new(format!(
                "{what} has minOccurs=\"{other}\""
            )))
        }
    };
    Ok(DataColumn {
        name,
        ty,
        allow_null,
    })
}

/// A row read from the diffgram, before the rows are put in order.
struct ReadRow {
    table: usize,
    id: Option<String>,
    order: Option<usize>,
    row: DataRow,
}

/// The wire names of the set's tables and columns, encoded once.
struct WireNames {
    tables: HashMap<String, usize>,
    columns: Vec<HashMap<String, usize>>,
}

impl WireNames {
    fn of(set: &DataSet) -> WireNames {
        WireNames {
            tables: set
                .tables
                .iter()
                .enumerate()
                .map(|(i, t)| (encode_local_name(&t.name), i))
                .collect(),
            columns: set
                .tables
                .iter()
                .map(|t| {
                    t.columns
                        .iter()
                        .enumerate()
                        .map(|(i, c)| (encode_local_name(&c.name), i))
                        .collect()
                })
                .collect(),
        }
    }
}

/// `diffgr:diffgram` → the rows of the set's tables.
fn read_diffgram(diffgram: &XmlElement, set: &mut DataSet) -> Result<(), DataSetError> {
    let names = WireNames::of(set);
    let mut current: Vec<ReadRow> = Vec::new();
    let mut before: Vec<ReadRow> = Vec::new();
    let mut errors: Vec<(usize, &XmlElement)> = Vec::new();
    for child in elements(diffgram) {
        match (child.namespace.as_str(), child.local.as_str()) {
            (DIFFGRAM_NS, "before") => {
                for e in elements(child) {
                    before.push(read_row(e, set, &names)?);
                }
            }
            (DIFFGRAM_NS, "errors") => {
                for e in elements(child) {
                    errors.push((table_of(e, &names)?, e));
                }
            }
            (DIFFGRAM_NS, _) => {}
            // The set's element: its children are the rows.
            _ => {
                for e in elements(child) {
                    let read = read_row(e, set, &names)?;
                    if read.row.state == RowState::Deleted {
                        unreachable!("the current rows are never read as deleted");
                    }
                    current.push(read);
                }
            }
        }
    }
    // Each table's rows in the order they came; a row of `before` matching one of them by
    // id holds its original values; any other is a deleted row, put back where its
    // `msdata:rowOrder` says. (Ids are looked up, not searched for: a diffgram of many rows
    // costs its length, not its square.)
    let mut tables: Vec<Vec<ReadRow>> = set.tables.iter().map(|_| Vec::new()).collect();
    let mut ids: HashMap<(usize, String), usize> = HashMap::new();
    for row in current {
        let rows = &mut tables[row.table];
        if let Some(id) = &row.id {
            ids.entry((row.table, id.clone())).or_insert(rows.len());
        }
        rows.push(row);
    }
    let mut deleted: Vec<Vec<ReadRow>> = set.tables.iter().map(|_| Vec::new()).collect();
    for mut old in before {
        let found = old
            .id
            .as_ref()
            .and_then(|id| ids.get(&(old.table, id.clone())).copied());
        match found {
            Some(index) => {
                let row = &mut tables[old.table][index].row;
                if row.state != RowState::Modified {
                    return Err(DataSetError::new(format!(
                        "diffgr:before holds row `{}`, which is not modified",
                        old.id.unwrap_or_default()
                    )));
                }
                row.original = Some(old.row.values);
            }
            None => {
                old.row.state = RowState::Deleted;
                deleted[old.table].push(old);
            }
        }
    }
    for (table, rows) in tables.iter_mut().enumerate() {
        let mut gone = std::mem::take(&mut deleted[table]);
        if gone.is_empty() {
            continue;
        }
        gone.sort_by_key(|r| r.order.unwrap_or(usize::MAX));
        // A deleted row goes where its row order says, among the rows there (after them
        // where there are fewer).
        let mut merged = Vec::with_capacity(rows.len() + gone.len());
        let mut gone = gone.into_iter().peekable();
        for row in rows.drain(..) {
            while gone
                .peek()
                .is_some_and(|d| d.order.is_some_and(|o| o <= merged.len()))
            {
                merged.extend(gone.next());
            }
            merged.push(row);
        }
        merged.extend(gone);
        // The ids moved with the rows: look them up again for the errors.
        for (index, row) in merged.iter().enumerate() {
            if let Some(id) = &row.id {
                ids.insert((table, id.clone()), index);
            }
        }
        *rows = merged;
    }
    for (table, e) in errors {
        let id = attr(e, DIFFGRAM_NS, "id");
        let Some(&index) = id.and_then(|id| ids.get(&(table, id.to_owned()))) else {
            return Err(DataSetError::new(format!(
                "diffgr:errors names row `{}`, which the diffgram does not hold",
                id.unwrap_or_default()
            )));
        };
        let row = &mut tables[table][index];
        row.row.error = attr(e, DIFFGRAM_NS, "Error").map(str::to_owned);
        for cell in elements(e) {
            let index = column_of(cell, &set.tables[table], &names.columns[table])?;
            if let Some(error) = attr(cell, DIFFGRAM_NS, "Error") {
                row.row.cell_errors.push((index, error.to_owned()));
            }
        }
        row.row.cell_errors.sort_by_key(|(i, _)| *i);
    }
    for (table, rows) in set.tables.iter_mut().zip(tables) {
        for mut read in rows {
            if read.row.state == RowState::Modified && read.row.original.is_none() {
                read.row.original = Some(read.row.values.clone());
            }
            table.rows.push(read.row);
        }
    }
    Ok(())
}

/// The index of the table a row element `e` is of.
fn table_of(e: &XmlElement, names: &WireNames) -> Result<usize, DataSetError> {
    if !e.namespace.is_empty() {
        return Err(DataSetError::new(format!(
            "the diffgram holds `{}` in the namespace `{}`, where the set has none",
            e.local, e.namespace
        )));
    }
    names.tables.get(&e.local).copied().ok_or_else(|| {
        // .NET drops such rows without a word.
        DataSetError::new(format!(
            "the diffgram holds a row of `{}`, a table the schema does not declare",
            decode_name(&e.local)
        ))
    })
}

/// The index of the column a cell element `e` is of, in `table` (its columns' wire names
/// `columns`).
fn column_of(
    e: &XmlElement,
    table: &DataTable,
    columns: &HashMap<String, usize>,
) -> Result<usize, DataSetError> {
    columns
        .get(&e.local)
        .copied()
        .filter(|_| e.namespace.is_empty())
        .ok_or_else(|| {
            // .NET drops such cells without a word.
            DataSetError::new(format!(
                "a row of table `{}` holds `{}`, a column the schema does not declare",
                table.name,
                decode_name(&e.local)
            ))
        })
}

fn read_row(e: &XmlElement, set: &DataSet, names: &WireNames) -> Result<ReadRow, DataSetError> {
    let table_index = table_of(e, names)?;
    let table = &set.tables[table_index];
    let state = match attr(e, DIFFGRAM_NS, "hasChanges") {
        None => RowState::Unchanged,
        Some("inserted") => RowState::Added,
        Some("modified") => RowState::Modified,
        Some(other) => {
            return Err(DataSetError::new(format!(
                "a row of table `{}` has diffgr:hasChanges=\"{other}\"",
                table.name
            )))
        }
    };
    let order = match attr(e, MSDATA_NS, "rowOrder") {
        None => None,
        Some(text) => Some(text.trim().parse::<usize>().map_err(|_| {
            DataSetError::new(format!(
                "a row of table `{}` has msdata:rowOrder=\"{text}\", not a position",
                table.name
            ))
        })?),
    };
    let mut values: Vec<Option<Cell>> = vec![None; table.columns.len()];
    let mut seen = vec![false; table.columns.len()];
    for cell in elements(e) {
        let index = column_of(cell, table, &names.columns[table_index])?;
        let column = &table.columns[index];
        if std::mem::replace(&mut seen[index], true) {
            // .NET keeps the first and drops the other.
            return Err(DataSetError::new(format!(
                "a row of table `{}` holds column `{}` twice",
                table.name, column.name
            )));
        }
        if attr(cell, XSI_NS, "nil").is_some_and(|v| matches!(v.trim(), "true" | "1")) {
            continue;
        }
        let mut text = String::new();
        for content in &cell.children {
            match content {
                XmlContent::Text(t) | XmlContent::CData(t) => text.push_str(t),
                XmlContent::Element(inner) => {
                    return Err(DataSetError::new(format!(
                        "cell `{}` of table `{}` holds the element `{}`",
                        column.name,
                        table.name,
                        qname(inner)
                    )))
                }
                XmlContent::Comment(_) | XmlContent::ProcessingInstruction(..) => {}
            }
        }
        let value = column.ty.read(&text).map_err(|error| {
            DataSetError::new(format!(
                "cell `{}` of table `{}`: {error}",
                column.name, table.name
            ))
        })?;
        values[index] = Some(value);
    }
    Ok(ReadRow {
        table: table_index,
        id: attr(e, DIFFGRAM_NS, "id").map(str::to_owned),
        order,
        row: DataRow {
            state,
            values,
            ..DataRow::default()
        },
    })
}
