//! The DataSet operations of the objects reference service (`MakeDataSet`,
//! `DescribeDataSet` in `tests/interop/asmx/ObjectsService.cs`), as rmm implements them.

use rmm_objects::runtime::dataset::{
    Cell, ColumnType, DataRow, DataSet, DataSetRow, DataTable, RowState,
};
use rmm_objects::runtime::deps::chrono::{Duration, FixedOffset, NaiveDate};
use rmm_objects::runtime::{DateTime, DateTimeKind};

/// `MakeDataSet(n)`: the set `Shop` the reference service makes.
pub fn make_data_set(n: i32) -> Option<DataSet> {
    if n < 0 {
        return None;
    }
    let mut set = shop(n);
    let orders = set.table_mut("Orders").expect("made above");
    for i in 0..n {
        orders
            .add_row(order(i))
            .expect("cells of their columns' types");
    }
    orders.add_row(null_order()).expect("a null row");
    let notes = set.table_mut("Shop Notes").expect("made above");
    for text in NOTES {
        notes
            .add_row(vec![Some(Cell::String(text.to_owned()))])
            .expect("a string");
    }
    if n == 2 {
        set.accept_changes();
    }
    let orders = set.table_mut("Orders").expect("made above");
    if n == 2 {
        orders
            .set(0, "Name", Some("changed".to_owned()))
            .expect("a string column");
        orders.delete_row(1).expect("a row");
    } else if n == 3 {
        orders.rows[0].error = Some("first <bad>".to_owned());
        orders.rows[0].cell_errors = vec![(1, "too many".to_owned())];
    }
    Some(set)
}

/// `MakeDataSet(n)` made as it is written (the reference service's `make_data_set_rows`):
/// the set's schema and its rows, each made when it is asked for, as [`make_data_set`] makes
/// them. `None` for the sets whose changes are not accepted (n = 2: a modified and a deleted
/// row; n = 3: errors), which are written whole, and for a null one.
pub fn make_data_set_rows(n: i32) -> Option<(DataSet, impl Iterator<Item = DataSetRow> + Send)> {
    if n < 0 || n == 2 || n == 3 {
        return None;
    }
    let added = |table: usize, values: Vec<Option<Cell>>| DataSetRow {
        table,
        row: DataRow {
            state: RowState::Added,
            values,
            ..DataRow::default()
        },
    };
    let orders = (0..n)
        .map(order)
        .chain(std::iter::once_with(null_order))
        .map(move |values| added(0, values));
    let notes = NOTES
        .iter()
        .map(move |text| added(2, vec![Some(Cell::String((*text).to_owned()))]));
    Some((shop(n), orders.chain(notes)))
}

/// The set `Shop` without rows: `Orders` of a column of every type rmm models (the last one
/// not allowing nulls), `Empty` and `Shop Notes`; of the namespace `urn:rmm:shop` for n = 4
/// (as a typed DataSet has one).
fn shop(n: i32) -> DataSet {
    let mut set = DataSet::new("Shop");
    let orders = set.add_table("Orders");
    for (name, ty) in [
        ("Name", ColumnType::String),
        ("Count", ColumnType::Int),
        ("Big", ColumnType::Long),
        ("Small", ColumnType::Short),
        ("Tiny", ColumnType::UnsignedByte),
        ("Signed", ColumnType::Byte),
        ("UShort", ColumnType::UnsignedShort),
        ("UInt", ColumnType::UnsignedInt),
        ("ULong", ColumnType::UnsignedLong),
        ("Price", ColumnType::Decimal),
        ("Ratio", ColumnType::Double),
        ("Single", ColumnType::Float),
        ("Ok", ColumnType::Boolean),
        ("When", ColumnType::DateTime),
        ("Id", ColumnType::Guid),
        ("Data", ColumnType::Base64Binary),
        ("Required", ColumnType::Int),
    ] {
        orders.add_column(name, ty);
    }
    orders.columns.last_mut().expect("just added").allow_null = false;
    set.add_table("Empty").add_column("X", ColumnType::String);
    set.add_table("Shop Notes")
        .add_column("Note Text", ColumnType::String);
    if n == 4 {
        set.namespace = "urn:rmm:shop".to_owned();
    }
    set
}

/// The notes of `Shop Notes`: empty, white space, a line feed, markup's characters.
const NOTES: [&str; 4] = ["", " ", "a\nb", "]]> \"q\" 'a'"];

/// The cells of order `i`.
fn order(i: i32) -> Vec<Option<Cell>> {
    let start = NaiveDate::from_ymd_opt(2024, 1, 2)
        .and_then(|d| d.and_hms_opt(3, 4, 5))
        .expect("a time");
    // .NET's arithmetic wraps as these casts do (the service is called with small n).
    let when = start + Duration::days(i64::from(i)) + Duration::nanoseconds(123_450_000);
    let id = format!("00112233-4455-6677-8899-aabbccddee0{}", i % 10);
    vec![
        Some(Cell::String(format!("order <{i}> & co"))),
        Some(Cell::Int(i)),
        Some(Cell::Long(10_000_000_000 + i64::from(i))),
        Some(Cell::Short((-i) as i16)),
        Some(Cell::UnsignedByte((250 + i) as u8)),
        Some(Cell::Byte((-100 - i) as i8)),
        Some(Cell::UnsignedShort((60_000 + i) as u16)),
        Some(Cell::UnsignedInt(4_000_000_000u32.wrapping_add(i as u32))),
        Some(Cell::UnsignedLong(
            18_000_000_000_000_000_000u64.wrapping_add(i as u64),
        )),
        Some(Cell::Decimal(
            rmm_objects::runtime::deps::rust_decimal::Decimal::new(150, 2)
                + rmm_objects::runtime::deps::rust_decimal::Decimal::from(i),
        )),
        Some(Cell::Double(0.1 * f64::from(i))),
        Some(Cell::Float(1.5f32 * i as f32)),
        Some(Cell::Boolean(i % 2 == 0)),
        // The host's clock is UTC: the cell reads back at offset zero.
        Some(Cell::DateTime(DateTime {
            value: when,
            kind: DateTimeKind::Offset(FixedOffset::east_opt(0).expect("zero")),
        })),
        Some(Cell::Guid(id.parse().expect("a guid"))),
        Some(Cell::Base64Binary(vec![1, 2, i as u8])),
        Some(Cell::Int(i.wrapping_mul(7))),
    ]
}

/// The order of nulls but its required cell.
fn null_order() -> Vec<Option<Cell>> {
    let mut nulls = vec![None; 16];
    nulls.push(Some(Cell::Int(-1)));
    nulls
}

/// `MakeTable(n)`: the lone table `Lines` the reference service makes.
pub fn make_table(n: i32) -> Option<DataTable> {
    if n < 0 {
        return None;
    }
    let mut table = DataTable::new("Lines");
    table
        .add_column("Sku", ColumnType::String)
        .add_column("Qty", ColumnType::Int)
        .add_column("Price", ColumnType::Decimal);
    for i in 0..n {
        let price = (i < n - 1).then(|| {
            Cell::Decimal(
                rmm_objects::runtime::deps::rust_decimal::Decimal::new(25, 2)
                    + rmm_objects::runtime::deps::rust_decimal::Decimal::from(i),
            )
        });
        table
            .add_row(vec![
                Some(Cell::String(format!("sku-{i} <&>"))),
                Some(Cell::Int(i.wrapping_mul(3))),
                price,
            ])
            .expect("cells of their columns' types");
    }
    Some(table)
}

/// `DescribeDataSet(ds)`: the set as the reference service describes what it read.
pub fn describe_data_set(set: Option<&DataSet>) -> String {
    let Some(set) = set else {
        return "null".to_owned();
    };
    let mut out = set.name.clone();
    for table in &set.tables {
        out.push_str(" | ");
        out.push_str(&table.name);
        out.push_str(" [");
        for column in &table.columns {
            out.push_str(&column.name);
            out.push(':');
            out.push_str(type_name(column.ty));
            if !column.allow_null {
                out.push('!');
            }
            out.push(' ');
        }
        out.push(']');
        for row in &table.rows {
            out.push_str(" {");
            out.push_str(match row.state {
                RowState::Unchanged => "Unchanged",
                RowState::Added => "Added",
                RowState::Modified => "Modified",
                RowState::Deleted => "Deleted",
            });
            if row.state != RowState::Deleted {
                cells(&mut out, &row.values);
            }
            match (row.state, &row.original) {
                (RowState::Deleted, _) => {
                    out.push_str(" was");
                    cells(&mut out, &row.values);
                }
                (RowState::Modified, Some(original)) => {
                    out.push_str(" was");
                    cells(&mut out, original);
                }
                _ => {}
            }
            if let Some(error) = row.error.as_deref().filter(|e| !e.is_empty()) {
                out.push_str(" error ");
                out.push_str(error);
            }
            for (index, error) in &row.cell_errors {
                out.push_str(" error ");
                out.push_str(&table.columns[*index].name);
                out.push(' ');
                out.push_str(error);
            }
            out.push('}');
        }
    }
    out
}

/// .NET's `Type.Name` of a column's type.
fn type_name(ty: ColumnType) -> &'static str {
    let full = ty.dotnet_name();
    full.rsplit('.').next().unwrap_or(full)
}

fn cells(out: &mut String, values: &[Option<Cell>]) {
    for value in values {
        out.push(' ');
        match value {
            None => out.push_str("null"),
            Some(Cell::String(s)) => {
                out.push('"');
                out.push_str(s);
                out.push('"');
            }
            Some(cell) => cell.write(out),
        }
    }
}

/// `MakeShop(n)`: the typed DataSet `ShopDs` the reference service makes, through its typed
/// rows as the C# through `AddOrdersRow`.
pub fn make_shop(n: i32) -> Option<rmm_objects::ShopDs> {
    use rmm_objects::runtime::deps::rust_decimal::Decimal;
    use rmm_objects::{NotesRow, OrdersRow};
    if n < 0 {
        return None;
    }
    let mut shop = rmm_objects::ShopDs::new();
    let start = NaiveDate::from_ymd_opt(2024, 1, 2)
        .and_then(|d| d.and_hms_opt(3, 4, 5))
        .expect("a time");
    for i in 0..n {
        shop.add_orders(OrdersRow {
            id: i,
            name: Some(format!("order {i}")),
            count: Some(i),
            big: Some(10_000_000_000 + i64::from(i)),
            // .NET's arithmetic wraps as these casts do (the service is called with small n).
            small: Some((-i) as i16),
            tiny: Some((250 + i) as u8),
            signed: Some((-100 - i) as i8),
            u_short: Some((60_000 + i) as u16),
            u_int: Some(4_000_000_000u32.wrapping_add(i as u32)),
            u_long: Some(18_000_000_000_000_000_000u64.wrapping_add(i as u64)),
            price: Some(Decimal::new(150, 2) + Decimal::from(i)),
            ratio: Some(0.5 * f64::from(i)),
            single: Some(1.5f32 * i as f32),
            ok: Some(i % 2 == 0),
            // The host's clock is UTC: the cell reads back at offset zero.
            when: Some(DateTime {
                value: start + Duration::days(i64::from(i)),
                kind: DateTimeKind::Offset(FixedOffset::east_opt(0).expect("zero")),
            }),
            key: Some(
                format!("00112233-4455-6677-8899-aabbccddee0{}", i % 10)
                    .parse()
                    .expect("a guid"),
            ),
            data: Some(vec![1, 2, i as u8]),
        });
    }
    shop.add_orders(OrdersRow {
        id: -1,
        ..OrdersRow::default()
    });
    shop.add_notes(NotesRow {
        text: Some(format!("note <{n}> & co")),
    });
    Some(shop)
}
