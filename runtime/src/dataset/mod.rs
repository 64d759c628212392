//! DataSets: a .NET `System.Data.DataSet` parameter or result, as ASMX carries one.
//!
//! On the wire a DataSet is two elements inside the parameter's or result's element: an
//! inline XML Schema (`xs:schema`, `msdata:` annotations) naming the set, its tables and
//! their columns with their types, then a `diffgr:diffgram` holding the rows, each row's
//! state (unchanged, inserted, modified, deleted), the original values of modified and
//! deleted rows (`diffgr:before`) and the errors set on rows and cells (`diffgr:errors`).
//!
//! A [`DataSet`] holds what .NET's holds of that: named tables, typed columns, rows whose
//! cells may be null, each row's state and original values. It is written as the host writes
//! the same data ([`DataSet::to_elements`]) and read as .NET's `DataSet.ReadXml` reads the
//! diffgram, except that what .NET would drop without a word (rows of a table the schema
//! does not declare, a cell it does not know, a cell sent twice) is refused
//! ([`DataSetError`]), and so is what rmm does not model yet (constraints, relations,
//! nested tables, column facets), rather than lost.

mod cell;
mod diffgram;
mod names;
mod read;
mod rows;
mod schema;
mod typed;
mod write;

pub use cell::{Cell, CellValue, ColumnType};
pub use read::DataSetError;
pub use rows::DataSetRow;
#[cfg(feature = "client")]
pub(crate) use rows::{RowPlacer, RowsPiece};
pub use typed::{cell, TypedColumn, TypedSchema, TypedTable};
#[doc(hidden)] // for the runtime's writers
pub use write::HolderView;
#[cfg(feature = "server")]
pub(crate) use write::StreamedSet;

/// The `msdata:` namespace of DataSet annotations.
pub const MSDATA_NS: &str = "urn:schemas-microsoft-com:xml-msdata";
/// The `diffgr:` namespace of the diffgram.
pub const DIFFGRAM_NS: &str = "urn:schemas-microsoft-com:xml-diffgram-v1";

/// A .NET `DataSet`: its name, its locale and its tables.
#[derive(Debug, Clone, PartialEq)]
pub struct DataSet {
    /// `DataSetName` (`NewDataSet` unless set), as .NET holds it: not XML-encoded
    /// (`Named Set`, written `Named_x0020_Set`).
    pub name: String,
    /// The set's locale.
    pub locale: Locale,
    /// `Namespace`: the namespace of the set, its tables and columns (empty for none, .NET's
    /// default). A typed DataSet (`xsd /dataset`) has one; its schema is then of that target
    /// namespace, and the diffgram's rows are in it.
    pub namespace: String,
    /// The tables, in order.
    pub tables: Vec<DataTable>,
}

/// A DataSet's locale, as its schema states it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Locale {
    /// The culture of the machine that reads it (`msdata:UseCurrentLocale="true"`): .NET's
    /// default, and what a schema stating no locale reads as.
    #[default]
    Current,
    /// A culture set on the set (`msdata:Locale="fr-FR"`; empty for the invariant culture).
    Named(String),
}

/// A table of a [`DataSet`].
#[derive(Debug, Clone, PartialEq)]
pub struct DataTable {
    /// `TableName`, not XML-encoded.
    pub name: String,
    /// The columns, in order.
    pub columns: Vec<DataColumn>,
    /// The rows, in order, deleted ones among them where they were.
    pub rows: Vec<DataRow>,
}

/// A column of a [`DataTable`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataColumn {
    /// `ColumnName`, not XML-encoded.
    pub name: String,
    /// Its .NET type.
    pub ty: ColumnType,
    /// `AllowDBNull`: whether a cell may be null (`minOccurs="0"`, .NET's default).
    pub allow_null: bool,
}

/// What has happened to a row since its set's changes were last accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RowState {
    /// `Unchanged`: no `diffgr:hasChanges`.
    #[default]
    Unchanged,
    /// `Added` (`diffgr:hasChanges="inserted"`).
    Added,
    /// `Modified` (`diffgr:hasChanges="modified"`): the original values are kept.
    Modified,
    /// `Deleted`: only in `diffgr:before`; its values are the original ones.
    Deleted,
}

/// A row of a [`DataTable`]: one cell per column, `None` for a null (`DBNull`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DataRow {
    /// Its state.
    pub state: RowState,
    /// The cells, one per column in the table's order: the current values (for a deleted
    /// row, the original ones, which are all it has).
    pub values: Vec<Option<Cell>>,
    /// A modified row's original values, one per column.
    pub original: Option<Vec<Option<Cell>>>,
    /// `RowError`, if set.
    pub error: Option<String>,
    /// The errors set on cells (`SetColumnError`): the column's index and the text, in
    /// column order.
    pub cell_errors: Vec<(usize, String)>,
}

impl Default for DataSet {
    /// `new DataSet()`: `NewDataSet`, the current locale, no tables.
    fn default() -> Self {
        DataSet::new("NewDataSet")
    }
}

impl DataSet {
    /// An empty set named `name`, of the current locale.
    pub fn new(name: impl Into<String>) -> DataSet {
        DataSet {
            name: name.into(),
            locale: Locale::Current,
            namespace: String::new(),
            tables: Vec::new(),
        }
    }

    /// Adds a table named `name` and returns it to fill.
    pub fn add_table(&mut self, name: impl Into<String>) -> &mut DataTable {
        self.tables.push(DataTable::new(name));
        self.tables.last_mut().expect("just pushed")
    }

    /// The table named `name` (.NET compares table names case-sensitively first).
    pub fn table(&self, name: &str) -> Option<&DataTable> {
        self.tables.iter().find(|t| t.name == name)
    }

    /// The table named `name`, to change.
    pub fn table_mut(&mut self, name: &str) -> Option<&mut DataTable> {
        self.tables.iter_mut().find(|t| t.name == name)
    }

    /// `AcceptChanges`: added and modified rows become unchanged, deleted rows go, original
    /// values and errors are dropped.
    pub fn accept_changes(&mut self) {
        for table in &mut self.tables {
            table.accept_changes();
        }
    }

    /// `HasChanges()`: whether a row of some table is added, modified or deleted.
    pub fn has_changes(&self) -> bool {
        self.tables
            .iter()
            .flat_map(|t| &t.rows)
            .any(|r| r.state != RowState::Unchanged)
    }
}

impl DataTable {
    /// An empty table named `name`.
    pub fn new(name: impl Into<String>) -> DataTable {
        DataTable {
            name: name.into(),
            columns: Vec::new(),
            rows: Vec::new(),
        }
    }

    /// Adds a column that allows nulls (.NET's `Columns.Add(name, type)`); the rows already
    /// there get a null in it. (Set [`DataColumn::allow_null`] to refuse nulls from then on.)
    pub fn add_column(&mut self, name: impl Into<String>, ty: ColumnType) -> &mut DataTable {
        self.columns.push(DataColumn {
            name: name.into(),
            ty,
            allow_null: true,
        });
        for row in &mut self.rows {
            row.values.push(None);
            if let Some(original) = &mut row.original {
                original.push(None);
            }
        }
        self
    }

    /// The index of the column named `name`.
    pub fn column_index(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c.name == name)
    }

    /// Adds a row (`Rows.Add`): state added, cells from `values` in column order (missing
    /// ones null). A cell whose type is not its column's is refused.
    pub fn add_row(&mut self, values: Vec<Option<Cell>>) -> Result<&mut DataRow, DataSetError> {
        if values.len() > self.columns.len() {
            return Err(DataSetError::new(format!(
                "a row of {} cells for table `{}`, which has {} columns",
                values.len(),
                self.name,
                self.columns.len()
            )));
        }
        let mut values = values;
        values.resize(self.columns.len(), None);
        for (cell, column) in values.iter().zip(&self.columns) {
            check_cell(&self.name, column, cell.as_ref())?;
        }
        self.rows.push(DataRow {
            state: RowState::Added,
            values,
            ..DataRow::default()
        });
        Ok(self.rows.last_mut().expect("just pushed"))
    }

    /// The cell of row `row` in the column named `column`, as a `T` of the column's type:
    /// `Ok(None)` for a null.
    pub fn get<T: CellValue>(&self, row: usize, column: &str) -> Result<Option<T>, DataSetError> {
        let (index, _) = self.typed_column::<T>(column)?;
        let row = self
            .rows
            .get(row)
            .ok_or_else(|| DataSetError::new(format!("table `{}` has no row {row}", self.name)))?;
        // Cells are of their column's type (checked where they are made).
        Ok(row.values[index].as_ref().and_then(T::from_cell))
    }

    /// Sets the cell of row `row` in the column named `column` (`None`: null). An unchanged
    /// row becomes modified, its values before the change kept as the original ones.
    pub fn set<T: CellValue>(
        &mut self,
        row: usize,
        column: &str,
        value: Option<T>,
    ) -> Result<(), DataSetError> {
        let (index, column) = self.typed_column::<T>(column)?;
        if value.is_none() && !column.allow_null {
            return Err(DataSetError::new(format!(
                "column `{}` of table `{}` does not allow nulls",
                column.name, self.name
            )));
        }
        let name = self.name.clone();
        let row = self
            .rows
            .get_mut(row)
            .ok_or_else(|| DataSetError::new(format!("table `{name}` has no row {row}")))?;
        match row.state {
            RowState::Deleted => {
                return Err(DataSetError::new(format!(
                    "row of table `{name}` is deleted"
                )))
            }
            RowState::Unchanged => {
                row.original = Some(row.values.clone());
                row.state = RowState::Modified;
            }
            RowState::Added | RowState::Modified => {}
        }
        row.values[index] = value.map(T::into_cell);
        Ok(())
    }

    /// Deletes row `row` (`DataRow.Delete`): an added row goes, any other is marked
    /// deleted, its original values kept as its values.
    pub fn delete_row(&mut self, row: usize) -> Result<(), DataSetError> {
        let name = &self.name;
        let target = self
            .rows
            .get_mut(row)
            .ok_or_else(|| DataSetError::new(format!("table `{name}` has no row {row}")))?;
        match target.state {
            RowState::Added => {
                self.rows.remove(row);
            }
            RowState::Deleted => {}
            RowState::Unchanged | RowState::Modified => {
                if let Some(original) = target.original.take() {
                    target.values = original;
                }
                target.state = RowState::Deleted;
            }
        }
        Ok(())
    }

    /// [`DataSet::accept_changes`] for this table.
    pub fn accept_changes(&mut self) {
        self.rows.retain(|r| r.state != RowState::Deleted);
        for row in &mut self.rows {
            row.state = RowState::Unchanged;
            row.original = None;
            row.error = None;
            row.cell_errors.clear();
        }
    }

    fn typed_column<T: CellValue>(&self, name: &str) -> Result<(usize, &DataColumn), DataSetError> {
        let index = self.column_index(name).ok_or_else(|| {
            DataSetError::new(format!("table `{}` has no column `{name}`", self.name))
        })?;
        let column = &self.columns[index];
        if column.ty != T::COLUMN {
            return Err(DataSetError::new(format!(
                "column `{name}` of table `{}` is of type {}, not {}",
                self.name,
                column.ty.dotnet_name(),
                T::COLUMN.dotnet_name()
            )));
        }
        Ok((index, column))
    }
}

/// Refuses a cell whose type is not its column's, or a null where none is allowed.
fn check_cell(table: &str, column: &DataColumn, cell: Option<&Cell>) -> Result<(), DataSetError> {
    match cell {
        Some(cell) if cell.column_type() != column.ty => Err(DataSetError::new(format!(
            "a {} cell in column `{}` of table `{table}`, which is of type {}",
            cell.column_type().dotnet_name(),
            column.name,
            column.ty.dotnet_name()
        ))),
        None if !column.allow_null => Err(DataSetError::new(format!(
            "a null in column `{}` of table `{table}`, which does not allow nulls",
            column.name
        ))),
        _ => Ok(()),
    }
}

/// What a parameter's or result's element may hold as raw data: a [`DataSet`] or a lone
/// [`DataTable`]; the wire code reads and writes both alike.
pub trait DataHolder: Sized {
    /// The root of an HTTP GET/POST result document holding one (`DataSet`, `DataTable`).
    const ROOT: &'static str;
    /// What an element holding nothing reads as.
    fn empty() -> Self;
    /// Whether `xsi:nil` makes it [`empty`](Self::empty) whatever the element holds: .NET's
    /// `DataSet.ReadXmlSerializable` checks it, `DataTable`'s reads the content.
    const NIL_IS_EMPTY: bool;
    /// Reads what the element `holder` holds.
    fn read_holder(holder: &crate::raw_xml::XmlElement) -> Result<Self, DataSetError>;
    #[doc(hidden)] // for the runtime's writers
    /// What the element holds, ready to be written: `None` for what .NET cannot write (a
    /// table without a name).
    fn holder_view(&self) -> Option<HolderView<'_>>;
}

impl DataHolder for DataSet {
    const ROOT: &'static str = "DataSet";
    const NIL_IS_EMPTY: bool = true;
    fn empty() -> Self {
        DataSet::default()
    }
    fn read_holder(holder: &crate::raw_xml::XmlElement) -> Result<Self, DataSetError> {
        read::read_holder(holder)
    }
    fn holder_view(&self) -> Option<HolderView<'_>> {
        Some(write::holder_view(self))
    }
}

impl DataHolder for DataTable {
    const ROOT: &'static str = "DataTable";
    const NIL_IS_EMPTY: bool = false;
    fn empty() -> Self {
        DataTable::new("")
    }
    fn read_holder(holder: &crate::raw_xml::XmlElement) -> Result<Self, DataSetError> {
        read::read_table_holder(holder)
    }
    fn holder_view(&self) -> Option<HolderView<'_>> {
        write::table_holder_view(self)
    }
}

#[cfg(test)]
mod tests;
