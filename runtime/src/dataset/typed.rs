//! Typed DataSets: the shape a generated typed DataSet declares (.NET's class made by
//! `xsd /dataset`), and what its generated type asks of a [`DataSet`] of that shape.
//!
//! On the wire a typed DataSet is a DataSet (of a namespace of its own, usually); what makes
//! it typed is that both sides know its tables and columns beforehand. A generated type wraps
//! a [`DataSet`] that [`TypedSchema::conform`] made of that shape, so its typed rows read the
//! cells by position.

use super::cell::{Cell, CellValue, ColumnType};
use super::{DataColumn, DataRow, DataSet, DataSetError, DataTable, Locale, RowState};
use crate::raw_xml::{XmlContent, XmlElement};

/// A typed DataSet's shape: its name, namespace, locale and tables, as its spec declares them.
#[derive(Debug, Clone, Copy)]
pub struct TypedSchema {
    /// `DataSetName`, not XML-encoded.
    pub name: &'static str,
    /// `Namespace`: its schema's target namespace.
    pub namespace: &'static str,
    /// Its locale: `None` for the current one (`msdata:UseCurrentLocale`), else the culture's
    /// name (`msdata:Locale`, empty for the invariant culture).
    pub locale: Option<&'static str>,
    /// Its tables, in order.
    pub tables: &'static [TypedTable],
}

/// A table of a [`TypedSchema`].
#[derive(Debug, Clone, Copy)]
pub struct TypedTable {
    /// `TableName`, not XML-encoded.
    pub name: &'static str,
    /// Its columns, in order.
    pub columns: &'static [TypedColumn],
}

/// A column of a [`TypedTable`].
#[derive(Debug, Clone, Copy)]
pub struct TypedColumn {
    /// `ColumnName`, not XML-encoded.
    pub name: &'static str,
    /// Its .NET type.
    pub ty: ColumnType,
    /// `AllowDBNull` (`minOccurs="0"`).
    pub allow_null: bool,
}

impl TypedSchema {
    /// The set with its tables and columns and no rows: what .NET's `new ShopDs()` holds.
    pub fn empty(&self) -> DataSet {
        DataSet {
            name: self.name.to_owned(),
            locale: match self.locale {
                None => Locale::Current,
                Some(culture) => Locale::Named(culture.to_owned()),
            },
            namespace: self.namespace.to_owned(),
            tables: self
                .tables
                .iter()
                .map(|t| DataTable {
                    name: t.name.to_owned(),
                    columns: t
                        .columns
                        .iter()
                        .map(|c| DataColumn {
                            name: c.name.to_owned(),
                            ty: c.ty,
                            allow_null: c.allow_null,
                        })
                        .collect(),
                    rows: Vec::new(),
                })
                .collect(),
        }
    }

    /// `set` made of this shape, as .NET Framework's typed DataSet reads one (its generated
    /// `ReadXmlSerializable` builds its own tables from those of the set read, by name, then
    /// merges the rest in): this schema's tables first, in its order, then the others as they
    /// came; in each, this schema's columns first, in its order, then the others, the rows'
    /// cells, originals and cell errors moved with them; each column's nullability this
    /// schema's. The set's name, namespace and locale are the set's own, as .NET takes them.
    ///
    /// Refused: a table or column of this schema missing, a column of another type (.NET's
    /// merge fails on it), and a null where the column allows none in a row not deleted
    /// (which no typed row can hold).
    pub fn conform(&self, mut set: DataSet) -> Result<DataSet, DataSetError> {
        let name = self.name;
        let mut tables = Vec::with_capacity(set.tables.len());
        for typed in self.tables {
            let Some(at) = set.tables.iter().position(|t| t.name == typed.name) else {
                return Err(DataSetError::new(format!(
                    "the typed DataSet `{name}` has no table `{}`",
                    typed.name
                )));
            };
            let table = set.tables.remove(at);
            tables.push(conform_table(name, typed, table)?);
        }
        tables.append(&mut set.tables);
        set.tables = tables;
        Ok(set)
    }

    /// The document the service answers at `?schema=Name`: the set's schema alone, indented
    /// by two spaces, without a final newline, its attributes in the order the host's schema
    /// writer (Mono's `XmlSchema.Write`) puts them, not the DataSet writer's: on the schema
    /// element the namespace declarations (but `xs`'s, last), then `attributeFormDefault`,
    /// `elementFormDefault`, `targetNamespace` and `id`; on every other element the
    /// `msdata:` attributes first, then `minOccurs`, `maxOccurs`, `name` and `type`. `None`
    /// for a name or text XML cannot carry.
    pub fn schema_document(&self) -> Option<String> {
        let [mut schema, _] = self.empty().to_elements();
        schema
            .attributes
            .sort_by_key(|a| match (a.prefix.as_str(), a.local.as_str()) {
                ("xmlns", "msdata") => 0,
                ("", "xmlns") => 1,
                ("xmlns", "mstns") => 2,
                ("", "attributeFormDefault") => 3,
                ("", "elementFormDefault") => 4,
                ("", "targetNamespace") => 5,
                ("", "id") => 6,
                ("xmlns", "xs") => 8,
                _ => 7,
            });
        for child in &mut schema.children {
            if let XmlContent::Element(e) = child {
                schema_writer_order(e);
            }
        }
        let mut out = String::from(crate::message::STRING_DOCUMENT_PROLOG);
        let mut scope = crate::raw_xml::Scope::empty().with_raw_carriage_returns();
        crate::raw_xml::write_element_indented(&mut out, &schema, &mut scope).ok()?;
        Some(out)
    }

    /// The current cells of the rows of table `table` (an index into [`TypedSchema::tables`])
    /// that are not deleted, in order, of a set [`TypedSchema::conform`] made.
    pub fn rows<'s>(
        &self,
        set: &'s DataSet,
        table: usize,
    ) -> impl Iterator<Item = &'s [Option<Cell>]> + 's {
        set.tables
            .get(table)
            .map(|t| t.rows.as_slice())
            .unwrap_or_default()
            .iter()
            .filter(|r| r.state != RowState::Deleted)
            .map(|r| r.values.as_slice())
    }

    /// Adds a row of cells `values` (in the typed columns' order, of their types: a
    /// generated row's) to table `table` of a set [`TypedSchema::conform`] made; state
    /// added, as .NET's `AddOrdersRow` adds it. Columns after the typed ones get nulls.
    pub fn add_row(&self, set: &mut DataSet, table: usize, mut values: Vec<Option<Cell>>) {
        if let Some(table) = set.tables.get_mut(table) {
            values.resize(table.columns.len(), None);
            table.rows.push(DataRow {
                state: RowState::Added,
                values,
                ..DataRow::default()
            });
        }
    }
}

/// `table` with the typed table's columns first, in its order (see [`TypedSchema::conform`]).
fn conform_table(
    set: &str,
    typed: &TypedTable,
    mut table: DataTable,
) -> Result<DataTable, DataSetError> {
    // The new position of each column: the typed ones first, then the others in order.
    let mut order: Vec<usize> = Vec::with_capacity(table.columns.len());
    for typed_column in typed.columns {
        let Some(at) = table.column_index(typed_column.name) else {
            return Err(DataSetError::new(format!(
                "table `{}` of the typed DataSet `{set}` has no column `{}` ({})",
                typed.name,
                typed_column.name,
                typed_column.ty.dotnet_name()
            )));
        };
        let column = &mut table.columns[at];
        if column.ty != typed_column.ty {
            return Err(DataSetError::new(format!(
                "column `{}` of table `{}` of the typed DataSet `{set}` is of type {}, not {}",
                typed_column.name,
                typed.name,
                column.ty.dotnet_name(),
                typed_column.ty.dotnet_name()
            )));
        }
        column.allow_null = typed_column.allow_null;
        order.push(at);
    }
    let others: Vec<usize> = (0..table.columns.len())
        .filter(|i| !order.contains(i))
        .collect();
    order.extend(others);
    let permute = |values: &mut Vec<Option<Cell>>| {
        let mut old: Vec<Option<Cell>> = std::mem::take(values);
        *values = order
            .iter()
            .map(|&i| old.get_mut(i).and_then(Option::take))
            .collect();
    };
    let mut columns: Vec<Option<DataColumn>> = table.columns.drain(..).map(Some).collect();
    table.columns = order
        .iter()
        .map(|&i| columns[i].take().expect("each column once"))
        .collect();
    for row in &mut table.rows {
        permute(&mut row.values);
        if let Some(original) = &mut row.original {
            permute(original);
        }
        for (index, _) in &mut row.cell_errors {
            *index = order.iter().position(|&i| i == *index).unwrap_or(*index);
        }
        row.cell_errors.sort_by_key(|(index, _)| *index);
    }
    for (j, typed_column) in typed.columns.iter().enumerate() {
        let null_row = table.rows.iter().position(|r| {
            !typed_column.allow_null
                && r.state != RowState::Deleted
                && r.values.get(j).is_none_or(Option::is_none)
        });
        if let Some(row) = null_row {
            return Err(DataSetError::new(format!(
                "row {} of table `{}` of the typed DataSet `{set}` has a null in column `{}`, \
                 which does not allow nulls",
                row + 1,
                typed.name,
                typed_column.name
            )));
        }
    }
    Ok(table)
}

/// Puts the attributes of `element` and of every element inside in the schema writer's order
/// (see [`TypedSchema::schema_document`]).
fn schema_writer_order(element: &mut XmlElement) {
    element
        .attributes
        .sort_by_key(|a| match (a.prefix.as_str(), a.local.as_str()) {
            ("msdata", _) => 0,
            ("", "minOccurs") => 1,
            ("", "maxOccurs") => 2,
            ("", "name") => 3,
            ("", "type") => 4,
            _ => 5,
        });
    for child in &mut element.children {
        if let XmlContent::Element(e) = child {
            schema_writer_order(e);
        }
    }
}

/// The cell `index` of a typed row's `cells` as a `T`: `None` for a null (or a cell of
/// another type, which a conformed set does not have).
pub fn cell<T: CellValue>(cells: &[Option<Cell>], index: usize) -> Option<T> {
    cells
        .get(index)
        .and_then(Option::as_ref)
        .and_then(T::from_cell)
}
