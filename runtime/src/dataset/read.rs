//! Reading a DataSet from the element that holds it, as .NET's `DataSet.ReadXml` reads the
//! schema (`XSDSchema`) and the diffgram (`XMLDiffLoader`), refusing what it would drop.

use super::diffgram::read_diffgram;
use super::names::encode_local_name;
use super::schema::{read_schema, Scope};
use super::{DataSet, DataTable, DIFFGRAM_NS};
use crate::raw_xml::{XmlContent, XmlElement};
use crate::xml::XSD_NS;

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
    read_any_holder(holder, false, None).map(|(set, _)| set)
}

/// Reads the lone `DataTable` the element `holder` holds: the main table of the set its
/// schema declares (`msdata:MainDataTable`), its rows in a diffgram of `DocumentElement`. An
/// element holding nothing is a table without a name or columns, as .NET reads it.
pub(crate) fn read_table_holder(holder: &XmlElement) -> Result<DataTable, DataSetError> {
    let (set, main) = read_any_holder(holder, true, None)?;
    let Some(main) = main else {
        return match set.tables.len() {
            0 => Ok(DataTable::new("")),
            _ => Err(DataSetError::new(
                "a DataTable whose schema names no main table (msdata:MainDataTable)",
            )),
        };
    };
    set.tables
        .into_iter()
        .find(|t| t.name == main)
        .ok_or_else(|| DataSetError::new(format!("the main table `{main}` is not declared")))
}

/// Reads a holder: the set, and its main table's name when the schema gives one; `table`
/// for a lone DataTable's; `piece` where it is a piece of a larger one (see
/// [`read_diffgram`]).
pub(super) fn read_any_holder(
    holder: &XmlElement,
    table: bool,
    mut piece: Option<&mut Vec<Vec<Option<i64>>>>,
) -> Result<(DataSet, Option<String>), DataSetError> {
    let mut set = DataSet::default();
    let mut main = None;
    let mut scope = Scope::default();
    scope.enter(holder);
    let mut schema_read = false;
    let mut diffgram_read = false;
    for child in elements(holder) {
        scope.enter(child);
        match (child.namespace.as_str(), child.local.as_str()) {
            (XSD_NS, "schema") => {
                if schema_read {
                    return Err(DataSetError::new("a second schema"));
                }
                main = read_schema(child, &mut scope, &mut set)?;
                schema_read = true;
            }
            // .NET's `DataTable.ReadXml` meets a diffgram before any schema with no columns
            // to read it into: an empty element (`<diffgr:diffgram />`) ends the reading,
            // leaving a table without name or columns (what follows, a schema too, unread);
            // any other is refused.
            (DIFFGRAM_NS, "diffgram") if table && !schema_read => {
                if child.children.is_empty() && !child.end_tag {
                    return Ok((set, None));
                }
                return Err(DataSetError::new(
                    "DataTable does not support schema inference from Xml: a diffgram before \
                     the schema",
                ));
            }
            (DIFFGRAM_NS, "diffgram") => {
                let data = match &main {
                    Some(_) => "DocumentElement".to_owned(),
                    None => encode_local_name(&set.name),
                };
                if let Some(orders) = piece.as_deref_mut() {
                    // Each diffgram's row orders count from its own first row.
                    if diffgram_read {
                        return Err(DataSetError::new(
                            "a second diffgram: the rows are read one by one, and the row \
                             orders of the second count from its own first row; read the set \
                             whole",
                        ));
                    }
                    diffgram_read = true;
                    read_diffgram(child, &mut set, &data, Some(orders))?;
                } else {
                    read_diffgram(child, &mut set, &data, None)?;
                }
            }
            // Any other element is data to .NET Framework's `DataSet.ReadXml` (Auto, as a
            // typed set reads itself too): its `XmlDataLoader` walks into it and loads each
            // element named like a table as a row (a renamed `diffgr:diffgram` included), where
            // a skip would answer the set without them; such rows are refused. An element
            // holding none is skipped, as it loads nothing.
            _ => {
                if let Some(row) = table_row_within(child, &set) {
                    return Err(DataSetError::new(format!(
                        "the set's data stands in `{}` (a row of `{}`), not in a \
                         diffgr:diffgram: .NET loads such data as rows, which rmm does not read",
                        qname(child),
                        row.local
                    )));
                }
            }
        }
        scope.leave(child);
    }
    Ok((set, main))
}

/// The first element within `element` (itself included) named like a table of `set`: a row
/// .NET's `XmlDataLoader` would load.
fn table_row_within<'e>(element: &'e XmlElement, set: &DataSet) -> Option<&'e XmlElement> {
    if set
        .tables
        .iter()
        .any(|table| encode_local_name(&table.name) == element.local)
    {
        return Some(element);
    }
    elements(element).find_map(|child| table_row_within(child, set))
}

pub(super) fn elements(parent: &XmlElement) -> impl Iterator<Item = &XmlElement> {
    parent.children.iter().filter_map(|c| match c {
        XmlContent::Element(e) => Some(e),
        _ => None,
    })
}

/// The value of the attribute `local` in `namespace` (empty: no namespace).
pub(super) fn attr<'e>(element: &'e XmlElement, namespace: &str, local: &str) -> Option<&'e str> {
    element
        .attributes
        .iter()
        .find(|a| a.namespace == namespace && a.local == local)
        .map(|a| a.value.as_str())
}

pub(super) fn qname(e: &XmlElement) -> String {
    if e.prefix.is_empty() {
        e.local.clone()
    } else {
        format!("{}:{}", e.prefix, e.local)
    }
}
