//! Reading a DataSet from the element that holds it, as .NET's `DataSet.ReadXml` reads the
//! schema (`XSDSchema`) and the diffgram (`XMLDiffLoader`), refusing what it would drop.

use super::diffgram::read_diffgram;
use super::schema::{read_schema, Scope};
use super::{DataSet, DIFFGRAM_NS};
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
