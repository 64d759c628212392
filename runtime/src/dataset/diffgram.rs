//! Reading a DataSet's diffgram as .NET's `XmlDataLoader` and `XMLDiffLoader` read it: the
//! rows, their states, original values and errors, each row where .NET puts it.

use std::collections::HashMap;

use super::names::{decode_name, encode_local_name};
use super::read::{attr, elements, qname, DataSetError};
use super::{Cell, ColumnType, DataRow, DataSet, DataTable, RowState, DIFFGRAM_NS, MSDATA_NS};
use crate::raw_xml::{XmlContent, XmlElement};
use crate::xml::XSI_NS;

/// A row read from the diffgram, before the rows are put in order.
struct ReadRow {
    table: usize,
    id: Option<String>,
    /// `msdata:rowOrder`, if given.
    order: Option<i64>,
    /// `diffgr:hasErrors="true"`.
    has_errors: bool,
    row: DataRow,
}

/// The wire names of the set's tables and columns, encoded once.
struct WireNames {
    /// The set's namespace, its rows' and cells'.
    namespace: String,
    tables: HashMap<String, usize>,
    columns: Vec<HashMap<String, usize>>,
}

impl WireNames {
    fn of(set: &DataSet) -> WireNames {
        WireNames {
            namespace: set.namespace.clone(),
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

/// `diffgr:diffgram` → the rows of the set's tables, as .NET's `XMLDiffLoader` and
/// `XmlDataLoader` place them: each row of the set's element, in document order, inserted at
/// its `msdata:rowOrder` (appended where there is none, or it lies beyond the rows so far);
/// then each row of `diffgr:before`: the original values of the row whose `diffgr:id` it
/// carries, if that row is modified (or has errors), else a deleted row inserted the same way
/// (a before-row without a row order taking the one before it).
/// `data` is the local name of the element holding the rows: the set's, or `DocumentElement`
/// for a lone `DataTable`.
///
/// `piece`: the diffgram is a piece of a larger one (see [`super::rows`]): its rows are
/// appended in document order and their row orders pushed there, table by table, for the
/// caller to place among the rows of the pieces before; what names a row of another piece
/// (a row marked modified or as having errors, whose original values or errors come after
/// every row; `diffgr:before`; `diffgr:errors`) is refused.
pub(super) fn read_diffgram(
    diffgram: &XmlElement,
    set: &mut DataSet,
    data: &str,
    mut piece: Option<&mut Vec<Vec<Option<i64>>>>,
) -> Result<(), DataSetError> {
    if let Some(orders) = piece.as_deref_mut() {
        orders.resize(set.tables.len(), Vec::new());
    }
    let names = WireNames::of(set);
    // Per table, the rows in the order they are inserted, with where each is inserted.
    let mut inserted: Vec<Vec<(ReadRow, Option<usize>)>> =
        set.tables.iter().map(|_| Vec::new()).collect();
    // The rows a before-row or an error may name: (table, id) → index in `inserted`; the
    // last of an id wins, as in .NET's table of them.
    let mut named: HashMap<(usize, String), usize> = HashMap::new();
    let mut errors: Vec<(usize, &XmlElement)> = Vec::new();
    // .NET reads the set's element, then `diffgr:before` sections, then `diffgr:errors`
    // ones, and stops at the first element out of that order: what follows it (a renamed
    // section, one out of place, a second set) would be dropped. Refused instead.
    let mut stage = 0;
    for child in elements(diffgram) {
        let next = match (child.namespace.as_str(), child.local.as_str()) {
            (DIFFGRAM_NS, "before") => 2,
            (DIFFGRAM_NS, "errors") => 3,
            (DIFFGRAM_NS, _) => 4,
            _ => 1,
        };
        if next < stage || (next == 1 && stage == 1) || next == 4 {
            return Err(DataSetError::new(format!(
                "the diffgram holds `{}` where .NET reads no more of it (after the set's \
                 element come diffgr:before, then diffgr:errors)",
                qname(child)
            )));
        }
        if next == 1 && (child.local != data || child.namespace != set.namespace) {
            return Err(DataSetError::new(format!(
                "the diffgram's data is `{}` of the namespace `{}`, not `{data}` of `{}` (the \
                 set its schema declares)",
                qname(child),
                child.namespace,
                set.namespace,
            )));
        }
        stage = next;
        if let (true, Some(section)) = (piece.is_some() && next > 1, elements(child).next()) {
            return Err(DataSetError::new(format!(
                "the diffgram holds `{}` in `{}`: the rows are read one by one, and a deleted \
                 row or the original values or errors of a row given already cannot be placed \
                 among them; read the set whole",
                qname(section),
                qname(child)
            )));
        }
        match (child.namespace.as_str(), child.local.as_str()) {
            (DIFFGRAM_NS, "before") => {
                // The position a before-row without a row order takes: the last one given.
                let mut position: Option<i64> = None;
                for e in elements(child) {
                    let mut old = read_row(e, set, &names, true)?;
                    if old.order.is_some() {
                        position = old.order;
                    }
                    let key = old.id.clone().map(|id| (old.table, id));
                    match key.and_then(|k| named.get(&k).copied()) {
                        Some(index) => {
                            let (row, _) = &mut inserted[old.table][index];
                            row.row.state = RowState::Modified;
                            row.row.original = Some(old.row.values);
                        }
                        None => {
                            old.row.state = RowState::Deleted;
                            let table = old.table;
                            let at = place(position, inserted[table].len());
                            inserted[table].push((old, at));
                        }
                    }
                }
            }
            (DIFFGRAM_NS, "errors") => {
                for e in elements(child) {
                    errors.push((table_of(e, &names)?, e));
                }
            }
            (DIFFGRAM_NS, _) => unreachable!("refused above"),
            // The set's element: its children are the rows.
            _ => {
                for e in elements(child) {
                    let read = read_row(e, set, &names, false)?;
                    let table = read.table;
                    if let Some(orders) = piece.as_deref_mut() {
                        if read.row.state == RowState::Modified || read.has_errors {
                            return Err(DataSetError::new(format!(
                                "a row of table `{}` is marked {}: the rows are read one by \
                                 one, and its {} come after every row; read the set whole",
                                set.tables[table].name,
                                if read.has_errors {
                                    "as having errors"
                                } else {
                                    "modified"
                                },
                                if read.has_errors {
                                    "errors"
                                } else {
                                    "original values"
                                },
                            )));
                        }
                        orders[table].push(read.order);
                        inserted[table].push((read, None));
                        continue;
                    }
                    if let Some(id) = &read.id {
                        if read.row.state == RowState::Modified || read.has_errors {
                            named.insert((table, id.clone()), inserted[table].len());
                        }
                    }
                    let at = place(read.order, inserted[table].len());
                    inserted[table].push((read, at));
                }
            }
        }
    }
    for (table, e) in errors {
        let id = attr(e, DIFFGRAM_NS, "id");
        let Some(&index) = id.and_then(|id| named.get(&(table, id.to_owned()))) else {
            return Err(DataSetError::new(format!(
                "diffgr:errors names row `{}`, which the diffgram does not mark as having errors",
                id.unwrap_or_default()
            )));
        };
        let row = &mut inserted[table][index].0.row;
        row.error = attr(e, DIFFGRAM_NS, "Error").map(str::to_owned);
        for cell in elements(e) {
            let index = column_of(
                cell,
                &set.tables[table],
                &names.columns[table],
                &names.namespace,
            )?;
            if let Some(inner) = elements(cell).next() {
                // The host refuses it too ("'column' argument cannot be null").
                return Err(DataSetError::new(format!(
                    "the error of cell `{}` of table `{}` holds the element `{}`",
                    set.tables[table].columns[index].name,
                    set.tables[table].name,
                    qname(inner)
                )));
            }
            if let Some(error) = attr(cell, DIFFGRAM_NS, "Error") {
                // `SetColumnError`: the last error of a cell is its error.
                row.cell_errors.retain(|(i, _)| *i != index);
                row.cell_errors.push((index, error.to_owned()));
            }
        }
        row.cell_errors.sort_by_key(|(i, _)| *i);
    }
    for (table, rows) in set.tables.iter_mut().zip(inserted) {
        let positions: Vec<Option<usize>> = rows.iter().map(|(_, at)| *at).collect();
        let mut slots: Vec<Option<DataRow>> = (0..rows.len()).map(|_| None).collect();
        for ((mut read, _), slot) in rows.into_iter().zip(final_positions(&positions)) {
            // A row marked modified that no before-row gives originals to has only its
            // current values: .NET holds it as added.
            if read.row.state == RowState::Modified && read.row.original.is_none() {
                read.row.state = RowState::Added;
            }
            // `EnforceConstraints` after the load: a null where nulls are not allowed.
            if read.row.state != RowState::Deleted {
                if let Some(column) = table
                    .columns
                    .iter()
                    .zip(&read.row.values)
                    .find(|(c, v)| !c.allow_null && v.is_none())
                    .map(|(c, _)| c)
                {
                    return Err(DataSetError::new(format!(
                        "a row of table `{}` has no value in column `{}`, which does not allow \
                         nulls: Failed to enable constraints",
                        table.name, column.name
                    )));
                }
            }
            slots[slot] = Some(read.row);
        }
        table.rows.extend(slots.into_iter().flatten());
    }
    Ok(())
}

/// Where a row is inserted among the `count` rows there: at its row order if that is a
/// position among them or just after them, else (none, negative, beyond) appended.
pub(super) fn place(order: Option<i64>, count: usize) -> Option<usize> {
    order
        .and_then(|o| usize::try_from(o).ok())
        .filter(|&o| o <= count)
}

/// The final index of each of a sequence of insertions, the `k`th at `positions[k]` among
/// the `k` elements before it (`None`: appended), computed backwards: the last one inserted
/// keeps its position among all, each earlier one takes the free slot that many from the
/// left (a Fenwick tree finds it), so that many rows cost `n log n`, not `n²`.
pub(super) fn final_positions(positions: &[Option<usize>]) -> Vec<usize> {
    let n = positions.len();
    // tree[i] (1-based) counts the free slots of its range; all start free.
    let mut tree = vec![0usize; n + 1];
    for i in 1..=n {
        tree[i] += 1;
        let parent = i + (i & i.wrapping_neg());
        if parent <= n {
            tree[parent] += tree[i];
        }
    }
    let top = if n == 0 {
        0
    } else {
        1 << (usize::BITS - 1 - n.leading_zeros())
    };
    let mut out = vec![0; n];
    for k in (0..n).rev() {
        // The (position + 1)th free slot, from the left.
        let mut want = positions[k].unwrap_or(k).min(k) + 1;
        let (mut at, mut step) = (0usize, top);
        while step > 0 {
            let next = at + step;
            if next <= n && tree[next] < want {
                at = next;
                want -= tree[next];
            }
            step >>= 1;
        }
        // `at + 1` is the slot (1-based): mark it taken.
        out[k] = at;
        let mut i = at + 1;
        while i <= n {
            tree[i] -= 1;
            i += i & i.wrapping_neg();
        }
    }
    out
}

/// The index of the table a row element `e` is of.
fn table_of(e: &XmlElement, names: &WireNames) -> Result<usize, DataSetError> {
    if e.namespace != names.namespace {
        return Err(DataSetError::new(format!(
            "the diffgram holds `{}` in the namespace `{}`, where the set's is `{}`",
            e.local, e.namespace, names.namespace
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
    namespace: &str,
) -> Result<usize, DataSetError> {
    columns
        .get(&e.local)
        .copied()
        .filter(|_| e.namespace == namespace)
        .ok_or_else(|| {
            // .NET drops such cells without a word.
            DataSetError::new(format!(
                "a row of table `{}` holds `{}`, a column the schema does not declare",
                table.name,
                decode_name(&e.local)
            ))
        })
}

/// Reads a row element: one of the set's element (`before` false), as `XmlDataLoader` reads
/// it, or of `diffgr:before` (`before` true), as `XMLDiffLoader.ReadOldRowData` reads it: an
/// empty cell there is "" in a string column and null in any other, whatever `xsi:nil` says.
fn read_row(
    e: &XmlElement,
    set: &DataSet,
    names: &WireNames,
    before: bool,
) -> Result<ReadRow, DataSetError> {
    let table_index = table_of(e, names)?;
    let table = &set.tables[table_index];
    // .NET reads "modified" as modified, no attribute as unchanged, and any other value as
    // inserted.
    let state = match attr(e, DIFFGRAM_NS, "hasChanges") {
        None => RowState::Unchanged,
        Some("modified") => RowState::Modified,
        Some(_) => RowState::Added,
    };
    // `Convert.ChangeType(…, Int32)`: an integer, white space around allowed; an empty one
    // is none.
    let order = match attr(e, MSDATA_NS, "rowOrder").filter(|t| !t.is_empty()) {
        None => None,
        Some(text) => Some(
            text.trim()
                .parse::<i64>()
                .ok()
                .filter(|o| i32::try_from(*o).is_ok())
                .ok_or_else(|| {
                    DataSetError::new(format!(
                        "a row of table `{}` has msdata:rowOrder=\"{text}\", not a position",
                        table.name
                    ))
                })?,
        ),
    };
    let has_errors = match attr(e, DIFFGRAM_NS, "hasErrors") {
        None => false,
        Some(text) => match text.trim().to_ascii_lowercase().as_str() {
            "true" => true,
            "false" => false,
            _ => {
                return Err(DataSetError::new(format!(
                    "a row of table `{}` has diffgr:hasErrors=\"{text}\", not a boolean",
                    table.name
                )))
            }
        },
    };
    let mut values: Vec<Option<Cell>> = vec![None; table.columns.len()];
    let mut seen = vec![false; table.columns.len()];
    for cell in elements(e) {
        let index = column_of(cell, table, &names.columns[table_index], &names.namespace)?;
        let column = &table.columns[index];
        if std::mem::replace(&mut seen[index], true) {
            // .NET keeps the first and drops the other.
            return Err(DataSetError::new(format!(
                "a row of table `{}` holds column `{}` twice",
                table.name, column.name
            )));
        }
        let mut text = String::new();
        let mut cdata = false;
        for content in &cell.children {
            match content {
                XmlContent::Text(t) => text.push_str(t),
                XmlContent::CData(t) => {
                    cdata = true;
                    text.push_str(t);
                }
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
        // White space alone is no text unless the cell preserves it (`xml:space`, which the
        // writer adds for such a string): the host's reader drops insignificant white space.
        if !cdata
            && crate::xml::is_blank(&text)
            && attr(cell, crate::raw_xml::XML_NS, "space") != Some("preserve")
        {
            text.clear();
        }
        if before && text.is_empty() {
            if column.ty == ColumnType::String {
                values[index] = Some(Cell::String(String::new()));
            }
            continue;
        }
        // `xsi:nil` makes a null of a cell holding no text only (.NET's `LoadColumn`);
        // `XmlConvert.ToBoolean` reads it.
        if let (false, Some(nil)) = (before, attr(cell, XSI_NS, "nil")) {
            let nil = match nil.trim() {
                "true" | "1" => true,
                "false" | "0" => false,
                _ => {
                    return Err(DataSetError::new(format!(
                        "cell `{}` of table `{}` has xsi:nil=\"{nil}\", not a boolean",
                        column.name, table.name
                    )))
                }
            };
            if nil && text.is_empty() {
                continue;
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
        has_errors,
        row: DataRow {
            state,
            values,
            ..DataRow::default()
        },
    })
}
