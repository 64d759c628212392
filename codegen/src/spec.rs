//! `rmm-spec.yaml`: its format, loading and validation.
//!
//! Loading parses with serde_yaml's API (the maintained `yaml_serde` fork) and then validates;
//! every error names the offending item and, where it can be found, its `file:line:col`.
//!
//! [`parse`] reports either the first error serde_yaml meets (YAML syntax, an unknown key, a
//! value of the wrong shape), or else every problem the validator finds, in source order.

use std::fmt;
use std::path::Path;

mod locate;
mod raw;
mod validate;

pub(crate) use validate::{namespace_problems, ncname_problem, path_problems, NCNAME_RULE};

/// A whole spec file, as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spec {
    /// The `service:` block.
    pub service: Service,
    /// Credentials every operation carries (`credentials:`), in the order written.
    pub credentials: Vec<String>,
    /// Credentials only some operations carry (`optional_credentials:`).
    pub optional_credentials: Vec<String>,
    /// Parameter names whose values are never printed (`secrets:`).
    pub secrets: Vec<String>,
    /// The enums (`enums:`), which parameters and results name by their names; a
    /// [`SoapType::Enum`] is an index into this list.
    pub enums: Vec<EnumDef>,
    /// The classes (`types:`), in the order written; a [`SoapType::Class`] is an index into
    /// this list.
    pub classes: Vec<ClassDef>,
    /// Every array type the spec names (`OrderLine[]`, `int?[]`, `string[][]`), each once, in
    /// the order first named; a [`SoapType::Array`] is an index into this list.
    pub arrays: Vec<ArrayDef>,
    /// The typed DataSets (`data_sets:`), in the order written; a [`SoapType::TypedDataSet`]
    /// is an index into this list.
    pub data_sets: Vec<DataSetDef>,
    /// Every choice member's choice (`choice:`), in the order of the classes and their
    /// members; a [`SoapType::Choice`] is an index into this list.
    pub choices: Vec<ChoiceDef>,
    /// The operations, in the order written (which is the order of every output).
    pub operations: Vec<Operation>,
}

/// An enum: an `xs:simpleType` restricting `xs:string` to a list of values, as ASMX writes a
/// .NET enum.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnumDef {
    /// Its name, in the WSDL and in Rust (`Level`).
    pub name: String,
    /// Documentation, if the spec gives some.
    pub doc: Option<String>,
    /// The values as the wire spells them, in order (`Low`, `very-high`).
    pub values: Vec<String>,
    /// The .NET member name of each value, in the same order (`Low`, `VeryHigh`): what HTTP
    /// GET/POST carry, as ASMX reads them there with `Enum.Parse`. The wire name unless the
    /// spec writes the value `- very-high: VeryHigh` (an `[XmlEnum]` attribute); a WSDL
    /// never says.
    pub members: Vec<String>,
    /// A `[Flags]` enum (`flags: true`, an `xs:list` in the WSDL): a value is a set of its
    /// values.
    pub flags: bool,
    /// In a flags enum, the index of the value that is no flag (`zero:`, .NET's `0`).
    pub zero: Option<usize>,
    /// The namespace its `xs:simpleType` is declared in when not the service's (`namespace:`,
    /// `[XmlType(Namespace = …)]`). The wire never shows it (a value is text in its member's
    /// element), the WSDL does.
    pub namespace: Option<String>,
}

/// A class, as XmlSerializer maps a .NET class with public fields: an `xs:complexType` whose
/// `xs:sequence` holds one element per member, in declaration order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassDef {
    /// Its name, in the WSDL and in Rust (`Order`).
    pub name: String,
    /// Documentation, if the spec gives some.
    pub doc: Option<String>,
    /// The class it derives from, by its index in [`Spec::classes`] (`base:`).
    pub base: Option<u16>,
    /// Whether it is abstract (`abstract: true`): its values are of derived classes only.
    pub is_abstract: bool,
    /// `[XmlRoot("name")]` (`root: name`): a parameter or result of the class is that element,
    /// nillable (`None` is `xsi:nil`), as XmlSerializer names a method's member of a class
    /// with `[XmlRoot]`; its HTTP GET/POST result document is rooted there too. Its members
    /// and array items keep their own names.
    pub root: Option<String>,
    /// The namespace of its type and elements when not the service's (`namespace:`,
    /// `[XmlType(Namespace = …)]`): a SOAP header class of another namespace and the classes
    /// it holds, its members qualified in it.
    pub namespace: Option<String>,
    /// Its members written as attributes (`attributes:`, .NET's `[XmlAttribute]`), of simple
    /// types, in declaration order.
    pub attributes: Vec<Param>,
    /// The type of its text content (`text:`, .NET's `[XmlText]`), a simple type.
    pub text: Option<SoapType>,
    /// The name of its `[XmlAnyAttribute] XmlAttribute[]` member (`any_attribute:`): the
    /// attributes none of its attribute members takes (namespaced ones, `xsi:type` and
    /// `xml:lang` among them), kept as they were written.
    pub any_attribute: Option<String>,
    /// Its own members in wire order (after its base's): element name, type, and whether a
    /// value type is nullable (`int?`: `nillable="true"`).
    pub members: Vec<Param>,
}

/// An `xs:choice` of a class (a member written `{choice: […]}`): .NET's `object Item` (or
/// `object[] Items`) with one `[XmlElement(Name, Type)]` per alternative, and where two
/// alternatives share a type its `[XmlChoiceIdentifier]` enum (which is nowhere on the wire).
/// A value is one of its alternatives' elements; none at all for `None`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChoiceDef {
    /// Its class, by its index in [`Spec::classes`].
    pub class: u16,
    /// The member's name (`Item`): the .NET member's, nowhere on the wire.
    pub member: String,
    /// Its alternatives in the order written (the WSDL's): each an element name and its
    /// type (a simple type, an enum or a class, never nullable).
    pub alternatives: Vec<Alternative>,
    /// A repeated choice (`repeated: true`, `maxOccurs="unbounded"`, .NET's `object[] Items`):
    /// any number of the alternatives' elements, in any order, kept in order.
    pub repeated: bool,
}

/// One alternative of a [`ChoiceDef`]: an element of its own name and type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Alternative {
    /// The element's name.
    pub name: String,
    /// Its type.
    pub ty: SoapType,
    /// Whether its element is nillable (`- Name: "Type?"`, `[XmlElement(IsNullable =
    /// true)]`, `nillable="true"`): `xsi:nil` is a value of the alternative, `None`.
    pub nillable: bool,
}

/// A typed DataSet, as .NET's `xsd /dataset` makes one from a schema: a `DataSet` class of
/// its own name and namespace whose tables and columns are known beforehand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataSetDef {
    /// Its name (`DataSetName`, the class's), in the WSDL and in Rust (`ShopDs`).
    pub name: String,
    /// Documentation, if the spec gives some.
    pub doc: Option<String>,
    /// `DataSet.Namespace`: its schema's target namespace, which its rows are in.
    pub namespace: String,
    /// The culture it is of (`msdata:Locale`, empty for the invariant one); `None` for the
    /// current culture (`msdata:UseCurrentLocale`).
    pub locale: Option<String>,
    /// Its tables, in order.
    pub tables: Vec<TableDef>,
}

/// A table of a typed DataSet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableDef {
    /// `TableName` (not XML-encoded: `Shop Notes`).
    pub name: String,
    /// Its columns, in order.
    pub columns: Vec<ColumnDef>,
}

/// A column of a typed DataSet's table: `- Id: int`, or `- Name: string?` when it allows
/// nulls.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColumnDef {
    /// `ColumnName` (not XML-encoded).
    pub name: String,
    /// Its type: one of the simple types a DataSet column holds (strings, numbers, `boolean`,
    /// `dateTime`, `guid`, `base64Binary`).
    pub ty: SoapType,
    /// `AllowDBNull` (`minOccurs="0"` in its schema): written `?` after the type.
    pub allow_null: bool,
}

/// The simple types a typed DataSet's column may be, as the spec spells them: the column
/// types the runtime models (`rmm_runtime::dataset::ColumnType`).
pub const COLUMN_TYPES: [SoapType; 16] = [
    SoapType::String,
    SoapType::Int,
    SoapType::Long,
    SoapType::Short,
    SoapType::UnsignedByte,
    SoapType::Byte,
    SoapType::UnsignedShort,
    SoapType::UnsignedInt,
    SoapType::UnsignedLong,
    SoapType::Decimal,
    SoapType::Double,
    SoapType::Float,
    SoapType::Boolean,
    SoapType::DateTime,
    SoapType::Guid,
    SoapType::Base64Binary,
];

/// An array type: XmlSerializer's `ArrayOfX`, a sequence of items each named after the item
/// type (`<string>`, `<int>`, `<OrderLine>`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ArrayDef {
    /// The items' type.
    pub item: SoapType,
    /// Whether a value-type item is nullable (`int?[]`); reference items (strings, classes,
    /// arrays) are nillable as they are.
    pub item_nullable: bool,
    /// The items' element name where it is not the item type's (a member's `item:`,
    /// `[XmlArrayItem]`): another array type than the one with the usual name.
    pub item_name: Option<String>,
}

impl Spec {
    /// The spec's name of a type: the simple type's, the enum's, the class's, or the array's
    /// as the spec spells it (`OrderLine[]`).
    pub fn type_name(&self, ty: SoapType) -> String {
        match ty {
            SoapType::Enum(i) => self.enums[usize::from(i)].name.clone(),
            SoapType::Class(i) => self.classes[usize::from(i)].name.clone(),
            SoapType::TypedDataSet(i) => self.data_sets[usize::from(i)].name.clone(),
            SoapType::Array(i) => {
                let array = &self.arrays[usize::from(i)];
                let q = if array.item_nullable { "?" } else { "" };
                format!("{}{q}[]", self.type_name(array.item))
            }
            simple => simple.name().to_owned(),
        }
    }

    /// The types a member of type `ty` holds values of: a choice's alternatives', else `ty`.
    pub fn held_types(&self, ty: SoapType) -> Vec<SoapType> {
        match ty {
            SoapType::Choice(i) => self.choices[usize::from(i)]
                .alternatives
                .iter()
                .map(|a| a.ty)
                .collect(),
            ty => vec![ty],
        }
    }
}

/// The `service:` block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Service {
    /// The service's name (`MobileService`); trait and client names derive from it.
    pub name: String,
    /// The XML namespace of every operation element.
    pub namespace: String,
    /// The endpoint path (`/api/rmm/MobileService.asmx`).
    pub path: String,
    /// The generated crate's package name (`crate:`; `rmm-mobile-service` from the name when
    /// the spec gives none).
    pub crate_name: String,
    /// The service's own description (`description:`, .NET's `[WebService(Description = …)]`):
    /// published in the WSDL, as the document's and the `wsdl:service`'s documentation.
    pub description: Option<String>,
    /// How the WSDL declares a DataSet (`dataset_wsdl:`), as .NET's `system.data.dataset`
    /// `WSDL_VERSION` setting chooses it.
    pub dataset_wsdl: DataSetWsdl,
    /// How its SOAP messages are written (`style:`).
    pub style: ServiceStyle,
    /// `script:`: a `[ScriptService]`, whose operations answer ASP.NET AJAX's JSON calls.
    pub script: Option<ScriptService>,
    /// `session:`: the name of the class whose values a session keeps, for the operations
    /// with session state.
    pub session: Option<String>,
}

/// A `[ScriptService]`'s settings (`script:`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ScriptService {
    /// The .NET namespace of its classes (`namespace:`): the `__type` hint of a class that
    /// is a parameter's or result's type is `{namespace}.{Name}` (`Name` without one).
    pub namespace: Option<String>,
}

impl Spec {
    /// Whether its operations are RPC/encoded: a `style: rpc` service's
    /// (`[SoapRpcService]`), or a document service's whose every operation is `style: rpc`
    /// (`[SoapRpcMethod]` on each method).
    pub fn is_rpc(&self) -> bool {
        self.service.style == ServiceStyle::Rpc
            || (!self.operations.is_empty()
                && self
                    .operations
                    .iter()
                    .all(|op| op.style == ParameterStyle::Rpc))
    }
}

/// How a service's SOAP messages are written: .NET's `[SoapDocumentService]` (the default)
/// or `[SoapRpcService]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ServiceStyle {
    /// `document` (the default): document/literal, the schema's elements.
    #[default]
    Document,
    /// `rpc`: RPC/encoded (SOAP section 5) on SOAP 1.1 and 1.2: every simple value typed
    /// (`xsi:type`), classes and arrays as multi-reference values, members unqualified.
    Rpc,
}

/// The form of a DataSet's type in the WSDL: .NET's `DataSet.GetDataSetSchema`, which the
/// host's configuration (`<system.data.dataset><add key="WSDL_VERSION" …/>`) chooses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DataSetWsdl {
    /// `1.0` (.NET Framework's default, without the setting):
    /// `<s:sequence><s:element ref="s:schema" /><s:any /></s:sequence>`.
    #[default]
    V1,
    /// `2.0` (Mono's, whatever the setting): a `maxOccurs="unbounded"` sequence of two lax
    /// `s:any`, one of XML Schema's namespace, one of the diffgram's.
    V2,
}

impl DataSetWsdl {
    /// Its spelling in a spec (`"1.0"`, `"2.0"`).
    pub const fn name(self) -> &'static str {
        match self {
            DataSetWsdl::V1 => "1.0",
            DataSetWsdl::V2 => "2.0",
        }
    }
}

/// One operation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Operation {
    /// Wire name (`MobileTaskCreate`).
    pub name: String,
    /// Documentation, into rustdoc and the help pages (`doc:`, else `description:`).
    pub doc: String,
    /// The service's own description of the operation (`description:`, .NET's
    /// `[WebMethod(Description = …)]`): published in the WSDL as each port type's
    /// `wsdl:documentation`. A service without one publishes none, whatever `doc` says.
    pub description: Option<String>,
    /// Parameters in wire order.
    pub params: Vec<Param>,
    /// The result's type.
    pub result: SoapType,
    /// Whether the result is nullable (`int?`: `nillable="true"`, .NET `int?`).
    pub result_nullable: bool,
    /// The `out` and `ref` parameters (`out:`): elements of the response after the result,
    /// in parameter order.
    pub outs: Vec<Param>,
    /// The bindings it is offered on, in [`BindingName::ALL`]'s order (`bindings:`; all four
    /// when the spec says nothing). ASMX leaves HTTP GET and POST out for an operation whose
    /// types they cannot carry.
    pub bindings: Vec<BindingName>,
    /// How its SOAP messages hold the parameters and the result (`style:`).
    pub style: ParameterStyle,
    /// The .NET method's name where `[WebMethod(MessageName)]` gave the operation another
    /// (`method:`, an overload): the WSDL names the operation after the method and its input
    /// and output after `name`; everything on the wire is `name`'s.
    pub method: Option<String>,
    /// The SOAP headers it uses (`headers:`, `[SoapHeader]`), in spec order (.NET's order of
    /// the attributes): each a header block named after its class, in the service namespace,
    /// in the Header of the request (`In`), of the response (`Out`) or of both (`InOut`).
    pub headers: Vec<SpecHeader>,
    /// The request's wrapper element where `[SoapDocumentMethod(RequestElementName)]` named
    /// it otherwise than the operation (`request_element:`).
    pub request_element: Option<String>,
    /// The response's wrapper element where `[SoapDocumentMethod(ResponseElementName)]`
    /// named it otherwise than `{name}Response` (`response_element:`).
    pub response_element: Option<String>,
    /// The result's element where `[return: XmlElement(Name)]` named it otherwise than
    /// `{name}Result` (`result_element:`).
    pub result_element: Option<String>,
    /// The SOAPAction where it is not `{namespace}/{name}` (`action:`,
    /// `[SoapDocumentMethod(Action)]` or `[SoapRpcMethod(Action)]`).
    pub action: Option<String>,
    /// An rpc operation's request namespace where it is not the service's
    /// (`request_namespace:`, `[SoapRpcMethod(RequestNamespace)]`).
    pub request_namespace: Option<String>,
    /// An rpc operation's response namespace where it is not the service's
    /// (`response_namespace:`, `[SoapRpcMethod(ResponseNamespace)]`).
    pub response_namespace: Option<String>,
    /// Over JSON, called with GET (`script: {get: true}`, `[ScriptMethod(UseHttpGet =
    /// true)]`), its parameters JSON values in the query; else with POST.
    pub script_get: bool,
    /// Over JSON, answered in XML (`script: {response: xml}`, `[ScriptMethod(ResponseFormat
    /// = ResponseFormat.Xml)]`).
    pub script_xml: bool,
    /// With session state (`session: true`, `[WebMethod(EnableSession = true)]`).
    pub session: bool,
}

/// One SOAP header of an operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpecHeader {
    /// Its class's index in [`Spec::classes`].
    pub class: u16,
    /// Which messages carry it.
    pub direction: HeaderDirection,
}

/// Which messages carry a SOAP header: .NET's `SoapHeaderDirection`, as the spec spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
pub enum HeaderDirection {
    /// `In`: the request's Header; the service reads it.
    In,
    /// `Out`: the response's Header; the service writes it.
    Out,
    /// `InOut`: both; the service reads it and writes it back.
    InOut,
    /// `Fault`: the Header of a fault the operation answers with (the service writes it
    /// there alone, with the fault).
    Fault,
}

impl HeaderDirection {
    /// Whether a fault carries it.
    pub fn on_fault(self) -> bool {
        self == HeaderDirection::Fault
    }

    /// Whether the request carries it.
    pub fn reads(self) -> bool {
        matches!(self, HeaderDirection::In | HeaderDirection::InOut)
    }

    /// Whether the response carries it.
    pub fn writes(self) -> bool {
        matches!(self, HeaderDirection::Out | HeaderDirection::InOut)
    }
}

/// How an operation's SOAP messages hold its parameters and result: .NET's
/// `SoapParameterStyle` of a document/literal method.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ParameterStyle {
    /// `wrapped` (the default): the parameters inside `<Op>`, the result inside
    /// `<OpResponse>`; each wrapper a global element of the schema.
    #[default]
    Wrapped,
    /// `bare`: each parameter an element of its own in the Body, a global element of the
    /// schema named after the parameter; the result `<OpResult>` in the Body, and a null
    /// result an empty Body.
    Bare,
    /// `rpc`: `[SoapRpcMethod]` on a method of a document service: RPC/encoded, as every
    /// operation of a `style: rpc` service is, but for the names its messages use (its types'
    /// namespace is `{namespace}/encodedTypes`, its response element `tns:`-prefixed).
    Rpc,
}

/// One of the four ways an ASMX host offers an operation, as the spec spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BindingName {
    /// `soap11`: SOAP 1.1.
    Soap11,
    /// `soap12`: SOAP 1.2.
    Soap12,
    /// `get`: HTTP GET.
    Get,
    /// `post`: HTTP POST.
    Post,
}

impl BindingName {
    /// All four, in the order the spec lists them.
    pub const ALL: [BindingName; 4] = [
        BindingName::Soap11,
        BindingName::Soap12,
        BindingName::Get,
        BindingName::Post,
    ];

    /// The spec's spelling (`soap11`).
    pub const fn name(self) -> &'static str {
        match self {
            BindingName::Soap11 => "soap11",
            BindingName::Soap12 => "soap12",
            BindingName::Get => "get",
            BindingName::Post => "post",
        }
    }
}

/// One parameter: `- name: type`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Param {
    /// Wire name.
    pub name: String,
    /// SOAP type.
    pub ty: SoapType,
    /// Whether the value may be null (`int?` in the spec: `nillable="true"`, .NET `int?`).
    pub nullable: bool,
    /// A class member of an array type written without a wrapper (`unwrapped: true`,
    /// `[XmlElement]` on an array): its items are repeated elements of its own name.
    pub unwrapped: bool,
    /// A class member of a value type that may be absent (`optional: true`, .NET's
    /// `xxxSpecified` pattern: `minOccurs="0"`): `Option` in Rust, `None` no element.
    pub optional: bool,
    /// A class member's default value (`default:`, .NET's `[DefaultValue]`, the field's
    /// initializer too), as XML text: a value equal to it is not written, and an absent
    /// element reads as it.
    pub default: Option<String>,
    /// A class member of an array type that is a .NET `List<T>` (`list: true`): XmlSerializer
    /// creates the list before reading, so an absent element reads as empty, and appends the
    /// items of a repeated one. The WSDL is a `T[]`'s.
    pub list: bool,
    /// A class member of raw XML (`xml` or `xml[]`) that is `[XmlAnyElement]` (`any: true`):
    /// it has no element of its own, but takes each element of the class's no other member
    /// takes (`<s:any />` in the WSDL).
    pub any: bool,
    /// A class member of a simple type in no namespace (`unqualified: true`, .NET's
    /// `[XmlElement(Form = XmlSchemaForm.Unqualified)]`, `form="unqualified"` in the WSDL):
    /// written `<Name xmlns="">` inside its class, and read only so.
    pub unqualified: bool,
    /// An attribute's namespace (`namespace:`, .NET's `[XmlAttribute(Namespace = …)]`): the
    /// XML namespace alone for now (`xml:lang`, `ref="xml:lang"` in the WSDL).
    pub namespace: Option<String>,
    /// An attribute of its class's namespace (`qualified: true`, .NET's
    /// `[XmlAttribute(Form = XmlSchemaForm.Qualified)]`, `form="qualified"` in the WSDL):
    /// written with a prefix bound to it (one .NET's writer makes up, `d3p1`), read only so.
    pub qualified: bool,
    /// The XML Schema type of a string member or attribute (`data_type: ID`, .NET's
    /// `DataType = "ID"`, `type="s:ID"` in the WSDL): one of the types .NET reads as a string,
    /// trimmed.
    pub data_type: Option<String>,
}

/// The SOAP types a spec may name, spelled as ASMX's WSDL spells them (the XML Schema type's
/// local name).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SoapType {
    /// `int`: .NET `int`, Rust `i32`.
    Int,
    /// `string`: .NET `string`, Rust `Option<String>`.
    String,
    /// `boolean`: .NET `bool`, Rust `bool`.
    Boolean,
    /// `decimal`: .NET `decimal`, Rust `rust_decimal::Decimal`.
    Decimal,
    /// `long`: .NET `long`, Rust `i64`.
    Long,
    /// `short`: .NET `short`, Rust `i16`.
    Short,
    /// `byte`: .NET `sbyte`, Rust `i8`.
    Byte,
    /// `unsignedByte`: .NET `byte`, Rust `u8`.
    UnsignedByte,
    /// `unsignedShort`: .NET `ushort`, Rust `u16`.
    UnsignedShort,
    /// `unsignedInt`: .NET `uint`, Rust `u32`.
    UnsignedInt,
    /// `unsignedLong`: .NET `ulong`, Rust `u64`.
    UnsignedLong,
    /// `float`: .NET `float`, Rust `f32`.
    Float,
    /// `double`: .NET `double`, Rust `f64`.
    Double,
    /// `char`: .NET `char` (one UTF-16 unit, written as its number), Rust `char`; ASMX puts
    /// it in its own namespace, `http://microsoft.com/wsdl/types/`.
    Char,
    /// `guid`: .NET `Guid`, Rust `uuid::Uuid`; in `http://microsoft.com/wsdl/types/` too.
    /// HTTP GET/POST cannot carry one as a parameter.
    Guid,
    /// `dateTime`: .NET `DateTime`, Rust `rmm_runtime::DateTime` (a chrono reading and its
    /// kind: no zone, UTC or an offset).
    DateTime,
    /// `date`: .NET `DateTime` with `DataType = "date"`, Rust `rmm_runtime::Date` (the
    /// `DateTime` it holds): `yyyy-MM-dd` over SOAP, a whole `DateTime` over HTTP GET/POST,
    /// as ASMX carries it.
    Date,
    /// `base64Binary`: .NET `byte[]`, Rust `Option<Vec<u8>>` (a reference, absent when
    /// `None`, as a string is); over HTTP GET/POST one pair per byte.
    Base64Binary,
    /// `xml`: .NET `XmlElement`, raw XML (`<s:any />` in the WSDL), Rust
    /// `Option<rmm_runtime::RawXml>`: the element kept whole, a .NET reference (absent when
    /// `None`); HTTP GET/POST carry one as a result only.
    Xml,
    /// `xmlNode`: .NET `XmlNode`, raw XML that may be text (a mixed `<s:any />` in the WSDL),
    /// Rust `Option<rmm_runtime::RawNode>`: the first node, an element, a text or a CDATA
    /// section; a reference. HTTP GET/POST carry one as a result only.
    XmlNode,
    /// `dataSet`: .NET `System.Data.DataSet`, an inline schema and a diffgram (in the WSDL
    /// `<s:element ref="s:schema" /><s:any />`, or .NET 2.0's form, as the service's
    /// `dataset_wsdl` says), Rust `Option<rmm_runtime::DataSet>`: tables, typed columns,
    /// rows and their states; a reference. HTTP GET/POST carry one as a result only.
    DataSet,
    /// `dataTable`: .NET `System.Data.DataTable`, a lone table written as a DataSet naming it
    /// its main table (in the WSDL a sequence of an `s:any` of XML Schema's namespace and one
    /// of the diffgram's, `minOccurs="1"`), Rust `Option<rmm_runtime::DataTable>`; a
    /// reference. HTTP GET/POST carry one as a result only.
    DataTable,
    /// `object`: .NET `object` (`xs:anyType`, an element without a type in the WSDL), Rust
    /// `Option<Object>` (the generated alias of `rmm_runtime::AnyType`): a value naming its
    /// type with `xsi:type`, a simple one or one of the service's classes, enums and arrays;
    /// a reference. HTTP GET/POST carry one as a result only.
    Object,
    /// One of the spec's enums, by its index in [`Spec::enums`]: a generated Rust enum.
    Enum(u16),
    /// One of the spec's classes, by its index in [`Spec::classes`]: a generated Rust struct,
    /// a .NET reference (`Option`, absent when `None`).
    Class(u16),
    /// A typed DataSet, by its index in [`Spec::data_sets`]: a generated Rust struct over an
    /// `rmm_runtime::DataSet` of its tables, with a struct for each table's rows; on the wire
    /// a DataSet of its namespace (in the WSDL an `<s:any namespace="…" />` of it, its schema
    /// served at `?schema=Name`); a reference. HTTP GET/POST carry one as a result only.
    TypedDataSet(u16),
    /// An array, by its index in [`Spec::arrays`]: a Rust `Vec`, a .NET reference (`Option`,
    /// absent when `None`, an empty element when empty).
    Array(u16),
    /// A class member that is an `xs:choice`, by its index in [`Spec::choices`]: a generated
    /// Rust enum of its alternatives (`Option` of it, or a `Vec` where it repeats), a .NET
    /// `object` (absent when `None`). A member's type only.
    Choice(u16),
    /// `void`: no result (.NET `void`); a result only, never a parameter.
    Void,
}

impl SoapType {
    /// Every type, in the order they are listed to the user.
    pub const ALL: [SoapType; 23] = [
        SoapType::String,
        SoapType::Boolean,
        SoapType::Decimal,
        SoapType::Int,
        SoapType::Long,
        SoapType::Short,
        SoapType::Byte,
        SoapType::UnsignedByte,
        SoapType::UnsignedShort,
        SoapType::UnsignedInt,
        SoapType::UnsignedLong,
        SoapType::Float,
        SoapType::Double,
        SoapType::Char,
        SoapType::Guid,
        SoapType::DateTime,
        SoapType::Date,
        SoapType::Base64Binary,
        SoapType::Xml,
        SoapType::XmlNode,
        SoapType::DataSet,
        SoapType::DataTable,
        SoapType::Object,
    ];

    /// The type's name in the spec and the WSDL (`int`, `unsignedByte`); an enum's is the
    /// spec's ([`Spec::type_name`]), this says `enum`.
    pub const fn name(self) -> &'static str {
        match self {
            SoapType::Int => "int",
            SoapType::String => "string",
            SoapType::Boolean => "boolean",
            SoapType::Decimal => "decimal",
            SoapType::Long => "long",
            SoapType::Short => "short",
            SoapType::Byte => "byte",
            SoapType::UnsignedByte => "unsignedByte",
            SoapType::UnsignedShort => "unsignedShort",
            SoapType::UnsignedInt => "unsignedInt",
            SoapType::UnsignedLong => "unsignedLong",
            SoapType::Float => "float",
            SoapType::Double => "double",
            SoapType::Char => "char",
            SoapType::Guid => "guid",
            SoapType::DateTime => "dateTime",
            SoapType::Date => "date",
            SoapType::Base64Binary => "base64Binary",
            SoapType::Xml => "xml",
            SoapType::XmlNode => "xmlNode",
            SoapType::DataSet => "dataSet",
            SoapType::DataTable => "dataTable",
            SoapType::Object => "object",
            SoapType::Enum(_) => "enum",
            SoapType::Class(_) => "class",
            SoapType::TypedDataSet(_) => "typed DataSet",
            SoapType::Array(_) => "array",
            SoapType::Choice(_) => "choice",
            SoapType::Void => "void",
        }
    }

    /// Whether ASMX declares the type in its own namespace, `http://microsoft.com/wsdl/types/`
    /// (`char`, `guid`), rather than XML Schema's.
    pub const fn in_microsoft_namespace(self) -> bool {
        matches!(self, SoapType::Char | SoapType::Guid)
    }

    /// Whether a value of the type is a .NET reference, which may be absent (`None`) without
    /// being nullable: `string`, `base64Binary`, `xml`, classes and arrays.
    pub const fn is_reference(self) -> bool {
        matches!(
            self,
            SoapType::String
                | SoapType::Base64Binary
                | SoapType::Xml
                | SoapType::XmlNode
                | SoapType::DataSet
                | SoapType::DataTable
                | SoapType::TypedDataSet(_)
                | SoapType::Object
                | SoapType::Class(_)
                | SoapType::Array(_)
                | SoapType::Choice(_)
        )
    }

    /// Whether a member of the type may have a default (`default:`) among the simple types:
    /// numbers, `boolean`, `string`, `dateTime` and `guid` (not `char` or `base64Binary`); an
    /// enum may too, unless it is flags. (.NET's wsdl.exe drops a `guid` default from the
    /// class it makes; the service whose WSDL shows one has it, and leaves the value out when
    /// equal, as rmm does.)
    pub const fn takes_default(self) -> bool {
        matches!(
            self,
            SoapType::Int
                | SoapType::Long
                | SoapType::Short
                | SoapType::Byte
                | SoapType::UnsignedByte
                | SoapType::UnsignedShort
                | SoapType::UnsignedInt
                | SoapType::UnsignedLong
                | SoapType::Boolean
                | SoapType::Double
                | SoapType::Float
                | SoapType::Decimal
                | SoapType::String
                | SoapType::DateTime
                | SoapType::Guid
        )
    }

    /// Whether the type is kept as raw XML or read from it (`xml`, `xmlNode`, `dataSet`):
    /// SOAP-only parameters, a wrapped operation's parameters and results only.
    pub const fn is_raw(self) -> bool {
        matches!(
            self,
            SoapType::Xml
                | SoapType::XmlNode
                | SoapType::DataSet
                | SoapType::DataTable
                | SoapType::TypedDataSet(_)
        )
    }

    /// Whether the type is XmlSerializer's object model (a class, an array, an `object`)
    /// rather than a simple type.
    pub const fn is_complex(self) -> bool {
        matches!(
            self,
            SoapType::Class(_) | SoapType::Array(_) | SoapType::Object | SoapType::Choice(_)
        )
    }

    /// Whether HTTP GET/POST can carry a parameter of the type (.NET's
    /// `ScalarFormatter.IsTypeSupported`: not a `Guid`, not a class; an array only of such
    /// simple values, which ASMX reads from repeated keys).
    pub const fn over_http(self) -> bool {
        !matches!(
            self,
            SoapType::Guid
                | SoapType::Class(_)
                | SoapType::Xml
                | SoapType::XmlNode
                | SoapType::DataSet
                | SoapType::DataTable
                | SoapType::TypedDataSet(_)
                | SoapType::Object
                | SoapType::Choice(_)
        )
    }

    /// The type spelled `name` in a spec, if any.
    pub fn from_name(name: &str) -> Option<SoapType> {
        SoapType::ALL.into_iter().find(|ty| ty.name() == name)
    }
}

/// One problem in a spec file, with its location when known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecError {
    /// The file, as given to [`parse`] (or the path given to [`load`]).
    pub file: String,
    /// 1-based line of the offending item, if known.
    pub line: Option<usize>,
    /// 1-based column (in characters) of the offending item, if known.
    pub column: Option<usize>,
    /// What is wrong, naming the offending item.
    pub message: String,
}

impl fmt::Display for SpecError {
    /// `file:line:col: message`, or `file: message` when the location is unknown.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.file)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(column) = self.column {
                write!(f, ":{column}")?;
            }
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for SpecError {}

/// Every problem found in a spec file (at least one), in source order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecErrors(pub Vec<SpecError>);

impl SpecErrors {
    /// One problem of the whole file, at no place in it (it cannot be read, the output cannot
    /// be written).
    pub fn whole(file: &str, message: impl Into<String>) -> SpecErrors {
        SpecErrors(vec![SpecError {
            file: file.to_owned(),
            line: None,
            column: None,
            message: message.into(),
        }])
    }
}

/// A WSDL's problems are the spec's: each at its place in the file it is in.
impl From<crate::import::ImportErrors> for SpecErrors {
    fn from(errors: crate::import::ImportErrors) -> SpecErrors {
        SpecErrors(
            errors
                .0
                .into_iter()
                .map(|e| SpecError {
                    file: e.file,
                    line: e.line.map(|l| l as usize),
                    column: e.column.map(|c| c as usize),
                    message: e.message,
                })
                .collect(),
        )
    }
}

impl fmt::Display for SpecErrors {
    /// One error per line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, error) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{error}")?;
        }
        Ok(())
    }
}

impl std::error::Error for SpecErrors {}

/// Reads and parses the spec file at `path`; messages name the file as `path` is written.
pub fn load(path: &Path) -> Result<Spec, SpecErrors> {
    let file = path.display().to_string();
    match std::fs::read_to_string(path) {
        Ok(source) => parse(&source, &file),
        Err(err) => Err(SpecErrors(vec![SpecError {
            file,
            line: None,
            column: None,
            message: format!("cannot read the spec file: {err}"),
        }])),
    }
}

/// Parses and validates the text of a spec; `file` names it, verbatim, in every message.
pub fn parse(source: &str, file: &str) -> Result<Spec, SpecErrors> {
    let raw: raw::RawSpec = match serde_yaml::from_str(source) {
        Ok(raw) => raw,
        Err(err) => return Err(SpecErrors(vec![yaml_error(&err, source, file)])),
    };
    let issues = validate::validate(&raw, &locate::Locator::new(source));
    if !issues.is_empty() {
        return Err(SpecErrors(
            issues
                .into_iter()
                .map(|issue| SpecError {
                    file: file.to_owned(),
                    line: issue.at.map(|p| p.line),
                    column: issue.at.map(|p| p.column),
                    message: issue.message,
                })
                .collect(),
        ));
    }
    Ok(into_spec(raw))
}

/// A serde_yaml error as a [`SpecError`]: its location moves to the front, where every
/// message has it, instead of trailing the message as ` at line L column C`.
fn yaml_error(err: &serde_yaml::Error, source: &str, file: &str) -> SpecError {
    let mut message = err.to_string();
    let location = err.location();
    if let Some(loc) = &location {
        let suffix = format!(" at line {} column {}", loc.line(), loc.column());
        if let Some(at) = message.find(&suffix) {
            message.replace_range(at..at + suffix.len(), "");
        }
    }
    let blank = |line: &str| {
        let t = line.trim();
        t.is_empty() || t.starts_with('#') || t == "---"
    };
    if source.lines().all(blank) {
        // serde_yaml says "missing field `service`" at the end of the file; say what it is.
        return SpecError {
            file: file.to_owned(),
            line: None,
            column: None,
            message: "the spec is empty; it needs at least a service and operations".to_owned(),
        };
    }
    SpecError {
        file: file.to_owned(),
        line: location.as_ref().map(|l| l.line()),
        column: location.as_ref().map(|l| l.column()),
        message,
    }
}

/// The validated raw spec as a [`Spec`]. Every type name has been checked.
fn into_spec(raw: raw::RawSpec) -> Spec {
    let type_names = validate::TypeNames::of(&raw);
    let mut arrays = Vec::new();
    let mut ty = |name: &str, item: Option<&str>| {
        validate::soap_type_with_item(name, &type_names, &mut arrays, item).expect("validated type")
    };
    let names = |list: Vec<raw::Word>| list.into_iter().map(|w| w.0).collect();
    let mut choices = Vec::new();
    // The class whose members `params` reads: a choice member's choice is its.
    let class_index = std::cell::Cell::new(0u16);
    let mut params = |list: Vec<raw::RawParam>| -> Vec<Param> {
        list.into_iter()
            .map(|p| Param {
                ty: match p.choice {
                    Some(alternatives) => {
                        let alternatives = alternatives
                            .into_iter()
                            .map(|a| Alternative {
                                ty: ty(a.ty.trim_end_matches('?'), None),
                                nillable: a.ty.ends_with('?'),
                                name: a.name,
                            })
                            .collect();
                        choices.push(ChoiceDef {
                            class: class_index.get(),
                            member: p.name.clone(),
                            alternatives,
                            repeated: p.repeated,
                        });
                        SoapType::Choice(u16::try_from(choices.len() - 1).expect("validated count"))
                    }
                    None => ty(&p.ty, p.item.as_deref()),
                },
                nullable: validate::nullable(&p.ty),
                unwrapped: p.unwrapped,
                optional: p.optional,
                default: p.default,
                list: p.list,
                any: p.any,
                unqualified: p.unqualified,
                namespace: p.namespace,
                qualified: p.qualified,
                data_type: p.data_type,
                name: p.name,
            })
            .collect()
    };
    let classes: Vec<ClassDef> = raw
        .types
        .into_iter()
        .enumerate()
        .map(|(i, c)| ClassDef {
            base: c.base.map(|b| {
                let i = type_names.classes.iter().position(|n| *n == b.0);
                u16::try_from(i.expect("validated base")).expect("validated count")
            }),
            name: c.name.0,
            doc: c.doc,
            is_abstract: c.is_abstract,
            root: c.root.map(|r| r.0),
            namespace: c.namespace,
            attributes: params(c.attributes),
            text: c.text.map(|t| {
                params(vec![raw::RawParam {
                    name: String::new(),
                    ty: t.0,
                    ..raw::RawParam::default()
                }])[0]
                    .ty
            }),
            any_attribute: c.any_attribute.map(|a| a.0),
            members: {
                class_index.set(u16::try_from(i).expect("validated count"));
                params(c.members)
            },
        })
        .collect();
    let operations = raw
        .operations
        .into_iter()
        .map(|op| {
            let result = if op.result.0 == "void" {
                SoapType::Void
            } else {
                params(vec![raw::RawParam {
                    name: String::new(),
                    ty: op.result.0.clone(),
                    ..raw::RawParam::default()
                }])[0]
                    .ty
            };
            Operation {
                name: op.name.0,
                doc: op
                    .doc
                    .or_else(|| op.description.as_deref().map(markdown_text))
                    .unwrap_or_default(),
                description: op.description,
                params: params(op.params),
                outs: params(op.out),
                result,
                result_nullable: validate::nullable(&op.result.0),
                bindings: match op.bindings {
                    None => BindingName::ALL.to_vec(),
                    Some(mut listed) => {
                        listed.sort();
                        listed
                    }
                },
                style: op.style,
                method: op.method.map(|m| m.0),
                request_element: op.request_element.map(|w| w.0),
                response_element: op.response_element.map(|w| w.0),
                result_element: op.result_element.map(|w| w.0),
                action: op.action,
                request_namespace: op.request_namespace,
                script_get: op.script.as_ref().is_some_and(|script| script.get),
                script_xml: op
                    .script
                    .as_ref()
                    .is_some_and(|script| script.response == raw::ScriptResponse::Xml),
                response_namespace: op.response_namespace,
                session: op.session,
                headers: op
                    .headers
                    .iter()
                    .map(|h| {
                        let i = type_names.classes.iter().position(|n| *n == h.class);
                        SpecHeader {
                            class: u16::try_from(i.expect("validated header"))
                                .expect("validated count"),
                            direction: h.direction,
                        }
                    })
                    .collect(),
            }
        })
        .collect();
    let data_sets = raw
        .data_sets
        .into_iter()
        .map(|d| DataSetDef {
            name: d.name.0,
            doc: d.doc,
            namespace: d.namespace,
            locale: d.locale,
            tables: d
                .tables
                .into_iter()
                .map(|t| TableDef {
                    name: t.name.0,
                    columns: t
                        .columns
                        .into_iter()
                        .map(|c| ColumnDef {
                            allow_null: c.ty.ends_with('?'),
                            ty: validate::column_type(&c.ty).expect("validated column"),
                            name: c.name,
                        })
                        .collect(),
                })
                .collect(),
        })
        .collect();
    Spec {
        service: Service {
            crate_name: raw.service.crate_name.map_or_else(
                || validate::default_crate_name(&raw.service.name.0),
                |w| w.0,
            ),
            name: raw.service.name.0,
            namespace: raw.service.namespace,
            path: raw.service.path,
            description: raw.service.description,
            dataset_wsdl: raw.service.dataset_wsdl.unwrap_or_default(),
            style: raw.service.style,
            script: match raw.service.script {
                None | Some(raw::RawScript::On(false)) => None,
                Some(raw::RawScript::On(true)) => Some(ScriptService::default()),
                Some(raw::RawScript::With(with)) => Some(ScriptService {
                    namespace: with.namespace,
                }),
            },
            session: raw.service.session.map(|w| w.0),
        },
        credentials: names(raw.credentials),
        optional_credentials: names(raw.optional_credentials),
        secrets: names(raw.secrets),
        enums: raw
            .enums
            .into_iter()
            .map(|e| EnumDef {
                zero: e
                    .zero
                    .as_ref()
                    .and_then(|z| e.values.iter().position(|v| v.wire == z.0)),
                flags: e.flags,
                name: e.name.0,
                doc: e.doc,
                namespace: e.namespace,
                members: e
                    .values
                    .iter()
                    .map(|v| v.member.clone().unwrap_or_else(|| v.wire.clone()))
                    .collect(),
                values: e.values.into_iter().map(|v| v.wire).collect(),
            })
            .collect(),
        classes,
        arrays,
        data_sets,
        choices,
        operations,
    }
}

/// Plain text (a service's description, which may hold `<`, `*` or `_`) as Markdown that
/// renders as that text in rustdoc: Markdown's punctuation escaped with `\\`, and each URL
/// (`http://…`, `https://…`, up to white space, a quote or an angle bracket) an autolink
/// `<…>`, which rustdoc wants of a URL and which takes its text as it is.
fn markdown_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        let url_at = ["http://", "https://"]
            .iter()
            .filter_map(|scheme| rest.find(scheme))
            .min()
            .unwrap_or(rest.len());
        for c in rest[..url_at].chars() {
            if "\\`*_[]<>#|&".contains(c) {
                out.push('\\');
            }
            out.push(c);
        }
        rest = &rest[url_at..];
        if rest.is_empty() {
            break;
        }
        let end = rest
            .find(|c: char| c.is_whitespace() || "\"'<>".contains(c))
            .unwrap_or(rest.len());
        out.push('<');
        out.push_str(&rest[..end]);
        out.push('>');
        rest = &rest[end..];
    }
    out
}

/// A `decimal` default's text as `Decimal::from_parts` takes it: the mantissa (below 2^96),
/// its sign, and the digits after the point (at most 28). `None` for anything else: digits
/// with an optional sign and point only, as XmlSerializer writes a decimal default.
pub(crate) fn decimal_parts(text: &str) -> Option<(u128, bool, u32)> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    if whole.is_empty() && fraction.is_empty() {
        return None;
    }
    let all = format!("{whole}{fraction}");
    if !all.bytes().all(|b| b.is_ascii_digit()) || all.len() > 29 || fraction.len() > 28 {
        return None;
    }
    let mantissa: u128 = all.parse().ok()?;
    (mantissa < 1 << 96).then_some((mantissa, negative, fraction.len() as u32))
}

/// A `guid` default's text as a number: the 32 hex digits of the form XmlSerializer writes,
/// `8-4-4-4-12` (`00000000-0000-0000-0000-000000000000`, .NET's `Guid.Empty`), either case;
/// `None` for anything else.
pub(crate) fn guid_value(text: &str) -> Option<u128> {
    let groups: Vec<&str> = text.split('-').collect();
    let lengths: Vec<usize> = groups.iter().map(|g| g.len()).collect();
    if lengths != [8, 4, 4, 4, 12]
        || !groups
            .iter()
            .all(|g| g.bytes().all(|b| b.is_ascii_hexdigit()))
    {
        return None;
    }
    u128::from_str_radix(&groups.concat(), 16).ok()
}

/// A `dateTime` default's text, `YYYY-MM-DDTHH:MM:SS` (no fraction, no time zone, as .NET
/// writes `DateTime.MinValue`), as `[year, month, day, hour, minute, second]` of a date that
/// exists; `None` for anything else.
pub(crate) fn datetime_parts(text: &str) -> Option<[u32; 6]> {
    let b = text.as_bytes();
    let shape = b.len() == 19
        && b.iter().enumerate().all(|(i, &c)| match i {
            4 | 7 => c == b'-',
            10 => c == b'T',
            13 | 16 => c == b':',
            _ => c.is_ascii_digit(),
        });
    if !shape {
        return None;
    }
    let n = |range: std::ops::Range<usize>| text[range].parse::<u32>().ok();
    let parts = [
        n(0..4)?,
        n(5..7)?,
        n(8..10)?,
        n(11..13)?,
        n(14..16)?,
        n(17..19)?,
    ];
    let [year, month, day, hour, minute, second] = parts;
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    (year >= 1 && (1..=days).contains(&day) && hour < 24 && minute < 60 && second < 60)
        .then_some(parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    const REAL: &str = include_str!("../../rmm-spec.yaml");

    fn real() -> Spec {
        parse(REAL, "rmm-spec.yaml").unwrap_or_else(|e| panic!("{e}"))
    }

    fn op<'s>(spec: &'s Spec, name: &str) -> &'s Operation {
        spec.operations
            .iter()
            .find(|o| o.name == name)
            .unwrap_or_else(|| panic!("no operation {name}"))
    }

    fn param(name: &str, ty: SoapType) -> Param {
        Param {
            name: name.to_owned(),
            ty,
            nullable: false,
            unwrapped: false,
            optional: false,
            default: None,
            list: false,
            any: false,
            unqualified: false,
            qualified: false,
            data_type: None,
            namespace: None,
        }
    }

    #[test]
    fn a_description_renders_as_its_text_with_urls_as_links() {
        assert_eq!(markdown_text("a_b <c>"), "a\\_b \\<c\\>");
        assert_eq!(
            markdown_text(r#"see <a href="http://x.example/a_b.zip">here</a>"#),
            r#"see \<a href="<http://x.example/a_b.zip>"\>here\</a\>"#
        );
        assert_eq!(
            markdown_text("https://a.example/x and http://b.example"),
            "<https://a.example/x> and <http://b.example>"
        );
    }

    #[test]
    fn decimal_and_datetime_defaults_are_read_as_xmlserializer_writes_them() {
        assert_eq!(decimal_parts("2.50"), Some((250, false, 2)));
        assert_eq!(decimal_parts("-3"), Some((3, true, 0)));
        // decimal.MinValue, as a real service writes it: the mantissa is 2^96 - 1.
        assert_eq!(
            decimal_parts("-79228162514264337593543950335"),
            Some(((1u128 << 96) - 1, true, 0))
        );
        for bad in [
            "79228162514264337593543950336",
            "1e3",
            "",
            ".",
            "1.2.3",
            "0x10",
        ] {
            assert_eq!(decimal_parts(bad), None, "{bad}");
        }
        assert_eq!(
            datetime_parts("0001-01-01T00:00:00"),
            Some([1, 1, 1, 0, 0, 0])
        );
        assert_eq!(
            datetime_parts("2024-02-29T23:59:59"),
            Some([2024, 2, 29, 23, 59, 59])
        );
        for bad in [
            "2023-02-29T00:00:00",
            "1900-02-29T00:00:00",
            "0000-01-01T00:00:00",
            "2020-01-01T24:00:00",
            "2020-01-01T00:00:00Z",
            "2020-01-01T00:00:00.5",
            "2020-1-01T00:00:00",
        ] {
            assert_eq!(datetime_parts(bad), None, "{bad}");
        }
    }

    #[test]
    fn real_spec_counts() {
        let spec = real();
        assert_eq!(spec.operations.len(), 20);
        let params: usize = spec.operations.iter().map(|o| o.params.len()).sum();
        assert_eq!(params, 195);
        assert!(spec.operations.iter().all(|o| o.result == SoapType::String));
        assert!(spec.operations.iter().all(|o| !o.doc.trim().is_empty()));
    }

    #[test]
    fn real_spec_header() {
        let spec = real();
        assert_eq!(
            spec.service,
            Service {
                name: "MobileService".into(),
                namespace: "http://rmm.example.com/mobile".into(),
                path: "/api/rmm/MobileService.asmx".into(),
                crate_name: "rmm-mobile".into(),
                description: None,
                dataset_wsdl: DataSetWsdl::V1,
                style: ServiceStyle::Document,
                script: None,
                session: None,
            }
        );
        assert_eq!(spec.credentials, ["repnumber", "timestamp", "sig"]);
        assert_eq!(spec.optional_credentials, ["mobilekey"]);
        assert_eq!(spec.secrets, ["password", "sig", "mobilekey"]);
        assert_eq!(spec.operations[0].name, "MobileTaskCreate");
        assert_eq!(spec.operations[19].name, "MobileGetInvoiceDetails");
    }

    #[test]
    fn real_spec_first_and_last_params() {
        use SoapType::*;
        let spec = real();
        let cases = [
            (
                "MobileTaskCreate",
                27,
                param("repnumber", Int),
                param("mobilekey", String),
            ),
            (
                "MobileServiceOrderCreate",
                21,
                param("repnumber", Int),
                param("mobilekey", String),
            ),
            (
                "MobileItemsServicedCreate",
                21,
                param("sonumber", Int),
                param("mobilekey", String),
            ),
            (
                "MobileContactUpdate",
                17,
                param("accountnumber", Int),
                param("sig", String),
            ),
            (
                "MobilePartsUsedAssemblyUpdate",
                7,
                param("sopartsusedassemblydetailkeyid", Int),
                param("mobilekey", String),
            ),
            (
                "MobileCustomerInventoryDropdown",
                4,
                param("accountnumber", String),
                param("sig", String),
            ),
            (
                "MobileGetInvoiceDetails",
                5,
                param("invoicenumber", Int),
                param("sig", String),
            ),
        ];
        for (name, count, first, last) in cases {
            let o = op(&spec, name);
            assert_eq!(o.params.len(), count, "{name}");
            assert_eq!(o.params.first(), Some(&first), "{name}");
            assert_eq!(o.params.last(), Some(&last), "{name}");
        }
        let parts = op(&spec, "MobilePartsUsedAssemblyUpdate");
        assert_eq!(parts.params[1], param("quantity", Decimal));
        assert_eq!(parts.params[2], param("sellfor", Decimal));
        let task = op(&spec, "MobileTaskCreate");
        assert_eq!(task.params[16], param("alarmindicator", Boolean));
    }

    #[test]
    fn real_spec_types_are_per_operation() {
        let spec = real();
        for o in &spec.operations {
            let ty = |name: &str| o.params.iter().find(|p| p.name == name).map(|p| p.ty);
            let string_accounts = [
                "MobileCustomerInventoryDropdown",
                "MobileAccountDefaultsList",
            ];
            if let Some(t) = ty("accountnumber") {
                let want = if string_accounts.contains(&o.name.as_str()) {
                    SoapType::String
                } else {
                    SoapType::Int
                };
                assert_eq!(t, want, "accountnumber in {}", o.name);
            }
            if let Some(t) = ty("sonumber") {
                let want = if o.name == "MobileServiceOrderRepAssignedList" {
                    SoapType::String
                } else {
                    SoapType::Int
                };
                assert_eq!(t, want, "sonumber in {}", o.name);
            }
            assert_eq!(ty("repnumber"), Some(SoapType::Int), "{}", o.name);
            assert_eq!(ty("timestamp"), Some(SoapType::String), "{}", o.name);
            assert_eq!(ty("sig"), Some(SoapType::String), "{}", o.name);
        }
        let with_accountnumber = spec
            .operations
            .iter()
            .filter(|o| o.params.iter().any(|p| p.name == "accountnumber"))
            .count();
        assert!(with_accountnumber > 2);
    }

    #[test]
    fn display_with_and_without_location() {
        let located = SpecError {
            file: "a.yaml".into(),
            line: Some(3),
            column: Some(7),
            message: "bad".into(),
        };
        let bare = SpecError {
            file: "a.yaml".into(),
            line: None,
            column: None,
            message: "worse".into(),
        };
        assert_eq!(located.to_string(), "a.yaml:3:7: bad");
        assert_eq!(bare.to_string(), "a.yaml: worse");
        assert_eq!(
            SpecErrors(vec![located, bare]).to_string(),
            "a.yaml:3:7: bad\na.yaml: worse"
        );
    }

    #[test]
    fn unreadable_file_names_the_path() {
        let err = load(Path::new("no/such/spec.yaml")).unwrap_err();
        assert_eq!(err.0.len(), 1);
        assert_eq!(err.0[0].file, "no/such/spec.yaml");
        assert!(err
            .to_string()
            .starts_with("no/such/spec.yaml: cannot read the spec file: "));
    }
}
