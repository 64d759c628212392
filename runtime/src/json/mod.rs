//! ASMX's JSON face: the codec of ASP.NET AJAX's calls to a `[ScriptService]`
//! (`System.Web.Extensions`' `RestHandler`, `JavaScriptSerializer`,
//! `JavaScriptObjectDeserializer` and `ObjectConverter`), for [`Binding::Json`].
//!
//! A call posts its parameters as one JSON object (`{"a":2,"b":3}`), or, for an operation
//! marked `UseHttpGet`, sends each in the query string as a JSON value (`?name=%22bob%22`);
//! the answer is `{"d":result}`. `parse` reads JSON text as .NET reads it, `FromJson`
//! converts a value to a parameter's type as `ObjectConverter` does, `ToJson` and `JsonOut`
//! write values as `JavaScriptSerializer` does, `script` holds the messages (requests,
//! answers and the error bodies) and `xml` the answers of `ResponseFormat.Xml`.
//!
//! [`Binding::Json`]: crate::Binding::Json

mod convert;
mod error;
mod parse;
pub mod script;
mod streamed;
#[cfg(test)]
mod tests;
mod write;
pub mod xml;

use std::borrow::Cow;

use rust_decimal::Decimal;

pub use convert::{
    class_members, enum_from_json, enum_to_json, member_index, type_hint, FromJson, ToJson,
};
pub use error::JsonError;
pub use parse::{parse, parse_within, JsonLimits, MAX_DEPTH, MAX_JSON_LENGTH};
#[doc(hidden)] // for generated code
pub use streamed::{Members, Streamed};
pub use write::{date_milliseconds, write_string, JsonOut};

/// A JSON value as .NET's deserializer reads it. Its strings and member names borrow the text
/// they were read from where they hold no escape (most do): reading a call allocates for
/// its arrays and objects, not for each name and string ([`Json::into_owned`] for a value
/// that outlives its text).
#[derive(Debug, Clone, PartialEq)]
pub enum Json<'a> {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, of the type .NET reads it as.
    Number(JsonNumber),
    /// A string, its escapes resolved.
    String(Cow<'a, str>),
    /// A string `"\/Date(ms)\/"`: milliseconds since 1970 in UTC, which .NET reads as a
    /// `DateTime` wherever it stands.
    Date(i64),
    /// An array.
    Array(Vec<Json<'a>>),
    /// An object: its members in order, each name once (a repeated name keeps its last value).
    Object(Vec<(Cow<'a, str>, Json<'a>)>),
}

/// A JSON number, as `JavaScriptObjectDeserializer` types it: without a point or an exponent
/// an `int` (else a `long`), without an exponent a `decimal`, else a `double`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum JsonNumber {
    /// `System.Int32`.
    Int(i32),
    /// `System.Int64`.
    Long(i64),
    /// `System.Decimal` (its scale kept: `1.50`).
    Decimal(Decimal),
    /// `System.Double`.
    Double(f64),
}

impl<'a> Json<'a> {
    /// The .NET type the deserializer makes of it, as error messages name it.
    pub fn dotnet_type(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "System.Boolean",
            Json::Number(JsonNumber::Int(_)) => "System.Int32",
            Json::Number(JsonNumber::Long(_)) => "System.Int64",
            Json::Number(JsonNumber::Decimal(_)) => "System.Decimal",
            Json::Number(JsonNumber::Double(_)) => "System.Double",
            Json::String(_) => "System.String",
            Json::Date(_) => "System.DateTime",
            Json::Array(_) => "System.Collections.ArrayList",
            Json::Object(_) => {
                "System.Collections.Generic.Dictionary`2[System.String,System.Object]"
            }
        }
    }

    /// The member `name` of an object, matched exactly (as parameters are).
    pub fn get(&self, name: &str) -> Option<&Json<'a>> {
        match self {
            Json::Object(members) => members.iter().find(|(n, _)| n == name).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The value with its strings and names its own, to outlive the text it was read from.
    pub fn into_owned(self) -> Json<'static> {
        let owned = |text: Cow<'a, str>| Cow::Owned(text.into_owned());
        match self {
            Json::Null => Json::Null,
            Json::Bool(b) => Json::Bool(b),
            Json::Number(n) => Json::Number(n),
            Json::String(text) => Json::String(owned(text)),
            Json::Date(ms) => Json::Date(ms),
            Json::Array(items) => Json::Array(items.into_iter().map(Json::into_owned).collect()),
            Json::Object(members) => Json::Object(
                members
                    .into_iter()
                    .map(|(name, value)| (owned(name), value.into_owned()))
                    .collect(),
            ),
        }
    }
}
