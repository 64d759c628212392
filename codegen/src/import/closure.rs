//! What an import writes is whole: every type a class, an operation or a SOAP header names is
//! one the spec declares (or one of rmm's own), so that `rmm gen` accepts every spec
//! `rmm import` writes.
//!
//! The reader refuses a type where it first meets it; with `--skip-unsupported` the operation
//! that met it is left out, and so must be every other one that reaches the type later, by
//! any path (through another class, a base, an array, a header). This pass closes over the
//! references once the reader is done: a class that names a type no longer declared goes
//! (and with it what names that class, until nothing changes), an operation that names one is
//! left out with the reason, and what no remaining operation reaches is dropped.

use std::collections::{BTreeMap, BTreeSet};

use super::{ImportedClass, ImportedDataSet, ImportedEnum, ImportedOperation};
use crate::spec::SoapType;

/// The types a spec's type text names (`Order` of `Order[]`, `int?`, `{type: Order, item:
/// Line}`, each alternative's of `{choice: [A: Circle, B: int]}`) that are not rmm's own.
pub(super) fn named_types(text: &str) -> Vec<String> {
    if text.trim_start().starts_with('{') {
        let Ok(map) = serde_yaml::from_str::<serde_yaml::Value>(text) else {
            return Vec::new();
        };
        if let Some(choice) = map.get("choice").and_then(|c| c.as_sequence()) {
            return choice
                .iter()
                .filter_map(|a| a.as_mapping())
                .flat_map(|a| a.values())
                .filter_map(|ty| ty.as_str())
                .filter_map(named_type)
                .collect();
        }
    }
    named_type(text).into_iter().collect()
}

/// The type a spec's type text names (`Order` of `Order[]`, `int?`, `{type: Order, item:
/// Line}`), if it is not one of rmm's own types; none for a choice's (see [`named_types`]).
pub(super) fn named_type(text: &str) -> Option<String> {
    let name = if text.trim_start().starts_with('{') {
        let map: serde_yaml::Value = serde_yaml::from_str(text).ok()?;
        map.get("type")?.as_str()?.to_owned()
    } else {
        text.to_owned()
    };
    let name = name.trim_end_matches("[]").trim_end_matches('?');
    let name = name.trim_end_matches("[]").trim_end_matches('?');
    let builtin = SoapType::from_name(name).is_some()
        || matches!(
            name,
            "void" | "object" | "xml" | "xmlNode" | "dataSet" | "dataTable"
        );
    (!builtin && !name.is_empty()).then(|| name.to_owned())
}

/// The types an operation names: its parameters', result's, out parameters' and headers'.
fn operation_types(op: &ImportedOperation) -> impl Iterator<Item = String> + '_ {
    op.params
        .iter()
        .chain(&op.outs)
        .map(|(_, ty)| ty.as_str())
        .chain(std::iter::once(op.result.as_str()))
        .filter_map(named_type)
        .chain(op.headers.iter().map(|(class, _)| class.clone()))
}

/// The types a class names: its base's, attributes', text's and members'.
fn class_types(class: &ImportedClass) -> impl Iterator<Item = String> + '_ {
    class
        .attributes
        .iter()
        .chain(&class.members)
        .map(|(_, ty)| ty.as_str())
        .chain(class.text.as_deref())
        .flat_map(named_types)
        .chain(class.base.clone())
}

/// Why `name` (of `what`: "the member", "the class") is not an XML name the generator
/// carries, if it is not: by the generator's own rule, so that a WSDL whose names are not
/// ASCII NCNames (empty, of other scripts, spoilt) is refused where it is read, not by gen.
fn bad_name(what: &str, name: &str) -> Option<String> {
    crate::spec::ncname_problem(name).map(|why| {
        format!(
            "{what} {name:?}, which is not a name rmm carries ({why}; {})",
            crate::spec::NCNAME_RULE
        )
    })
}

/// The names a member's type text gives elements: its items' (`{type: "T[]", item: Line}`)
/// and its choice's alternatives' (`{choice: [A: int, B: string]}`).
fn element_names_in(text: &str) -> Vec<String> {
    if !text.trim_start().starts_with('{') {
        return Vec::new();
    }
    let Ok(map) = serde_yaml::from_str::<serde_yaml::Value>(text) else {
        return Vec::new();
    };
    let mut names: Vec<String> = map
        .get("item")
        .and_then(|i| i.as_str())
        .map(str::to_owned)
        .into_iter()
        .collect();
    if let Some(choice) = map.get("choice").and_then(|c| c.as_sequence()) {
        names.extend(
            choice
                .iter()
                .filter_map(|a| a.as_mapping())
                .flat_map(|a| a.keys())
                .filter_map(|k| k.as_str())
                .map(str::to_owned),
        );
    }
    names
}

/// Why a class's names are not all names the generator carries, if they are not.
fn class_name_refusal(class: &ImportedClass) -> Option<String> {
    bad_name("the name", &class.name)
        .or_else(|| {
            class
                .attributes
                .iter()
                .find_map(|(name, _)| bad_name("the attribute", name))
        })
        .or_else(|| {
            class.members.iter().find_map(|(name, ty)| {
                bad_name("the member", name).or_else(|| {
                    element_names_in(ty)
                        .iter()
                        .find_map(|n| bad_name("an element of the member", n))
                })
            })
        })
}

/// Why an operation's names are not all names the generator carries, if they are not.
fn operation_name_refusal(op: &ImportedOperation) -> Option<String> {
    bad_name("the name", &op.name)
        .or_else(|| {
            op.params
                .iter()
                .find_map(|(name, _)| bad_name("the parameter", name))
        })
        .or_else(|| {
            op.outs
                .iter()
                .find_map(|(name, _)| bad_name("the out parameter", name))
        })
        .or_else(|| {
            [
                ("the request's wrapper element", &op.request_element),
                ("the response's wrapper element", &op.response_element),
                ("the result's element", &op.result_element),
            ]
            .into_iter()
            .find_map(|(what, name)| name.as_deref().and_then(|n| bad_name(what, n)))
        })
}

/// The wrapper elements of a wrapped operation: its request's and its response's, and
/// whether each is renamed (`RequestElementName`, `ResponseElementName`).
fn wrappers(op: &ImportedOperation) -> [(String, bool); 2] {
    [
        (
            op.request_element
                .clone()
                .unwrap_or_else(|| op.name.clone()),
            op.request_element.is_some(),
        ),
        (
            op.response_element
                .clone()
                .unwrap_or_else(|| format!("{}Response", op.name)),
            op.response_element.is_some(),
        ),
    ]
}

/// Why an operation's renamed wrapper cannot be: another operation's wrapper has its name
/// (a schema declares each element once), if one has.
fn wrapper_refusal(op: &ImportedOperation, operations: &[ImportedOperation]) -> Option<String> {
    if op.bare {
        return None;
    }
    let mine = wrappers(op);
    operations
        .iter()
        .filter(|other| !other.bare && other.name != op.name)
        .find_map(|other| {
            let theirs = wrappers(other);
            mine.iter()
                .find(|(name, renamed)| {
                    theirs
                        .iter()
                        .any(|(t, t_renamed)| t == name && (*renamed || *t_renamed))
                })
                .map(|(name, _)| {
                    format!(
                        "the wrapper element {name}, which is also operation {}'s",
                        other.name
                    )
                })
        })
}

/// Why the generator refuses a class of another namespace (`namespace:`), which it carries as
/// a SOAP header and in the classes such a header holds only (the spec's namespace checks):
/// in inheritance, with a root, or holding a wrapped array, raw XML, a DataSet or a class of a
/// third namespace.
fn foreign_refusal(class: &ImportedClass, classes: &[ImportedClass]) -> Option<String> {
    let own = class.namespace.as_deref()?;
    let derived = classes
        .iter()
        .any(|c| c.base.as_deref() == Some(class.name.as_str()));
    if class.base.is_some() || derived || class.is_abstract || class.root.is_some() {
        return Some(format!(
            "a class of the namespace {own} that takes part in inheritance or has a root"
        ));
    }
    for (member, ty) in &class.members {
        let unwrapped = ty.contains("unwrapped: true");
        let plain = if ty.starts_with('{') { "" } else { ty.as_str() };
        let named = named_type(ty);
        let other = named
            .as_ref()
            .and_then(|n| classes.iter().find(|c| c.name == *n))
            .and_then(|c| c.namespace.as_deref());
        let problem = if ty.starts_with("{choice:") {
            Some("a choice")
        } else if plain.ends_with("[]") && !unwrapped {
            Some("an array with a wrapper")
        } else if matches!(
            plain,
            "xml" | "xmlNode" | "dataSet" | "dataTable" | "object[]"
        ) {
            Some("raw XML, a DataSet or an array of objects")
        } else if other.is_some_and(|o| o != own) {
            Some("a class of a third namespace")
        } else {
            None
        };
        if let Some(problem) = problem {
            return Some(format!(
                "a class of the namespace {own} whose member {member} is {problem}"
            ));
        }
    }
    None
}

/// Closes the import over its references: returns each operation left out (its name, and
/// why: the type it names that is not declared, and why that one is not), after removing it.
pub(super) fn close(
    operations: &mut Vec<ImportedOperation>,
    classes: &mut Vec<ImportedClass>,
    enums: &mut Vec<ImportedEnum>,
    data_sets: &mut Vec<ImportedDataSet>,
) -> Vec<(String, String)> {
    // Why each class removed here was: what the generator refuses of a class of another
    // namespace, or naming a class removed.
    let mut removed: BTreeMap<String, String> = BTreeMap::new();
    let foreign = |name: &str, classes: &[ImportedClass]| {
        classes
            .iter()
            .find(|c| c.name == name)
            .and_then(|c| c.namespace.clone())
    };
    // Classes that name what is not declared, or that the generator refuses, until none does.
    loop {
        let declared = declared(classes, enums, data_sets);
        let mut gone = Vec::new();
        for class in classes.iter() {
            let reason = if let Some(refusal) = class_name_refusal(class) {
                Some(format!("it has {refusal}"))
            } else if let Some(missing) = class_types(class).find(|t| !declared.contains(t)) {
                Some(format!(
                    "it names the type {missing}, which could not be imported"
                ))
            } else if let Some(refusal) = foreign_refusal(class, classes) {
                Some(format!("it is {refusal}, which rmm does not generate yet"))
            } else if class.namespace.is_none() {
                // A class of the service's namespace holding one of another: only a SOAP
                // header's classes may be of another namespace.
                class_types(class)
                    .find_map(|t| foreign(&t, classes).map(|ns| (t, ns)))
                    .map(|(t, ns)| {
                        format!(
                            "it holds the class {t} of the namespace {ns}, which rmm generates \
                             in a SOAP header only yet"
                        )
                    })
            } else {
                None
            };
            if let Some(reason) = reason {
                gone.push((class.name.clone(), reason));
            }
        }
        if gone.is_empty() {
            break;
        }
        classes.retain(|c| !gone.iter().any(|(name, _)| *name == c.name));
        removed.extend(gone);
    }
    let declared = declared(classes, enums, data_sets);
    let why = |name: &str| match removed.get(name) {
        Some(reason) => format!("the type {name}: {reason}"),
        None => format!("the type {name}, which could not be imported"),
    };
    let mut left_out = Vec::new();
    let wrapper_refusals: Vec<Option<String>> = operations
        .iter()
        .map(|op| wrapper_refusal(op, operations))
        .collect();
    let mut index = 0;
    operations.retain(|op| {
        let wrapper_refusal = wrapper_refusals[index].clone();
        index += 1;
        let missing = operation_types(op).find(|t| !declared.contains(t));
        // A parameter, result or out parameter of a class of another namespace.
        let foreign_value = op
            .params
            .iter()
            .chain(&op.outs)
            .map(|(_, ty)| ty.as_str())
            .chain(std::iter::once(op.result.as_str()))
            .filter_map(named_type)
            .find_map(|t| foreign(&t, classes).map(|ns| (t, ns)));
        let reason = match (
            operation_name_refusal(op).or(wrapper_refusal),
            missing,
            foreign_value,
        ) {
            (Some(refusal), _, _) => refusal,
            (None, Some(missing), _) => why(&missing),
            (None, None, Some((t, ns))) => format!(
                "the class {t} of the namespace {ns} as a value, which rmm generates in a SOAP \
                 header only yet"
            ),
            (None, None, None) => return true,
        };
        left_out.push((op.name.clone(), reason));
        false
    });
    // What the remaining operations reach: their types, then what those name, and the
    // classes derived from a reached class (a value of it may be of any of them).
    let mut reached: BTreeSet<String> = operations.iter().flat_map(operation_types).collect();
    loop {
        let before = reached.len();
        for class in classes.iter() {
            let derives_reached = class.base.as_ref().is_some_and(|b| reached.contains(b));
            if reached.contains(&class.name) || derives_reached {
                reached.insert(class.name.clone());
                reached.extend(class_types(class));
            }
        }
        if reached.len() == before {
            break;
        }
    }
    classes.retain(|c| reached.contains(&c.name));
    enums.retain(|e| reached.contains(&e.name));
    data_sets.retain(|d| reached.contains(&d.name));
    left_out
}

/// The names the import declares.
fn declared(
    classes: &[ImportedClass],
    enums: &[ImportedEnum],
    data_sets: &[ImportedDataSet],
) -> BTreeSet<String> {
    classes
        .iter()
        .map(|c| c.name.clone())
        .chain(enums.iter().map(|e| e.name.clone()))
        .chain(data_sets.iter().map(|d| d.name.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::named_type;

    #[test]
    fn a_type_text_names_its_type() {
        assert_eq!(named_type("Order[]").as_deref(), Some("Order"));
        assert_eq!(named_type("Level?[]").as_deref(), Some("Level"));
        assert_eq!(named_type("int?"), None);
        assert_eq!(named_type("xml"), None);
        assert_eq!(
            named_type("{type: \"Line[]\", unwrapped: true}").as_deref(),
            Some("Line")
        );
        assert_eq!(named_type("{type: \"string\", data_type: ID}"), None);
        assert_eq!(
            named_type("{type: Shape, any: true}").as_deref(),
            Some("Shape")
        );
    }
}
