//! Import and gen agree, as a property: real WSDLs (the survey's and the wild corpus's under
//! 100 kB, and the construct table's cases), each mutated a few times at random by a seeded
//! generator, are imported with `--skip-unsupported`, and whatever the import takes, `rmm gen`
//! generates. A mutation changes what a schema or binding declares as a hand-edited or
//! generated WSDL might: a member's type, its occurrence, `nillable`, a member or type left
//! out, a sequence made a choice or an `xs:all`, a member twice, an operation's binding left
//! out. Most mutants still import (some operations skipped); the property is that none of them
//! imports to a spec that gen refuses.
//!
//! The held-out corpus is not used: it stays out of every loop that could tune the importer.
//! The `import` fuzz target (`tests/fuzz`) checks the same property on any text.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use roxmltree::{Document, Node};

/// How many mutants the test imports (each of one to three mutations).
const CASES: usize = 240;

/// The WSDLs mutated: name and text.
fn originals() -> Vec<(String, String)> {
    let root = rmm_tests::root();
    let mut out = Vec::new();
    // The real WSDLs first, then the construct cases.
    for folder in ["survey", "wild", "constructs"] {
        let dir = root.join("tests/fixtures").join(folder);
        let mut paths: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "wsdl"))
            .collect();
        paths.sort();
        for path in paths {
            let text = std::fs::read_to_string(&path).unwrap();
            if text.len() <= 100_000 {
                let name = path.file_name().unwrap().to_string_lossy();
                out.push((format!("{folder}/{name}"), text));
            }
        }
    }
    out
}

/// The XSD types a member's `type` may be changed to: the simple types XmlSerializer names,
/// those rmm does not carry, and `anyType`.
const TYPES: &[&str] = &[
    "s:int",
    "s:string",
    "s:dateTime",
    "s:date",
    "s:time",
    "s:decimal",
    "s:boolean",
    "s:base64Binary",
    "s:hexBinary",
    "s:QName",
    "s:anyURI",
    "s:integer",
    "s:duration",
    "s:anyType",
    "s:unsignedByte",
    "s:NMTOKENS",
];

/// One mutation of `text`, chosen by `rng`: the new text, and what was done (for the failure
/// message). `None` when the chosen mutation has nothing to act on.
fn mutate(text: &str, rng: &mut ChaCha8Rng) -> Option<(String, String)> {
    let doc = Document::parse(text).ok()?;
    let schema_elements: Vec<Node> = doc
        .descendants()
        .filter(|n| n.is_element() && n.tag_name().name() == "element")
        .filter(|n| {
            n.parent_element()
                .is_some_and(|p| p.tag_name().name() != "schema")
        })
        .collect();
    let pick = |rng: &mut ChaCha8Rng, nodes: &[Node<'_, '_>]| -> Option<usize> {
        (!nodes.is_empty()).then(|| rng.random_range(0..nodes.len()))
    };
    let kind = rng.random_range(0..9u8);
    match kind {
        // A member's type.
        0 => {
            let typed: Vec<Node> = schema_elements
                .iter()
                .copied()
                .filter(|n| n.attribute("type").is_some())
                .collect();
            let node = typed[pick(rng, &typed)?];
            let attr = node.attributes().find(|a| a.name() == "type")?;
            let to = TYPES[rng.random_range(0..TYPES.len())];
            let range = attr.range_value();
            let what = format!("type of {:?} to {to}", node.attribute("name"));
            Some((splice(text, range, to), what))
        }
        // A member's occurrence: `minOccurs`, `maxOccurs`.
        1 | 2 => {
            let node = schema_elements[pick(rng, &schema_elements)?];
            let (name, values): (&str, &[&str]) = if kind == 1 {
                ("minOccurs", &["0", "1"])
            } else {
                ("maxOccurs", &["1", "unbounded", "3"])
            };
            let value = values[rng.random_range(0..values.len())];
            let what = format!("{name} of {:?} to {value}", node.attribute("name"));
            Some((set_attribute(text, node, name, value), what))
        }
        // `nillable="true"` set, or taken away.
        3 => {
            let node = schema_elements[pick(rng, &schema_elements)?];
            let what = format!("nillable of {:?} toggled", node.attribute("name"));
            match node.attributes().find(|a| a.name() == "nillable") {
                Some(attr) => Some((splice(text, attr.range(), ""), what)),
                None => Some((set_attribute(text, node, "nillable", "true"), what)),
            }
        }
        // A member left out.
        4 => {
            let node = schema_elements[pick(rng, &schema_elements)?];
            let what = format!("member {:?} removed", node.attribute("name"));
            Some((splice(text, node.range(), ""), what))
        }
        // A member twice.
        5 => {
            let node = schema_elements[pick(rng, &schema_elements)?];
            let copy = &text[node.range()];
            let what = format!("member {:?} doubled", node.attribute("name"));
            Some((splice(text, node.range().end..node.range().end, copy), what))
        }
        // A sequence made a choice or an `xs:all`.
        6 => {
            let sequences: Vec<Node> = doc
                .descendants()
                .filter(|n| n.is_element() && n.tag_name().name() == "sequence")
                .collect();
            let node = sequences[pick(rng, &sequences)?];
            let to = if rng.random_bool(0.5) {
                "choice"
            } else {
                "all"
            };
            let range = node.range();
            let inner = &text[range.clone()];
            // The open tag's name and the close tag's (a sequence with content has one).
            let open = inner.find("sequence")?;
            let replaced = match inner.rfind("sequence") {
                Some(close) if close != open && inner.ends_with("sequence>") => format!(
                    "{}{to}{}{to}{}",
                    &inner[..open],
                    &inner[open + 8..close],
                    &inner[close + 8..]
                ),
                _ => format!("{}{to}{}", &inner[..open], &inner[open + 8..]),
            };
            Some((
                splice(text, range, &replaced),
                format!("a sequence made {to}"),
            ))
        }
        // A named type left out (what names it dangles).
        7 => {
            let types: Vec<Node> = doc
                .descendants()
                .filter(|n| {
                    n.is_element()
                        && matches!(n.tag_name().name(), "complexType" | "simpleType")
                        && n.attribute("name").is_some()
                })
                .collect();
            let node = types[pick(rng, &types)?];
            let what = format!("type {:?} removed", node.attribute("name"));
            Some((splice(text, node.range(), ""), what))
        }
        // A binding's operation left out.
        _ => {
            let bound: Vec<Node> = doc
                .descendants()
                .filter(|n| n.is_element() && n.tag_name().name() == "operation")
                .filter(|n| {
                    n.parent_element()
                        .is_some_and(|p| p.tag_name().name() == "binding")
                })
                .collect();
            let node = bound[pick(rng, &bound)?];
            let what = format!("binding operation {:?} removed", node.attribute("name"));
            Some((splice(text, node.range(), ""), what))
        }
    }
}

/// `text` with `range` replaced by `with`.
fn splice(text: &str, range: std::ops::Range<usize>, with: &str) -> String {
    let mut out = String::with_capacity(text.len() + with.len());
    out.push_str(&text[..range.start]);
    out.push_str(with);
    out.push_str(&text[range.end..]);
    out
}

/// `text` with the attribute `name` of `node` set to `value` (replaced, or added after the
/// element's name).
fn set_attribute(text: &str, node: Node, name: &str, value: &str) -> String {
    if let Some(attr) = node.attributes().find(|a| a.name() == name) {
        return splice(text, attr.range_value(), value);
    }
    let start = node.range().start;
    let tag_end = start
        + text[start..]
            .find(|c: char| c.is_whitespace() || c == '/' || c == '>')
            .unwrap_or(0);
    splice(text, tag_end..tag_end, &format!(r#" {name}="{value}""#))
}

#[test]
fn what_rmm_import_writes_of_a_mutated_real_wsdl_rmm_gen_accepts() {
    let originals = originals();
    assert!(originals.len() >= 300, "{} WSDLs", originals.len());
    let mut rng = ChaCha8Rng::seed_from_u64(34);
    let (mut imported, mut refused, mut skipped_some) = (0, 0, 0);
    let mut failures = Vec::new();
    for case in 0..CASES {
        // Four in five from the real WSDLs: most construct cases are refused before a mutation.
        let real = originals
            .iter()
            .filter(|(n, _)| !n.starts_with("constructs/"))
            .count();
        let at = if rng.random_bool(0.8) {
            rng.random_range(0..real)
        } else {
            rng.random_range(real..originals.len())
        };
        let (name, original) = &originals[at];
        let mut text = original.clone();
        let mut done = Vec::new();
        for _ in 0..rng.random_range(1..=3) {
            if let Some((mutant, what)) = mutate(&text, &mut rng) {
                text = mutant;
                done.push(what);
            }
        }
        let file = format!("mutant-{case}.wsdl");
        let Ok(spec) = rmm_codegen::import::read_skipping_unsupported(&text, &file) else {
            refused += 1;
            continue;
        };
        imported += 1;
        skipped_some += usize::from(!spec.skipped.is_empty());
        if let Err(errors) = rmm_codegen::generate_from_source(&spec.to_yaml(), &file) {
            let first = errors
                .to_string()
                .lines()
                .next()
                .unwrap_or_default()
                .to_owned();
            failures.push(format!("{name} with {}: {first}", done.join("; ")));
        }
    }
    println!("{CASES} mutants: {imported} imported ({skipped_some} skipping some operations), {refused} refused");
    assert!(
        failures.is_empty(),
        "{} mutants import to a spec gen refuses:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // The mutants reach both sides: the property is checked on many imports.
    assert!(
        imported >= CASES / 2 && refused >= 5,
        "{imported} imported, {refused} refused"
    );
}
