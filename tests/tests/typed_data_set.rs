//! The generated typed DataSet of the objects service (`ShopDs`, `tests/objects/rmm-spec.yaml`):
//! its rows' structs over the runtime's `DataSet`, as a user of the crate sees them.

use rmm_objects::runtime::dataset::{Cell, ColumnType, RowState};
use rmm_objects::runtime::DataSet;
use rmm_objects::{NotesRow, OrdersRow, ShopDs};

#[test]
fn rows_added_are_read_back_typed_and_stay_in_the_data_set_with_their_state() {
    let mut shop = ShopDs::new();
    assert!(shop.orders().is_empty() && shop.notes().is_empty());
    let row = OrdersRow {
        id: 7,
        name: Some("seven".into()),
        ratio: Some(0.5),
        ..OrdersRow::default()
    };
    shop.add_orders(row.clone());
    shop.add_notes(NotesRow { text: None });
    assert_eq!(shop.orders(), [row]);
    assert_eq!(shop.notes(), [NotesRow { text: None }]);
    let set = shop.data_set();
    assert_eq!(
        (set.name.as_str(), set.namespace.as_str()),
        ("ShopDs", "http://rmm.example.com/ShopDs.xsd")
    );
    let orders = set.table("Orders").expect("its table");
    assert_eq!(orders.rows[0].state, RowState::Added);
    assert_eq!(orders.get::<f64>(0, "Ratio"), Ok(Some(0.5)));
    assert_eq!(orders.get::<i32>(0, "Count"), Ok(None));
}

#[test]
fn a_data_set_becomes_typed_in_its_order_and_deleted_rows_are_not_listed() {
    let mut set = ShopDs::new().into_data_set();
    // The tables the other way round, a table more: still a ShopDs, put in its order.
    set.tables.swap(0, 1);
    set.add_table("More").add_column("M", ColumnType::Int);
    let orders = set.table_mut("Orders").expect("its table");
    let mut cells = vec![None; 17];
    cells[0] = Some(Cell::Int(1));
    orders.add_row(cells.clone()).expect("a row");
    cells[0] = Some(Cell::Int(2));
    orders.add_row(cells).expect("a row");
    orders.accept_changes();
    orders.delete_row(0).expect("a row");
    let shop = ShopDs::try_from(set).expect("a ShopDs");
    let tables: Vec<&str> = shop
        .data_set()
        .tables
        .iter()
        .map(|t| t.name.as_str())
        .collect();
    assert_eq!(tables, ["Orders", "Notes", "More"]);
    let ids: Vec<i32> = shop.orders().iter().map(|r| r.id).collect();
    assert_eq!(ids, [2], "the deleted row is kept in the set, not listed");
    assert_eq!(shop.data_set().tables[0].rows[0].state, RowState::Deleted);

    // A set without the typed tables is refused, by name.
    let error = ShopDs::try_from(DataSet::new("Other")).expect_err("no Orders");
    assert_eq!(
        error.message(),
        "the typed DataSet `ShopDs` has no table `Orders`"
    );
}
