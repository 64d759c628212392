//! DataSets against the host: `host/*.xml` are what the Mono reference host wrote inside a
//! SOAP 1.1 result element (`<…Result>`, the service namespace `http://rmm.example/ds/` the
//! default one around it) for DataSets a probe service made:
//! - `make-1.xml`: a set `Shop` with a table `Orders` of every modelled column type, one
//!   row of values and one of nulls (both added), and an empty table `Empty`;
//! - `make-2.xml`: the same with two rows of values, changes accepted, then the first row
//!   changed and the second deleted;
//! - `edge-K.xml`: `new DataSet()` filled by case K: 0 nothing; 1 tables without rows, one
//!   without columns; 2 a row of a table without columns; 3 names XML must encode;
//!   4 strings of white space, line ends, `]]>` and quotes; 5 columns rmm does not model
//!   (char, TimeSpan); 6 a deleted row alone; 7 a row error and a cell error; 8 DateTimes of
//!   every kind, with fractions; 11 a named set of the `fr-FR` locale;
//! - `namespaced-K.xml`: a set `Shop` of the namespace `urn:shop` (`DataSet.Namespace`, as a
//!   typed DataSet has one) with a table `Orders` of three added rows and an empty table
//!   `Empty`; K = 2: changes accepted, then the first row changed and the second deleted,
//!   and errors set on the first row and its `Count`.

use super::read::read_holder;
use super::*;
use crate::raw_xml::{write_element, Open, RawXml, Scope, XmlElement};
use crate::{DateTime, DateTimeKind};

const SERVICE: &str = "http://rmm.example/ds/";
const SOAP11: &str = "http://schemas.xmlsoap.org/soap/envelope/";

fn host(name: &str) -> String {
    let path = format!("{}/src/dataset/host/{name}.xml", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The holder element around `inner`, as a message holds it.
fn holder(inner: &str) -> XmlElement {
    let text = format!("<R xmlns=\"{SERVICE}\">{inner}</R>");
    RawXml::parse(&text).expect("well-formed").root().clone()
}

fn read(inner: &str) -> Result<DataSet, DataSetError> {
    read_holder(&holder(inner))
}

/// The set written inside a SOAP 1.1 result element, as the host writes it: a row at a
/// time, and the same bytes as its tree ([`DataSet::to_elements`]) written whole.
fn written(set: &DataSet) -> String {
    let out = written_view(&set.holder_view().expect("a set"), true);
    let mut whole = String::new();
    let mut scope = Scope::message(SOAP11, SERVICE).with_raw_carriage_returns();
    for e in set.to_elements() {
        write_element(&mut whole, &e, &mut scope, false).expect("writable");
    }
    assert_eq!(out, whole, "a row at a time as the tree");
    out
}

/// What a holder's view writes inside a SOAP 1.1 element, carriage returns raw or not.
fn written_view(view: &HolderView<'_>, raw_carriage_returns: bool) -> String {
    let mut out = String::new();
    let mut scope = Scope::message(SOAP11, SERVICE);
    if raw_carriage_returns {
        scope = scope.with_raw_carriage_returns();
    }
    let element = Open::unindented(&scope, false);
    view.write(&mut out, &element, &mut scope)
        .expect("writable");
    out
}

fn utc(y: i32, mo: u32, d: u32, h: u32, mi: u32, s: u32) -> DateTime {
    DateTime::utc(
        chrono::NaiveDate::from_ymd_opt(y, mo, d)
            .unwrap()
            .and_hms_opt(h, mi, s)
            .unwrap(),
    )
}

/// The probe's `MakeDataSet(n)`, made here.
fn shop(n: usize) -> DataSet {
    let mut set = DataSet::new("Shop");
    let orders = set.add_table("Orders");
    for (name, ty) in [
        ("Name", ColumnType::String),
        ("Count", ColumnType::Int),
        ("Big", ColumnType::Long),
        ("Price", ColumnType::Decimal),
        ("Ratio", ColumnType::Double),
        ("Ok", ColumnType::Boolean),
        ("When", ColumnType::DateTime),
        ("Id", ColumnType::Guid),
        ("Data", ColumnType::Base64Binary),
    ] {
        orders.add_column(name, ty);
    }
    for i in 0..n {
        orders
            .add_row(vec![
                Some(Cell::String(format!("a<&{i}"))),
                Some(Cell::Int(i as i32)),
                Some(Cell::Long(10_000_000_000 + i as i64)),
                Some(Cell::Decimal(
                    rust_decimal::Decimal::new(150, 2) + rust_decimal::Decimal::from(i),
                )),
                Some(Cell::Double(0.1 * i as f64)),
                Some(Cell::Boolean(i % 2 == 0)),
                Some(Cell::DateTime(utc(2024, 1, 2, 3, 4, 5))),
                Some(Cell::Guid(
                    "00112233-4455-6677-8899-aabbccddeeff".parse().unwrap(),
                )),
                Some(Cell::Base64Binary(vec![1, 2, 3])),
            ])
            .unwrap();
    }
    orders.add_row(vec![]).unwrap();
    set.add_table("Empty").add_column("X", ColumnType::String);
    set
}

#[test]
fn a_set_made_here_is_written_as_the_host_writes_it() {
    assert_eq!(written(&shop(1)), host("make-1"));
    let mut set = shop(2);
    set.accept_changes();
    let orders = set.table_mut("Orders").unwrap();
    orders.set(0, "Name", Some("changed".to_owned())).unwrap();
    orders.delete_row(1).unwrap();
    assert_eq!(written(&set), host("make-2"));
}

#[test]
fn what_the_host_wrote_reads_back_and_is_written_again_byte_for_byte() {
    for name in [
        "make-1",
        "make-2",
        "edge-0",
        "edge-1",
        "edge-2",
        "edge-3",
        "edge-6",
        "edge-7",
        "edge-8",
        "edge-11",
        "namespaced-0",
        "namespaced-2",
    ] {
        let text = host(name);
        let set = read(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(written(&set), text, "{name}");
    }
}

#[test]
fn strings_keep_white_space_and_line_ends_as_the_host_writes_them() {
    // Not read back: the host writes a carriage return as it is, which any reader reads as
    // a line feed (the host's own round trip loses it too).
    let mut set = DataSet::default();
    let table = set.add_table("A");
    table.add_column("S", ColumnType::String);
    for s in ["", " ", "  x  ", "a\nb", "a\r\nb", "\t", "]]>", "\"'"] {
        table
            .add_row(vec![Some(Cell::String(s.to_owned()))])
            .unwrap();
    }
    assert_eq!(written(&set), host("edge-4"));
}

#[test]
fn reading_keeps_types_states_originals_and_errors() {
    let set = read(&host("make-2")).unwrap();
    assert_eq!(set.name, "Shop");
    assert_eq!(set.locale, Locale::Current);
    let orders = set.table("Orders").unwrap();
    let states: Vec<RowState> = orders.rows.iter().map(|r| r.state).collect();
    assert_eq!(
        states,
        [RowState::Modified, RowState::Deleted, RowState::Unchanged]
    );
    assert_eq!(
        orders.get::<String>(0, "Name"),
        Ok(Some("changed".to_owned()))
    );
    let original = orders.rows[0].original.as_ref().unwrap();
    assert_eq!(original[0], Some(Cell::String("a<&0".to_owned())));
    assert_eq!(orders.get::<i64>(1, "Big"), Ok(Some(10_000_000_001)));
    assert_eq!(
        orders.get::<rust_decimal::Decimal>(1, "Price"),
        Ok(Some(rust_decimal::Decimal::new(250, 2)))
    );
    assert_eq!(orders.get::<f64>(1, "Ratio"), Ok(Some(0.1)));
    assert_eq!(orders.get::<bool>(1, "Ok"), Ok(Some(false)));
    assert_eq!(orders.get::<Vec<u8>>(1, "Data"), Ok(Some(vec![1, 2, 3])));
    assert_eq!(orders.get::<String>(2, "Name"), Ok(None));
    assert!(
        orders.get::<i32>(0, "Name").is_err(),
        "a string column read as int"
    );
    assert_eq!(set.table("Empty").unwrap().rows.len(), 0);

    let set = read(&host("edge-7")).unwrap();
    let row = &set.tables[0].rows[0];
    assert_eq!(row.error.as_deref(), Some("bad"));
    assert_eq!(row.cell_errors, [(0, "col bad".to_owned())]);

    let set = read(&host("edge-3")).unwrap();
    assert_eq!(set.tables[0].name, "My Table");
    assert_eq!(set.tables[0].columns[0].name, "A B");
    assert_eq!(set.tables[0].columns[1].name, "1x");

    let set = read(&host("edge-11")).unwrap();
    assert_eq!(set.name, "Named Set");
    assert_eq!(set.locale, Locale::Named("fr-FR".to_owned()));

    let set = read(&host("edge-8")).unwrap();
    let when = set.tables[0].get::<DateTime>(1, "W").unwrap().unwrap();
    assert!(matches!(when.kind, DateTimeKind::Offset(o) if o.local_minus_utc() == 0));
    assert_eq!(when.value.and_utc().timestamp_subsec_nanos(), 123_456_700);
}

#[test]
fn what_rmm_does_not_model_is_refused_by_name() {
    let refused = |text: &str| read(text).unwrap_err().to_string();
    // char and TimeSpan columns (a restricted type, xs:duration).
    assert!(
        refused(&host("edge-5")).contains("column `C`"),
        "{}",
        refused(&host("edge-5"))
    );
    let schema = |extra: &str, column: &str| {
        format!(
            "<xs:schema id=\"NewDataSet\" xmlns=\"\" xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" \
             xmlns:msdata=\"urn:schemas-microsoft-com:xml-msdata\"><xs:element name=\"NewDataSet\" \
             msdata:IsDataSet=\"true\"><xs:complexType><xs:choice minOccurs=\"0\" \
             maxOccurs=\"unbounded\"><xs:element name=\"T\"><xs:complexType><xs:sequence>{column}\
             </xs:sequence></xs:complexType></xs:element></xs:choice></xs:complexType>{extra}\
             </xs:element></xs:schema>"
        )
    };
    let int = "<xs:element name=\"X\" type=\"xs:int\" minOccurs=\"0\"/>";
    let primary = "<xs:unique name=\"Constraint1\" msdata:PrimaryKey=\"true\"><xs:selector \
                   xpath=\".//T\"/><xs:field xpath=\"X\"/></xs:unique>";
    assert!(refused(&schema(primary, int)).contains("xs:unique"));
    let default = "<xs:element name=\"X\" type=\"xs:int\" default=\"3\"/>";
    assert!(refused(&schema("", default)).contains("default=\"3\""));
    let auto = "<xs:element name=\"X\" msdata:AutoIncrement=\"true\" type=\"xs:int\"/>";
    assert!(refused(&schema("", auto)).contains("msdata:AutoIncrement"));
    // A schema declaring no set (Mono spins forever on it, holding a core).
    let no_set =
        "<xs:schema id=\"Shop\" xmlns=\"\" xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" />";
    assert!(
        refused(no_set).contains("declares 0 elements"),
        "{}",
        refused(no_set)
    );
    // A schema stating no locale reads as the current one (.NET writes it back so).
    assert_eq!(read(&schema("", int)).unwrap().locale, Locale::Current);
}

#[test]
fn what_dotnet_would_drop_is_refused() {
    let schema =
        "<xs:schema id=\"NewDataSet\" xmlns=\"\" xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" \
                  xmlns:msdata=\"urn:schemas-microsoft-com:xml-msdata\"><xs:element \
                  name=\"NewDataSet\" msdata:IsDataSet=\"true\" msdata:UseCurrentLocale=\"true\">\
                  <xs:complexType><xs:choice minOccurs=\"0\" maxOccurs=\"unbounded\"><xs:element \
                  name=\"T\"><xs:complexType><xs:sequence><xs:element name=\"I\" type=\"xs:int\" \
                  minOccurs=\"0\"/></xs:sequence></xs:complexType></xs:element></xs:choice>\
                  </xs:complexType></xs:element></xs:schema>";
    let diffgram = |rows: &str| {
        format!(
            "<diffgr:diffgram xmlns:msdata=\"urn:schemas-microsoft-com:xml-msdata\" \
             xmlns:diffgr=\"urn:schemas-microsoft-com:xml-diffgram-v1\"><NewDataSet \
             xmlns=\"\">{rows}</NewDataSet></diffgr:diffgram>"
        )
    };
    let ok = read(&format!("{schema}{}", diffgram("<T><I> 07 </I></T><T><I xsi:nil=\"true\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"/></T>")))
        .unwrap();
    assert_eq!(ok.tables[0].get::<i32>(0, "I"), Ok(Some(7)));
    assert_eq!(ok.tables[0].get::<i32>(1, "I"), Ok(None));
    // The host drops rows of a table its schema does not declare (here: no schema before the
    // diffgram), a cell of a column it does not declare, and the second of two cells.
    let refused = |text: String| read(&text).unwrap_err().to_string();
    assert!(refused(diffgram("<T><I>1</I></T>")).contains("does not declare"));
    assert!(
        refused(format!("{}{schema}", diffgram("<T><I>1</I></T>"))).contains("does not declare")
    );
    assert!(refused(format!("{schema}{}", diffgram("<T><J>1</J></T>"))).contains("`J`"));
    assert!(refused(format!("{schema}{}", diffgram("<T><I>1</I><I>2</I></T>"))).contains("twice"));
    // The host answers these with a client fault, as rmm does.
    assert!(refused(format!("{schema}{}", diffgram("<T><I/></T>"))).contains("cell `I`"));
    assert!(refused(format!(
        "{schema}{}",
        diffgram("<T msdata:rowOrder=\"x\"/>")
    ))
    .contains("rowOrder"));
    // Nothing, or no schema and no diffgram: an empty set, as .NET reads it.
    assert_eq!(read("").unwrap(), DataSet::default());
    assert_eq!(read("<x/>text").unwrap(), DataSet::default());
    // Rows outside a diffgram (a renamed one): .NET Framework's `ReadXml` loads them as
    // data, where a skip would answer the set without them.
    let renamed = diffgram("<T><I>1</I></T>").replace("diffgr:diffgram", "diffgr:diffgrams");
    let outside = refused(format!("{schema}{renamed}"));
    assert!(outside.contains("`diffgr:diffgrams`"), "{outside}");
    assert!(outside.contains("a row of `T`"), "{outside}");
    assert!(refused(format!("{schema}<T><I>1</I></T>")).contains("not in a diffgr:diffgram"));
    // An element holding no row loads nothing: skipped.
    let skipped = read(&format!(
        "{schema}<x><y>1</y></x>{}",
        diffgram("<T><I>2</I></T>")
    ))
    .unwrap();
    assert_eq!(skipped.tables[0].get::<i32>(0, "I"), Ok(Some(2)));
}

#[test]
fn changes_follow_dotnet() {
    let mut set = shop(1);
    assert!(set.has_changes());
    let orders = set.table_mut("Orders").unwrap();
    assert!(
        orders.set(0, "Count", Some("x".to_owned())).is_err(),
        "wrong type"
    );
    assert!(orders.set(0, "Nope", Some(1)).is_err(), "no such column");
    orders.delete_row(1).unwrap();
    assert_eq!(orders.rows.len(), 1, "an added row deleted is gone");
    set.accept_changes();
    assert!(!set.has_changes());
    let orders = set.table_mut("Orders").unwrap();
    orders.set(0, "Count", Some(5)).unwrap();
    assert_eq!(orders.rows[0].state, RowState::Modified);
    assert_eq!(
        orders.rows[0].original.as_ref().unwrap()[1],
        Some(Cell::Int(0))
    );
    orders.delete_row(0).unwrap();
    assert_eq!(orders.rows[0].state, RowState::Deleted);
    assert_eq!(
        orders.rows[0].values[1],
        Some(Cell::Int(0)),
        "a deleted row keeps its originals"
    );
    assert!(
        orders.add_row(vec![Some(Cell::Int(1))]).is_err(),
        "an int in a string column"
    );
}

#[test]
fn rows_are_inserted_at_their_row_order_one_after_the_other_as_dotnet_inserts_them() {
    // Each at its position among those before it; beyond them (or none), appended.
    let order = |positions: &[Option<usize>]| {
        let finals = super::diffgram::final_positions(positions);
        let mut out = vec![0; finals.len()];
        for (k, f) in finals.into_iter().enumerate() {
            out[f] = k;
        }
        out
    };
    assert_eq!(order(&[]), Vec::<usize>::new());
    assert_eq!(order(&[None, None, None]), [0, 1, 2]);
    assert_eq!(order(&[Some(0), Some(0), Some(0)]), [2, 1, 0]);
    // Rows at 0, 3 (appended: beyond the one there), 1, 2: [0], [0 1], [0 2 1], [0 2 3 1].
    assert_eq!(order(&[Some(0), None, Some(1), Some(2)]), [0, 2, 3, 1]);
    assert_eq!(
        order(&[None, None, Some(1), None, Some(0)]),
        [4, 0, 2, 1, 3]
    );
}

#[test]
fn deleted_rows_go_back_where_their_row_order_says() {
    let schema = "<xs:schema id=\"NewDataSet\" xmlns=\"\" xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" \
                  xmlns:msdata=\"urn:schemas-microsoft-com:xml-msdata\"><xs:element \
                  name=\"NewDataSet\" msdata:IsDataSet=\"true\"><xs:complexType><xs:choice \
                  minOccurs=\"0\" maxOccurs=\"unbounded\"><xs:element name=\"T\"><xs:complexType>\
                  <xs:sequence><xs:element name=\"I\" type=\"xs:int\" minOccurs=\"0\"/></xs:sequence>\
                  </xs:complexType></xs:element></xs:choice></xs:complexType></xs:element></xs:schema>";
    let row = |id: u32, order: u32| {
        format!("<T diffgr:id=\"T{id}\" msdata:rowOrder=\"{order}\" xmlns=\"\"><I>{id}</I></T>")
    };
    let text = format!(
        "{schema}<diffgr:diffgram xmlns:msdata=\"urn:schemas-microsoft-com:xml-msdata\" \
         xmlns:diffgr=\"urn:schemas-microsoft-com:xml-diffgram-v1\"><NewDataSet xmlns=\"\">{}{}{}\
         </NewDataSet><diffgr:before>{}{}{}</diffgr:before></diffgr:diffgram>",
        row(1, 0),
        row(3, 2),
        row(5, 4),
        row(2, 1),
        row(4, 3),
        row(9, 99),
    );
    let set = read(&text).unwrap();
    let rows: Vec<(Option<Cell>, RowState)> = set.tables[0]
        .rows
        .iter()
        .map(|r| (r.values[0].clone(), r.state))
        .collect();
    let want: Vec<(Option<Cell>, RowState)> = [
        (1, RowState::Unchanged),
        (2, RowState::Deleted),
        (3, RowState::Unchanged),
        (4, RowState::Deleted),
        (5, RowState::Unchanged),
        (9, RowState::Deleted),
    ]
    .into_iter()
    .map(|(v, s)| (Some(Cell::Int(v)), s))
    .collect();
    assert_eq!(rows, want);
    // Written again, each in its place, the deleted ones in diffgr:before.
    let again = read(&written(&set)).unwrap();
    assert_eq!(again, set);
}

#[test]
fn a_zero_cell_loses_its_sign_as_the_host_reads_it() {
    let schema = "<xs:schema id=\"NewDataSet\" xmlns=\"\" xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" \
                  xmlns:msdata=\"urn:schemas-microsoft-com:xml-msdata\"><xs:element \
                  name=\"NewDataSet\" msdata:IsDataSet=\"true\"><xs:complexType><xs:choice \
                  minOccurs=\"0\" maxOccurs=\"unbounded\"><xs:element name=\"T\"><xs:complexType>\
                  <xs:sequence><xs:element name=\"D\" type=\"xs:double\" minOccurs=\"0\"/>\
                  <xs:element name=\"F\" type=\"xs:float\" minOccurs=\"0\"/></xs:sequence>\
                  </xs:complexType></xs:element></xs:choice></xs:complexType></xs:element></xs:schema>";
    let set = read(&format!(
        "{schema}<diffgr:diffgram xmlns:msdata=\"urn:schemas-microsoft-com:xml-msdata\" \
         xmlns:diffgr=\"urn:schemas-microsoft-com:xml-diffgram-v1\"><NewDataSet xmlns=\"\">\
         <T><D>-0</D><F>-0.0</F></T></NewDataSet></diffgr:diffgram>"
    ))
    .unwrap();
    let table = &set.tables[0];
    assert!(table
        .get::<f64>(0, "D")
        .unwrap()
        .unwrap()
        .is_sign_positive());
    assert!(table
        .get::<f32>(0, "F")
        .unwrap()
        .unwrap()
        .is_sign_positive());
    assert!(
        written(&set).contains("<D>0</D><F>0</F>"),
        "{}",
        written(&set)
    );
}

/// A one-table schema (`T`: `I` int, `S` string, `R` int that allows no nulls) and a diffgram
/// of `rows` then `after`.
fn one_table(rows: &str, after: &str) -> String {
    format!(
        "<xs:schema id=\"NewDataSet\" xmlns=\"\" xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" \
         xmlns:msdata=\"urn:schemas-microsoft-com:xml-msdata\"><xs:element name=\"NewDataSet\" \
         msdata:IsDataSet=\"true\"><xs:complexType><xs:choice minOccurs=\"0\" \
         maxOccurs=\"unbounded\"><xs:element name=\"T\"><xs:complexType><xs:sequence>\
         <xs:element name=\"I\" type=\"xs:int\" minOccurs=\"0\"/><xs:element name=\"S\" \
         type=\"xs:string\" minOccurs=\"0\"/><xs:element name=\"R\" type=\"xs:int\"/>\
         </xs:sequence></xs:complexType></xs:element></xs:choice></xs:complexType></xs:element>\
         </xs:schema><diffgr:diffgram xmlns:msdata=\"urn:schemas-microsoft-com:xml-msdata\" \
         xmlns:diffgr=\"urn:schemas-microsoft-com:xml-diffgram-v1\" \
         xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"><NewDataSet xmlns=\"\">{rows}\
         </NewDataSet>{after}</diffgr:diffgram>"
    )
}

#[test]
fn cells_and_states_read_as_dotnets_loaders_read_them() {
    // xsi:nil makes a null of an empty cell only; with text, the text is the value.
    let set = read(&one_table(
        "<T><I xsi:nil=\"true\"/><S xsi:nil=\"true\">s</S><R>1</R></T>",
        "",
    ))
    .unwrap();
    assert_eq!(set.tables[0].get::<i32>(0, "I"), Ok(None));
    assert_eq!(set.tables[0].get::<String>(0, "S"), Ok(Some("s".into())));
    // In diffgr:before an empty cell is "" in a string column and null in any other, nil
    // or not.
    let set = read(&one_table(
        "<T diffgr:id=\"T1\" diffgr:hasChanges=\"modified\"><I>2</I><S>b</S><R>1</R></T>",
        "<diffgr:before><T diffgr:id=\"T1\" xmlns=\"\"><I/><S/><R>1</R></T></diffgr:before>",
    ))
    .unwrap();
    let row = &set.tables[0].rows[0];
    assert_eq!(row.state, RowState::Modified);
    let original = row.original.as_ref().unwrap();
    assert_eq!(original[0], None);
    assert_eq!(original[1], Some(Cell::String(String::new())));
    // A row marked modified that no before-row completes is added; any other hasChanges is
    // an insert.
    let set = read(&one_table(
        "<T diffgr:id=\"T1\" diffgr:hasChanges=\"modified\"><R>1</R></T>\
         <T diffgr:hasChanges=\"bogus\"><R>2</R></T>",
        "",
    ))
    .unwrap();
    let states: Vec<RowState> = set.tables[0].rows.iter().map(|r| r.state).collect();
    assert_eq!(states, [RowState::Added, RowState::Added]);
    // A null where the column allows none: .NET's constraints refuse it after the load.
    let refused = read(&one_table("<T><I>1</I></T>", ""))
        .unwrap_err()
        .to_string();
    assert!(
        refused.contains("Failed to enable constraints"),
        "{refused}"
    );
    // The diffgram's sections come in .NET's order; anything out of it is refused.
    let refused = read(&one_table("<T><R>1</R></T>", "<Circle/>"))
        .unwrap_err()
        .to_string();
    assert!(refused.contains("where .NET reads no more"), "{refused}");
    // A cell's last error is its error.
    let set = read(&one_table(
        "<T diffgr:id=\"T1\" diffgr:hasErrors=\"true\"><R>1</R></T>",
        "<diffgr:errors><T diffgr:id=\"T1\" xmlns=\"\"><I diffgr:Error=\"a\"/><I \
         diffgr:Error=\"b\"/></T></diffgr:errors>",
    ))
    .unwrap();
    assert_eq!(set.tables[0].rows[0].cell_errors, [(0, "b".to_owned())]);
}

#[test]
fn a_lone_table_goes_as_the_main_table_of_a_set_and_comes_back() {
    let mut table = DataTable::new("Orders");
    table
        .add_column("Name", ColumnType::String)
        .add_column("Count", ColumnType::Int);
    // As the host wrote `MakeTable(0)` of its probe service (a table of no rows).
    let out = written_view(&table.holder_view().expect("a named table"), true);
    assert_eq!(
        out,
        "<xs:schema id=\"NewDataSet\" xmlns=\"\" xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" \
         xmlns:msdata=\"urn:schemas-microsoft-com:xml-msdata\"><xs:element name=\"NewDataSet\" \
         msdata:IsDataSet=\"true\" msdata:MainDataTable=\"Orders\" \
         msdata:UseCurrentLocale=\"true\"><xs:complexType><xs:choice minOccurs=\"0\" \
         maxOccurs=\"unbounded\"><xs:element name=\"Orders\"><xs:complexType><xs:sequence>\
         <xs:element name=\"Name\" type=\"xs:string\" minOccurs=\"0\" /><xs:element \
         name=\"Count\" type=\"xs:int\" minOccurs=\"0\" /></xs:sequence></xs:complexType>\
         </xs:element></xs:choice></xs:complexType></xs:element></xs:schema><diffgr:diffgram \
         xmlns:msdata=\"urn:schemas-microsoft-com:xml-msdata\" \
         xmlns:diffgr=\"urn:schemas-microsoft-com:xml-diffgram-v1\" />"
    );
    table
        .add_row(vec![Some(Cell::String("a".into())), None])
        .unwrap();
    let out = written_view(&table.holder_view().unwrap(), false);
    assert!(
        out.contains("<DocumentElement xmlns=\"\"><Orders diffgr:id=\"Orders1\""),
        "{out}"
    );
    assert_eq!(DataTable::read_holder(&holder(&out)), Ok(table));
    // An element holding nothing is a table without a name, which .NET cannot write.
    let empty = DataTable::read_holder(&holder("")).unwrap();
    assert_eq!(empty.name, "");
    assert!(empty.holder_view().is_none());
}

#[test]
fn white_space_alone_is_no_text_unless_preserved() {
    let set = read(&one_table(
        "<T><S> </S><R>1</R></T><T><S xml:space=\"preserve\"> </S><R>2</R></T>",
        "<diffgr:before><T diffgr:id=\"T9\" msdata:rowOrder=\"2\" xmlns=\"\"><I> </I><R>3</R></T>\
         </diffgr:before>",
    ))
    .unwrap();
    let table = &set.tables[0];
    assert_eq!(table.get::<String>(0, "S"), Ok(Some(String::new())));
    assert_eq!(table.get::<String>(1, "S"), Ok(Some(" ".to_owned())));
    // A blank number in diffgr:before: empty, so null there.
    assert_eq!(table.rows[2].state, RowState::Deleted);
    assert_eq!(table.get::<i32>(2, "I"), Ok(None));
}

/// A set of a namespace of its own: its schema of that target namespace, its rows and cells
/// elements of it, in the set's element and in `diffgr:before` and `diffgr:errors` alike.
#[test]
fn a_set_of_a_namespace_of_its_own_is_read_and_made_as_the_host_writes_it() {
    let text = host("namespaced-2");
    let set = read(&text).unwrap();
    assert_eq!(set.namespace, "urn:shop");
    let orders = set.table("Orders").unwrap();
    let states: Vec<RowState> = orders.rows.iter().map(|r| r.state).collect();
    assert_eq!(
        states,
        [RowState::Modified, RowState::Deleted, RowState::Unchanged]
    );
    assert_eq!(orders.rows[0].error.as_deref(), Some("bad"));
    assert_eq!(
        orders.get::<String>(1, "Name").unwrap().as_deref(),
        Some("o1")
    );
    // Made here.
    let mut made = DataSet::new("Shop");
    made.namespace = "urn:shop".to_owned();
    let orders = made.add_table("Orders");
    orders.add_column("Name", ColumnType::String);
    orders.add_column("Count", ColumnType::Int);
    for i in 0..3 {
        orders
            .add_row(vec![
                Some(Cell::String(format!("o{i}"))),
                Some(Cell::Int(i)),
            ])
            .unwrap();
    }
    made.add_table("Empty").add_column("X", ColumnType::String);
    assert_eq!(written(&made), host("namespaced-0"));
    // Rows of no namespace, or of another, are not the set's: refused, not dropped.
    let elsewhere = text.replace("<Shop xmlns=\"urn:shop\">", "<Shop xmlns=\"urn:other\">");
    let error = read(&elsewhere).unwrap_err().to_string();
    assert!(error.contains("urn:other"), "{error}");
    let unqualified = text.replace(
        "elementFormDefault=\"qualified\"",
        "elementFormDefault=\"unqualified\"",
    );
    let error = read(&unqualified).unwrap_err().to_string();
    assert!(error.contains("elementFormDefault"), "{error}");
}

/// The typed DataSet `ShopDs` of the objects service (`tests/interop/asmx/ShopDs.xsd`, made
/// by Mono's `xsd /dataset`, which gives it the invariant culture).
const SHOP_DS: TypedSchema = {
    use ColumnType::*;
    const fn col(name: &'static str, ty: ColumnType) -> TypedColumn {
        TypedColumn {
            name,
            ty,
            allow_null: true,
        }
    }
    TypedSchema {
        name: "ShopDs",
        namespace: "http://rmm.example.com/ShopDs.xsd",
        locale: Some(""),
        tables: &[
            TypedTable {
                name: "Orders",
                columns: &[
                    TypedColumn {
                        name: "Id",
                        ty: Int,
                        allow_null: false,
                    },
                    col("Name", String),
                    col("Count", Int),
                    col("Big", Long),
                    col("Small", Short),
                    col("Tiny", UnsignedByte),
                    col("Signed", Byte),
                    col("UShort", UnsignedShort),
                    col("UInt", UnsignedInt),
                    col("ULong", UnsignedLong),
                    col("Price", Decimal),
                    col("Ratio", Double),
                    col("Single", Float),
                    col("Ok", Boolean),
                    col("When", DateTime),
                    col("Key", Guid),
                    col("Data", Base64Binary),
                ],
            },
            TypedTable {
                name: "Notes",
                columns: &[col("Text", String)],
            },
        ],
    }
};

#[test]
fn a_typed_sets_schema_document_is_the_one_the_host_serves_at_query_schema() {
    assert_eq!(
        SHOP_DS.schema_document().as_deref(),
        Some(host("typed-schema").as_str())
    );
}

#[test]
fn a_typed_set_the_host_made_is_of_its_shape_reads_by_position_and_goes_back_byte_for_byte() {
    let read_set = read(&host("typed-2")).expect("reads");
    let set = SHOP_DS.conform(read_set.clone()).expect("of its shape");
    assert_eq!(set, read_set, "in its order already: nothing moved");
    let rows: Vec<&[Option<Cell>]> = SHOP_DS.rows(&set, 0).collect();
    assert_eq!(rows.len(), 3);
    assert_eq!(cell::<i32>(rows[1], 0), Some(1));
    assert_eq!(cell::<String>(rows[1], 1).as_deref(), Some("order 1"));
    assert_eq!(cell::<u64>(rows[1], 9), Some(18_000_000_000_000_000_001));
    assert_eq!(cell::<i32>(rows[2], 0), Some(-1));
    assert_eq!(cell::<String>(rows[2], 1), None);
    let notes: Vec<&[Option<Cell>]> = SHOP_DS.rows(&set, 1).collect();
    assert_eq!(
        cell::<String>(notes[0], 0).as_deref(),
        Some("note <2> & co")
    );
    assert_eq!(written(&set), host("typed-2"));

    // Made here as the host's MakeShop(0) makes it: the row of nulls, then the note.
    let mut made = SHOP_DS.empty();
    SHOP_DS.add_row(&mut made, 0, vec![Some(Cell::Int(-1))]);
    SHOP_DS.add_row(
        &mut made,
        1,
        vec![Some(Cell::String("note <0> & co".into()))],
    );
    assert_eq!(
        made.tables[0].rows[0].values.len(),
        17,
        "nulls after the given cells"
    );
    assert!(written(&made).contains("<Orders diffgr:id=\"Orders1\" msdata:rowOrder=\"0\" diffgr:hasChanges=\"inserted\"><Id>-1</Id></Orders><Notes diffgr:id=\"Notes1\" msdata:rowOrder=\"0\" diffgr:hasChanges=\"inserted\"><Text>note &lt;0&gt; &amp; co</Text></Notes>"));
}

#[test]
fn a_set_of_another_shape_is_put_in_the_typed_order_or_refused() {
    // What the host takes as a ShopDs and echoes (tests/fixtures/objects/probes/typed/objects).
    let other = read(r#"<xs:schema id="Other" xmlns="" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:msdata="urn:schemas-microsoft-com:xml-msdata"><xs:element name="Other" msdata:IsDataSet="true" msdata:UseCurrentLocale="true"><xs:complexType><xs:choice minOccurs="0" maxOccurs="unbounded"><xs:element name="T"><xs:complexType><xs:sequence><xs:element name="X" type="xs:string" minOccurs="0" /></xs:sequence></xs:complexType></xs:element></xs:choice></xs:complexType></xs:element></xs:schema><diffgr:diffgram xmlns:msdata="urn:schemas-microsoft-com:xml-msdata" xmlns:diffgr="urn:schemas-microsoft-com:xml-diffgram-v1"><Other xmlns=""><T diffgr:id="T1" msdata:rowOrder="0" diffgr:hasChanges="inserted"><X>x1</X></T></Other></diffgr:diffgram>"#).expect("reads");
    let error = SHOP_DS.conform(other).expect_err("not a ShopDs");
    assert_eq!(
        error.message(),
        "the typed DataSet `ShopDs` has no table `Orders`"
    );

    let mut set = SHOP_DS.empty();
    set.tables[0].columns[2].ty = ColumnType::Long;
    let error = SHOP_DS.conform(set).expect_err("a retyped column");
    assert_eq!(
        error.message(),
        "column `Count` of table `Orders` of the typed DataSet `ShopDs` is of type System.Int64, not System.Int32"
    );

    let mut set = SHOP_DS.empty();
    set.tables[0].columns.remove(16);
    let error = SHOP_DS.conform(set).expect_err("a column short");
    assert_eq!(
        error.message(),
        "table `Orders` of the typed DataSet `ShopDs` has no column `Data` (System.Byte[])"
    );

    // Tables and columns in another order, and one more of each, as .NET's typed set reads
    // them: its own first, in its order, the rows' cells, originals and errors moved along;
    // the set's name and locale its own.
    let mut set = SHOP_DS.empty();
    set.name = "Renamed".into();
    set.locale = Locale::Current;
    set.tables.swap(0, 1);
    set.add_table("More").add_column("M", ColumnType::Int);
    let orders = &mut set.tables[1];
    orders.columns.swap(0, 1);
    orders.columns[1].allow_null = true;
    orders.add_column("Extra", ColumnType::Int);
    let mut values = vec![None; 18];
    values[0] = Some(Cell::String("first".into()));
    values[1] = Some(Cell::Int(7));
    values[17] = Some(Cell::Int(9));
    orders.rows.push(DataRow {
        state: RowState::Modified,
        original: Some(values.clone()),
        cell_errors: vec![(0, "on Name".into()), (17, "on Extra".into())],
        values,
        ..DataRow::default()
    });
    let set = SHOP_DS.conform(set).expect("a ShopDs still");
    let names = |t: &DataTable| t.columns.iter().map(|c| c.name.clone()).collect::<Vec<_>>();
    assert_eq!(
        set.tables
            .iter()
            .map(|t| t.name.as_str())
            .collect::<Vec<_>>(),
        ["Orders", "Notes", "More"]
    );
    assert_eq!(set.name, "Renamed");
    assert_eq!(set.locale, Locale::Current);
    let orders = &set.tables[0];
    assert_eq!(names(orders)[..3], ["Id", "Name", "Count"]);
    assert_eq!(names(orders)[17], "Extra");
    assert!(
        !orders.columns[0].allow_null,
        "the typed column's nullability"
    );
    let row = &orders.rows[0];
    assert_eq!(row.values[0], Some(Cell::Int(7)));
    assert_eq!(row.values[1], Some(Cell::String("first".into())));
    assert_eq!(row.values[17], Some(Cell::Int(9)));
    assert_eq!(
        row.original.as_ref().map(|o| o[0].clone()),
        Some(Some(Cell::Int(7)))
    );
    assert_eq!(
        row.cell_errors,
        [(1, "on Name".to_owned()), (17, "on Extra".to_owned())]
    );

    // A null where the column allows none, which its row's struct cannot hold.
    let mut set = SHOP_DS.empty();
    set.tables[0].rows.push(DataRow {
        values: vec![None; 17],
        ..DataRow::default()
    });
    let error = SHOP_DS.conform(set).expect_err("a null Id");
    assert_eq!(
        error.message(),
        "row 1 of table `Orders` of the typed DataSet `ShopDs` has a null in column `Id`, which does not allow nulls"
    );
}
