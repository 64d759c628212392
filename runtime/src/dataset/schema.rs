//! Reading a DataSet's inline schema as .NET's `XSDSchema` reads it: the set, its tables and
//! their columns, and nothing rmm does not model.

use super::names::decode_name;
use super::read::{attr, elements, qname, DataSetError};
use super::{ColumnType, DataColumn, DataSet, DataTable, Locale, MSDATA_NS};
use crate::raw_xml::{XmlContent, XmlElement};
use crate::xml::XSD_NS;

/// The `msprop:` namespace of a DataSet's extended properties.
const MSPROP_NS: &str = "urn:schemas-microsoft-com:xml-msprop";

/// The namespace declarations in scope, to resolve the prefix of a `type="xs:int"`.
#[derive(Default)]
pub(super) struct Scope {
    bindings: Vec<(String, String)>,
    marks: Vec<usize>,
}

impl Scope {
    pub(super) fn enter(&mut self, element: &XmlElement) {
        self.marks.push(self.bindings.len());
        for a in element.attributes.iter().filter(|a| a.is_declaration()) {
            self.bindings
                .push((a.declared_prefix().to_owned(), a.value.clone()));
        }
    }

    pub(super) fn leave(&mut self, _element: &XmlElement) {
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

/// Refuses an attribute of `element` that is not a declaration and not in `known`
/// (namespace, local name): something of the schema rmm does not model.
fn only_attributes(
    element: &XmlElement,
    known: &[(&str, &str)],
    what: &str,
) -> Result<(), DataSetError> {
    for a in &element.attributes {
        // Attributes of other namespaces are no part of the schema for .NET (`xsi:type`,
        // annotations of tools), but for its own: `msdata:` (what a column or table is) and
        // `msprop:` (extended properties), which rmm does not model yet.
        let dotnets =
            a.namespace.is_empty() || a.namespace == MSDATA_NS || a.namespace == MSPROP_NS;
        if !dotnets || known.contains(&(a.namespace.as_str(), a.local.as_str())) {
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
    // XML Schema allows no text in its elements (.NET's `XmlSchema.Read` refuses it).
    if let Some(text) = element.children.iter().find_map(|c| match c {
        XmlContent::Text(t) | XmlContent::CData(t) if !crate::xml::is_blank(t) => Some(t),
        _ => None,
    }) {
        return Err(DataSetError::new(format!(
            "{what} holds the text `{text}`, which XML Schema does not allow there"
        )));
    }
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

/// [`only_children`], at most one of them (XML Schema's content models allow one type, one
/// particle; .NET's `XmlSchema.Read` refuses a second).
fn at_most_one<'e>(
    element: &'e XmlElement,
    known: &[&str],
    what: &str,
) -> Result<Option<&'e XmlElement>, DataSetError> {
    match only_children(element, known, what)?.as_slice() {
        [] => Ok(None),
        [one] => Ok(Some(one)),
        [_, second, ..] => Err(DataSetError::new(format!(
            "{what} holds a second `{}`, which XML Schema does not allow",
            qname(second)
        ))),
    }
}

/// `xs:schema` → the set's name, locale, tables and columns.
/// Returns the table the schema names the set's main one (`msdata:MainDataTable`, written
/// for a lone `DataTable`), if any.
pub(super) fn read_schema(
    schema: &XmlElement,
    scope: &mut Scope,
    set: &mut DataSet,
) -> Result<Option<String>, DataSetError> {
    // A namespace of the set's own (`DataSet.Namespace`, a typed DataSet's): its tables and
    // columns are elements of it, qualified as .NET writes them.
    set.namespace = attr(schema, "", "targetNamespace")
        .unwrap_or_default()
        .to_owned();
    for form in ["elementFormDefault", "attributeFormDefault"] {
        match attr(schema, "", form) {
            None if set.namespace.is_empty() => {}
            Some("qualified") if !set.namespace.is_empty() => {}
            other => {
                return Err(DataSetError::new(format!(
                    "the DataSet's schema has {form}={:?} with the namespace `{}`, where .NET \
                     writes \"qualified\" with a namespace and nothing without one",
                    other.unwrap_or(""),
                    set.namespace
                )))
            }
        }
    }
    only_attributes(
        schema,
        &[
            ("", "id"),
            ("", "targetNamespace"),
            ("", "elementFormDefault"),
            ("", "attributeFormDefault"),
        ],
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
            (MSDATA_NS, "MainDataTable"),
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
    if let Some(complex) = at_most_one(set_element, &["complexType"], "the DataSet's element")? {
        scope.enter(complex);
        if let Some(choice) = at_most_one(complex, &["choice", "sequence"], "the DataSet's type")? {
            scope.enter(choice);
            for table in only_children(choice, &["element"], "the DataSet's type")? {
                scope.enter(table);
                let read = read_table(table, scope)?;
                scope.leave(table);
                let Some(read) = read else { continue };
                if set.table(&read.name).is_some() {
                    // XmlSchema's "Multiple definition of element".
                    return Err(DataSetError::new(format!(
                        "the DataSet's schema declares table `{}` twice",
                        read.name
                    )));
                }
                set.tables.push(read);
            }
            scope.leave(choice);
        }
        scope.leave(complex);
    }
    scope.leave(set_element);
    Ok(attr(set_element, MSDATA_NS, "MainDataTable").map(decode_name))
}

/// A table's declaration; `None` for an element without a complex type, which .NET does not
/// read as a table.
fn read_table(table: &XmlElement, scope: &mut Scope) -> Result<Option<DataTable>, DataSetError> {
    let name =
        attr(table, "", "name").ok_or_else(|| DataSetError::new("a table without a name"))?;
    let what = format!("table `{}`", decode_name(name));
    only_attributes(table, &[("", "name")], &what)?;
    let mut out = DataTable::new(decode_name(name));
    let Some(complex) = at_most_one(table, &["complexType"], &what)? else {
        return Ok(None);
    };
    {
        scope.enter(complex);
        if let Some(sequence) = at_most_one(complex, &["sequence"], &what)? {
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
    Ok(Some(out))
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
