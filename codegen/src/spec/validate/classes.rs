//! The checks of `types:`: classes' members and attributes, their options (`optional`,
//! `default`, `data_type`, …), text content and inheritance.

use super::*;

/// Checks everything the brief of the spec format asks; the issues come out in source order.
/// The classes of `types:`: names, members, member types.
pub(super) fn check_classes(c: &mut Checker<'_, '_>, raw: &RawSpec, names: &TypeNames) {
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
        // Attributes and text content: simple values; text and any attributes on a class of its
        // own (no base, no class derived from it: rmm does not carry them through inheritance
        // yet).
        let derived = raw.has_derived(name);
        // (Attributes a derived class inherits are written first, as XmlSerializer writes
        // them.)
        if (class.text.is_some() || class.any_attribute.is_some())
            && (class.base.is_some() || derived)
        {
            c.push(
                at,
                item_at,
                format!(
                    "type {name:?} has text or an any_attribute and takes part in inheritance, \
                     which rmm does not carry yet"
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
            // `optional: true` (.NET's `xxxSpecified`): of a value type, not nullable.
            let value_type = names
                .named(&a.ty)
                .is_some_and(|t| !t.is_reference() && !t.is_complex() && !t.is_raw());
            if a.optional && (!value_type || a.data_type.is_some()) {
                c.push(
                    at,
                    item_at,
                    format!(
                        "{subject} is optional and of type {}; optional is for an attribute of \
                         a value type (a reference one is absent when null)",
                        a.ty
                    ),
                );
            }
            if a.item.is_some()
                || a.unwrapped
                || a.list
                || a.any
                || a.unqualified
                || a.choice.is_some()
                || a.repeated
            {
                c.push(
                    at,
                    item_at,
                    format!(
                        "{subject} is written as a map with options of an element; an \
                         attribute's map takes type, optional, default, namespace, qualified \
                         and data_type only"
                    ),
                );
            }
            // `default:` ([DefaultValue]): left out when equal, absent read as it.
            if a.default.is_some() && (a.data_type.is_some() || a.namespace.is_some()) {
                c.push(
                    at,
                    item_at,
                    format!(
                        "{subject} has a default and a data_type or namespace; rmm carries a \
                         default on a plain attribute"
                    ),
                );
            } else if let Some(problem) = a
                .default
                .as_ref()
                .and_then(|_| presence_problem(raw, a, names))
            {
                c.push(at, item_at, format!("{subject}: {problem}"));
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
            if m.choice.is_some() || m.repeated {
                check_choice(c, raw, names, class, m, &subject, ty_at, at);
                continue;
            }
            if m.ty.is_empty() {
                c.push(
                    ty_at,
                    at,
                    format!("{subject} has no type; write `type:` (or `choice:` for a choice)"),
                );
                continue;
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
            if m.unqualified && !simple_or_enum(m.ty.strip_suffix('?').unwrap_or(&m.ty)) {
                // A class whose members are all of no namespace too (xsd.exe's classes of
                // `form="unqualified"` schemas): written inside `<Name xmlns="">` without
                // another declaration. One of qualified members would need its namespace
                // declared again on each; one in a hierarchy an `xsi:type` of no namespace.
                let class = raw.types.iter().find(|t| t.name.0 == m.ty);
                let problem = match class {
                    None => Some(format!(
                        "unqualified is for a member of a simple type, an enum or a class (an \
                         element of no namespace), and this one is {}",
                        m.ty
                    )),
                    Some(t) if t.base.is_some() || t.is_abstract || raw.has_derived(&t.name.0) => {
                        Some(format!(
                            "unqualified is for a class outside inheritance, and {} takes part in \
                             one",
                            m.ty
                        ))
                    }
                    Some(t)
                        if t.text.is_some()
                            || t.any_attribute.is_some()
                            || t.namespace.is_some() =>
                    {
                        Some(format!(
                            "unqualified is for a class of unqualified members only, and {} has \
                             text content, any attribute or a namespace of its own",
                            m.ty
                        ))
                    }
                    Some(t) if t.members.iter().any(|tm| !tm.unqualified) => Some(format!(
                        "unqualified is for a class whose members are all unqualified too (each \
                         element of no namespace), and {} has a qualified one",
                        m.ty
                    )),
                    Some(_) => None,
                };
                if let Some(problem) = problem {
                    c.push(
                        ty_at,
                        at,
                        format!("member {:?} of type {name:?}: {problem}", m.name),
                    );
                }
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
                        "member {:?} of type {name:?} has unknown type {:?}; {}",
                        m.name,
                        m.ty,
                        unknown_type_hint(&m.ty, names)
                    ),
                );
            }
        }
    }
}

/// A choice member (`{choice: [Circle: Circle, Label: string], repeated: …}`): its
/// alternatives are elements of the class beside its other members, each of a simple type, an
/// enum or a class of the service's namespace, never nullable; the map takes no other option.
#[allow(clippy::too_many_arguments)]
fn check_choice(
    c: &mut Checker<'_, '_>,
    raw: &RawSpec,
    names: &TypeNames,
    class: &crate::spec::raw::RawClass,
    m: &crate::spec::raw::RawParam,
    subject: &str,
    at: Option<Pos>,
    anchor: Option<Pos>,
) {
    let Some(alternatives) = &m.choice else {
        c.push(
            at,
            anchor,
            format!("{subject}: repeated is for a choice (`choice:`)"),
        );
        return;
    };
    if !m.ty.is_empty() {
        c.push(
            at,
            anchor,
            format!("{subject} has a type and a choice; a choice's types are its alternatives'"),
        );
    }
    if m.item.is_some()
        || m.unwrapped
        || m.optional
        || m.default.is_some()
        || m.list
        || m.any
        || m.unqualified
        || m.namespace.is_some()
        || m.qualified
        || m.data_type.is_some()
    {
        c.push(
            at,
            anchor,
            format!("{subject} is a choice; a choice's map takes choice and repeated only"),
        );
    }
    if alternatives.len() < 2 {
        c.push(
            at,
            anchor,
            format!(
                "{subject} is a choice of {} alternative(s); a choice has two or more",
                alternatives.len()
            ),
        );
    }
    if class.namespace.is_some() {
        c.push(
            at,
            anchor,
            format!(
                "{subject} is a choice in a class of another namespace, which rmm does not \
                 carry yet"
            ),
        );
    }
    let mut seen = HashSet::new();
    let headers: HashSet<&str> = raw
        .operations
        .iter()
        .flat_map(|op| op.headers.iter().map(|h| h.class.as_str()))
        .collect();
    for a in alternatives {
        let what = format!("alternative {:?} of {subject}", a.name);
        c.ncname(&a.name, &what, at, anchor);
        if !seen.insert(a.name.as_str()) {
            c.push(
                at,
                anchor,
                format!("{subject} lists alternative {:?} twice", a.name),
            );
            continue;
        }
        // An alternative is an element of the class beside the other members' elements (a
        // choice member has none of its own, but its alternatives).
        let elements = class.members.iter().flat_map(|other| match &other.choice {
            Some(alternatives) if !std::ptr::eq(other, m) => {
                alternatives.iter().map(|a| a.name.as_str()).collect()
            }
            Some(_) => Vec::new(),
            None => vec![other.name.as_str()],
        });
        if elements.into_iter().any(|other| other == a.name) {
            c.push(
                at,
                anchor,
                format!(
                    "{what} has the name of a member of the class; each element of a class has \
                     a name of its own"
                ),
            );
        }
        if a.extended {
            c.push(
                at,
                anchor,
                format!("{what} is a map; an alternative is `- Name: type`"),
            );
            continue;
        }
        // `Type?`: a nillable alternative, of any type.
        let fits = match names.named(a.ty.strip_suffix('?').unwrap_or(&a.ty)) {
            Some(SoapType::Class(i)) => {
                let alt_class = &raw.types[usize::from(i)];
                alt_class.namespace.is_none() && !headers.contains(alt_class.name.0.as_str())
            }
            Some(ty) => !ty.is_complex() && !ty.is_raw() && ty != SoapType::Void,
            None => false,
        };
        if !fits {
            c.push(
                at,
                anchor,
                format!(
                    "{what} is {:?}; an alternative is of a simple type, an enum or a class of \
                     the service (`Type?` where nillable; not an array, an object, raw XML or a \
                     header)",
                    a.ty
                ),
            );
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

/// What is wrong with a member's `optional:` or `default:`, if anything: `optional` is for a
/// value type (a simple type but string and base64Binary, or an enum) that is not nullable,
/// `default` for a number, boolean, string or (not flags) enum, its text a value of it.
fn presence_problem(
    raw: &RawSpec,
    m: &crate::spec::raw::RawParam,
    names: &TypeNames,
) -> Option<String> {
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
        Some(SoapType::Decimal) if crate::spec::decimal_parts(text).is_some() => None,
        Some(SoapType::Decimal) => {
            bad("a decimal: digits and a point, 29 digits at most, below 2^96 as a whole number")
        }
        Some(SoapType::DateTime) if crate::spec::datetime_parts(text).is_some() => None,
        Some(SoapType::DateTime) => {
            bad("a dateTime: a date and time that exist, written YYYY-MM-DDTHH:MM:SS, without a fraction or time zone")
        }
        Some(SoapType::Guid) if crate::spec::guid_value(text).is_some() => None,
        Some(SoapType::Guid) => {
            bad("a guid: 32 hex digits in groups of 8-4-4-4-12, as 00000000-0000-0000-0000-000000000000")
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
            "default is for a member of a number, boolean, string, dateTime, guid or enum \
             type (not flags), and {} is not one",
            m.ty
        )),
    }
}
