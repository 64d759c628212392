//! Values to and from JSON, as `JavaScriptSerializer` writes them and `ObjectConverter`
//! converts what the deserializer read to a parameter's or member's type: the same type
//! passes; anything else goes through the target type's `TypeConverter` by way of the
//! value's invariant string (so `"5"` reads as the int 5, `5.0` is no int, `true` is the
//! string `True`).

use std::borrow::Cow;

use rust_decimal::Decimal;

use super::write::{write_date, write_double, write_float, write_string};
use super::{Json, JsonError, JsonNumber, JsonOut, Streamed};
use crate::{Date, DateTime, Scalar, ValueError};

/// A value JavaScriptSerializer can write.
pub trait ToJson {
    /// Appends the value where `out` stands (after a member's name or an item's comma).
    fn write_json(&self, out: &mut JsonOut);
}

/// A value ObjectConverter can make of what the deserializer read.
pub trait FromJson: Sized {
    /// The .NET type's full name, as conversion errors name it (`System.Int32`).
    const DOTNET: &'static str;
    /// Converts `value` to this type.
    fn from_json(value: &Json) -> Result<Self, JsonError>;

    #[doc(hidden)] // for generated code
    /// Reads the next value of a call straight to this type (`None`: the call is read again
    /// through the value tree; see [`Streamed`]): as the tree reads and converts it, unless
    /// the type reads its members or items one by one (classes, arrays).
    #[inline]
    fn read_json(json: &mut Streamed<'_>) -> Option<Self> {
        json.converted()
    }
}

/// Whether a JSON member's name names a .NET member: `AssignToPropertyOrField` looks members
/// up ignoring case.
pub(crate) fn member_is(json_name: &str, member: &str) -> bool {
    // A client names a member as the class does, as a rule.
    if json_name == member {
        return true;
    }
    if json_name.is_ascii() && member.is_ascii() {
        return json_name.eq_ignore_ascii_case(member);
    }
    json_name.to_lowercase() == member.to_lowercase()
}

#[doc(hidden)] // for generated code
/// Which of a class's members (their names, in the order the class declares them) a JSON
/// member's name names: the one it names exactly, as a client nearly always does, else the
/// first it names ignoring case, as `AssignToPropertyOrField` looks them up. (.NET refuses a
/// name that two members match ignoring case as ambiguous; a class with such members is not
/// CLS-compliant, and here the exact one is taken.)
pub fn member_index(json_name: &str, members: &[&str]) -> Option<usize> {
    members
        .iter()
        .position(|&member| member == json_name)
        .or_else(|| {
            members
                .iter()
                .position(|member| member_is(json_name, member))
        })
}

/// The value as `TypeConverter.ConvertToInvariantString` writes it, for a value that is
/// neither null, nor an object, nor an array.
fn invariant_string(value: &Json) -> Option<String> {
    Some(match value {
        Json::Null | Json::Object(_) | Json::Array(_) => return None,
        Json::Bool(true) => "True".to_owned(),
        Json::Bool(false) => "False".to_owned(),
        Json::Number(JsonNumber::Int(n)) => n.to_string(),
        Json::Number(JsonNumber::Long(n)) => n.to_string(),
        Json::Number(JsonNumber::Decimal(d)) => d.to_string(),
        Json::Number(JsonNumber::Double(d)) => {
            let mut out = String::new();
            write_double(&mut out, *d);
            out
        }
        Json::String(s) => s.to_string(),
        // `ToUniversalTime().ToString("u")`.
        Json::Date(ms) => date_of(*ms)
            .map(|d| d.value.format("%Y-%m-%d %H:%M:%SZ").to_string())
            .unwrap_or_default(),
    })
}

/// A date of milliseconds since 1970 in UTC, if .NET's DateTime can hold it.
pub(super) fn date_of(ms: i64) -> Option<DateTime> {
    // From the timestamp: the epoch plus a duration took a calendar walk for every date.
    let date = DateTime::utc(chrono::DateTime::from_timestamp_millis(ms)?.naive_utc());
    date.fits_dotnet().then_some(date)
}

/// The conversion of a value type from anything but its own: `null` is refused, an object
/// makes the type's default (its members are none), an array is refused, and the rest goes
/// through the value's invariant string and `parse`.
fn value_type<T: Default>(
    value: &Json,
    full: &'static str,
    parse: impl FnOnce(&str) -> Result<T, ValueError>,
) -> Result<T, JsonError> {
    match value {
        Json::Null => Err(JsonError::NullToValueType),
        Json::Object(_) => Ok(T::default()),
        Json::Array(_) => Err(JsonError::ArrayNotSupported(full.to_owned())),
        _ => {
            let text = invariant_string(value).unwrap_or_default();
            parse(&text).map_err(|_| JsonError::NotValidValue {
                to: full.trim_start_matches("System.").to_owned(),
                text,
            })
        }
    }
}

/// `BaseNumberConverter.ConvertFrom`: trimmed, hex after `0x`, `&h` or `#`, else
/// `NumberStyles.Integer`.
fn integer<T: crate::value::Integer + TryFrom<u64>>(text: &str) -> Result<T, ValueError> {
    let trimmed = text.trim();
    let hex = ["0x", "0X", "&h", "&H", "#"]
        .iter()
        .find_map(|prefix| trimmed.strip_prefix(prefix));
    match hex {
        Some(digits) => u64::from_str_radix(digits, 16)
            .ok()
            .and_then(|n| T::try_from(n).ok())
            .ok_or(ValueError::NotInteger),
        None => crate::value::dotnet::parse_integer(trimmed),
    }
}

macro_rules! json_integer {
    ($($rust:ty => $dotnet:literal),* $(,)?) => {$(
        impl ToJson for $rust {
            fn write_json(&self, out: &mut JsonOut) {
                out.raw(itoa::Buffer::new().format(*self));
            }
        }
        impl FromJson for $rust {
            const DOTNET: &'static str = $dotnet;
            fn from_json(value: &Json) -> Result<Self, JsonError> {
                // A number in range passes as it is (what the string's round trip gives).
                let exact = match value {
                    Json::Number(JsonNumber::Int(n)) => <$rust>::try_from(*n).ok(),
                    Json::Number(JsonNumber::Long(n)) => <$rust>::try_from(*n).ok(),
                    _ => None,
                };
                match exact {
                    Some(n) => Ok(n),
                    None => value_type(value, $dotnet, integer::<$rust>),
                }
            }
        }
    )*};
}

json_integer! {
    i8 => "System.SByte",
    u8 => "System.Byte",
    i16 => "System.Int16",
    u16 => "System.UInt16",
    i32 => "System.Int32",
    u32 => "System.UInt32",
    i64 => "System.Int64",
    u64 => "System.UInt64",
}

impl ToJson for bool {
    fn write_json(&self, out: &mut JsonOut) {
        out.raw(if *self { "true" } else { "false" });
    }
}

impl FromJson for bool {
    const DOTNET: &'static str = "System.Boolean";
    fn from_json(value: &Json) -> Result<Self, JsonError> {
        match value {
            Json::Bool(b) => Ok(*b),
            _ => value_type(value, Self::DOTNET, crate::value::dotnet::parse_boolean),
        }
    }
}

impl ToJson for Decimal {
    fn write_json(&self, out: &mut JsonOut) {
        crate::value::write_decimal(out.buffer(), self);
    }
}

impl FromJson for Decimal {
    const DOTNET: &'static str = "System.Decimal";
    fn from_json(value: &Json) -> Result<Self, JsonError> {
        match value {
            Json::Number(JsonNumber::Decimal(d)) => Ok(*d),
            _ => value_type(value, Self::DOTNET, crate::value::dotnet::parse_decimal),
        }
    }
}

impl ToJson for f64 {
    fn write_json(&self, out: &mut JsonOut) {
        write_double(out.buffer(), *self);
    }
}

impl FromJson for f64 {
    const DOTNET: &'static str = "System.Double";
    fn from_json(value: &Json) -> Result<Self, JsonError> {
        match value {
            Json::Number(JsonNumber::Double(d)) => Ok(*d),
            _ => value_type(value, Self::DOTNET, crate::value::dotnet::parse_double),
        }
    }
}

impl ToJson for f32 {
    fn write_json(&self, out: &mut JsonOut) {
        write_float(out.buffer(), *self);
    }
}

impl FromJson for f32 {
    const DOTNET: &'static str = "System.Single";
    fn from_json(value: &Json) -> Result<Self, JsonError> {
        value_type(value, Self::DOTNET, crate::value::dotnet::parse_float)
    }
}

impl ToJson for char {
    /// `'\0'` is `null`; any other a string of it.
    fn write_json(&self, out: &mut JsonOut) {
        if *self == '\0' {
            out.null();
        } else {
            out.string(self.encode_utf8(&mut [0; 4]));
        }
    }
}

impl FromJson for char {
    const DOTNET: &'static str = "System.Char";
    fn from_json(value: &Json) -> Result<Self, JsonError> {
        match value {
            Json::Null => Ok('\0'),
            _ => value_type(value, Self::DOTNET, |text| {
                let trimmed = text.trim();
                let mut chars = trimmed.chars();
                match (chars.next(), chars.next()) {
                    (None, _) => Ok('\0'),
                    (Some(c), None) => Ok(c),
                    _ => Err(ValueError::NotOneChar),
                }
            }),
        }
    }
}

impl ToJson for String {
    fn write_json(&self, out: &mut JsonOut) {
        write_string(out.buffer(), self);
    }
}

impl FromJson for String {
    const DOTNET: &'static str = "System.String";
    /// Any simple value as its invariant string; an object or array is refused.
    fn from_json(value: &Json) -> Result<Self, JsonError> {
        match value {
            Json::Object(_) => Err(JsonError::NoParameterlessConstructor(Self::DOTNET.into())),
            Json::Array(_) => Err(JsonError::ArrayNotSupported(Self::DOTNET.into())),
            // A string parameter's null is `Option<String>`'s `None`.
            Json::Null => Err(JsonError::NullToValueType),
            _ => Ok(invariant_string(value).unwrap_or_default()),
        }
    }
}

impl ToJson for DateTime {
    fn write_json(&self, out: &mut JsonOut) {
        write_date(out.buffer(), self);
    }
}

impl FromJson for DateTime {
    const DOTNET: &'static str = "System.DateTime";
    /// `"\/Date(ms)\/"` as the UTC time it is; another string as `DateTime.Parse` reads it.
    fn from_json(value: &Json) -> Result<Self, JsonError> {
        match value {
            Json::Date(ms) => date_of(*ms).ok_or_else(|| JsonError::NotValidValue {
                text: ms.to_string(),
                to: "DateTime".to_owned(),
            }),
            Json::String(_) => value_type(value, Self::DOTNET, DateTime::read_form),
            Json::Number(_) | Json::Bool(_) => Err(JsonError::NotValidValue {
                text: invariant_string(value).unwrap_or_default(),
                to: "DateTime".to_owned(),
            }),
            _ => value_type(value, Self::DOTNET, DateTime::read_form),
        }
    }
}

impl ToJson for Date {
    fn write_json(&self, out: &mut JsonOut) {
        self.0.write_json(out);
    }
}

impl FromJson for Date {
    const DOTNET: &'static str = "System.DateTime";
    fn from_json(value: &Json) -> Result<Self, JsonError> {
        DateTime::from_json(value).map(Date)
    }
}

impl ToJson for uuid::Uuid {
    fn write_json(&self, out: &mut JsonOut) {
        let buffer = out.buffer();
        buffer.push('"');
        buffer.push_str(
            self.hyphenated()
                .encode_lower(&mut uuid::Uuid::encode_buffer()),
        );
        buffer.push('"');
    }
}

impl FromJson for uuid::Uuid {
    const DOTNET: &'static str = "System.Guid";
    fn from_json(value: &Json) -> Result<Self, JsonError> {
        value_type(value, Self::DOTNET, <uuid::Uuid as Scalar>::read_xml)
    }
}

impl<T: ToJson> ToJson for Option<T> {
    fn write_json(&self, out: &mut JsonOut) {
        match self {
            Some(value) => value.write_json(out),
            None => out.null(),
        }
    }
}

impl<T: FromJson> FromJson for Option<T> {
    const DOTNET: &'static str = T::DOTNET;
    fn from_json(value: &Json) -> Result<Self, JsonError> {
        match value {
            Json::Null => Ok(None),
            _ => T::from_json(value).map(Some),
        }
    }

    fn read_json(json: &mut Streamed<'_>) -> Option<Self> {
        // An object or an array is not null: read as `T` reads it.
        if json.at('{') || json.at('[') {
            T::read_json(json).map(Some)
        } else {
            json.converted()
        }
    }
}

impl<T: ToJson> ToJson for Vec<T> {
    fn write_json(&self, out: &mut JsonOut) {
        out.open_array();
        for item in self {
            out.item();
            item.write_json(out);
        }
        out.close_array();
    }
}

impl<T: FromJson> FromJson for Vec<T> {
    const DOTNET: &'static str = "System.Array";
    fn from_json(value: &Json) -> Result<Self, JsonError> {
        match value {
            Json::Array(items) => items.iter().map(T::from_json).collect(),
            Json::Null => Err(JsonError::NullToValueType),
            other => Err(JsonError::CannotConvert {
                from: other.dotnet_type(),
                to: format!("{}[]", T::DOTNET),
            }),
        }
    }

    fn read_json(json: &mut Streamed<'_>) -> Option<Self> {
        // Item by item; anything but an array is refused, by the tree.
        json.array(T::read_json)
    }
}

#[doc(hidden)] // for generated code
/// An enum's value from JSON: a number (`Enum.Parse` of its text) names the member of that
/// value; a string names a member by its .NET name, ignoring case, or is a number.
pub fn enum_from_json<T: Copy>(
    value: &Json,
    all: &[T],
    members: &[&str],
    name: &'static str,
) -> Result<T, JsonError> {
    let text = match value {
        Json::Null => return Err(JsonError::NullToValueType),
        Json::Object(_) => {
            return all.first().copied().ok_or(JsonError::NullToValueType);
        }
        Json::Array(_) => return Err(JsonError::ArrayNotSupported(name.to_owned())),
        _ => invariant_string(value).unwrap_or_default(),
    };
    let trimmed = text.trim();
    if let Ok(n) = trimmed.parse::<i64>() {
        return usize::try_from(n)
            .ok()
            .and_then(|i| all.get(i).copied())
            .ok_or(JsonError::UndefinedEnumValue {
                text: trimmed.to_owned(),
                to: name,
                count: all.len(),
            });
    }
    members
        .iter()
        .position(|m| m.eq_ignore_ascii_case(trimmed))
        .map(|i| all[i])
        .ok_or(JsonError::NotValidValue {
            text: trimmed.to_owned(),
            to: name.to_owned(),
        })
}

#[doc(hidden)] // for generated code
/// Writes an enum's value: its number.
pub fn enum_to_json(index: usize, out: &mut JsonOut) {
    out.raw(itoa::Buffer::new().format(index));
}

impl<T: ToJson> ToJson for Box<T> {
    fn write_json(&self, out: &mut JsonOut) {
        T::write_json(self, out);
    }
}

impl<T: FromJson> FromJson for Box<T> {
    const DOTNET: &'static str = T::DOTNET;
    fn from_json(value: &Json) -> Result<Self, JsonError> {
        T::from_json(value).map(Box::new)
    }

    fn read_json(json: &mut Streamed<'_>) -> Option<Self> {
        T::read_json(json).map(Box::new)
    }
}

#[doc(hidden)] // for generated code
/// The `__type` hint of an object, if it has one.
pub fn type_hint<'v>(value: &'v Json<'_>) -> Option<&'v str> {
    match value.get("__type") {
        Some(Json::String(hint)) => Some(hint),
        _ => None,
    }
}

#[doc(hidden)] // for generated code
/// The members of an object read as the class `dotnet`, whose own hints are `own` (its
/// `__type`, where it carries one) among the service's `all`: an object without a hint, or
/// with one of `own`; another hint is refused as .NET refuses it.
pub fn class_members<'v, 'a>(
    value: &'v Json<'a>,
    dotnet: &'static str,
    own: &[&str],
    all: &[&str],
) -> Result<&'v [(Cow<'a, str>, Json<'a>)], JsonError> {
    match value {
        Json::Object(members) => match type_hint(value) {
            Some(hint) if !own.contains(&hint) => Err(JsonError::unknown_hint(hint, dotnet, all)),
            _ => Ok(members),
        },
        Json::Null => Err(JsonError::NullToValueType),
        Json::Array(_) => Err(JsonError::ArrayNotSupported(dotnet.to_owned())),
        other => Err(JsonError::CannotConvert {
            from: other.dotnet_type(),
            to: dotnet.to_owned(),
        }),
    }
}
