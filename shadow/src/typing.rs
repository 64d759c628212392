//! What a spec says of an answer's leaves: the XML Schema type of each, by where it stands,
//! so that two answers are compared by the values a .NET client reads from them rather than by
//! their spelling. `1E+20` and `1e20` are one `double`, ` 5` and `+5` one `int`, `1` and `true`
//! one `boolean`, a `dateTime` with or without trailing zeros in its fraction one instant.
//!
//! [`Typing`] is plain data, made from a spec by whoever has one (`rmm shadow --spec` makes it
//! from rmm-codegen's model): shapes for the spec's classes and arrays, and for each operation
//! the elements its answers hold. [`Typing::lexical`] walks a leaf's path through them. What a
//! spec does not type (a fault, raw XML, a DataSet, an `object`, a leaf no shape names) is
//! [`Lexical::Exact`]: compared by its text, as without a spec.

use std::collections::HashMap;
use std::str::FromStr;

use base64::Engine as _;

/// How a leaf's text is read into a value: which spellings mean the same.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lexical {
    /// The text as it is: a `string`, an enum's value, whatever the spec does not type.
    Exact,
    /// A string .NET reads trimmed of XML white space (`xs:anyURI`, `xs:ID`: a member's
    /// `data_type`).
    Trimmed,
    /// `boolean`: `true` or `1`, `false` or `0`, trimmed (`XmlConvert.ToBoolean`).
    Boolean,
    /// The integers and `char` (written as its number): a sign, digits, white space around
    /// (`XmlConvert.ToInt32` and its kin: `NumberStyles.AllowLeadingSign` and white space).
    Integer,
    /// `decimal`: a sign, digits and a point, no exponent (`XmlConvert.ToDecimal`); its scale
    /// is part of the value, as .NET's `decimal` keeps it (`1.50` is not `1.5` to a client
    /// that prints it).
    Decimal,
    /// `double`: `INF`, `-INF`, `NaN` (all NaNs one), or a number with an exponent, read to
    /// the nearest `f64` (`XmlConvert.ToDouble`); `-0` stays apart from `0`.
    Double,
    /// `float`: the same, read to the nearest `f32`.
    Float,
    /// `dateTime`, as XmlSerializer reads it (`XmlDateTimeSerializationMode.RoundtripKind`):
    /// its kind (no zone, `Z`, an offset, which a client turns into its local time) and its
    /// value to the tick (100 ns); two offsets of one instant are one local time.
    DateTime,
    /// `guid`: any of `new Guid(string)`'s forms, case aside.
    Guid,
    /// `base64Binary`: the bytes, white space aside.
    Base64,
    /// A `[Flags]` enum's value: a set of names separated by white space, in any order.
    Flags,
}

/// XML's white space, which .NET's readers trim.
const XML_SPACE: [char; 4] = [' ', '\t', '\n', '\r'];

impl Lexical {
    /// Every one.
    pub const ALL: [Lexical; 11] = [
        Lexical::Exact,
        Lexical::Trimmed,
        Lexical::Boolean,
        Lexical::Integer,
        Lexical::Decimal,
        Lexical::Double,
        Lexical::Float,
        Lexical::DateTime,
        Lexical::Guid,
        Lexical::Base64,
        Lexical::Flags,
    ];

    /// Whether `a` and `b` are one value of this type: equal texts always are; texts either
    /// of which is no value of the type are compared as texts.
    pub fn same(self, a: &str, b: &str) -> bool {
        if a == b {
            return true;
        }
        match self {
            Lexical::Exact => false,
            Lexical::Trimmed => trim(a) == trim(b),
            Lexical::Boolean => both(a, b, boolean),
            Lexical::Integer => both(a, b, |s| i128::from_str(trim(s)).ok()),
            Lexical::Decimal => both(a, b, decimal),
            Lexical::Double => both(a, b, |s| {
                let value: f64 = float(s)?;
                Some(if value.is_nan() {
                    u64::MAX
                } else {
                    value.to_bits()
                })
            }),
            Lexical::Float => both(a, b, |s| {
                let value: f32 = float(s)?;
                Some(if value.is_nan() {
                    u32::MAX
                } else {
                    value.to_bits()
                })
            }),
            Lexical::DateTime => both(a, b, date_time),
            Lexical::Guid => both(a, b, |s| uuid::Uuid::parse_str(trim(s)).ok()),
            Lexical::Base64 => both(a, b, |s| {
                let compact: String = s.chars().filter(|c| !XML_SPACE.contains(c)).collect();
                base64::engine::general_purpose::STANDARD
                    .decode(compact)
                    .ok()
            }),
            Lexical::Flags => flag_set(a) == flag_set(b),
        }
    }
}

/// A `[Flags]` value's names, each once, in order.
fn flag_set(s: &str) -> Vec<&str> {
    let mut names: Vec<&str> = s.split(XML_SPACE).filter(|n| !n.is_empty()).collect();
    names.sort_unstable();
    names.dedup();
    names
}

fn trim(s: &str) -> &str {
    s.trim_matches(XML_SPACE)
}

/// Whether both texts read, by `read`, to one value.
fn both<T: PartialEq>(a: &str, b: &str, read: impl Fn(&str) -> Option<T>) -> bool {
    match (read(a), read(b)) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

fn boolean(s: &str) -> Option<bool> {
    match trim(s) {
        "true" | "1" => Some(true),
        "false" | "0" => Some(false),
        _ => None,
    }
}

/// A decimal and its scale. Rust's reader takes what .NET's does (a sign, digits, a point)
/// and no exponent: `Decimal::from_str` refuses one.
fn decimal(s: &str) -> Option<(rust_decimal::Decimal, u32)> {
    let s = trim(s);
    if s.contains(['e', 'E']) {
        return None;
    }
    let value = rust_decimal::Decimal::from_str(s).ok()?;
    Some((value, value.scale()))
}

/// A `double` or `float`, read to the nearest value of its type. .NET reads `INF` and `-INF`
/// (`XmlConvert`'s) and `NaN`, `Infinity` and `-Infinity` (the invariant culture's, which
/// `Double.Parse` takes); Rust's reader would take `inf` and `nan` in any case too, which
/// .NET's does not, so no other word is read.
fn float<T: FromStr + From<f32>>(s: &str) -> Option<T> {
    let s = trim(s);
    match s {
        "INF" | "Infinity" => Some(T::from(f32::INFINITY)),
        "-INF" | "-Infinity" => Some(T::from(f32::NEG_INFINITY)),
        "NaN" => Some(T::from(f32::NAN)),
        _ if s.contains(|c: char| c.is_ascii_alphabetic() && c != 'e' && c != 'E') => None,
        _ => s.parse().ok(),
    }
}

/// A `dateTime` as .NET holds it: its kind, and its ticks (of UTC for an offset, since the
/// client turns it into one local time whatever the offset).
fn date_time(s: &str) -> Option<(u8, i64)> {
    use chrono::{DateTime, NaiveDate, NaiveDateTime};
    let s = trim(s);
    let ticks = |t: NaiveDateTime| -> Option<i64> {
        let utc = t.and_utc();
        let nanos = utc.timestamp_subsec_nanos() / 100;
        utc.timestamp()
            .checked_mul(10_000_000)?
            .checked_add(i64::from(nanos))
    };
    if let Some(naive) = s.strip_suffix('Z') {
        let t = NaiveDateTime::parse_from_str(naive, "%Y-%m-%dT%H:%M:%S%.f").ok()?;
        return Some((1, ticks(t)?));
    }
    if let Ok(t) = DateTime::parse_from_str(s, "%Y-%m-%dT%H:%M:%S%.f%:z") {
        return Some((2, ticks(t.naive_utc())?));
    }
    if let Ok(t) = NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M:%S%.f") {
        return Some((0, ticks(t)?));
    }
    let date = NaiveDate::parse_from_str(s, "%Y-%m-%d").ok()?;
    Some((0, ticks(date.and_hms_opt(0, 0, 0)?)?))
}

/// A type in a [`Typing`]: an index into its shapes.
pub type Ty = usize;

/// What an element of a type holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shape {
    /// Text of a simple type.
    Simple(Lexical),
    /// A class: its members' elements, its attributes, its text.
    Class {
        /// Each member element's local name and type: those of the class, of its bases and
        /// of the classes derived from it (an element of the class may hold any of them,
        /// named by `xsi:type`); an unwrapped array's repeated element has its item's type.
        members: Vec<(String, Ty)>,
        /// Each attribute, as a leaf names it (`id`, `{namespace}local`), and its type.
        attributes: Vec<(String, Lexical)>,
        /// Its text content's type (`[XmlText]`).
        text: Option<Lexical>,
    },
    /// An array: its items' element name and type.
    Array {
        /// The items' element name (`int`, `OrderLine`, an `[XmlArrayItem]`'s).
        item: String,
        /// The items' type.
        ty: Ty,
    },
    /// What is compared as written: raw XML, a DataSet, an `object`.
    Opaque,
}

/// The elements an operation's answers hold.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OperationTyping {
    /// Its SOAP response's wrapper (`AddResponse`); `None` for a bare operation, whose
    /// result stands in the Body.
    pub response: Option<String>,
    /// The elements of the response's wrapper, or of the Body (bare): the result's
    /// (`AddResult`) and the out parameters', with their types.
    pub elements: Vec<(String, Ty)>,
    /// The SOAP headers its answers carry, by element name.
    pub headers: Vec<(String, Ty)>,
    /// The type of its HTTP GET and POST result document's root element.
    pub document: Option<Ty>,
}

/// The types of the leaves of the answers of one or more services.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Typing {
    shapes: Vec<Shape>,
    /// By the service's path (its endpoint's, `/api/Billing.asmx`, in lower case: IIS routes
    /// paths whatever their case) and the operation's name.
    operations: HashMap<(String, String), OperationTyping>,
}

/// The service a request's path reaches: the path to the end of its `.asmx`, in lower case
/// (`/Api/Billing.asmx/Refund` → `/api/billing.asmx`); the whole path where it has none.
pub fn service_of(request_path: &str) -> String {
    let lower = request_path.to_ascii_lowercase();
    match lower.find(".asmx") {
        Some(at) => lower[..at + ".asmx".len()].to_owned(),
        None => lower,
    }
}

/// How deep a path is walked through the shapes; deeper leaves are compared exactly.
const MAX_DEPTH: usize = 256;

impl Typing {
    /// No shapes and no operations: every leaf [`Lexical::Exact`].
    pub fn new() -> Typing {
        Typing::default()
    }

    /// A new type of `shape`.
    pub fn add(&mut self, shape: Shape) -> Ty {
        self.shapes.push(shape);
        self.shapes.len() - 1
    }

    /// Gives the type `ty` its shape (a class's members may name it before it is known).
    ///
    /// # Panics
    /// When `ty` was not made by [`Typing::add`].
    pub fn set(&mut self, ty: Ty, shape: Shape) {
        self.shapes[ty] = shape;
    }

    /// Names the elements of the answers of the operation `name` of the service at
    /// `service` (its endpoint's path).
    pub fn operation(&mut self, service: &str, name: &str, operation: OperationTyping) {
        self.operations
            .insert((service_of(service), name.to_owned()), operation);
    }

    /// The type of the leaf at `path` (a [`crate::leaves::Leaf`]'s) of an answer to a
    /// request of `operation` at `request_path`: its SOAP envelope's, or the root of its HTTP
    /// GET/POST document.
    pub fn lexical(&self, request_path: &str, operation: &str, path: &str) -> Lexical {
        if self.operations.is_empty() {
            return Lexical::Exact;
        }
        let key = (service_of(request_path), operation.to_owned());
        let Some(op) = self.operations.get(&key) else {
            return Lexical::Exact;
        };
        // An attribute is the last step; its name may hold a namespace, and so slashes.
        let (elements, attribute) = match path.split_once("/@") {
            Some((elements, attribute)) => (elements, Some(attribute)),
            None => (path, None),
        };
        let steps: Vec<&str> = elements.split('/').map(without_index).collect();
        let (ty, rest) = match steps.as_slice() {
            ["Envelope", "Body", wrapper, element, rest @ ..]
                if op.response.as_deref() == Some(*wrapper) =>
            {
                (find(&op.elements, element), rest)
            }
            ["Envelope", "Body", element, rest @ ..] if op.response.is_none() => {
                (find(&op.elements, element), rest)
            }
            ["Envelope", "Header", element, rest @ ..] => (find(&op.headers, element), rest),
            ["Envelope", ..] => (None, &[][..]),
            [_root, rest @ ..] => (op.document, rest),
            [] => (None, &[][..]),
        };
        let Some(mut ty) = ty else {
            return Lexical::Exact;
        };
        if rest.len() > MAX_DEPTH {
            return Lexical::Exact;
        }
        for step in rest {
            let next = match &self.shapes[ty] {
                Shape::Class { members, .. } => find(members, step),
                Shape::Array { item, ty } if item == step => Some(*ty),
                _ => None,
            };
            match next {
                Some(next) => ty = next,
                None => return Lexical::Exact,
            }
        }
        match (&self.shapes[ty], attribute) {
            (Shape::Simple(lexical), None) => *lexical,
            (Shape::Class { text, .. }, None) => text.unwrap_or(Lexical::Exact),
            (Shape::Class { attributes, .. }, Some(name)) => attributes
                .iter()
                .find(|(n, _)| n == name)
                .map_or(Lexical::Exact, |(_, l)| *l),
            _ => Lexical::Exact,
        }
    }
}

fn find(elements: &[(String, Ty)], name: &str) -> Option<Ty> {
    elements.iter().find(|(n, _)| n == name).map(|(_, ty)| *ty)
}

/// `Item[2]` → `Item`.
fn without_index(step: &str) -> &str {
    step.split_once('[').map_or(step, |(name, _)| name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_read_as_dotnet_reads_them() {
        // XmlConvert.ToDouble: INF, -INF, exponents, white space; NaN is one value.
        assert!(Lexical::Double.same("1E+20", "1e20"));
        assert!(Lexical::Double.same("100000000000000000000", "1E+20"));
        assert!(Lexical::Double.same(" 0.5", "5E-1"));
        assert!(Lexical::Double.same("INF", "Infinity"));
        assert!(Lexical::Double.same("NaN", "NaN"));
        assert!(!Lexical::Double.same("0", "-0"));
        assert!(!Lexical::Double.same("inf", "INF"), ".NET reads no `inf`");
        assert!(!Lexical::Double.same("0.1", "0.10000000000000002"));
        // Float: the nearest f32, so digits past its precision do not count.
        assert!(Lexical::Float.same("0.1", "0.100000001"));
        assert!(!Lexical::Double.same("0.1", "0.100000001"));
        // Integers: a sign, white space; no point.
        assert!(Lexical::Integer.same("+5", " 5\n"));
        assert!(Lexical::Integer.same("007", "7"));
        assert!(!Lexical::Integer.same("7.0", "7"));
        // Decimal: no exponent, and its scale is kept.
        assert!(Lexical::Decimal.same("+1.50", "1.50 "));
        assert!(Lexical::Decimal.same("01.5", "1.5"));
        assert!(!Lexical::Decimal.same("1.50", "1.5"));
        assert!(!Lexical::Decimal.same("1E1", "10"));
    }

    #[test]
    fn booleans_guids_bytes_flags_and_trimmed_strings() {
        assert!(Lexical::Boolean.same("1", "true"));
        assert!(Lexical::Boolean.same(" false", "0"));
        assert!(
            !Lexical::Boolean.same("True", "true"),
            "XmlConvert is case-sensitive"
        );
        assert!(Lexical::Guid.same(
            "0F8FAD5B-D9CB-469F-A165-70867728950E",
            "{0f8fad5b-d9cb-469f-a165-70867728950e}"
        ));
        assert!(Lexical::Base64.same("AAEC\nAw==", "AAECAw=="));
        assert!(!Lexical::Base64.same("AAECAw==", "AAECBA=="));
        assert!(Lexical::Flags.same("Red Blue", "Blue  Red"));
        assert!(!Lexical::Flags.same("Red", "Blue Red"));
        assert!(Lexical::Trimmed.same(" urn:a\n", "urn:a"));
        assert!(!Lexical::Exact.same(" a", "a"));
    }

    #[test]
    fn date_times_keep_their_kind_and_their_tick() {
        let dt = Lexical::DateTime;
        assert!(dt.same("2026-11-28T10:00:00Z", "2026-11-28T10:00:00.0000000Z"));
        assert!(dt.same("2026-11-28T10:00:00+01:00", "2026-11-28T11:00:00+02:00"));
        assert!(dt.same("2026-11-28T10:00:00", "2026-11-28T10:00:00.000"));
        // Below a tick (100 ns) .NET keeps nothing.
        assert!(dt.same("2026-11-28T10:00:00.00000001", "2026-11-28T10:00:00"));
        // Another kind is another value: Utc, Local and Unspecified print apart.
        assert!(!dt.same("2026-11-28T10:00:00Z", "2026-11-28T10:00:00+00:00"));
        assert!(!dt.same("2026-11-28T10:00:00Z", "2026-11-28T10:00:00"));
        assert!(!dt.same("2026-11-28T10:00:00", "2026-11-28T10:00:01"));
    }

    #[test]
    fn text_that_is_no_value_is_compared_as_text() {
        assert!(!Lexical::Integer.same("x", "y"));
        assert!(!Lexical::Integer.same("", "0"));
        assert!(Lexical::Integer.same("", ""));
    }

    /// Order { Id: int, Lines: Line[] (items `Line`), Price: double? @at: dateTime },
    /// Line { Qty: int }; GetOrder answers an Order.
    fn order_typing(bare: bool) -> Typing {
        let mut t = Typing::new();
        let int = t.add(Shape::Simple(Lexical::Integer));
        let double = t.add(Shape::Simple(Lexical::Double));
        let line = t.add(Shape::Class {
            members: vec![("Qty".into(), int)],
            attributes: vec![],
            text: None,
        });
        let lines = t.add(Shape::Array {
            item: "Line".into(),
            ty: line,
        });
        let order = t.add(Shape::Class {
            members: vec![
                ("Id".into(), int),
                ("Lines".into(), lines),
                ("Price".into(), double),
            ],
            attributes: vec![("at".into(), Lexical::DateTime)],
            text: None,
        });
        t.operation(
            "/Shop.asmx",
            "GetOrder",
            OperationTyping {
                response: (!bare).then(|| "GetOrderResponse".to_owned()),
                elements: vec![("GetOrderResult".into(), order)],
                headers: vec![("Stamp".into(), int)],
                document: Some(order),
            },
        );
        t
    }

    #[test]
    fn a_leaf_is_typed_by_its_path_through_the_answer() {
        let typing = order_typing(false);
        let t = Reach(&typing, "/shop.ASMX");
        let soap = "Envelope/Body/GetOrderResponse/GetOrderResult";
        assert_eq!(
            t.lexical("GetOrder", &format!("{soap}/Id")),
            Lexical::Integer
        );
        assert_eq!(
            t.lexical("GetOrder", &format!("{soap}/Lines/Line[3]/Qty")),
            Lexical::Integer
        );
        assert_eq!(
            t.lexical("GetOrder", &format!("{soap}/Price")),
            Lexical::Double
        );
        assert_eq!(
            t.lexical("GetOrder", &format!("{soap}/@at")),
            Lexical::DateTime
        );
        assert_eq!(
            t.lexical("GetOrder", "Envelope/Header/Stamp"),
            Lexical::Integer
        );
        // HTTP GET/POST: the document's root is the result.
        assert_eq!(
            t.lexical("GetOrder", "Order/Lines/Line/Qty"),
            Lexical::Integer
        );
        // What the spec does not name: a namespace, xsi:type, a fault, another operation.
        for path in [
            format!("{soap}/@xmlns"),
            format!("{soap}/@{{http://www.w3.org/2001/XMLSchema-instance}}type"),
            format!("{soap}/Lines"),
            format!("{soap}/Other"),
            "Envelope/Body/Fault/faultcode".to_owned(),
            "Envelope/Body/GetOrderResult/Id".to_owned(),
        ] {
            assert_eq!(t.lexical("GetOrder", &path), Lexical::Exact, "{path}");
        }
        assert_eq!(t.lexical("Other", &format!("{soap}/Id")), Lexical::Exact);
        // Another service's operation of the name is not this one; a GET's path names the
        // operation after the service's.
        let other = Reach(&typing, "/Other.asmx");
        assert_eq!(
            other.lexical("GetOrder", &format!("{soap}/Id")),
            Lexical::Exact
        );
        let get = Reach(&typing, "/Shop.asmx/GetOrder");
        assert_eq!(get.lexical("GetOrder", "Order/Id"), Lexical::Integer);
        // A bare operation's result stands in the Body.
        let bare = order_typing(true);
        assert_eq!(
            Reach(&bare, "/Shop.asmx").lexical("GetOrder", "Envelope/Body/GetOrderResult/Id"),
            Lexical::Integer
        );
    }

    /// A typing as a request at a path reaches it.
    struct Reach<'t>(&'t Typing, &'t str);

    impl Reach<'_> {
        fn lexical(&self, operation: &str, path: &str) -> Lexical {
            self.0.lexical(self.1, operation, path)
        }
    }
}
