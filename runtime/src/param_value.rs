//! A parameter's value seen as text, whatever its type: what a signer signs, what an echo
//! prints, what a log shows.

use std::fmt;

use rust_decimal::Decimal;

/// One parameter value, borrowed from a request or credentials.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum ParamValue<'a> {
    /// An `int`.
    Int(i32),
    /// A `boolean`.
    Boolean(bool),
    /// A `decimal`, its scale kept.
    Decimal(&'a Decimal),
    /// A `string`; `None` is an absent SOAP element.
    String(Option<&'a str>),
    /// A `long`.
    Long(i64),
    /// A `short`.
    Short(i16),
    /// A `byte` (.NET `sbyte`).
    Byte(i8),
    /// An `unsignedByte` (.NET `byte`).
    UnsignedByte(u8),
    /// An `unsignedShort`.
    UnsignedShort(u16),
    /// An `unsignedInt`.
    UnsignedInt(u32),
    /// An `unsignedLong`.
    UnsignedLong(u64),
    /// A `float`.
    Float(f32),
    /// A `double`.
    Double(f64),
    /// A `char`.
    Char(char),
    /// A `guid`.
    Guid(uuid::Uuid),
    /// A `base64Binary`.
    Base64Binary(&'a [u8]),
    /// A `dateTime`.
    DateTime(crate::value::datetime::DateTime),
    /// A `date` (`yyyy-MM-dd` on the wire): the reading it holds.
    Date(crate::value::datetime::DateTime),
    /// An enum's value.
    Enum {
        /// The enum's name (`Level`).
        ty: &'static str,
        /// The value as the wire spells it (`very-high`).
        value: &'static str,
    },
    /// A null of a nullable value of this type (`xsi:nil`, .NET `int?` holding no value).
    Nil(crate::SoapType),
    /// A `[Flags]` enum's value: the names of its flags (`names[i]` for bit `i`), or the
    /// zero value's name for none.
    Flags {
        /// The enum's name (`Perms`).
        ty: &'static str,
        /// The flags set.
        bits: u64,
        /// Each flag's wire name, bit `i` the `i`th.
        names: &'static [&'static str],
        /// The name of the value with no flag, if it has one.
        zero: Option<&'static str>,
    },
    /// A value of a class or array type, by its type's name (`Order`, `ArrayOfString`): its
    /// members are not parameters, so signers and echoes see the type alone (a null is
    /// [`ParamValue::Nil`]).
    Complex(&'static str),
}

impl ParamValue<'_> {
    /// The SOAP type of the value.
    pub const fn soap_type(&self) -> crate::SoapType {
        use crate::SoapType as T;
        match self {
            ParamValue::Int(_) => T::Int,
            ParamValue::Boolean(_) => T::Boolean,
            ParamValue::Decimal(_) => T::Decimal,
            ParamValue::String(_) => T::String,
            ParamValue::Long(_) => T::Long,
            ParamValue::Short(_) => T::Short,
            ParamValue::Byte(_) => T::Byte,
            ParamValue::UnsignedByte(_) => T::UnsignedByte,
            ParamValue::UnsignedShort(_) => T::UnsignedShort,
            ParamValue::UnsignedInt(_) => T::UnsignedInt,
            ParamValue::UnsignedLong(_) => T::UnsignedLong,
            ParamValue::Float(_) => T::Float,
            ParamValue::Double(_) => T::Double,
            ParamValue::Char(_) => T::Char,
            ParamValue::Guid(_) => T::Guid,
            ParamValue::Base64Binary(_) => T::Base64Binary,
            ParamValue::Nil(ty) => *ty,
            ParamValue::Complex(ty) => T::Complex(ty),
            ParamValue::Flags { ty, .. } => T::Enum(ty),
            ParamValue::Enum { ty, .. } => T::Enum(ty),
            ParamValue::DateTime(_) => T::DateTime,
            ParamValue::Date(_) => T::Date,
        }
    }

    /// Appends the value as [`Display`](fmt::Display) prints it, without the formatting
    /// machinery (an echo writes one per parameter of every call).
    pub fn push_to(&self, out: &mut String) {
        use crate::value::{float, write_integer};
        match self {
            ParamValue::Int(v) => crate::value::write_int(out, *v),
            ParamValue::Boolean(v) => crate::value::write_boolean(out, *v),
            ParamValue::Decimal(v) => crate::value::write_decimal(out, v),
            ParamValue::String(Some(v)) => out.push_str(v),
            ParamValue::String(None) => out.push_str("<null>"),
            ParamValue::Long(v) => write_integer(out, *v),
            ParamValue::Short(v) => write_integer(out, *v),
            ParamValue::Byte(v) => write_integer(out, *v),
            ParamValue::UnsignedByte(v) => write_integer(out, *v),
            ParamValue::UnsignedShort(v) => write_integer(out, *v),
            ParamValue::UnsignedInt(v) => write_integer(out, *v),
            ParamValue::UnsignedLong(v) => write_integer(out, *v),
            ParamValue::Float(v) => float::write_float(out, *v),
            ParamValue::Double(v) => float::write_double(out, *v),
            ParamValue::Char(v) => crate::value::scalar::Scalar::write_xml(v, out),
            ParamValue::Guid(v) => crate::value::scalar::Scalar::write_xml(v, out),
            ParamValue::Base64Binary(v) => crate::value::scalar::write_base64(out, v),
            ParamValue::Nil(_) => out.push_str("<null>"),
            ParamValue::Flags {
                bits, names, zero, ..
            } => crate::value::flags::write_list(out, *bits, names, *zero),
            ParamValue::Complex(ty) => {
                out.push('<');
                out.push_str(ty);
                out.push('>');
            }
            ParamValue::Enum { value, .. } => out.push_str(value),
            ParamValue::DateTime(v) => crate::value::scalar::Scalar::write_xml(v, out),
            ParamValue::Date(v) => crate::value::date::write(out, v.value.date()),
        }
    }
}

impl<'a> ParamValue<'a> {
    /// The value of a parameter of a class or array type named `ty`: [`ParamValue::Complex`],
    /// or [`ParamValue::Nil`] for `None`.
    pub fn complex<T>(ty: &'static str, value: &Option<T>) -> ParamValue<'a> {
        match value {
            Some(_) => ParamValue::Complex(ty),
            None => ParamValue::Nil(crate::SoapType::Complex(ty)),
        }
    }

    /// The value of a nullable parameter: the value, or [`ParamValue::Nil`].
    pub fn nullable<T: crate::Scalar>(value: &'a Option<T>) -> ParamValue<'a> {
        match value {
            Some(value) => value.param_value(),
            None => ParamValue::Nil(T::TYPE),
        }
    }
}

/// The value as an ASMX echo prints it: every value as `XmlConvert` writes it (digits,
/// `true`/`false`, the decimal with its scale, a float's round-trip form), the string as is,
/// and `<null>` for an absent string or a null.
impl fmt::Display for ParamValue<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamValue::String(Some(v)) => f.write_str(v),
            other => {
                let mut text = String::new();
                other.push_to(&mut text);
                f.write_str(&text)
            }
        }
    }
}

/// `Debug` of a parameter list with the values of `secrets` shown as `<redacted>`, for types
/// that carry parameters (a verifier's call, a signer's request) and may end up in a log.
pub struct RedactedParams<'a> {
    /// The parameters, in wire order.
    pub params: &'a [(&'static str, ParamValue<'a>)],
    /// Wire names whose values are hidden.
    pub secrets: &'a [&'a str],
}

impl fmt::Debug for RedactedParams<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut list = f.debug_list();
        for (name, value) in self.params {
            if self.secrets.contains(name) {
                list.entry(&(name, crate::Redacted::value()));
            } else {
                list.entry(&(name, value));
            }
        }
        list.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    #[test]
    fn push_to_appends_what_display_prints() {
        let decimal = Decimal::from_str("-12.3400").unwrap();
        for value in [
            ParamValue::Int(i32::MIN),
            ParamValue::Int(0),
            ParamValue::Boolean(true),
            ParamValue::Boolean(false),
            ParamValue::Decimal(&decimal),
            ParamValue::String(Some("a;b=c")),
            ParamValue::String(Some("")),
            ParamValue::String(None),
        ] {
            let mut out = String::from("x=");
            value.push_to(&mut out);
            assert_eq!(out, format!("x={value}"));
        }
    }

    #[test]
    fn redacted_params_hide_secrets() {
        let params = [
            ("user", ParamValue::String(Some("me"))),
            ("sig", ParamValue::String(Some("s3cr3t"))),
        ];
        let shown = format!(
            "{:?}",
            RedactedParams {
                params: &params,
                secrets: &["sig"]
            }
        );
        assert_eq!(
            shown,
            r#"[("user", String(Some("me"))), ("sig", <redacted>)]"#
        );
    }

    #[test]
    fn prints_as_the_host_echoes() {
        let d = Decimal::from_str("-12.3400").unwrap();
        let shown: Vec<String> = [
            ParamValue::Int(-2147483648),
            ParamValue::Boolean(true),
            ParamValue::Decimal(&d),
            ParamValue::String(Some("  a b ")),
            ParamValue::String(None),
        ]
        .iter()
        .map(ToString::to_string)
        .collect();
        assert_eq!(
            shown,
            ["-2147483648", "true", "-12.3400", "  a b ", "<null>"]
        );
    }
}
