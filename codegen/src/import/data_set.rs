//! A typed DataSet's schema, as an ASMX host serves it at `?schema=Name` (the document the
//! WSDL imports with `schemaLocation`): the set's element (`msdata:IsDataSet`), its locale,
//! and a choice of its tables, each a sequence of its columns.
//!
//! What rmm does not model of a DataSet's schema (constraints, relations, nested tables,
//! attributes, facets, defaults) is refused where the document shows it, so that nothing is
//! imported without it.

use roxmltree::{Document, Node};

use super::{ImportError, ImportedDataSet, ImportedTable};

const XSD: &str = "http://www.w3.org/2001/XMLSchema";
const MSDATA: &str = "urn:schemas-microsoft-com:xml-msdata";
/// The `msdata:DataType` a `Guid` column's schema names.
const GUID_DATA_TYPE: &str = "System.Guid,";

/// Reads the schema document `text`, fetched from `location`.
pub(super) fn read(text: &str, location: &str) -> Result<ImportedDataSet, Vec<ImportError>> {
    let doc = Document::parse(text).map_err(|e| {
        let pos = e.pos();
        vec![ImportError {
            file: location.to_owned(),
            line: Some(pos.row),
            column: Some(pos.col),
            message: format!("the typed DataSet's schema is not well-formed XML: {e}"),
        }]
    })?;
    let mut errors = Vec::new();
    let mut at = |node: Node, message: String| {
        let pos = doc.text_pos_at(node.range().start);
        errors.push(ImportError {
            file: location.to_owned(),
            line: Some(pos.row),
            column: Some(pos.col),
            message,
        });
    };
    let root = doc.root_element();
    if !is(root, "schema") {
        at(
            root,
            "the typed DataSet's schema document is not an xs:schema".to_owned(),
        );
        return Err(errors);
    }
    let namespace = root.attribute("targetNamespace").unwrap_or_default();
    let qualified = root.attribute("elementFormDefault") == Some("qualified");
    if namespace.is_empty() || !qualified {
        at(
            root,
            "the typed DataSet's schema has no target namespace with qualified elements, as \
             .NET's typed DataSets have"
                .to_owned(),
        );
    }
    let sets: Vec<Node> = elements(root)
        .filter(|e| is(*e, "element") && e.attribute((MSDATA, "IsDataSet")) == Some("true"))
        .collect();
    let [set] = sets.as_slice() else {
        at(
            root,
            format!(
                "the typed DataSet's schema declares {} sets (elements of msdata:IsDataSet), \
                 not one",
                sets.len()
            ),
        );
        return Err(errors);
    };
    for other in elements(root).filter(|e| e != set) {
        at(
            other,
            format!(
                "the typed DataSet's schema holds {} beside the set, which rmm does not model \
                 (constraints, relations, types of their own)",
                other.tag_name().name()
            ),
        );
    }
    let name = set.attribute("name").unwrap_or_default().to_owned();
    let locale = match (
        set.attribute((MSDATA, "Locale")),
        set.attribute((MSDATA, "UseCurrentLocale")),
    ) {
        (Some(culture), _) => Some(culture.to_owned()),
        _ => None,
    };
    let choice = child(*set, "complexType").and_then(|c| child(c, "choice"));
    let Some(choice) = choice else {
        at(
            *set,
            format!("the typed DataSet {name} is not a choice of its tables"),
        );
        return Err(errors);
    };
    let mut tables = Vec::new();
    for table in elements(choice) {
        let table_name = table.attribute("name").unwrap_or_default();
        if !is(table, "element") || table_name.is_empty() {
            at(
                table,
                format!("the typed DataSet {name} holds something other than a table"),
            );
            continue;
        }
        let complex = child(table, "complexType");
        let sequence = complex.and_then(|c| child(c, "sequence"));
        let unmodelled = complex.is_some_and(|c| elements(c).any(|e| !is(e, "sequence")));
        if complex.is_none() || unmodelled {
            at(
                table,
                format!(
                    "table {table_name} of the typed DataSet {name} is not a sequence of \
                     columns (attributes, nested tables and text are not modelled)"
                ),
            );
            continue;
        }
        let mut columns = Vec::new();
        for column in sequence.into_iter().flat_map(elements) {
            let column_name = column.attribute("name").unwrap_or_default();
            match column_type(column) {
                Some(ty) => {
                    let null = if column.attribute("minOccurs") == Some("0") {
                        "?"
                    } else {
                        ""
                    };
                    columns.push((column_name.to_owned(), format!("{ty}{null}")));
                }
                None => at(
                    column,
                    format!(
                        "column {column_name} of table {table_name} of the typed DataSet \
                         {name} is not one rmm models (a simple type of a DataSet column, \
                         without a default, facets or other msdata: properties)"
                    ),
                ),
            }
        }
        tables.push(ImportedTable {
            name: crate::model::decode_xml_name(table_name),
            columns: columns
                .into_iter()
                .map(|(n, t)| (crate::model::decode_xml_name(&n), t))
                .collect(),
        });
    }
    if errors.is_empty() {
        Ok(ImportedDataSet {
            name: crate::model::decode_xml_name(&name),
            namespace: namespace.to_owned(),
            locale,
            tables,
        })
    } else {
        Err(errors)
    }
}

/// The spec type of a column element: `type="xs:int"` and its kin, a Guid's `xs:string` with
/// its `msdata:DataType`; `None` for anything else on it (a default, another `msdata:`
/// property, `maxOccurs`, an inline type).
fn column_type(column: Node) -> Option<&'static str> {
    let allowed = |a: &roxmltree::Attribute| match a.namespace() {
        None => matches!(a.name(), "name" | "type" | "minOccurs"),
        Some(MSDATA) => a.name() == "DataType",
        Some(_) => false,
    };
    if !column.attributes().all(|a| allowed(&a)) || column.children().any(|c| c.is_element()) {
        return None;
    }
    if !matches!(column.attribute("minOccurs"), None | Some("0")) {
        return None;
    }
    let ty = column.attribute("type")?;
    let (prefix, local) = ty.split_once(':').unwrap_or(("", ty));
    let prefix = (!prefix.is_empty()).then_some(prefix);
    if column.lookup_namespace_uri(prefix) != Some(XSD) {
        return None;
    }
    match column.attribute((MSDATA, "DataType")) {
        Some(data_type) => {
            (local == "string" && data_type.starts_with(GUID_DATA_TYPE)).then_some("guid")
        }
        None => crate::spec::COLUMN_TYPES
            .iter()
            .map(|t| t.name())
            .find(|n| *n == local && *n != "guid"),
    }
}

fn is(node: Node, local: &str) -> bool {
    node.is_element() && node.tag_name().name() == local && node.tag_name().namespace() == Some(XSD)
}

fn elements<'a, 'i>(node: Node<'a, 'i>) -> impl Iterator<Item = Node<'a, 'i>> {
    node.children().filter(Node::is_element)
}

fn child<'a, 'i>(node: Node<'a, 'i>, local: &str) -> Option<Node<'a, 'i>> {
    elements(node).find(|c| is(*c, local))
}
