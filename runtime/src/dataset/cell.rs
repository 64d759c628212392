//! The cells of a DataSet: the .NET column types rmm models, their schema types, and the Rust
//! type each cell holds.

use rust_decimal::Decimal;

use crate::value::scalar::Scalar;
use crate::{DateTime, DateTimeKind, ValueError};

/// The `msdata:DataType` of a `Guid` column, which the schema types `xs:string`.
pub(super) const GUID_DATA_TYPE: &str =
    "System.Guid, mscorlib, Version=4.0.0.0, Culture=neutral, PublicKeyToken=b77a5c561934e089";

macro_rules! cells {
    ($($variant:ident($rust:ty) = $xsd:literal, $dotnet:literal;)*) => {
        /// A column's .NET type (`DataColumn.DataType`), each with the schema type it is
        /// written as (`Guid` is `xs:string` with an `msdata:DataType`).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum ColumnType {
            $(
                #[doc = concat!("`", $dotnet, "`, `xs:", $xsd, "`.")]
                $variant,
            )*
        }

        /// A cell's value (never null: a null cell is `None`), of its column's type.
        #[derive(Debug, Clone, PartialEq)]
        #[non_exhaustive]
        pub enum Cell {
            $(
                #[doc = concat!("A `", $dotnet, "`.")]
                $variant($rust),
            )*
        }

        impl ColumnType {
            /// The schema type's local name (`int`; `string` for `Guid`).
            pub const fn xsd_name(self) -> &'static str {
                match self { $(ColumnType::$variant => $xsd,)* }
            }

            /// The .NET type's name (`System.Int32`).
            pub const fn dotnet_name(self) -> &'static str {
                match self { $(ColumnType::$variant => $dotnet,)* }
            }

            /// Every column type, in this order.
            pub const ALL: &'static [ColumnType] = &[$(ColumnType::$variant,)*];

            /// Reads a cell's text as `XmlConvert` reads it for this type.
            pub(super) fn read(self, text: &str) -> Result<Cell, ValueError> {
                Ok(match self {
                    $(ColumnType::$variant => cells!(@read $variant, $rust, text),)*
                })
            }
        }

        impl Cell {
            /// Its column type.
            pub const fn column_type(&self) -> ColumnType {
                match self { $(Cell::$variant(_) => ColumnType::$variant,)* }
            }
        }

        $(
            impl CellValue for $rust {
                const COLUMN: ColumnType = ColumnType::$variant;
                fn from_cell(cell: &Cell) -> Option<Self> {
                    match cell {
                        Cell::$variant(v) => Some(v.clone()),
                        _ => None,
                    }
                }
                fn into_cell(self) -> Cell {
                    Cell::$variant(self)
                }
            }
        )*
    };
    (@read String, $rust:ty, $text:ident) => { Cell::String($text.to_owned()) };
    // A DataSet's column reads a zero without its sign, as the host reads it (and writes
    // `0` back).
    (@read Double, $rust:ty, $text:ident) => {
        Cell::Double(f64::read_xml($text)? + 0.0)
    };
    (@read Float, $rust:ty, $text:ident) => {
        Cell::Float(f32::read_xml($text)? + 0.0)
    };
    (@read DateTime, $rust:ty, $text:ident) => {
        Cell::DateTime(local(DateTime::read_xml($text)?))
    };
    (@read Base64Binary, $rust:ty, $text:ident) => {
        Cell::Base64Binary(strict_base64($text)?)
    };
    (@read $variant:ident, $rust:ty, $text:ident) => {
        Cell::$variant(<$rust as Scalar>::read_xml($text)?)
    };
}

cells! {
    String(String) = "string", "System.String";
    Int(i32) = "int", "System.Int32";
    Long(i64) = "long", "System.Int64";
    Short(i16) = "short", "System.Int16";
    UnsignedByte(u8) = "unsignedByte", "System.Byte";
    Byte(i8) = "byte", "System.SByte";
    UnsignedShort(u16) = "unsignedShort", "System.UInt16";
    UnsignedInt(u32) = "unsignedInt", "System.UInt32";
    UnsignedLong(u64) = "unsignedLong", "System.UInt64";
    Decimal(Decimal) = "decimal", "System.Decimal";
    Double(f64) = "double", "System.Double";
    Float(f32) = "float", "System.Single";
    Boolean(bool) = "boolean", "System.Boolean";
    DateTime(DateTime) = "dateTime", "System.DateTime";
    Guid(uuid::Uuid) = "string", "System.Guid";
    Base64Binary(Vec<u8>) = "base64Binary", "System.Byte[]";
}

/// A DateTime as a DataSet column holds it (`DataSetDateTime.UnspecifiedLocal`, .NET's
/// default): a reading with an offset as it is, a UTC one or one without a zone at offset
/// zero, as a host running in UTC holds and writes them. A cell read back from what was
/// written of it is then equal to it.
pub(super) fn local(v: DateTime) -> DateTime {
    match v.kind {
        DateTimeKind::Offset(_) => v,
        DateTimeKind::Utc | DateTimeKind::Unspecified => DateTime {
            value: v.value,
            kind: DateTimeKind::Offset(
                chrono::FixedOffset::east_opt(0).expect("zero is an offset"),
            ),
        },
    }
}

/// A `byte[]` cell as .NET's `Convert.FromBase64String` reads it: white space anywhere, then
/// whole groups of four, padding only at the end (XmlSerializer's reading of a `base64Binary`
/// parameter is more lenient; a DataSet's is not).
fn strict_base64(text: &str) -> Result<Vec<u8>, ValueError> {
    use base64::Engine as _;
    let digits: String = text
        .chars()
        .filter(|c| !matches!(c, ' ' | '\t' | '\r' | '\n'))
        .collect();
    base64::engine::general_purpose::STANDARD
        .decode(digits)
        .map_err(|_| ValueError::NotBase64)
}

/// A Rust type a cell holds: typed access to a column ([`super::DataTable::get`], `set`).
pub trait CellValue: Sized {
    /// The column type of its cells.
    const COLUMN: ColumnType;
    /// The value of a cell of that type.
    fn from_cell(cell: &Cell) -> Option<Self>;
    /// The cell holding it.
    fn into_cell(self) -> Cell;
}

impl ColumnType {
    /// The column type of a schema column: its `type`'s local name in XML Schema and its
    /// `msdata:DataType`, if any.
    pub(super) fn from_schema(xsd: &str, data_type: Option<&str>) -> Option<ColumnType> {
        match data_type {
            Some(data_type) => {
                // .NET names the type with its assembly; the name is what counts.
                let name = data_type.split(',').next().unwrap_or_default().trim();
                (xsd == "string" && name == "System.Guid").then_some(ColumnType::Guid)
            }
            None => ColumnType::ALL
                .iter()
                .copied()
                .find(|t| *t != ColumnType::Guid && t.xsd_name() == xsd),
        }
    }
}

impl Cell {
    /// Appends the cell's text as a DataSet writes it (`XmlConvert`); a `DateTime` in
    /// .NET's local form, with the offset: the one it was read or made with, `+00:00` for a
    /// UTC reading or one without a zone (what a host running in UTC writes).
    pub fn write(&self, out: &mut String) {
        match self {
            Cell::String(s) => out.push_str(s),
            Cell::Int(v) => v.write_xml(out),
            Cell::Long(v) => v.write_xml(out),
            Cell::Short(v) => v.write_xml(out),
            Cell::UnsignedByte(v) => v.write_xml(out),
            Cell::Byte(v) => v.write_xml(out),
            Cell::UnsignedShort(v) => v.write_xml(out),
            Cell::UnsignedInt(v) => v.write_xml(out),
            Cell::UnsignedLong(v) => v.write_xml(out),
            Cell::Decimal(v) => v.write_xml(out),
            Cell::Double(v) => v.write_xml(out),
            Cell::Float(v) => v.write_xml(out),
            Cell::Boolean(v) => v.write_xml(out),
            Cell::DateTime(v) => local(*v).write_xml(out),
            Cell::Guid(v) => v.write_xml(out),
            Cell::Base64Binary(v) => v.write_xml(out),
        }
    }
}

impl std::fmt::Display for Cell {
    /// The cell's text as a DataSet writes it ([`Cell::write`]).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut out = String::new();
        self.write(&mut out);
        f.write_str(&out)
    }
}
