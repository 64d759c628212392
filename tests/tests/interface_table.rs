//! `rmm-spec.yaml` against the interface's operation table, kept in the repository as
//! `tests/fixtures/interface/operations.txt` (the interface document's section 4.2 in the
//! project's own form): the same operations in the same order, each with the same parameters
//! (names, order, SOAP types) and result. The interface is law: the spec may neither add nor
//! drop nor retype anything.

use rmm_codegen::spec::{self, SoapType};

/// One operation of the table: its number, name, result type and `name:type` parameters.
#[derive(Debug, PartialEq)]
struct Row {
    number: usize,
    name: String,
    result: String,
    params: Vec<String>,
}

/// Reads the table; panics naming the line on anything out of its form.
fn table() -> Vec<Row> {
    let path = rmm_tests::root().join("tests/fixtures/interface/operations.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut rows: Vec<Row> = Vec::new();
    for (at, line) in text.lines().enumerate() {
        let where_ = || format!("{}:{}", path.display(), at + 1);
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if let Some(param) = line.strip_prefix("    ") {
            let row = rows
                .last_mut()
                .unwrap_or_else(|| panic!("{}: a parameter before any operation", where_()));
            row.params.push(param.to_owned());
            continue;
        }
        let (number, rest) = line
            .split_once(". ")
            .unwrap_or_else(|| panic!("{}: expected `N. Name -> result`", where_()));
        let (name, result) = rest
            .split_once(" -> ")
            .unwrap_or_else(|| panic!("{}: expected `N. Name -> result`", where_()));
        rows.push(Row {
            number: number
                .parse()
                .unwrap_or_else(|_| panic!("{}: not a number", where_())),
            name: name.to_owned(),
            result: result.to_owned(),
            params: Vec::new(),
        });
    }
    rows
}

fn type_name(ty: SoapType) -> &'static str {
    match ty {
        SoapType::Int => "int",
        SoapType::String => "string",
        SoapType::Boolean => "boolean",
        SoapType::Decimal => "decimal",
        other => panic!("{other:?} is not a type of the interface document"),
    }
}

#[test]
fn the_table_holds_the_interfaces_20_operations_and_195_parameters() {
    let rows = table();
    assert_eq!(rows.len(), 20);
    assert_eq!(rows.iter().map(|r| r.params.len()).sum::<usize>(), 195);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row.number, i + 1, "{} is out of order", row.name);
    }
}

#[test]
fn the_spec_lists_exactly_the_interfaces_operations_and_parameters() {
    let spec = spec::load(&rmm_tests::spec_path()).unwrap_or_else(|e| panic!("{e}"));
    let from_spec: Vec<Row> = spec
        .operations
        .iter()
        .enumerate()
        .map(|(i, op)| Row {
            number: i + 1,
            name: op.name.clone(),
            result: type_name(op.result).to_owned(),
            params: op
                .params
                .iter()
                .map(|p| format!("{}:{}", p.name, type_name(p.ty)))
                .collect(),
        })
        .collect();
    let table = table();
    // Operation by operation, so that a failure names the first one that differs.
    for (ours, law) in from_spec.iter().zip(&table) {
        assert_eq!(
            ours, law,
            "rmm-spec.yaml's operation {} differs",
            law.number
        );
    }
    assert_eq!(from_spec.len(), table.len(), "the number of operations");
}
