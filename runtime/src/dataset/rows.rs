//! A DataSet's rows one at a time: [`DataSetRow`], which a client reads (a generated
//! client's `call_rows`) and a server's handler makes (`server::Rows`), and the reading of a
//! set a piece at a time, so that a client reads a set of any size holding one batch of rows.
//!
//! Each piece is a message of its own: the response up to the first row (the envelope, the
//! result's start tag, the schema, the diffgram's and the set's start tags), a run of whole
//! rows and the closing tags. Its diffgram is read as a whole one is ([`read_diffgram`]),
//! except that the rows are not put in place there: the placer puts each where the whole
//! diffgram's reading puts it, among the rows of the pieces before. A row that would go among
//! rows already given (its `msdata:rowOrder` before them), and what names rows of other
//! pieces (a row marked modified or as having errors, `diffgr:before`, `diffgr:errors`), are
//! refused with a reason: such a set is read whole (`call`). A set written by .NET with its
//! changes accepted, as a query fills one, has none of them.
//!
//! [`read_diffgram`]: super::diffgram::read_diffgram

use super::DataRow;

/// A row of a DataSet given one at a time, as a client's `call_rows` reads it
/// (`client::DataSetRows`) or a server's `…_rows` handler makes it (`server::Rows`): the
/// index of its table among the set's tables, and the row.
#[derive(Debug, Clone, PartialEq)]
pub struct DataSetRow {
    /// The index of its table among the set's tables.
    pub table: usize,
    /// The row: its cells in the table's column order, and its state.
    pub row: DataRow,
}

#[cfg(feature = "client")]
pub(crate) use reading::{RowPlacer, RowsPiece};

#[cfg(feature = "client")]
mod reading {
    use super::super::diffgram::{final_positions, place};
    use super::super::read::read_any_holder;
    use super::super::{DataHolder, DataRow, DataSet, DataSetError, HolderView};
    use super::DataSetRow;
    use crate::raw_xml::XmlElement;

    /// What one piece holds: the set (its schema, and each table's rows of the piece in document
    /// order) and the rows' orders (`msdata:rowOrder`), table by table.
    #[derive(Debug)]
    pub(crate) struct RowsPiece {
        set: DataSet,
        orders: Vec<Vec<Option<i64>>>,
    }

    impl DataHolder for RowsPiece {
        const ROOT: &'static str = "DataSet";
        const NIL_IS_EMPTY: bool = true;
        fn empty() -> Self {
            RowsPiece {
                set: DataSet::default(),
                orders: Vec::new(),
            }
        }
        fn read_holder(holder: &XmlElement) -> Result<Self, DataSetError> {
            let mut orders = Vec::new();
            let (set, _) = read_any_holder(holder, false, Some(&mut orders))?;
            Ok(RowsPiece { set, orders })
        }
        /// A piece is only read.
        fn holder_view(&self) -> Option<HolderView<'_>> {
            None
        }
    }

    /// Puts the rows of each piece in place, keeping what the pieces before held: the set's
    /// schema, and how many rows of each table were given.
    #[derive(Debug, Default)]
    pub(crate) struct RowPlacer {
        schema: Option<DataSet>,
        given: Vec<usize>,
    }

    impl RowPlacer {
        /// The set's name, namespace, locale and tables (without rows), once a piece is read.
        pub(crate) fn schema(&self) -> Option<&DataSet> {
            self.schema.as_ref()
        }

        /// The rows of `piece` (`None`: a null result, which holds none), in place: each
        /// table's in the order the whole diffgram's reading gives them, the tables one after
        /// the other.
        pub(crate) fn place(
            &mut self,
            piece: Option<RowsPiece>,
        ) -> Result<Vec<DataSetRow>, DataSetError> {
            let Some(RowsPiece { mut set, orders }) = piece else {
                return Ok(Vec::new());
            };
            self.given.resize(set.tables.len(), 0);
            let mut placed = Vec::new();
            for (index, (table, orders)) in set.tables.iter_mut().zip(&orders).enumerate() {
                let given = self.given[index];
                let mut positions = Vec::with_capacity(orders.len());
                for (k, order) in orders.iter().enumerate() {
                    // The whole reading inserts a row at its order among the `given + k` rows
                    // before it, if that lies among or just after them; here among the `k` of
                    // its piece, which is the same place unless it lies among rows given.
                    let position = match *order {
                        Some(order) if order >= 0 && order < given as i64 => {
                            return Err(DataSetError::new(format!(
                            "a row of table `{}` has msdata:rowOrder=\"{order}\", a place among \
                             the {given} rows given before it; read the set whole",
                            table.name
                        )));
                        }
                        Some(order) if order >= 0 => place(Some(order - given as i64), k),
                        _ => None,
                    };
                    positions.push(position);
                }
                let rows = std::mem::take(&mut table.rows);
                let mut slots: Vec<Option<DataRow>> = (0..rows.len()).map(|_| None).collect();
                for (row, slot) in rows.into_iter().zip(final_positions(&positions)) {
                    slots[slot] = Some(row);
                }
                self.given[index] += slots.len();
                placed.extend(
                    slots
                        .into_iter()
                        .flatten()
                        .map(|row| DataSetRow { table: index, row }),
                );
            }
            if self.schema.is_none() {
                self.schema = Some(set);
            }
            Ok(placed)
        }
    }
}
