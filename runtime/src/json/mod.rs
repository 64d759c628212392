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
#[cfg(test)]
mod tests;
mod write;
pub mod xml;

use rust_decimal::Decimal;

pub use convert::{
    class_members, enum_from_json, enum_to_json, member_is, type_hint, FromJson, ToJson,
};
pub use error::JsonError;
pub use parse::{parse, parse_within, JsonLimits, MAX_DEPTH, MAX_JSON_LENGTH};
pub use write::{date_milliseconds, write_string, JsonOut};

/// A JSON value as .NET's deserializer reads it.
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, of the type .NET reads it as.
    Number(JsonNumber),
    /// A string, its escapes resolved.
    String(String),
    /// A string `"\/Date(ms)\/"`: milliseconds since 1970 in UTC, which .NET reads as a
    /// `DateTime` wherever it stands.
    Date(i64),
    /// An array.
    Array(Vec<Json>),
    /// An object: its members in order, each name once (a repeated name keeps its last value).
    Object(Vec<(String, Json)>),
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

impl Json {
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
    pub fn get(&self, name: &str) -> Option<&Json> {
        match self {
            Json::Object(members) => members.iter().find(|(n, _)| n == name).map(|(_, v)| v),
            _ => None,
        }
    }
}
