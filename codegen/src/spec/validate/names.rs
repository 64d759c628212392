//! The names a spec may use: its types (`int?`, `OrderLine[]`), XML names and the crate's
//! package name, and how the messages about them list what is valid.

use super::*;

/// The names a spec's types may use beside the simple types: its enums and its classes.
pub(in crate::spec) struct TypeNames {
    pub enums: Vec<String>,
    pub classes: Vec<String>,
    pub data_sets: Vec<String>,
}

impl TypeNames {
    pub(in crate::spec) fn of(raw: &RawSpec) -> TypeNames {
        TypeNames {
            enums: raw.enums.iter().map(|e| e.name.0.clone()).collect(),
            classes: raw.types.iter().map(|c| c.name.0.clone()).collect(),
            data_sets: raw.data_sets.iter().map(|d| d.name.0.clone()).collect(),
        }
    }

    /// The type named `name` (no `?`, no `[]`): a simple type, an enum or a class.
    pub(super) fn named(&self, name: &str) -> Option<SoapType> {
        SoapType::from_name(name)
            .or_else(|| {
                let i = self.enums.iter().position(|e| e == name)?;
                u16::try_from(i).ok().map(SoapType::Enum)
            })
            .or_else(|| {
                let i = self.classes.iter().position(|c| c == name)?;
                u16::try_from(i).ok().map(SoapType::Class)
            })
            .or_else(|| {
                let i = self.data_sets.iter().position(|d| d == name)?;
                u16::try_from(i).ok().map(SoapType::TypedDataSet)
            })
    }
}

/// The type spelled `text`: a name, `?` after a value type's name for its nullable form
/// (`int?`), and `[]` for each level of array (`OrderLine[]`, `int?[]`, `string[][]`).
/// Arrays are interned into `arrays`, each once. `None` for an unknown name or a shape the
/// grammar does not have (`int[]?`, `[]`).
pub(super) fn soap_type(
    text: &str,
    names: &TypeNames,
    arrays: &mut Vec<ArrayDef>,
) -> Option<SoapType> {
    soap_type_with_item(text, names, arrays, None)
}

/// [`soap_type`] for an array whose items (of the outermost array) are named `item`.
pub(in crate::spec) fn soap_type_with_item(
    text: &str,
    names: &TypeNames,
    arrays: &mut Vec<ArrayDef>,
    item: Option<&str>,
) -> Option<SoapType> {
    let mut dims = 0;
    let mut rest = text;
    while let Some(inner) = rest.strip_suffix("[]") {
        dims += 1;
        rest = inner;
    }
    let (base, item_nullable) = match rest.strip_suffix('?') {
        Some(base) => (base, true),
        None => (rest, false),
    };
    let mut ty = names.named(base)?;
    if dims == 0 {
        return Some(ty);
    }
    for level in 0..dims {
        let array = ArrayDef {
            item: ty,
            item_nullable: level == 0 && item_nullable,
            item_name: item.filter(|_| level == dims - 1).map(str::to_owned),
        };
        let i = match arrays.iter().position(|a| *a == array) {
            Some(i) => i,
            None => {
                arrays.push(array);
                arrays.len() - 1
            }
        };
        ty = SoapType::Array(u16::try_from(i).ok()?);
    }
    Some(ty)
}

/// Whether HTTP GET/POST can carry a parameter spelled `text` as far as its being an array
/// goes: not an array, or an array of one level whose items are simple, not nullable and not
/// byte arrays (ASMX reads those from repeated keys).
pub(super) fn array_over_http(text: &str, names: &TypeNames) -> bool {
    let Some(item) = text.strip_suffix("[]") else {
        return true;
    };
    if item.ends_with("[]") || item.ends_with('?') {
        return false;
    }
    names
        .named(item)
        .is_some_and(|ty| ty.over_http() && ty != SoapType::Base64Binary)
}

/// Why a type spelled nullable cannot be, if it cannot: a string, byte array, class or array
/// is a reference already (absent or nil is `None`).
pub(super) fn nullable_problem(name: &str, names: &TypeNames) -> Option<&'static str> {
    if name.ends_with("[]?") {
        return Some("an array is nullable as it is (None); leave out the ?");
    }
    let ty = names.named(name.strip_suffix('?').unwrap_or(name))?;
    match ty {
        SoapType::Class(_) => Some("a class is nullable as it is (None); leave out the ?"),
        ty if ty.is_reference() => Some(
            "a string, byte array, raw XML or object is nullable as it is (None); leave out the ?",
        ),
        _ => None,
    }
}

/// The type of a typed DataSet's column spelled `text` (`int`, or `int?` when it allows
/// nulls): one of [`crate::spec::COLUMN_TYPES`].
pub(in crate::spec) fn column_type(text: &str) -> Option<SoapType> {
    let name = text.strip_suffix('?').unwrap_or(text);
    crate::spec::COLUMN_TYPES
        .into_iter()
        .find(|ty| ty.name() == name)
}

/// Whether a type is spelled nullable (`int?`).
pub(in crate::spec) fn nullable(name: &str) -> bool {
    name.ends_with('?')
}

/// How a type is spelled in the spec.
pub(super) fn type_name(ty: SoapType) -> &'static str {
    ty.name()
}

/// The list of types for messages: `the types are string, boolean, …`.
pub(super) fn valid_types() -> String {
    let names: Vec<&str> = SoapType::ALL.iter().map(|t| t.name()).collect();
    let (last, rest) = names.split_last().expect("there are types");
    format!(
        "the types are {} and {last} (and void, for a result)",
        rest.join(", ")
    )
}

/// The spec's enums and classes named in a message, all of them up to this many; past it, a
/// large service's hundreds of names would bury the nearest.
const LISTED_TYPES: usize = 12;

/// What follows `has unknown type "X"` in a message: the nearest few names it may have meant
/// (of the simple types, the spec's enums, classes and data sets, spelled as written, case
/// aside), the simple types, and the spec's own types (listed when they are few, counted
/// otherwise); `[]` after any type for an array.
pub(super) fn unknown_type_hint(written: &str, names: &TypeNames) -> String {
    let base = written.trim_end_matches("[]").trim_end_matches('?');
    let mut own: Vec<&str> = Vec::new();
    for name in names
        .enums
        .iter()
        .chain(&names.classes)
        .chain(&names.data_sets)
    {
        if !own.contains(&name.as_str()) {
            own.push(name);
        }
    }
    let candidates = SoapType::ALL
        .iter()
        .map(|t| t.name())
        .chain(own.iter().copied());
    let mut near: Vec<(f64, &str)> = candidates
        .map(|name| {
            let score =
                strsim::jaro_winkler(&base.to_ascii_lowercase(), &name.to_ascii_lowercase());
            (score, name)
        })
        .filter(|(score, _)| *score >= 0.8)
        .collect();
    // Nearest first; among equals, the order they are declared in.
    near.sort_by(|a, b| b.0.total_cmp(&a.0));
    near.dedup_by(|a, b| a.1 == b.1);
    near.truncate(3);
    let mut hint = String::new();
    if !near.is_empty() {
        let quoted: Vec<String> = near.iter().map(|(_, name)| format!("{name:?}")).collect();
        hint.push_str(&format!("did you mean {}? The types", or_list(&quoted)));
        hint.push_str(valid_types().trim_start_matches("the types"));
    } else {
        hint.push_str(&valid_types());
    }
    match own.len() {
        0 => {}
        n if n <= LISTED_TYPES => {
            hint.push_str(&format!(", or one of the spec's own ({})", own.join(", ")))
        }
        n => hint.push_str(&format!(", or one of the spec's {n} enums and classes")),
    }
    hint.push_str("; `[]` after a type makes an array of it (`int[]`, `int?[]`)");
    hint
}

/// `a`, `a or b`, `a, b or c`.
fn or_list(items: &[String]) -> String {
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

pub(crate) const NCNAME_RULE: &str = "rmm accepts ASCII XML names: an ASCII letter or '_' first, \
                           then ASCII letters, digits, '_', '-' or '.'";

/// Why `name` is not an ASCII XML NCName, if it is not.
pub(crate) fn ncname_problem(name: &str) -> Option<String> {
    let mut chars = name.chars();
    let Some(first) = chars.next() else {
        return Some("it is empty".to_owned());
    };
    if !(first.is_ascii_alphabetic() || first == '_') {
        return Some(format!("it starts with {first:?}"));
    }
    name.chars()
        .enumerate()
        .skip(1)
        .find(|&(_, c)| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
        .map(|(i, c)| format!("character {c:?} at position {} is not allowed", i + 1))
}

/// The package name of a service's crate when the spec names none: `rmm-` and the service
/// name in kebab case (`MobileService` → `rmm-mobile-service`).
pub(in crate::spec) fn default_crate_name(service: &str) -> String {
    format!(
        "rmm-{}",
        crate::model::snake_case(service).replace('_', "-")
    )
}

/// Why `name` cannot be the generated crate's package name, if it cannot (Cargo's rules, kept
/// to ASCII: a letter first, then letters, digits, `-` or `_`, at most 64 characters).
pub(super) fn crate_name_problem(name: &str) -> Option<String> {
    let first = name.chars().next()?;
    if !first.is_ascii_alphabetic() {
        return Some(format!("it starts with {first:?}"));
    }
    if let Some((i, c)) = name
        .chars()
        .enumerate()
        .find(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
    {
        return Some(format!(
            "character {c:?} at position {} is not allowed",
            i + 1
        ));
    }
    if name.len() > 64 {
        return Some(format!("it is {} characters long", name.len()));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{unknown_type_hint, TypeNames};

    fn names(classes: &[&str]) -> TypeNames {
        TypeNames {
            enums: vec!["Level".to_owned()],
            classes: classes.iter().map(|c| (*c).to_owned()).collect(),
            data_sets: Vec::new(),
        }
    }

    #[test]
    fn an_unknown_type_names_the_nearest_few_not_every_type() {
        // A large service: its hundreds of classes are counted, the nearest named.
        let mut classes: Vec<String> = (0..300).map(|i| format!("Thing{i}")).collect();
        classes.push("OrderLine".to_owned());
        classes.push("OrderLines".to_owned());
        let classes: Vec<&str> = classes.iter().map(String::as_str).collect();
        let hint = unknown_type_hint("orderline[]", &names(&classes));
        assert!(
            hint.starts_with("did you mean \"OrderLine\" or \"OrderLines\"? The types are string,"),
            "{hint}"
        );
        assert!(
            hint.contains("or one of the spec's 303 enums and classes;"),
            "{hint}"
        );
        assert!(!hint.contains("Thing1"), "{hint}");
        // A few are listed, and a name near nothing is suggested nothing.
        let hint = unknown_type_hint("Zebra", &names(&["Order"]));
        assert!(hint.starts_with("the types are string,"), "{hint}");
        assert!(
            hint.contains("or one of the spec's own (Level, Order);"),
            "{hint}"
        );
    }
}
