//! `rmm mock --answer sample`'s answers: for every operation of the repository's services, the
//! concrete sample response (`rmm_codegen::emit::sample_response`) is read by the service's
//! own decoder, and written back by its encoder, with every element it holds: no member is
//! skipped as unknown, left out or read as absent, whatever the class (inherited, abstract,
//! of another namespace, attributes, text, unwrapped arrays, recursion).

use std::collections::BTreeSet;

use rmm_codegen::model::Model;

fn model(file: &str) -> Model {
    let spec = rmm_codegen::spec::load(&rmm_tests::root().join(file))
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    Model::from_spec(&spec, file).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// The local names of the elements of `xml` inside its SOAP Body that hold a value (not
/// `xsi:nil`), each with the names of its ancestors up to the Body: `Result/Lines/OrderLine`.
fn paths(xml: &str) -> BTreeSet<String> {
    let document = roxmltree::Document::parse(xml).unwrap_or_else(|e| panic!("{e}\n{xml}"));
    let body = document
        .descendants()
        .find(|n| n.tag_name().name() == "Body")
        .expect("a Body");
    let mut out = BTreeSet::new();
    for node in body.descendants().filter(|n| n.is_element() && *n != body) {
        let nil = node
            .attributes()
            .any(|a| a.name() == "nil" && a.value() == "true");
        if nil {
            continue;
        }
        let path: Vec<&str> = node
            .ancestors()
            .take_while(|n| *n != body)
            .map(|n| n.tag_name().name())
            .collect();
        out.insert(path.into_iter().rev().collect::<Vec<_>>().join("/"));
    }
    out
}

/// Checks one operation: its sample decodes (by `read`: whether the value read is the
/// default, and the value written back over SOAP 1.1), holds more than the default where the
/// response holds anything, and encodes back with every element path of the sample.
fn check(model: &Model, operation: &str, read: impl Fn(&str) -> Result<(bool, String), String>) {
    let op = model
        .operations
        .iter()
        .find(|op| op.wire == operation)
        .unwrap_or_else(|| panic!("{operation} is not in the model"));
    let sample = rmm_codegen::emit::sample_response(model, op);
    let (default, written) = read(&sample)
        .unwrap_or_else(|e| panic!("{operation}: the sample does not decode: {e}\n{sample}"));
    // Where the sample holds a value (all but void operations' and a typed DataSet's, of
    // which it leaves out the rows of the set's own schema), it is not read as the default.
    let sampled = paths(&sample);
    let holds_something = if op.bare {
        !sampled.is_empty()
    } else {
        sampled.len() > 1
    };
    assert!(
        !(holds_something && default),
        "{operation}: read as the default\n{sample}"
    );
    let missing: Vec<_> = sampled.difference(&paths(&written)).cloned().collect();
    assert!(
        missing.is_empty(),
        "{operation}: {missing:?} of the sample are not in the answer\nsample: {sample}\nanswer: {written}"
    );
}

/// What one operation's check reads a sample with: its wire name and its reader.
type Reader = (&'static str, fn(&str) -> Result<(bool, String), String>);

/// `for_each_operation!`'s callback: every operation's [`Reader`], as `read::<Request>`, in
/// the module it expands in.
macro_rules! readers {
    ($($method:ident: $request:ident,)*) => {
        vec![$((<$request>::OPERATION.name(), read::<$request> as fn(&str) -> _),)*]
    };
}

/// A module of the service `$krate`'s readers, each its response type's decoder and encoder.
macro_rules! service {
    ($module:ident, $krate:ident) => {
        mod $module {
            use $krate::wire::{OperationRequest, OperationResponse};
            use $krate::*;

            fn read<T>(sample: &str) -> Result<(bool, String), String>
            where
                T: OperationRequest,
                T::Response: Default,
            {
                let http = runtime::deps::http::Response::new(sample.as_bytes());
                let read = T::Response::decode_response(&http, Binding::Soap11)
                    .map_err(|e| e.to_string())?;
                let written = read
                    .encode_response(Binding::Soap11)
                    .map_err(|e| e.to_string())?;
                let text = String::from_utf8_lossy(written.body()).into_owned();
                Ok((read == T::Response::default(), text))
            }

            pub fn readers() -> Vec<super::Reader> {
                $krate::for_each_operation!(readers)
            }
        }
    };
}

service!(objects, rmm_objects);
service!(types, rmm_types);
service!(stock, rmm_stock);
service!(names, rmm_names);
service!(mobile, rmm_mobile);

fn every_operation(spec: &str, readers: Vec<Reader>) {
    let model = model(spec);
    assert_eq!(readers.len(), model.operations.len());
    for (operation, read) in readers {
        check(&model, operation, read);
    }
}

#[test]
fn the_objects_service_samples_every_member() {
    every_operation("tests/objects/rmm-spec.yaml", objects::readers());
}

#[test]
fn the_types_service_samples_every_member() {
    every_operation("tests/types/rmm-spec.yaml", types::readers());
}

#[test]
fn the_stock_service_samples_every_member() {
    every_operation("tests/stock/rmm-spec.yaml", stock::readers());
}

#[test]
fn the_names_service_samples_every_member() {
    every_operation("tests/names/rmm-spec.yaml", names::readers());
}

#[test]
fn the_mobile_service_samples_every_member() {
    every_operation("rmm-spec.yaml", mobile::readers());
}
