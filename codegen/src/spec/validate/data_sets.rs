//! The checks of `data_sets:`: typed DataSets' names, namespaces, tables and columns.

use super::*;

/// Checks each typed DataSet: a name no other type has, a namespace, tables of unique names
/// each with columns of unique names and of the types a DataSet column holds.
pub(super) fn check_data_sets(c: &mut Checker<'_, '_>, raw: &RawSpec, names: &TypeNames) {
    let loc = c.loc;
    let sets_at = loc.top_key_pos("data_sets");
    let lines = loc.top_items("data_sets", raw.data_sets.len());
    let mut seen = HashSet::new();
    for (i, set) in raw.data_sets.iter().enumerate() {
        let name = set.name.0.as_str();
        let item = lines.as_ref().map(|l| l[i]);
        let item_at = item.map(|l| loc.op_start(l)).or(sets_at);
        let at = item.and_then(|l| loc.op_value(l, "name", name)).or(item_at);
        c.type_name(name, "data set name", at, item_at);
        let other_type = SoapType::from_name(name).is_some()
            || names.enums.iter().any(|e| e == name)
            || names.classes.iter().any(|t| t == name);
        if other_type {
            c.push(
                at,
                item_at,
                format!(
                    "data set {name:?} has the name of a simple type, an enum or a type; \
                     rename it"
                ),
            );
        }
        if !seen.insert(name) {
            c.push(
                at,
                item_at,
                format!("data set {name:?} is defined twice; data set names must be unique"),
            );
        }
        if set.doc.as_deref().is_some_and(|d| d.trim().is_empty()) {
            let doc_at = item.and_then(|l| loc.op_key(l, "doc"));
            c.push(
                doc_at.or(at),
                item_at,
                format!("data set {name:?} has an empty doc; leave the key out for none"),
            );
        }
        let ns = &set.namespace;
        let ns_at = item
            .and_then(|l| loc.op_value(l, "namespace", ns))
            .or(item_at);
        if ns.is_empty() {
            c.push(
                ns_at,
                item_at,
                format!(
                    "data set {name:?} has an empty namespace; a typed DataSet's schema has a \
                     target namespace (its .xsd's), which its rows are in"
                ),
            );
        } else if let Some(bad) = ns
            .chars()
            .find(|ch| "<>&\"'\\".contains(*ch) || !ch.is_ascii_graphic())
        {
            c.push(
                ns_at,
                item_at,
                format!(
                    "data set {name:?} has the namespace {ns:?}, which contains {bad:?}; a \
                     namespace must be visible ASCII without any of < > & \" ' \\"
                ),
            );
        }
        if let Some(locale) = &set.locale {
            if locale
                .chars()
                .any(|ch| ch.is_control() || "<>&\"'".contains(ch))
            {
                c.push(
                    item.and_then(|l| loc.op_key(l, "locale")).or(at),
                    item_at,
                    format!(
                        "data set {name:?} has the locale {locale:?}; a culture's name holds \
                         no markup characters or controls"
                    ),
                );
            }
        }
        if set.tables.is_empty() {
            c.push(
                item.and_then(|l| loc.op_key(l, "tables")).or(at),
                item_at,
                format!("data set {name:?} has no tables"),
            );
        }
        let table_lines = item.and_then(|l| loc.sub_items(l, "tables", set.tables.len()));
        let mut tables_seen = HashSet::new();
        for (j, table) in set.tables.iter().enumerate() {
            let table_name = table.name.0.as_str();
            let table_item = table_lines.as_ref().map(|l| l[j]);
            let table_at = table_item
                .and_then(|l| loc.op_value(l, "name", table_name))
                .or(at);
            let what = format!("table {table_name:?} of data set {name:?}");
            if table_name.is_empty() || table_name.chars().any(char::is_control) {
                c.push(
                    table_at,
                    item_at,
                    format!("{what}: a table's name is not empty and holds no controls"),
                );
            } else if crate::model::variant_name(table_name).is_none() {
                c.push(
                    table_at,
                    item_at,
                    format!(
                        "{what} gives no Rust name for its rows' struct (it needs an ASCII \
                         letter or digit)"
                    ),
                );
            }
            if !tables_seen.insert(table_name) {
                c.push(
                    table_at,
                    item_at,
                    format!("data set {name:?} has the table {table_name:?} twice"),
                );
            }
            let column_names: Vec<&str> = table.columns.iter().map(|m| m.name.as_str()).collect();
            let places = table_item.and_then(|l| loc.entries(l, "columns", &column_names));
            let mut columns_seen = HashSet::new();
            let mut fields_seen = HashSet::new();
            for (k, column) in table.columns.iter().enumerate() {
                let (column_at, ty_at) = match &places {
                    Some(v) => (Some(v[k].0), Some(v[k].1)),
                    None => (table_at, table_at),
                };
                let column_name = column.name.as_str();
                let what = format!("column {column_name:?} of {what}");
                if column_name.is_empty() || column_name.chars().any(char::is_control) {
                    c.push(
                        column_at,
                        item_at,
                        format!("{what}: a column's name is not empty and holds no controls"),
                    );
                } else if !columns_seen.insert(column_name) {
                    c.push(column_at, item_at, format!("{what} is declared twice"));
                } else if !fields_seen.insert(crate::model::field_name(column_name)) {
                    c.push(
                        column_at,
                        item_at,
                        format!(
                            "{what} gives the Rust field `{}`, which another column of the \
                             table gives too; rename one",
                            crate::model::field_name(column_name)
                        ),
                    );
                }
                if column.extended {
                    c.push(
                        ty_at,
                        item_at,
                        format!(
                            "{what} is written as a map; a column is `- Name: type`, `?` after \
                             the type when it allows nulls"
                        ),
                    );
                } else if column_type(&column.ty).is_none() {
                    let types: Vec<&str> =
                        crate::spec::COLUMN_TYPES.iter().map(|t| t.name()).collect();
                    c.push(
                        ty_at,
                        item_at,
                        format!(
                            "{what} has the type {:?}; a column is of one of {}, `?` after it \
                             when it allows nulls",
                            column.ty,
                            types.join(", ")
                        ),
                    );
                }
            }
        }
    }
}
