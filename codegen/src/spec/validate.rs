//! The semantic checks run on a spec that parsed: every problem found, each located in the
//! source where the scanner can find it.

use std::collections::{HashMap, HashSet};

use super::locate::{Locator, OpLines, Pos};
use super::raw::RawSpec;
use super::{ArrayDef, SoapType};

/// One problem found by the validator.
pub(super) struct Issue {
    /// Where the offending item is written, if found.
    pub at: Option<Pos>,
    /// Where to sort it among the others: `at`, or the enclosing item when `at` is unknown.
    anchor: Option<Pos>,
    pub message: String,
}

/// The names a spec's types may use beside the simple types: its enums and its classes.
pub(super) struct TypeNames {
    pub enums: Vec<String>,
    pub classes: Vec<String>,
}

impl TypeNames {
    pub(super) fn of(raw: &RawSpec) -> TypeNames {
        TypeNames {
            enums: raw.enums.iter().map(|e| e.name.0.clone()).collect(),
            classes: raw.types.iter().map(|c| c.name.0.clone()).collect(),
        }
    }

    /// The type named `name` (no `?`, no `[]`): a simple type, an enum or a class.
    fn named(&self, name: &str) -> Option<SoapType> {
        SoapType::from_name(name)
            .or_else(|| {
                let i = self.enums.iter().position(|e| e == name)?;
                u16::try_from(i).ok().map(SoapType::Enum)
            })
            .or_else(|| {
                let i = self.classes.iter().position(|c| c == name)?;
                u16::try_from(i).ok().map(SoapType::Class)
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
pub(super) fn soap_type_with_item(
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
fn array_over_http(text: &str, names: &TypeNames) -> bool {
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
fn nullable_problem(name: &str, names: &TypeNames) -> Option<&'static str> {
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

/// Whether a type is spelled nullable (`int?`).
pub(super) fn nullable(name: &str) -> bool {
    name.ends_with('?')
}

/// How a type is spelled in the spec.
fn type_name(ty: SoapType) -> &'static str {
    ty.name()
}

/// The list of types for messages: `the types are string, boolean, …`.
fn valid_types() -> String {
    let names: Vec<&str> = SoapType::ALL.iter().map(|t| t.name()).collect();
    let (last, rest) = names.split_last().expect("there are types");
    format!(
        "the types are {} and {last} (and void, for a result)",
        rest.join(", ")
    )
}

/// The spec's enums and classes for a message about types: `, or one of the spec's enums
/// (Level)`; `[]` after any type for an array.
fn enums_hint(names: &TypeNames) -> String {
    let mut hint = String::new();
    if !names.enums.is_empty() {
        hint.push_str(&format!(
            ", or one of the spec's enums ({})",
            names.enums.join(", ")
        ));
    }
    if !names.classes.is_empty() {
        let mut classes: Vec<&str> = Vec::new();
        for class in &names.classes {
            if !classes.contains(&class.as_str()) {
                classes.push(class);
            }
        }
        hint.push_str(&format!(", or one of its types ({})", classes.join(", ")));
    }
    hint.push_str("; `[]` after a type makes an array of it (`int[]`, `int?[]`)");
    hint
}

const NCNAME_RULE: &str = "rmm accepts ASCII XML names: an ASCII letter or '_' first, \
                           then ASCII letters, digits, '_', '-' or '.'";

/// Why `name` is not an ASCII XML NCName, if it is not.
fn ncname_problem(name: &str) -> Option<String> {
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
pub(super) fn default_crate_name(service: &str) -> String {
    format!(
        "rmm-{}",
        crate::model::snake_case(service).replace('_', "-")
    )
}

/// Why `name` cannot be the generated crate's package name, if it cannot (Cargo's rules, kept
/// to ASCII: a letter first, then letters, digits, `-` or `_`, at most 64 characters).
fn crate_name_problem(name: &str) -> Option<String> {
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

/// Where an operation and its parts are written, as far as the scanner found them.
struct OpPlaces {
    lines: Option<OpLines>,
    name: Option<Pos>,
    /// Name and type position of each param, by index.
    params: Option<Vec<(Pos, Pos)>>,
}

/// Collects issues.
struct Checker<'s, 'a> {
    loc: &'s Locator<'a>,
    issues: Vec<Issue>,
}

impl Checker<'_, '_> {
    fn push(&mut self, at: Option<Pos>, anchor: Option<Pos>, message: String) {
        self.issues.push(Issue {
            at,
            anchor: at.or(anchor),
            message,
        });
    }

    /// Reports `name` if it is not an XML name; `subject` names it in the message (`secret
    /// "x"`). Returns whether it is one.
    fn ncname(&mut self, name: &str, subject: &str, at: Option<Pos>, anchor: Option<Pos>) -> bool {
        match ncname_problem(name) {
            None => true,
            Some(why) => {
                self.push(
                    at,
                    anchor,
                    format!("{subject} is not a valid XML name: {why}; {NCNAME_RULE}"),
                );
                false
            }
        }
    }

    /// Reports an operation, service or type name that is not an XML name. Any XML name
    /// gives a Rust name: the model decides it (`crate::model`), numbered where taken.
    fn type_name(&mut self, name: &str, what: &str, at: Option<Pos>, anchor: Option<Pos>) {
        self.ncname(name, &format!("{what} {name:?}"), at, anchor);
    }

    /// Reports each of `names` (from list `key`) that is not in `used`, and returns them.
    fn unused<'n>(
        &mut self,
        used: &HashSet<&str>,
        key: &str,
        what: &str,
        names: &[&'n str],
    ) -> Vec<&'n str> {
        let mut unused = Vec::new();
        for &name in names {
            if !used.contains(name) {
                self.push(
                    self.loc.list_entry(key, name, 0),
                    self.loc.top_key_pos(key),
                    format!("{what} {name:?} is not a parameter of any operation"),
                );
                unused.push(name);
            }
        }
        unused
    }

    /// Checks one of the top-level name lists; returns the names that are valid, first
    /// occurrence only.
    fn name_list<'n>(&mut self, key: &str, what: &str, names: &'n [String]) -> Vec<&'n str> {
        let list_at = self.loc.top_key_pos(key);
        let mut count: HashMap<&str, usize> = HashMap::new();
        let mut valid = Vec::new();
        for name in names {
            let nth = count.entry(name).or_insert(0);
            let at = self.loc.list_entry(key, name, *nth);
            *nth += 1;
            if *nth == 1 {
                if self.ncname(name, &format!("{what} {name:?}"), at, list_at) {
                    valid.push(name.as_str());
                }
            } else if *nth == 2 {
                self.push(at, list_at, format!("{key} lists {name:?} twice"));
            }
        }
        valid
    }
}

/// Checks everything the brief of the spec format asks; the issues come out in source order.
/// The classes of `types:`: names, members, member types.
fn check_classes(c: &mut Checker<'_, '_>, raw: &RawSpec, names: &TypeNames) {
    let loc = c.loc;
    let types_at = loc.top_key_pos("types");
    let lines = loc.top_items("types", raw.types.len());
    let mut seen = HashSet::new();
    let mut scratch = Vec::new();
    for (i, class) in raw.types.iter().enumerate() {
        let name = class.name.0.as_str();
        let item = lines.as_ref().map(|l| l[i]);
        let item_at = item.map(|l| loc.op_start(l)).or(types_at);
        let at = item.and_then(|l| loc.op_value(l, "name", name)).or(item_at);
        c.type_name(name, "type name", at, item_at);
        if SoapType::from_name(name).is_some() || names.enums.iter().any(|e| e == name) {
            c.push(
                at,
                item_at,
                format!("type {name:?} has the name of a simple type or an enum; rename it"),
            );
        }
        if !seen.insert(name) {
            c.push(
                at,
                item_at,
                format!("type {name:?} is defined twice; type names must be unique"),
            );
        }
        if class.doc.as_deref().is_some_and(|d| d.trim().is_empty()) {
            let doc_at = item.and_then(|l| loc.op_key(l, "doc"));
            c.push(
                doc_at.or(at),
                item_at,
                format!("type {name:?} has an empty doc; leave the key out for none"),
            );
        }
        if let Some(base) = &class.base {
            let base_at = item.and_then(|l| loc.op_value(l, "base", &base.0)).or(at);
            if !names.classes.contains(&base.0) {
                c.push(
                    base_at,
                    item_at,
                    format!(
                        "type {name:?} has the base {:?}, which is not a type of the spec",
                        base.0
                    ),
                );
            } else {
                // The chain of bases must end: no class derives from itself.
                let mut seen = vec![name];
                let mut next = Some(base.0.as_str());
                while let Some(b) = next {
                    if seen.contains(&b) {
                        c.push(
                            base_at,
                            item_at,
                            format!(
                                "type {name:?} derives from itself (through {}); a chain of \
                                 bases must end",
                                seen.join(" → ")
                            ),
                        );
                        break;
                    }
                    seen.push(b);
                    next = raw
                        .types
                        .iter()
                        .find(|t| t.name.0 == b)
                        .and_then(|t| t.base.as_ref().map(|w| w.0.as_str()));
                }
                // A member named like one it inherits would be a second element of that name.
                let mut ancestor = Some(base.0.as_str());
                let mut steps = 0;
                while let Some(a) = ancestor.filter(|_| steps < raw.types.len()) {
                    steps += 1;
                    let Some(t) = raw.types.iter().find(|t| t.name.0 == a) else {
                        break;
                    };
                    for m in &class.members {
                        if t.members.iter().any(|inherited| inherited.name == m.name) {
                            c.push(
                                at,
                                item_at,
                                format!(
                                    "type {name:?} has the member {:?}, which it inherits from \
                                     {a:?}; a derived class adds members of other names",
                                    m.name
                                ),
                            );
                        }
                    }
                    ancestor = t.base.as_ref().map(|w| w.0.as_str());
                }
            }
        }
        // Attributes and text content: simple values, on a class of its own (no base, no class
        // derived from it: rmm does not carry them through inheritance yet).
        let derived = raw
            .types
            .iter()
            .any(|t| t.base.as_ref().is_some_and(|b| b.0 == name));
        if (!class.attributes.is_empty() || class.text.is_some() || class.any_attribute.is_some())
            && (class.base.is_some() || derived)
        {
            c.push(
                at,
                item_at,
                format!(
                    "type {name:?} has attributes or text and takes part in inheritance, which \
                     rmm does not carry yet"
                ),
            );
        }
        if let Some(any) = &class.any_attribute {
            c.ncname(
                &any.0,
                &format!("the any_attribute member of type {name:?}"),
                at,
                item_at,
            );
            if class.attributes.iter().any(|a| a.name == any.0)
                || class.members.iter().any(|m| m.name == any.0)
            {
                c.push(
                    at,
                    item_at,
                    format!(
                        "type {name:?} names its any_attribute member {:?}, as another member",
                        any.0
                    ),
                );
            }
        }
        if class.text.is_some() && !class.members.is_empty() {
            c.push(
                at,
                item_at,
                format!(
                    "type {name:?} has text content and members: XmlSerializer's [XmlText] \
                     class holds text and attributes only"
                ),
            );
        }
        let simple = |ty: &str, scratch: &mut Vec<ArrayDef>| {
            soap_type(ty, names, scratch)
                .filter(|t| !t.is_complex() && *t != SoapType::Void)
                .is_some()
                && !ty.ends_with('?')
        };
        if let Some(text) = &class.text {
            if text.0 != "string" {
                c.push(
                    at,
                    item_at,
                    format!(
                        "type {name:?} has text of type {:?}; rmm carries text content \
                         ([XmlText]) of type string",
                        text.0
                    ),
                );
            }
        }
        let mut attribute_seen = HashSet::new();
        for a in &class.attributes {
            let subject = format!("attribute {:?} of type {name:?}", a.name);
            c.ncname(&a.name, &subject, at, item_at);
            if !attribute_seen.insert(a.name.as_str()) {
                c.push(
                    at,
                    item_at,
                    format!("type {name:?} lists attribute {:?} twice", a.name),
                );
            }
            if !simple(&a.ty, &mut scratch) {
                c.push(
                    at,
                    item_at,
                    format!(
                        "{subject} is {:?}; an attribute is of a simple type, not nullable",
                        a.ty
                    ),
                );
            }
            if a.qualified && a.namespace.is_some() {
                c.push(
                    at,
                    item_at,
                    format!(
                        "{subject} is qualified and names a namespace; a qualified attribute \
                         is of its class's namespace"
                    ),
                );
            }
            check_data_type(c, &subject, &a.ty, a.data_type.as_deref(), at, item_at);
            if let Some(ns) = &a.namespace {
                if ns != crate::model::XML_NS || a.ty != "string" {
                    c.push(
                        at,
                        item_at,
                        format!(
                            "{subject} is of the namespace {ns:?} and of type {}; rmm carries \
                             an attribute of the XML namespace (xml:lang, \
                             http://www.w3.org/XML/1998/namespace) of type string only, for now",
                            a.ty
                        ),
                    );
                }
            }
            if a.optional
                || a.default.is_some()
                || a.item.is_some()
                || a.unwrapped
                || a.list
                || a.any
                || a.unqualified
            {
                c.push(
                    at,
                    item_at,
                    format!(
                        "{subject} is written as a map with options of an element; an \
                         attribute's map takes type, namespace, qualified and data_type only"
                    ),
                );
            }
        }
        let member_names: Vec<&str> = class.members.iter().map(|m| m.name.as_str()).collect();
        let places = item.and_then(|l| loc.entries(l, "members", &member_names));
        let mut member_seen = HashSet::new();
        // A simple type or an enum, not nullable (an unqualified member's).
        let simple_or_enum = |ty: &str| {
            names
                .named(ty)
                .is_some_and(|t| !t.is_complex() && !t.is_raw() && t != SoapType::Void)
        };
        for (j, m) in class.members.iter().enumerate() {
            let (m_at, ty_at) = match &places {
                Some(v) => (Some(v[j].0), Some(v[j].1)),
                None => (None, None),
            };
            let subject = format!("member {:?} of type {name:?}", m.name);
            c.ncname(&m.name, &subject, m_at, at);
            if !member_seen.insert(m.name.as_str()) {
                c.push(
                    m_at,
                    at,
                    format!("type {name:?} lists member {:?} twice", m.name),
                );
            }
            if m.item.is_some() || m.unwrapped {
                let one_level = m.ty.ends_with("[]") && !m.ty[..m.ty.len() - 2].ends_with("[]");
                let problem = if !m.ty.ends_with("[]") {
                    Some("item and unwrapped are for a member of an array type")
                } else if m.item.is_some() && m.unwrapped {
                    Some("an unwrapped array has no items element to rename: its items are named after the member")
                } else if m.unwrapped && (!one_level || m.ty.ends_with("?[]")) {
                    Some("an unwrapped array is of one level, of items that are not nullable")
                } else {
                    None
                };
                if let Some(problem) = problem {
                    c.push(
                        ty_at,
                        at,
                        format!("member {:?} of type {name:?}: {problem}", m.name),
                    );
                }
                if let Some(item) = &m.item {
                    c.ncname(
                        item,
                        &format!("the item name of member {:?} of type {name:?}", m.name),
                        ty_at,
                        at,
                    );
                }
            }
            check_data_type(c, &subject, &m.ty, m.data_type.as_deref(), ty_at, at);
            if m.data_type.is_some() && (m.any || m.unwrapped || m.item.is_some() || m.list) {
                c.push(
                    ty_at,
                    at,
                    format!("{subject}: data_type excludes any, unwrapped, item and list"),
                );
            }
            if m.qualified {
                c.push(
                    ty_at,
                    at,
                    format!(
                        "{subject}: qualified is for an attribute (a member element is \
                         qualified unless unqualified)"
                    ),
                );
            }
            if m.namespace.is_some() {
                c.push(
                    ty_at,
                    at,
                    format!(
                        "member {:?} of type {name:?}: namespace is for an attribute (xml:lang) \
                         only, for now",
                        m.name
                    ),
                );
            }
            if m.unqualified && !simple_or_enum(&m.ty) {
                c.push(
                    ty_at,
                    at,
                    format!(
                        "member {:?} of type {name:?}: unqualified is for a member of a simple \
                         type or an enum (an element of no namespace), and this one is {}",
                        m.name, m.ty
                    ),
                );
            }
            if m.unqualified && (m.any || m.unwrapped || m.item.is_some()) {
                c.push(
                    ty_at,
                    at,
                    format!(
                        "member {:?} of type {name:?}: unqualified excludes any, unwrapped and \
                         item",
                        m.name
                    ),
                );
            }
            if m.list && (!m.ty.ends_with("[]") || m.unwrapped) {
                c.push(
                    ty_at,
                    at,
                    format!(
                        "member {:?} of type {name:?}: list is for a member of an array type \
                         with a wrapper (a List<T>, which XmlSerializer writes as a T[])",
                        m.name
                    ),
                );
            }
            if let Some(problem) = presence_problem(raw, m, names) {
                c.push(
                    ty_at,
                    at,
                    format!("member {:?} of type {name:?}: {problem}", m.name),
                );
            }
            let null_problem = nullable(&m.ty)
                .then(|| nullable_problem(&m.ty, names))
                .flatten();
            if let Some(problem) = null_problem {
                c.push(
                    ty_at,
                    at,
                    format!(
                        "member {:?} of type {name:?} is {}; {problem}",
                        m.name, m.ty
                    ),
                );
            } else if soap_type(&m.ty, names, &mut scratch).is_none() {
                c.push(
                    ty_at,
                    at,
                    format!(
                        "member {:?} of type {name:?} has unknown type {:?}; {}{}",
                        m.name,
                        m.ty,
                        valid_types(),
                        enums_hint(names)
                    ),
                );
            }
        }
    }
}

pub(super) fn validate(raw: &RawSpec, loc: &Locator) -> Vec<Issue> {
    let mut c = Checker {
        loc,
        issues: Vec::new(),
    };

    // service
    /// Characters that would need escaping where the namespace and path are spliced into
    /// XML, HTML and header values.
    const MARKUP: &str = "<>&\"'\\";
    let service = &raw.service;
    let service_at = loc.top_key_pos("service");
    let name_at = loc.service_value("name", &service.name.0);
    c.type_name(&service.name.0, "service name", name_at, service_at);
    if let Some(crate_name) = &service.crate_name {
        let at = loc.service_value("crate", &crate_name.0);
        let name = &crate_name.0;
        let problem = if name.is_empty() {
            Some("it is empty".to_owned())
        } else {
            crate_name_problem(name)
        };
        if let Some(why) = problem {
            c.push(
                at,
                service_at,
                format!(
                    "service crate {name:?} cannot name a Cargo package: {why}; a package name \
                     is an ASCII letter, then letters, digits, '-' or '_' (64 at most)"
                ),
            );
        }
    }
    let ns = &service.namespace;
    let ns_at = loc.service_value("namespace", ns);
    if ns.is_empty() {
        c.push(ns_at, service_at, "service namespace is empty".to_owned());
    } else if ns.chars().any(char::is_whitespace) {
        c.push(
            ns_at,
            service_at,
            format!("service namespace {ns:?} contains whitespace"),
        );
    } else if let Some(bad) = ns
        .chars()
        .find(|ch| MARKUP.contains(*ch) || !ch.is_ascii_graphic())
    {
        // The namespace is spliced into precomputed XML and headers; a URI never needs these.
        c.push(
            ns_at,
            service_at,
            format!("service namespace {ns:?} contains {bad:?}; a namespace must be visible ASCII without any of < > & \" ' \\"),
        );
    }
    let path = &service.path;
    let path_at = loc.service_value("path", path);
    if !path.starts_with('/') {
        c.push(
            path_at,
            service_at,
            format!("service path {path:?} must start with '/'"),
        );
    }
    if let Some(bad) = path.chars().find(|&ch| ch == '?' || ch == '#') {
        c.push(
            path_at,
            service_at,
            format!("service path {path:?} contains {bad:?}; a path has no query or fragment"),
        );
    }
    if path.chars().any(char::is_whitespace) {
        c.push(
            path_at,
            service_at,
            format!("service path {path:?} contains whitespace"),
        );
    } else if let Some(bad) = path
        .chars()
        .find(|ch| MARKUP.contains(*ch) || !ch.is_ascii())
    {
        c.push(
            path_at,
            service_at,
            format!("service path {path:?} contains {bad:?}; a path must be ASCII without any of < > & \" ' \\"),
        );
    }

    // the name lists
    let words = |list: &[super::raw::Word]| list.iter().map(|w| w.0.clone()).collect::<Vec<_>>();
    let credentials = words(&raw.credentials);
    let optional = words(&raw.optional_credentials);
    let secrets = words(&raw.secrets);
    let credentials = c.name_list("credentials", "credential", &credentials);
    let optional_valid = c.name_list("optional_credentials", "optional credential", &optional);
    let secrets = c.name_list("secrets", "secret", &secrets);
    let mut optional = Vec::new();
    for name in optional_valid {
        if credentials.contains(&name) {
            c.push(
                loc.list_entry("optional_credentials", name, 0),
                loc.top_key_pos("optional_credentials"),
                format!(
                    "{name:?} is listed in both credentials and optional_credentials; a \
                     credential is either carried by every operation (credentials) or by \
                     some (optional_credentials)"
                ),
            );
        } else {
            optional.push(name);
        }
    }

    // where everything is
    let ops_lines = loc.operations(raw.operations.len());
    let places: Vec<OpPlaces> = raw
        .operations
        .iter()
        .enumerate()
        .map(|(i, op)| {
            let lines = ops_lines.as_ref().map(|l| l[i]);
            let names: Vec<&str> = op.params.iter().map(|p| p.name.as_str()).collect();
            OpPlaces {
                lines,
                name: lines.and_then(|l| loc.op_value(l, "name", &op.name.0)),
                params: lines.and_then(|l| loc.params(l, &names)),
            }
        })
        .collect();

    // which names the operations use
    let used: HashSet<&str> = raw
        .operations
        .iter()
        .flat_map(|op| op.params.iter().map(|p| p.name.as_str()))
        .collect();
    let unused_credentials = c.unused(&used, "credentials", "credential", &credentials);
    c.unused(
        &used,
        "optional_credentials",
        "optional credential",
        &optional,
    );
    // A secret is a parameter, or a class's member (`Class.Member`, a header's password).
    let (members, secrets): (Vec<&str>, Vec<&str>) =
        secrets.into_iter().partition(|s| s.contains('.'));
    c.unused(&used, "secrets", "secret", &secrets);
    for secret in members {
        let (class, member) = secret.split_once('.').expect("a dot");
        let found = raw.types.iter().any(|t| {
            t.name.0 == class
                && t.members
                    .iter()
                    .chain(&t.attributes)
                    .any(|m| m.name == member)
        });
        if !found {
            c.push(
                loc.list_entry("secrets", secret, 0),
                loc.top_key_pos("secrets"),
                format!(
                    "secret {secret:?} names no member {member:?} of a type {class:?}; a secret is \
                     a parameter, or a class's member as `Class.Member`"
                ),
            );
        }
    }

    // operations
    if raw.operations.is_empty() {
        c.push(
            loc.top_key_pos("operations"),
            None,
            "operations: the list is empty; a spec needs at least one operation".to_owned(),
        );
    }
    let mut op_seen: HashMap<&str, usize> = HashMap::new();
    // enums
    let enums_at = loc.top_key_pos("enums");
    let names = TypeNames::of(raw);
    let mut scratch = Vec::new();
    let mut resolve = |text: &str| soap_type(text, &names, &mut scratch);
    let mut enum_seen = HashSet::new();
    for e in &raw.enums {
        let name = e.name.0.as_str();
        let at = loc.enum_name(name).or(enums_at);
        c.type_name(name, "enum name", Some(at).flatten(), enums_at);
        if SoapType::from_name(name).is_some() {
            c.push(
                at,
                enums_at,
                format!("enum {name:?} has the name of a simple type; rename it"),
            );
        }
        if !enum_seen.insert(name) {
            c.push(
                at,
                enums_at,
                format!("enum {name:?} is defined twice; enum names must be unique"),
            );
        }
        if e.values.is_empty() {
            c.push(at, enums_at, format!("enum {name:?} has no values"));
        }
        if let Some(zero) = &e.zero {
            if !e.flags {
                c.push(
                    at,
                    enums_at,
                    format!("enum {name:?} names a zero value, which only a flags enum has (flags: true)"),
                );
            } else if !e.values.iter().any(|v| v.wire == zero.0) {
                c.push(
                    at,
                    enums_at,
                    format!(
                        "enum {name:?} names the zero value {:?}, which is not one of its values",
                        zero.0
                    ),
                );
            }
        }
        if e.flags && e.values.len() - usize::from(e.zero.is_some()) > 64 {
            c.push(
                at,
                enums_at,
                format!("flags enum {name:?} has more than 64 flags, which rmm holds in a u64"),
            );
        }
        let mut values = HashSet::new();
        let mut members = HashSet::new();
        for value in &e.values {
            let explicit = value.member.as_deref();
            let member = explicit.unwrap_or(&value.wire);
            let value = value.wire.as_str();
            if !values.insert(value) {
                c.push(
                    at,
                    enums_at,
                    format!("enum {name:?} lists the value {value:?} twice"),
                );
                continue;
            }
            let markup = value.trim() != value
                || value
                    .chars()
                    .any(|ch| ch.is_control() || "<>&\"'".contains(ch));
            if markup {
                c.push(
                    at,
                    enums_at,
                    format!(
                        "enum {name:?} has the value {value:?}; rmm writes enum values as \
                         they are, so they hold no markup characters, controls or white \
                         space around"
                    ),
                );
            }
            if markup && explicit.is_none() {
                // Refused above; its member name is the same text.
            } else if !crate::model::is_member_name(member) {
                c.push(
                    at,
                    enums_at,
                    format!(
                        "enum {name:?} has the value {value:?}, whose .NET member name \
                         {member:?} is not a C# identifier; write the value \
                         `- {value}: MemberName` with the enum's member name"
                    ),
                );
            } else if !members.insert(member) {
                c.push(
                    at,
                    enums_at,
                    format!("enum {name:?} has the .NET member name {member:?} twice"),
                );
            }
            // Two values that give one variant are numbered apart by the model.
            if crate::model::variant_name(value).is_none() {
                c.push(
                    at,
                    enums_at,
                    format!(
                        "enum {name:?} has the value {value:?}, which gives no Rust variant \
                         name (it needs an ASCII letter or digit)"
                    ),
                );
            }
        }
    }

    check_classes(&mut c, raw, &names);

    for (op, place) in raw.operations.iter().zip(&places) {
        let name = op.name.0.as_str();
        let op_at = place.lines.map(|l| loc.op_start(l));
        let anchor = place.name.or(op_at);
        // All four bindings when the spec lists none.
        let over_http = op.bindings.as_ref().is_none_or(|listed| {
            listed
                .iter()
                .any(|b| matches!(b, super::BindingName::Get | super::BindingName::Post))
        });
        c.type_name(name, "operation name", place.name, op_at);
        let seen = op_seen.entry(name).or_insert(0);
        *seen += 1;
        if *seen == 2 {
            c.push(
                place.name,
                op_at,
                format!("operation {name:?} is defined twice; operation names must be unique"),
            );
        }

        let empty = |text: &Option<String>| text.as_deref().is_some_and(|t| t.trim().is_empty());
        let doc_problem = match (&op.doc, &op.description) {
            (None, None) => Some(("doc", "has no doc", "it becomes the rustdoc")),
            (doc, _) if empty(doc) => Some(("doc", "has an empty doc", "it becomes the rustdoc")),
            (_, description) if empty(description) => Some((
                "description",
                "has an empty description",
                "the WSDL publishes it; leave the key out for none",
            )),
            _ => None,
        };
        if let Some((key, problem, why)) = doc_problem {
            let doc_at = place.lines.and_then(|l| loc.op_key(l, key));
            c.push(
                doc_at.or(place.name),
                op_at,
                format!("operation {name:?} {problem}; say what it does in a sentence ({why})"),
            );
        }

        let mut param_seen: HashMap<&str, usize> = HashMap::new();
        for (i, p) in op.params.iter().enumerate() {
            let (p_at, ty_at) = match &place.params {
                Some(v) => (Some(v[i].0), Some(v[i].1)),
                None => (None, None),
            };
            let subject = format!("parameter {:?} of operation {name:?}", p.name);
            c.ncname(&p.name, &subject, p_at, anchor);
            if p.extended {
                c.push(
                    ty_at,
                    anchor,
                    format!("{subject} is written as a map ({{type: …}}), which only a type's member may be"),
                );
            }
            let seen = param_seen.entry(&p.name).or_insert(0);
            *seen += 1;
            if *seen == 2 {
                c.push(
                    p_at,
                    anchor,
                    format!("operation {name:?} lists parameter {:?} twice", p.name),
                );
            }
            let array_null =
                p.ty.ends_with("[]?")
                    .then(|| nullable_problem(&p.ty, &names))
                    .flatten();
            if let Some(problem) = array_null {
                c.push(
                    ty_at,
                    anchor,
                    format!(
                        "parameter {:?} of operation {name:?} is {}; {problem}",
                        p.name, p.ty
                    ),
                );
            } else if resolve(&p.ty).is_none() {
                c.push(
                    ty_at,
                    anchor,
                    format!(
                        "parameter {:?} of operation {name:?} has unknown type {:?}; {}{}",
                        p.name,
                        p.ty,
                        valid_types(),
                        enums_hint(&names)
                    ),
                );
            } else if nullable(&p.ty)
                || resolve(&p.ty).is_some_and(|t| !t.over_http())
                || !array_over_http(&p.ty, &names)
            {
                if let Some(problem) = nullable(&p.ty)
                    .then(|| nullable_problem(&p.ty, &names))
                    .flatten()
                {
                    c.push(
                        ty_at,
                        anchor,
                        format!(
                            "parameter {:?} of operation {name:?} is {}; {problem}",
                            p.name, p.ty
                        ),
                    );
                } else if nullable(&p.ty)
                    && (credentials.contains(&p.name.as_str())
                        || optional.contains(&p.name.as_str()))
                {
                    c.push(
                        ty_at,
                        anchor,
                        format!(
                            "credential {:?} of operation {name:?} is {}; a credential is not \
                             nullable",
                            p.name, p.ty
                        ),
                    );
                } else if over_http {
                    let why = if p.ty.ends_with("[]") {
                        "an array HTTP GET/POST cannot carry (ASMX reads an array of simple \
                         values there, from repeated keys, and offers an operation with any \
                         other over SOAP only)"
                    } else {
                        "a type HTTP GET/POST cannot carry (ASMX offers such an operation over \
                         SOAP only)"
                    };
                    c.push(
                        ty_at,
                        anchor,
                        format!(
                            "parameter {:?} of operation {name:?} is {}, {why}; add \
                             `bindings: [soap11, soap12]` to the operation",
                            p.name, p.ty
                        ),
                    );
                }
            }
        }

        let result = &op.result.0;
        let result_at = place.lines.and_then(|l| loc.op_value(l, "result", result));
        if let Some(problem) = nullable(result)
            .then(|| nullable_problem(result, &names))
            .flatten()
        {
            c.push(
                result_at,
                anchor,
                format!("operation {name:?} has result type {result}; {problem}"),
            );
        }
        if result == "void?" {
            c.push(
                result_at,
                anchor,
                format!(
                    "operation {name:?} has result type void?; nothing cannot be null: write void"
                ),
            );
        } else if result != "void" && resolve(result).is_none() {
            c.push(
                result_at,
                anchor,
                format!(
                    "operation {name:?} has unknown result type {result:?}; {}{}",
                    valid_types(),
                    enums_hint(&names)
                ),
            );
        }

        let out_at = place.lines.and_then(|l| loc.op_key(l, "out"));
        let mut out_seen = HashSet::new();
        for o in &op.out {
            let subject = format!("out parameter {:?} of operation {name:?}", o.name);
            if o.extended {
                c.push(
                    out_at,
                    anchor,
                    format!("{subject} is written as a map ({{type: …}}), which only a type's member may be"),
                );
            }
            c.ncname(&o.name, &subject, out_at, anchor);
            if !out_seen.insert(o.name.as_str()) {
                c.push(
                    out_at,
                    anchor,
                    format!("operation {name:?} lists out parameter {:?} twice", o.name),
                );
            }
            if o.name == format!("{name}Result") {
                c.push(
                    out_at,
                    anchor,
                    format!(
                        "out parameter {:?} of operation {name:?} is named like its result element",
                        o.name
                    ),
                );
            }
            if let Some(problem) = nullable(&o.ty)
                .then(|| nullable_problem(&o.ty, &names))
                .flatten()
            {
                c.push(out_at, anchor, format!("{subject} is {}; {problem}", o.ty));
            } else if resolve(&o.ty).is_none() {
                c.push(
                    out_at,
                    anchor,
                    format!(
                        "{subject} has unknown type {:?}; {}{}",
                        o.ty,
                        valid_types(),
                        enums_hint(&names)
                    ),
                );
            }
        }
        if !op.out.is_empty() && over_http {
            c.push(
                out_at,
                anchor,
                format!(
                    "operation {name:?} has out parameters, which HTTP GET/POST cannot carry \
                     (ASMX offers such an operation over SOAP only); add `bindings: [soap11, \
                     soap12]` to the operation"
                ),
            );
        }

        if let Some(bindings) = &op.bindings {
            let at = place.lines.and_then(|l| loc.op_key(l, "bindings"));
            let mut seen = HashSet::new();
            if bindings.is_empty() {
                c.push(
                    at,
                    anchor,
                    format!(
                        "operation {name:?} lists no bindings; leave `bindings:` out to offer \
                         all four"
                    ),
                );
            }
            for binding in bindings {
                if !seen.insert(*binding) {
                    c.push(
                        at,
                        anchor,
                        format!("operation {name:?} lists binding {} twice", binding.name()),
                    );
                }
            }
        }

        for &cred in &credentials {
            if unused_credentials.contains(&cred) || op.params.iter().any(|p| p.name == cred) {
                continue;
            }
            c.push(
                place.name,
                op_at,
                format!(
                    "operation {name:?} lacks credential {cred:?}, which every operation must \
                     carry (list it in optional_credentials if only some operations do)"
                ),
            );
        }
    }

    check_bare(&mut c, raw, &places, loc);
    check_roots(&mut c, raw, &places, loc);
    check_namespaces(&mut c, raw, &places, loc);
    check_methods(&mut c, raw, &places, loc);
    check_headers(&mut c, raw, &places, loc);
    check_raw_xml(&mut c, raw, &places, loc);

    // credential types: one per credential, int or string
    for (&cred, what) in credentials
        .iter()
        .map(|n| (n, "credential"))
        .chain(optional.iter().map(|n| (n, "optional credential")))
    {
        let mut first: Option<(&str, SoapType)> = None;
        for (op, place) in raw.operations.iter().zip(&places) {
            let Some(i) = op.params.iter().position(|p| p.name == cred) else {
                continue;
            };
            let Some(ty) = resolve(&op.params[i].ty) else {
                continue;
            };
            let at = place.params.as_ref().map(|v| v[i].1);
            let anchor = place.name.or(place.lines.map(|l| loc.op_start(l)));
            match first {
                None => {
                    first = Some((&op.name.0, ty));
                    if !matches!(ty, SoapType::Int | SoapType::String) {
                        c.push(
                            at,
                            anchor,
                            format!(
                                "{what} {cred:?} is {} in operation {:?}; a credential must \
                                 be int or string",
                                type_name(ty),
                                op.name.0
                            ),
                        );
                    }
                }
                Some((first_op, first_ty)) if first_ty != ty => c.push(
                    at,
                    anchor,
                    format!(
                        "{what} {cred:?} is {} in operation {first_op:?} but {} in operation \
                         {:?}; a credential has one type in every operation",
                        type_name(first_ty),
                        type_name(ty),
                        op.name.0
                    ),
                ),
                Some(_) => {}
            }
        }
    }

    let mut issues = c.issues;
    issues.sort_by_key(|issue| {
        issue
            .anchor
            .map_or((usize::MAX, usize::MAX), |p| (p.line, p.column))
    });
    issues
}

/// Bare operations (`style: bare`): their parameters and results are global elements of the
/// schema, so each name holds one type and names no wrapper element; out parameters, which
/// ASMX would add as further parts, are not supported with it.
fn check_bare(c: &mut Checker<'_, '_>, raw: &RawSpec, places: &[OpPlaces], loc: &Locator<'_>) {
    // The wrapper elements of the wrapped operations.
    let mut wrappers = HashSet::new();
    for op in &raw.operations {
        if op.style == super::ParameterStyle::Wrapped {
            wrappers.insert(op.name.0.clone());
            wrappers.insert(format!("{}Response", op.name.0));
        }
    }
    // Each global element of a bare operation: its type and the operation that declares it.
    let mut elements: HashMap<String, (String, String)> = HashMap::new();
    for (op, place) in raw.operations.iter().zip(places) {
        if op.style != super::ParameterStyle::Bare {
            continue;
        }
        let name = op.name.0.as_str();
        let op_at = place.lines.map(|l| loc.op_start(l));
        let anchor = place.name.or(op_at);
        let style_at = place.lines.and_then(|l| loc.op_key(l, "style"));
        if !op.out.is_empty() {
            c.push(
                style_at,
                anchor,
                format!(
                    "operation {name:?} is bare and has out parameters; rmm supports out \
                     parameters on wrapped operations only"
                ),
            );
        }
        let result = (op.result.0 != "void").then(|| (format!("{name}Result"), &op.result.0));
        let declared = op
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| (p.name.clone(), &p.ty, place.params.as_ref().map(|v| v[i].0)))
            .chain(result.map(|(n, ty)| (n, ty, style_at)));
        for (element, ty, at) in declared {
            if wrappers.contains(&element) {
                c.push(
                    at,
                    anchor,
                    format!(
                        "the element {element:?} of bare operation {name:?} is also a wrapped \
                         operation's element; a schema declares each element once: rename the \
                         parameter"
                    ),
                );
                continue;
            }
            match elements.get(&element) {
                Some((other_ty, other_op)) if other_ty != ty => c.push(
                    at,
                    anchor,
                    format!(
                        "the element {element:?} of bare operation {name:?} is {ty} there and \
                         {other_ty} in operation {other_op:?}; a schema declares each element \
                         once, with one type"
                    ),
                ),
                Some(_) => {}
                None => {
                    elements.insert(element, (ty.clone(), name.to_owned()));
                }
            }
        }
    }
}

/// A `data_type` (.NET's `DataType = …`): one of the XML Schema types .NET reads as a string,
/// trimmed, on a string.
fn check_data_type(
    c: &mut Checker<'_, '_>,
    subject: &str,
    ty: &str,
    data_type: Option<&str>,
    at: Option<Pos>,
    anchor: Option<Pos>,
) {
    let Some(data_type) = data_type else {
        return;
    };
    if !crate::model::COLLAPSED_STRINGS.contains(&data_type) {
        c.push(
            at,
            anchor,
            format!(
                "{subject} has the data_type {data_type:?}; rmm carries a string of one of {}",
                crate::model::COLLAPSED_STRINGS.join(", ")
            ),
        );
    } else if ty != "string" {
        c.push(
            at,
            anchor,
            format!("{subject} has a data_type ({data_type}) and is {ty:?}, not a string"),
        );
    }
}

/// Classes of another namespace (`namespace:`): SOAP header classes of WS-Security's or
/// ebXML's kind and the classes they hold, their members qualified in their namespace. rmm
/// carries them as headers (and members of classes of the same namespace) only, of simple
/// types and classes of that namespace, outside inheritance.
fn check_namespaces(
    c: &mut Checker<'_, '_>,
    raw: &RawSpec,
    places: &[OpPlaces],
    loc: &Locator<'_>,
) {
    let types_at = loc.top_key_pos("types");
    let lines = loc.top_items("types", raw.types.len());
    // The class a type spelling names (`Inner`, `Inner[]`, `Inner?`), and its namespace.
    let foreign = |ty: &str| {
        let name = ty
            .trim_end_matches('?')
            .trim_end_matches("[]")
            .trim_end_matches('?');
        raw.types
            .iter()
            .find(|t| t.name.0 == name)
            .and_then(|t| t.namespace.as_deref().map(|ns| (t.name.0.as_str(), ns)))
    };
    for (i, class) in raw.types.iter().enumerate() {
        let name = class.name.0.as_str();
        let at = lines.as_ref().map(|l| loc.op_start(l[i])).or(types_at);
        let own = class.namespace.as_deref();
        if let Some(ns) = own {
            if let Some(bad) = ns
                .chars()
                .find(|ch| ch.is_whitespace() || "<>&\"'\\".contains(*ch))
            {
                c.push(
                    at,
                    types_at,
                    format!(
                        "type {name:?} has the namespace {ns:?}, which contains {bad:?}; a \
                         namespace is visible ASCII without any of < > & \" ' \\"
                    ),
                );
            }
            if ns.trim().is_empty() || ns == raw.service.namespace {
                c.push(
                    at,
                    types_at,
                    format!(
                        "type {name:?} has the namespace {ns:?}: a class's namespace is one \
                         other than the service's; leave it out for the service's"
                    ),
                );
            }
            let derived = raw
                .types
                .iter()
                .any(|t| t.base.as_ref().is_some_and(|b| b.0 == name));
            if class.base.is_some() || derived || class.is_abstract || class.root.is_some() {
                c.push(
                    at,
                    types_at,
                    format!(
                        "type {name:?} of the namespace {ns:?} takes part in inheritance or has \
                         a root; rmm carries a class of another namespace as a SOAP header \
                         (and the classes it holds) only"
                    ),
                );
            }
        }
        for member in &class.members {
            let ty = member.ty.as_str();
            // An unwrapped array's items are the member's own elements, of its class's
            // namespace; a wrapped one's type (`ArrayOfX`) would be of that namespace too.
            let unwrapped_item = member
                .unwrapped
                .then(|| ty.trim_end_matches("[]"))
                .filter(|item| !item.ends_with("[]"));
            let problem = match (own, foreign(unwrapped_item.unwrap_or(ty))) {
                (Some(_), _) if ty.ends_with("[]") && unwrapped_item.is_none() => Some(
                    "an array with a wrapper, which rmm does not carry in a class of another \
                     namespace yet (an unwrapped one it does)"
                        .to_owned(),
                ),
                (Some(_), _) if unwrapped_item == Some("object") => Some(
                    "an array of objects, which rmm does not carry in a class of another \
                     namespace yet (an object it does)"
                        .to_owned(),
                ),
                (Some(_), _) if matches!(ty, "xml" | "xmlNode" | "dataSet" | "dataTable") => Some(
                    format!("{ty}, which rmm does not carry in a class of another namespace yet"),
                ),
                (Some(ns), Some((other, other_ns))) if ns != other_ns => Some(format!(
                    "the class {other:?} of the namespace {other_ns:?}, another than its own \
                     {ns:?}"
                )),
                (None, Some((other, other_ns))) => Some(format!(
                    "the class {other:?} of the namespace {other_ns:?}; a class of another \
                     namespace serves as a SOAP header (and in its own classes) only"
                )),
                _ => None,
            };
            if let Some(problem) = problem {
                c.push(
                    at,
                    types_at,
                    format!("member {:?} of type {name:?} is {problem}", member.name),
                );
            }
        }
    }
    for (op, place) in raw.operations.iter().zip(places) {
        let anchor = place.name.or(place.lines.map(|l| loc.op_start(l)));
        let used = op
            .params
            .iter()
            .chain(&op.out)
            .map(|p| (p.name.as_str(), p.ty.as_str()))
            .chain(std::iter::once(("the result", op.result.0.as_str())));
        for (what, ty) in used {
            if let Some((class, ns)) = foreign(ty) {
                c.push(
                    anchor,
                    anchor,
                    format!(
                        "operation {:?}: {what} is of the class {class:?} of the namespace \
                         {ns:?}; a class of another namespace serves as a SOAP header only",
                        op.name.0
                    ),
                );
            }
        }
    }
}

/// Classes with `root:` (`[XmlRoot]`): the root is an XML name; XmlSerializer names a
/// method's parameter or result of such a class after it, so a parameter of it must carry that
/// name. rmm supports it on wrapped operations' parameters and results, for classes that take
/// no part in inheritance.
fn check_roots(c: &mut Checker<'_, '_>, raw: &RawSpec, places: &[OpPlaces], loc: &Locator<'_>) {
    let types_at = loc.top_key_pos("types");
    let lines = loc.top_items("types", raw.types.len());
    let mut roots: HashMap<&str, &str> = HashMap::new();
    for (i, class) in raw.types.iter().enumerate() {
        let Some(root) = &class.root else { continue };
        let name = class.name.0.as_str();
        let item_at = lines.as_ref().map(|l| loc.op_start(l[i])).or(types_at);
        let at = lines
            .as_ref()
            .and_then(|l| loc.op_value(l[i], "root", &root.0))
            .or(item_at);
        if !c.ncname(&root.0, &format!("the root of type {name:?}"), at, item_at) {
            continue;
        }
        let derived = raw
            .types
            .iter()
            .any(|t| t.base.as_ref().is_some_and(|b| b.0 == name));
        if class.base.is_some() || derived || class.is_abstract {
            c.push(
                at,
                item_at,
                format!(
                    "type {name:?} has a root and takes part in inheritance, which rmm does not \
                     carry yet"
                ),
            );
            continue;
        }
        // Each root is an element of the schema (an HTTP result's, at least): one type each.
        let taken = roots
            .iter()
            .find(|(_, r)| **r == root.0)
            .map(|(class, _)| format!("the root of type {class:?}"))
            .or_else(|| {
                let other_class = raw
                    .types
                    .iter()
                    .any(|t| t.name.0 == root.0 && t.name.0 != name);
                let an_enum = raw.enums.iter().any(|e| e.name.0 == root.0);
                (other_class || an_enum).then(|| "the name of a type".to_owned())
            });
        if let Some(taken) = taken {
            c.push(
                at,
                item_at,
                format!(
                    "the root {:?} of type {name:?} is also {taken}; a schema declares each \
                     element once",
                    root.0
                ),
            );
            continue;
        }
        roots.insert(name, &root.0);
    }
    for (op, place) in raw.operations.iter().zip(places) {
        let name = op.name.0.as_str();
        let op_at = place.lines.map(|l| loc.op_start(l));
        let anchor = place.name.or(op_at);
        let bare = op.style == super::ParameterStyle::Bare;
        for (i, p) in op.params.iter().enumerate() {
            let Some(&root) = roots.get(p.ty.as_str()) else {
                continue;
            };
            let at = place.params.as_ref().map(|v| v[i].0);
            if bare {
                c.push(
                    at,
                    anchor,
                    format!(
                        "parameter {:?} of bare operation {name:?} is of type {:?}, which has a \
                         root; rmm supports roots on wrapped operations only",
                        p.name, p.ty
                    ),
                );
            } else if p.name != root {
                c.push(
                    at,
                    anchor,
                    format!(
                        "parameter {:?} of operation {name:?} is of type {:?}, whose root \
                         ([XmlRoot]) names it {root:?} on the wire: name it {root:?}",
                        p.name, p.ty
                    ),
                );
            }
        }
        let result_at = place.lines.and_then(|l| loc.op_key(l, "result"));
        if bare && roots.contains_key(op.result.0.as_str()) {
            c.push(
                result_at,
                anchor,
                format!(
                    "the result of bare operation {name:?} is of type {:?}, which has a root; \
                     rmm supports roots on wrapped operations only",
                    op.result.0
                ),
            );
        }
        if !op.out.is_empty() && roots.contains_key(op.result.0.as_str()) {
            c.push(
                result_at,
                anchor,
                format!(
                    "the result of operation {name:?} is of type {:?}, which has a root, beside \
                     out parameters; rmm does not support that yet",
                    op.result.0
                ),
            );
        }
        if let Some(out) = op.out.iter().find(|o| roots.contains_key(o.ty.as_str())) {
            c.push(
                place.lines.and_then(|l| loc.op_key(l, "out")),
                anchor,
                format!(
                    "out parameter {:?} of operation {name:?} is of type {:?}, which has a \
                     root; rmm does not support that yet",
                    out.name, out.ty
                ),
            );
        }
    }
}

/// Operations named by `[WebMethod(MessageName)]` (`method:`, an overload): the method is an
/// XML name other than the operation's own and than any operation's (a WSDL's messages and
/// elements are named after the operations, the port type's operations after the methods).
fn check_methods(c: &mut Checker<'_, '_>, raw: &RawSpec, places: &[OpPlaces], loc: &Locator<'_>) {
    for (op, place) in raw.operations.iter().zip(places) {
        let Some(method) = &op.method else { continue };
        let name = op.name.0.as_str();
        let anchor = place.name.or(place.lines.map(|l| loc.op_start(l)));
        let at = place
            .lines
            .and_then(|l| loc.op_value(l, "method", &method.0))
            .or(anchor);
        if !c.ncname(
            &method.0,
            &format!("the method of operation {name:?}"),
            at,
            anchor,
        ) {
            continue;
        }
        if method.0 == name {
            c.push(
                at,
                anchor,
                format!(
                    "operation {name:?} names its own name as its method; leave `method:` out \
                     where [WebMethod] has no MessageName"
                ),
            );
        } else if raw.operations.iter().any(|o| o.name.0 == method.0) {
            c.push(
                at,
                anchor,
                format!(
                    "the method {:?} of operation {name:?} is also an operation's name; ASMX \
                     names an overload's messages after its MessageName, so no operation may \
                     take a method's name",
                    method.0
                ),
            );
        }
    }
}

/// SOAP headers (`headers:`, `[SoapHeader]` in any direction): each a class of `types:`
/// named once per operation, of members only (no inheritance, attributes or text, which rmm
/// does not carry in a header yet), used as a header and nothing else (its schema type takes
/// any attribute), whose element (named after it) is no operation's; on wrapped operations.
fn check_headers(c: &mut Checker<'_, '_>, raw: &RawSpec, places: &[OpPlaces], loc: &Locator<'_>) {
    let headers: HashSet<&str> = raw
        .operations
        .iter()
        .flat_map(|op| op.headers.iter().map(|h| h.class.as_str()))
        .collect();
    let class = |name: &str| raw.types.iter().find(|t| t.name.0 == name);
    for (op, place) in raw.operations.iter().zip(places) {
        let name = op.name.0.as_str();
        let anchor = place.name.or(place.lines.map(|l| loc.op_start(l)));
        let at = place
            .lines
            .and_then(|l| loc.op_key(l, "headers"))
            .or(anchor);
        let mut seen = HashSet::new();
        for header in &op.headers {
            let h = header.class.as_str();
            let Some(def) = class(h) else {
                c.push(
                    at,
                    anchor,
                    format!(
                        "operation {name:?} names the header {h:?}, which is no type of `types:`; \
                         a SOAP header is a class"
                    ),
                );
                continue;
            };
            if !seen.insert(h) {
                c.push(
                    at,
                    anchor,
                    format!("operation {name:?} names the header {h:?} twice"),
                );
            }
            let derived = raw
                .types
                .iter()
                .any(|t| t.base.as_ref().is_some_and(|b| b.0 == h));
            if def.base.is_some()
                || derived
                || def.is_abstract
                || def.text.is_some()
                || def.root.is_some()
            {
                c.push(
                    at,
                    anchor,
                    format!(
                        "the header {h:?} of operation {name:?} takes part in inheritance or has \
                         text or a root, which rmm does not carry in a header yet"
                    ),
                );
            }
            if raw
                .operations
                .iter()
                .any(|o| o.name.0 == h || format!("{}Response", o.name.0) == h)
            {
                c.push(
                    at,
                    anchor,
                    format!(
                        "the header {h:?} of operation {name:?} is named like an operation's \
                         element; a schema declares each element once"
                    ),
                );
            }
        }
        if !op.headers.is_empty() && op.style == super::ParameterStyle::Bare {
            c.push(
                at,
                anchor,
                format!(
                    "operation {name:?} is bare and has SOAP headers; rmm supports headers on \
                     wrapped operations only, for now"
                ),
            );
        }
        // A header class is a header only: its schema type differs from a class's.
        let used = op
            .params
            .iter()
            .chain(&op.out)
            .map(|p| (p.name.as_str(), p.ty.as_str()))
            .chain(std::iter::once(("the result", op.result.0.as_str())));
        for (what, ty) in used {
            let base = ty.trim_end_matches("[]").trim_end_matches('?');
            if headers.contains(base) {
                c.push(
                    at,
                    anchor,
                    format!(
                        "{what:?} of operation {name:?} is of type {base:?}, a SOAP header; rmm \
                         takes a header class as a header only"
                    ),
                );
            }
        }
    }
    let lines = loc.top_items("types", raw.types.len());
    for (i, class) in raw.types.iter().enumerate() {
        let item_at = lines
            .as_ref()
            .map(|l| loc.op_start(l[i]))
            .or(loc.top_key_pos("types"));
        for member in class.members.iter().chain(&class.attributes) {
            let base = member.ty.trim_end_matches("[]").trim_end_matches('?');
            if headers.contains(base) {
                c.push(
                    item_at,
                    item_at,
                    format!(
                        "member {:?} of type {:?} is of type {base:?}, a SOAP header; rmm takes a \
                         header class as a header only",
                        member.name, class.name.0
                    ),
                );
            }
        }
    }
}

/// Raw XML (`xml`, .NET `XmlElement`; `xmlNode`) and DataSets (`dataSet`): a parameter or
/// the result of a wrapped operation; raw XML also in arrays and as class members (an
/// `[XmlAnyElement]` one among them); nothing else yet (no array or member of a DataSet, no
/// out parameter, not in a bare operation, not nullable: it is a reference).
fn check_raw_xml(c: &mut Checker<'_, '_>, raw: &RawSpec, places: &[OpPlaces], loc: &Locator<'_>) {
    const DATA_SETS: &str = "rmm carries DataSets (`dataSet` and `dataTable`, .NET DataSet \
                             and DataTable) as a parameter or the result of a wrapped operation \
                             only, for now";
    const RAW: &str = "rmm carries raw XML (`xml` and `xmlNode`, .NET XmlElement and XmlNode) \
                       as a parameter, result, out parameter, array item or class member of a \
                       wrapped operation, not yet in a bare operation";
    let only = |ty: &str| {
        if matches!(ty.trim_end_matches("[]"), "dataSet" | "dataTable") {
            DATA_SETS
        } else {
            RAW
        }
    };
    let is_raw = |ty: &str| matches!(ty, "xml" | "xmlNode" | "dataSet" | "dataTable");
    // An array of a DataSet (`xml?` is refused as any reference spelled nullable); an array
    // of raw XML, in a bare operation.
    let uses_raw = |ty: &str| {
        let item = ty.trim_end_matches("[]").trim_end_matches('?');
        ty.ends_with("[]") && matches!(item, "dataSet" | "dataTable")
    };
    let bare_raw = |ty: &str| is_raw(ty.trim_end_matches("[]").trim_end_matches('?'));
    for (op, place) in raw.operations.iter().zip(places) {
        let name = op.name.0.as_str();
        let anchor = place.name.or(place.lines.map(|l| loc.op_start(l)));
        let bare = op.style == super::ParameterStyle::Bare;
        for (i, p) in op.params.iter().enumerate() {
            let at = place.params.as_ref().map(|v| v[i].1).or(anchor);
            if uses_raw(&p.ty) || (bare && bare_raw(&p.ty)) {
                c.push(
                    at,
                    anchor,
                    format!(
                        "parameter {:?} of operation {name:?} is {}; {}",
                        p.name,
                        p.ty,
                        only(&p.ty)
                    ),
                );
            }
        }
        let result_at = place.lines.and_then(|l| loc.op_key(l, "result")).or(anchor);
        if uses_raw(&op.result.0) || (bare && bare_raw(&op.result.0)) {
            c.push(
                result_at,
                anchor,
                format!(
                    "the result of operation {name:?} is {}; {}",
                    op.result.0,
                    only(&op.result.0)
                ),
            );
        }
        let out_at = place.lines.and_then(|l| loc.op_key(l, "out")).or(anchor);
        for o in &op.out {
            // Raw XML out parameters are read and written as members of the response.
            let data_set = matches!(o.ty.trim_end_matches("[]"), "dataSet" | "dataTable");
            if data_set || (bare && bare_raw(&o.ty)) {
                c.push(
                    out_at,
                    anchor,
                    format!(
                        "out parameter {:?} of operation {name:?} is {}; {}",
                        o.name,
                        o.ty,
                        only(&o.ty)
                    ),
                );
            }
        }
    }
    let lines = loc.top_items("types", raw.types.len());
    for (i, class) in raw.types.iter().enumerate() {
        let at = lines
            .as_ref()
            .map(|l| loc.op_start(l[i]))
            .or(loc.top_key_pos("types"));
        for member in &class.members {
            let item = member.ty.trim_end_matches("[]");
            if matches!(item, "dataSet" | "dataTable") {
                c.push(
                    at,
                    at,
                    format!(
                        "member {:?} of type {:?} is {}; {DATA_SETS}",
                        member.name, class.name.0, member.ty
                    ),
                );
            }
            if member.any && !matches!(member.ty.as_str(), "xml" | "xml[]") {
                c.push(
                    at,
                    at,
                    format!(
                        "member {:?} of type {:?} is any ([XmlAnyElement]) and of type {}; \
                         an any member is `xml` (one element, the last met) or `xml[]` (every \
                         element no other member takes)",
                        member.name, class.name.0, member.ty
                    ),
                );
            }
            if member.any && (member.item.is_some() || member.unwrapped || member.list) {
                c.push(
                    at,
                    at,
                    format!(
                        "member {:?} of type {:?} is any ([XmlAnyElement]): it has no element \
                         of its own, so no item name, unwrapped or list",
                        member.name, class.name.0
                    ),
                );
            }
        }
        let anys = class.members.iter().filter(|m| m.any).count();
        if anys > 1 {
            c.push(
                at,
                at,
                format!(
                    "type {:?} has {anys} any members ([XmlAnyElement]); rmm takes one a \
                     class, which takes every element no other member takes",
                    class.name.0
                ),
            );
        }
        for member in &class.attributes {
            if is_raw(&member.ty) || is_raw(member.ty.trim_end_matches("[]")) || member.any {
                c.push(
                    at,
                    at,
                    format!(
                        "attribute {:?} of type {:?} is {}; an attribute holds a simple value",
                        member.name, class.name.0, member.ty
                    ),
                );
            }
        }
    }
}

/// What is wrong with a member's `optional:` or `default:`, if anything: `optional` is for a
/// value type (a simple type but string and base64Binary, or an enum) that is not nullable,
/// `default` for a number, boolean, string or (not flags) enum, its text a value of it.
fn presence_problem(raw: &RawSpec, m: &super::raw::RawParam, names: &TypeNames) -> Option<String> {
    if !m.optional && m.default.is_none() {
        return None;
    }
    if m.optional && m.default.is_some() {
        return Some(
            "optional and default exclude each other: a member with a default is left out when \
             equal to it"
                .to_owned(),
        );
    }
    let ty = names.named(&m.ty);
    let flags = |i: u16| raw.enums.get(usize::from(i)).is_some_and(|e| e.flags);
    if m.optional {
        // `int?` with `optional`: absent, nil or a value.
        let ty = names.named(m.ty.strip_suffix('?').unwrap_or(&m.ty));
        return match ty {
            Some(SoapType::String | SoapType::Base64Binary | SoapType::Class(_)) | None => {
                Some(format!(
                    "optional is for a member of a value type (a number, boolean, enum, \
                     dateTime, …), and {} is not one: a reference is absent when null",
                    m.ty
                ))
            }
            Some(_) => None,
        };
    }
    let text = m.default.as_deref().unwrap_or_default();
    let bad = |what: &str| Some(format!("the default {text:?} is not {what}"));
    // An integer type's default: within the type's range.
    fn within<T: std::str::FromStr>(text: &str) -> bool {
        text.parse::<T>().is_ok()
    }
    let integer = match ty {
        Some(SoapType::Int) => Some((within::<i32>(text), "an int")),
        Some(SoapType::Long) => Some((within::<i64>(text), "a long")),
        Some(SoapType::Short) => Some((within::<i16>(text), "a short")),
        Some(SoapType::Byte) => Some((within::<i8>(text), "a byte")),
        Some(SoapType::UnsignedByte) => Some((within::<u8>(text), "an unsignedByte")),
        Some(SoapType::UnsignedShort) => Some((within::<u16>(text), "an unsignedShort")),
        Some(SoapType::UnsignedInt) => Some((within::<u32>(text), "an unsignedInt")),
        Some(SoapType::UnsignedLong) => Some((within::<u64>(text), "an unsignedLong")),
        _ => None,
    };
    if let Some((fits, what)) = integer {
        return if fits { None } else { bad(what) };
    }
    match ty {
        Some(SoapType::Double | SoapType::Float) => {
            // A finite number, as XmlSerializer writes one (`1.5`, `-1.7976931348623157E+308`),
            // not INF or NaN.
            let finite = !text.contains(['I', 'N', 'n', 'i'])
                && text
                    .trim_start_matches(['-', '+'])
                    .starts_with(|c: char| c.is_ascii_digit());
            if finite && text.parse::<f64>().is_ok_and(f64::is_finite) {
                None
            } else {
                bad("a finite number (digits, a point, an exponent)")
            }
        }
        Some(SoapType::Decimal) if super::decimal_parts(text).is_some() => None,
        Some(SoapType::Decimal) => {
            bad("a decimal: digits and a point, 29 digits at most, below 2^96 as a whole number")
        }
        Some(SoapType::DateTime) if super::datetime_parts(text).is_some() => None,
        Some(SoapType::DateTime) => {
            bad("a dateTime: a date and time that exist, written YYYY-MM-DDTHH:MM:SS, without a fraction or time zone")
        }
        Some(SoapType::Boolean) if matches!(text, "true" | "false") => None,
        Some(SoapType::Boolean) => bad("true or false"),
        Some(SoapType::String) => None,
        Some(SoapType::Enum(i)) if !flags(i) => {
            let e = &raw.enums[usize::from(i)];
            if e.values.iter().any(|v| v.wire == text) {
                None
            } else {
                bad(&format!("a value of enum {:?}", m.ty))
            }
        }
        _ => Some(format!(
            "default is for a member of a number, boolean, string, dateTime or enum type (not \
             flags), and {} is not one",
            m.ty
        )),
    }
}
