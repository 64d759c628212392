//! The model: a validated [`Spec`] with every name and wire literal decided, once.
//!
//! Emitters read names from here and never derive one themselves, so a Rust name, a wire
//! name and a position can only ever disagree in one place.
//!
//! # Rust names
//!
//! Every Rust name comes from a wire name through [`upper_camel`] (types: the service
//! trait, enums, classes, request and response types), [`variant_name`] (enum variants),
//! [`snake_case`] (methods, modules, flags constants in upper case) and [`field_name`]
//! (fields). Each first decodes XmlConvert's escapes ([`decode_xml_name`]: `_x0020_` is a
//! space) and splits the words at every character but ASCII letters and digits; a type or
//! variant keeps each word but its first letter (`temp` → `Temp`, `ALL` stays `ALL`,
//! `WSF_x0020_Schedule` → `WSFSchedule`); a keyword field is escaped (`r#type`, `self_`).
//!
//! Then [`assign_names`] makes each namespace's names unique, once, in spec order: a name
//! keeps its natural form where no name the generated code defines or uses
//! ([`RESERVED_TYPES`], [`RESERVED_VARIANTS`], [`RESERVED_FLAGS`], [`RESERVED_METHODS`],
//! [`DECODER_LOCALS`], keywords) and no earlier name of the spec takes it; any other takes
//! the first free numbered form from 2 ([`Numbering`]: `Err2`, `ALL2`, `OrderLine2` in upper
//! camel case, `body_2`, `get_x_2`, `ZERO_2` with an underscore). The namespaces: the
//! crate's types (the service trait, then its server and clients, then enums, classes and
//! request types, then the names derived from them: `Any…`, `…Response`), each enum's
//! variants or flags constants, the operations' modules and methods, the credentials, each
//! operation's parameters (apart from the decoders' locals and its credentials). A class's
//! fields and a response's out fields (apart from `result`) are numbered the same way in one
//! pass, in wire order (`account-name`, `account_name` → `account_name`, `account_name_2`).
//!
//! Wire names never change, and every item's rustdoc starts with its wire name, so a
//! numbered item says what it stands for. A spec without a collision keeps every natural
//! name; validation refuses only names that are not XML names.

use crate::spec::{BindingName, HeaderDirection, SoapType, Spec, SpecError, SpecErrors};

/// Everything the emitters need.
#[derive(Debug, Clone)]
pub struct Model {
    /// The spec file, as given (named in every generated file's header).
    pub spec_file: String,
    /// The service.
    pub service: ServiceModel,
    /// The credentials (required ones first, as the spec lists them, then optional ones).
    pub credentials: Vec<CredentialModel>,
    /// The enums, in spec order ([`SoapType::Enum`] indexes them).
    pub enums: Vec<EnumModel>,
    /// The classes, in spec order ([`SoapType::Class`] indexes them).
    pub classes: Vec<ClassModel>,
    /// The array types, in the spec's order of first use ([`SoapType::Array`] indexes them).
    pub arrays: Vec<ArrayModel>,
    /// The typed DataSets, in spec order ([`SoapType::TypedDataSet`] indexes them).
    pub data_sets: Vec<DataSetModel>,
    /// The choices of the classes' choice members ([`SoapType::Choice`] indexes them).
    pub choices: Vec<ChoiceModel>,
    /// The operations, in spec order.
    pub operations: Vec<OperationModel>,
    /// The header classes some operation's request carries (`In`, `InOut`), in class order:
    /// the fields of `SoapHeaders`, what a client sends on each call that reads them.
    pub sent_headers: Vec<SentHeader>,
    /// The types of `object` values, where the spec uses `object` anywhere.
    pub object: Option<ObjectModel>,
    /// The namespaces of types other than the service's: the header classes', in the order
    /// the operations first use them (the request's headers, then the response's and a
    /// fault's), the order ASMX numbers their schemas' prefixes in; then the enums' of
    /// another namespace (`namespace:`), in spec order.
    pub foreign_namespaces: Vec<String>,
}

/// The Rust types of `object` values: the runtime's `AnyType` over an enum of the service's
/// own types (XmlSerializer's type scope: what an `xsi:type` may name).
#[derive(Debug, Clone)]
pub struct ObjectModel {
    /// The alias of `rmm_runtime::AnyType<…>` (`Object`, numbered where taken).
    pub alias: String,
    /// The enum of the service's own types (`KnownType`, numbered where taken).
    pub known: String,
    /// Its variants: the concrete classes (but header classes, which another serializer
    /// writes), the enums and the array types, in that order and the spec's.
    pub variants: Vec<KnownVariant>,
}

/// A variant of [`ObjectModel::known`]: a type an `object` may hold.
#[derive(Debug, Clone)]
pub struct KnownVariant {
    /// Its Rust name: the class's or enum's Rust name, an array's upper camel
    /// (`ArrayOfAnyType`), numbered apart.
    pub rust: String,
    /// The type (a class, an enum or an array).
    pub ty: SoapType,
}

/// A typed DataSet of the spec, and its Rust names.
#[derive(Debug, Clone)]
pub struct DataSetModel {
    /// Its name (`DataSetName`): the element of its HTTP GET/POST result document, the
    /// `?schema=` it is served at.
    pub name: String,
    /// Its Rust struct's name: [`upper_camel`] of the name, numbered where taken.
    pub rust: String,
    /// Documentation, if the spec gives some.
    pub doc: Option<String>,
    /// Its namespace: its schema's target namespace.
    pub namespace: String,
    /// Its culture's name; `None` for the current culture.
    pub locale: Option<String>,
    /// Its tables, in order.
    pub tables: Vec<TableModel>,
}

/// A table of a typed DataSet, and its Rust names.
#[derive(Debug, Clone)]
pub struct TableModel {
    /// `TableName`, not XML-encoded.
    pub name: String,
    /// Its rows' struct (`OrdersRow`, numbered where taken).
    pub row: String,
    /// The set's method returning its rows (`orders`), apart from the set's other methods.
    pub getter: String,
    /// The set's method adding a row (`add_orders`).
    pub adder: String,
    /// Its columns, in order.
    pub columns: Vec<ColumnModel>,
}

/// A column of a typed DataSet's table, and its Rust field.
#[derive(Debug, Clone)]
pub struct ColumnModel {
    /// `ColumnName`, not XML-encoded.
    pub name: String,
    /// Its field in the row's struct ([`field_name`] of the name).
    pub field: String,
    /// Its type (one of [`crate::spec::COLUMN_TYPES`]).
    pub ty: SoapType,
    /// Whether it allows nulls: its field is an `Option`.
    pub allow_null: bool,
}

/// The methods of a typed DataSet's struct that a table's methods must not take.
const DATA_SET_METHODS: &[&str] = &["new", "data_set", "into_data_set", "SCHEMA"];

/// A typed DataSet's model, its rows' structs named from `row_names` in table order.
fn data_set_model(
    set: &crate::spec::DataSetDef,
    rust: String,
    row_names: &mut impl Iterator<Item = String>,
) -> DataSetModel {
    let mut taken: Vec<String> = DATA_SET_METHODS.iter().map(|&s| s.to_owned()).collect();
    let getters: Vec<String> = set.tables.iter().map(|t| field_name(&t.name)).collect();
    let getters = assign_names(&getters, &mut taken, Numbering::Underscore);
    let adders: Vec<String> = set
        .tables
        .iter()
        .map(|t| format!("add_{}", snake_case(&t.name)))
        .collect();
    let adders = assign_names(&adders, &mut taken, Numbering::Underscore);
    DataSetModel {
        name: set.name.clone(),
        rust,
        doc: set.doc.clone(),
        namespace: set.namespace.clone(),
        locale: set.locale.clone(),
        tables: set
            .tables
            .iter()
            .zip(getters.into_iter().zip(adders))
            .map(|(t, (getter, adder))| TableModel {
                name: t.name.clone(),
                row: row_names.next().expect("a name per table"),
                getter,
                adder,
                columns: t
                    .columns
                    .iter()
                    .map(|c| ColumnModel {
                        name: c.name.clone(),
                        field: field_name(&c.name),
                        ty: c.ty,
                        allow_null: c.allow_null,
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// A field of `SoapHeaders`: a header class some operation reads.
#[derive(Debug, Clone)]
pub struct SentHeader {
    /// Its class (an index into [`Model::classes`]).
    pub class: usize,
    /// Its field (`auth_header`), numbered apart from the others.
    pub field: String,
}

/// An enum of the spec, and its Rust names.
#[derive(Debug, Clone)]
pub struct EnumModel {
    /// Its name in the WSDL (`Level`).
    pub name: String,
    /// Its Rust type name: [`upper_camel`] of the name, numbered where taken (`Level`; `Err2`
    /// for an enum named `Err`).
    pub rust: String,
    /// Documentation, if the spec gives some.
    pub doc: Option<String>,
    /// Each value: its wire spelling and its Rust variant (`very-high`, `VeryHigh`; `ALL`,
    /// `ALL2`: `ALL` is the enum's own constant), numbered apart where two meet.
    pub values: Vec<(String, String)>,
    /// In a flags enum, each value's constant (`VERY_HIGH`), numbered apart; empty for the
    /// zero value and in other enums.
    pub flag_consts: Vec<String>,
    /// Each value's .NET member name, in the same order: its spelling over HTTP GET/POST.
    pub members: Vec<String>,
    /// A `[Flags]` enum: a value is a set of its values (all but `zero`, bit `i` for the
    /// `i`th of them).
    pub flags: bool,
    /// In a flags enum, the index of the value that is no flag.
    pub zero: Option<usize>,
    /// The namespace its type is declared in when not the service's (`namespace:`): the
    /// WSDL's alone (its values are text in their members' elements).
    pub namespace: Option<String>,
}

/// A class: a generated struct and its `xs:complexType`.
#[derive(Debug, Clone)]
pub struct ClassModel {
    /// Its name in the WSDL (`xs:complexType name`, `xsi:type`).
    pub name: String,
    /// Its Rust struct's name: [`upper_camel`] of the name, numbered where taken (`Order`;
    /// `Temp` for `temp`, `Result2` for `Result`).
    pub rust: String,
    /// Documentation, if the spec gives some.
    pub doc: Option<String>,
    /// The class it derives from (an index into [`Model::classes`]).
    pub base: Option<usize>,
    /// Whether it is abstract: no value is of it, only of classes derived from it.
    pub is_abstract: bool,
    /// `[XmlRoot]`'s element name: a parameter or result of it is that element, nillable, and
    /// its HTTP GET/POST result document is rooted there.
    pub root: Option<String>,
    /// Its namespace when not the service's (`namespace:`): a SOAP header class of another
    /// namespace, or a class it holds.
    pub namespace: Option<String>,
    /// A SOAP header (a `[SoapHeader]` class some operation uses): a global element of the
    /// schema, its type taking any attribute (`s:anyAttribute`); its struct's field
    /// [`HEADER_ATTRIBUTES_FIELD`] holds the block's `mustUnderstand`, `actor` and `relay`.
    pub header: bool,
    /// The classes derived from it, directly or not, depth first in the spec's order.
    pub derived: Vec<usize>,
    /// The enum of its concrete classes where it has derived ones (`AnyShape`, after its Rust
    /// name, numbered where taken): the Rust type of an element declared of it, which may hold
    /// a value of any of them.
    pub any_type: Option<String>,
    /// Its members written as attributes, in declaration order, those it inherits first (its
    /// farthest base's first), as XmlSerializer writes them (fields before the others).
    pub attributes: Vec<MemberModel>,
    /// How many of [`ClassModel::attributes`] it inherits (its schema type declares the rest).
    pub inherited_attributes: usize,
    /// Its text content (`[XmlText]`), a field named `text` or numbered apart.
    pub text: Option<MemberModel>,
    /// Its `[XmlAnyAttribute]` member: the .NET name (wire-less) and the Rust field.
    pub any_attribute: Option<AnyAttributeModel>,
    /// The members it inherits, its farthest base's first, with their Rust names in it.
    pub inherited: Vec<MemberModel>,
    /// Its own members, in wire order (after the inherited ones).
    pub members: Vec<MemberModel>,
}

impl ClassModel {
    /// Every member of a value of it: inherited first, then its own (its struct's fields,
    /// and its elements in wire order).
    pub fn fields(&self) -> impl Iterator<Item = &MemberModel> {
        self.inherited.iter().chain(&self.members)
    }

    /// The Rust type an element declared of it holds: its `Any…` enum where it has derived
    /// classes, else its struct.
    pub fn rust_type(&self) -> &str {
        self.any_type.as_deref().unwrap_or(&self.rust)
    }
}

/// One member of a class: an element of its sequence and a field of its struct.
#[derive(Debug, Clone)]
pub struct MemberModel {
    /// Wire name (the element's local name).
    pub wire: String,
    /// Rust field name: snake_case, escaped, and numbered where two members would meet
    /// (`account-name` and `account_name` give `account_name` and `account_name_2`).
    pub field: String,
    /// Its type.
    pub ty: SoapType,
    /// Whether a value type is nullable (`int?`): `nillable="true"`, `Option` in Rust.
    pub nullable: bool,
    /// Whether the field is boxed (`Option<Box<T>>`): a class member on a cycle of classes
    /// (a node holding its parent), which a Rust struct cannot hold by value.
    pub boxed: bool,
    /// An array member without a wrapper (`[XmlElement]` on an array): its items are
    /// repeated elements of the member's name, and its field a `Vec` of them.
    pub unwrapped: bool,
    /// A value-type member that may be absent (.NET's `xxxSpecified`): `Option` in Rust.
    pub optional: bool,
    /// Its default value's XML text (`[DefaultValue]`): not written when equal to it, and
    /// what an absent element reads as (the struct's `Default` holds it).
    pub default: Option<String>,
    /// A .NET `List<T>` array member: an absent element reads as empty, and a repeated one's
    /// items are appended.
    pub list: bool,
    /// `[XmlAnyElement]` (`any: true`): a member of raw XML (`xml`, `xml[]`) without an
    /// element of its own, taking each element of the class no other member takes.
    pub any: bool,
    /// A member element of no namespace (`form="unqualified"`): written `<Name xmlns="">`,
    /// read only when it stands in no namespace.
    pub unqualified: bool,
    /// An attribute's namespace: the XML namespace (`xml:lang`), written with the prefix
    /// `xml`, which is always bound; or its class's (a qualified attribute,
    /// `form="qualified"`), written with a prefix bound to it, which .NET's writer makes up
    /// where none is (`d3p1`).
    pub namespace: Option<String>,
    /// The XML Schema type of a string (`DataType = "ID"`): one .NET reads trimmed.
    pub data_type: Option<String>,
    /// An `object` member of a class of another namespace (a SOAP header's): it holds XML
    /// Schema's types only (`AnyType<NoKnownTypes>`), the service's being none of that
    /// namespace.
    pub plain_object: bool,
    /// A secret (`secrets: [Class.Member]`): its class's `Debug` prints it redacted.
    pub secret: bool,
}

/// The attributes of a SOAP header's block that .NET's `SoapHeader` carries as attribute
/// members of its own (`mustUnderstand` and `actor` of SOAP 1.1's namespace,
/// `mustUnderstand`, `role` and `relay` of SOAP 1.2's, whatever the binding), as a value tree
/// names them: a header class's `[XmlAnyAttribute]` member takes none of them.
pub const HEADER_BLOCK_ATTRIBUTES: &[&str] = &[
    "{http://schemas.xmlsoap.org/soap/envelope/}mustUnderstand",
    "{http://schemas.xmlsoap.org/soap/envelope/}actor",
    "{http://www.w3.org/2003/05/soap-envelope}mustUnderstand",
    "{http://www.w3.org/2003/05/soap-envelope}role",
    "{http://www.w3.org/2003/05/soap-envelope}relay",
];

/// The XML Schema types XmlSerializer reads as a string, trimmed, which a string member or
/// attribute may carry as its `data_type` (.NET's `DataType = "ID"`): those .NET's
/// `TypeScope` lists as `unsupportedTypes`, read by `CollapseWhitespace` (`Name`, `NCName`,
/// `NMTOKEN` and `NMTOKENS` are not among them: XmlSerializer decodes `_x0020_` in them). Each
/// is in the runtime's `any_type::COLLAPSED_STRINGS` (a test holds them so).
pub const COLLAPSED_STRINGS: [&str; 20] = [
    "anyURI",
    "duration",
    "ENTITY",
    "ENTITIES",
    "gDay",
    "gMonth",
    "gMonthDay",
    "gYear",
    "gYearMonth",
    "ID",
    "IDREF",
    "IDREFS",
    "integer",
    "language",
    "negativeInteger",
    "nonNegativeInteger",
    "nonPositiveInteger",
    "NOTATION",
    "positiveInteger",
    "token",
];

/// The XML namespace, which the prefix `xml` is always bound to (`xml:lang`).
pub const XML_NS: &str = "http://www.w3.org/XML/1998/namespace";

impl MemberModel {
    /// The attribute's name as a value tree names it: `xml:lang` for one of the XML
    /// namespace, `{namespace}local` for a qualified one, else its wire name.
    pub fn attribute_name(&self) -> String {
        match self.namespace.as_deref() {
            Some(XML_NS) => format!("xml:{}", self.wire),
            Some(ns) => format!("{{{ns}}}{}", self.wire),
            None => self.wire.clone(),
        }
    }

    /// A qualified attribute's namespace (its class's): `None` for one of no namespace or of
    /// the XML namespace.
    pub fn qualified_namespace(&self) -> Option<&str> {
        self.namespace.as_deref().filter(|ns| *ns != XML_NS)
    }
}

/// A class member that is an `xs:choice`: a generated Rust enum of its alternatives.
#[derive(Debug, Clone)]
pub struct ChoiceModel {
    /// Its Rust enum's name: its class's Rust name and the member's (`PickItem`), numbered
    /// where taken.
    pub rust: String,
    /// Its class (an index into [`Model::classes`]).
    pub class: usize,
    /// The .NET member's name (`Item`): in the spec, nowhere on the wire.
    pub member: String,
    /// Whether it repeats (`object[] Items`): the member is a `Vec` of it.
    pub repeated: bool,
    /// Whether two of its alternatives share a type, so that .NET tells them apart by a
    /// choice identifier (`[XmlChoiceIdentifier]`, which wsdl.exe makes exactly then): a null
    /// of a nillable alternative is then written `xsi:nil`, where without one XmlSerializer
    /// cannot tell its element and writes none.
    pub identified: bool,
    /// Its alternatives, in the spec's order.
    pub alternatives: Vec<AlternativeModel>,
}

/// One alternative of a [`ChoiceModel`]: an element, and the enum's variant holding its value.
#[derive(Debug, Clone)]
pub struct AlternativeModel {
    /// The element's name.
    pub wire: String,
    /// The variant: [`upper_camel`] of the name, numbered apart.
    pub variant: String,
    /// Its type: a simple type, an enum or a class.
    pub ty: SoapType,
    /// Whether its element is nillable: the variant holds an `Option`, `None` being
    /// `xsi:nil`.
    pub nillable: bool,
    /// Whether the variant boxes its class: a class that holds (or is) the choice's own class,
    /// which an enum held by value cannot hold.
    pub boxed: bool,
}

/// A class's `[XmlAnyAttribute] XmlAttribute[]` member: no attribute of its own, but every
/// attribute of the element that no attribute member takes.
#[derive(Debug, Clone)]
pub struct AnyAttributeModel {
    /// Its .NET name (in the spec; nowhere on the wire).
    pub name: String,
    /// Its Rust field.
    pub field: String,
}

/// An array type: XmlSerializer's `ArrayOfX`.
#[derive(Debug, Clone)]
pub struct ArrayModel {
    /// Its name in the WSDL (`ArrayOfString`, `ArrayOfOrderLine`, `ArrayOfArrayOfInt`,
    /// `ArrayOfNullableOfInt32`).
    pub name: String,
    /// The items' type.
    pub item: SoapType,
    /// Whether a value-type item may be nil (`int?[]`).
    pub item_nullable: bool,
    /// Whether an item may be nil: a reference item, or a nullable one. A nillable item is an
    /// `Option` in Rust.
    pub item_nillable: bool,
    /// The items' element name: the item type's XSD name (`string`, `int`, `OrderLine`,
    /// `ArrayOfString`).
    pub item_name: String,
}

/// The root (`[XmlRoot]`) of `ty`, if it is a class that has one.
fn root_of(spec: &Spec, ty: SoapType) -> Option<&str> {
    match ty {
        SoapType::Class(i) => spec.classes[usize::from(i)].root.as_deref(),
        _ => None,
    }
}

impl Model {
    /// The `SoapHeaders` field of the header class `class`, which some operation reads.
    pub fn sent_header(&self, class: usize) -> &SentHeader {
        self.sent_headers
            .iter()
            .find(|h| h.class == class)
            .expect("a header class some operation reads")
    }

    /// The name of the element a value of `ty` is alone (an HTTP GET/POST result document):
    /// a class's root where it has one, else the WSDL's name of the type.
    pub fn root_name(&self, ty: SoapType) -> &str {
        match self.class(ty).and_then(|c| c.root.as_deref()) {
            Some(root) => root,
            // A `date` result is the `DateTime` it holds over HTTP GET/POST.
            None if ty == SoapType::Date => SoapType::DateTime.name(),
            None => self.type_name(ty),
        }
    }

    /// The WSDL's name of a type: the simple type's, the enum's, the class's or the array's
    /// (`ArrayOfString`).
    pub fn type_name(&self, ty: SoapType) -> &str {
        match ty {
            SoapType::DataSet => "DataSet",
            SoapType::DataTable => "DataTable",
            SoapType::Object => "anyType",
            SoapType::Enum(i) => &self.enums[usize::from(i)].name,
            SoapType::Class(i) => &self.classes[usize::from(i)].name,
            SoapType::TypedDataSet(i) => &self.data_sets[usize::from(i)].name,
            SoapType::Array(i) => &self.arrays[usize::from(i)].name,
            simple => simple.name(),
        }
    }

    /// The class `ty` is, if it is one.
    pub fn class(&self, ty: SoapType) -> Option<&ClassModel> {
        match ty {
            SoapType::Class(i) => Some(&self.classes[usize::from(i)]),
            _ => None,
        }
    }

    /// The enum `ty` is, if it is one.
    pub fn enum_of(&self, ty: SoapType) -> Option<&EnumModel> {
        match ty {
            SoapType::Enum(i) => Some(&self.enums[usize::from(i)]),
            _ => None,
        }
    }

    /// Whether a value of `ty` holds a `float` or `double` anywhere (then its Rust type cannot
    /// be `Eq`: NaN is not equal to itself).
    pub fn holds_float(&self, ty: SoapType) -> bool {
        let mut seen = vec![false; self.classes.len()];
        self.holds_float_in(ty, &mut seen)
    }

    fn holds_float_in(&self, ty: SoapType, seen: &mut Vec<bool>) -> bool {
        match ty {
            // A DataSet's cells and an object may be doubles.
            SoapType::Float
            | SoapType::Double
            | SoapType::DataSet
            | SoapType::DataTable
            | SoapType::Object => true,
            SoapType::TypedDataSet(i) => self.data_sets[usize::from(i)]
                .tables
                .iter()
                .flat_map(|t| &t.columns)
                .any(|c| matches!(c.ty, SoapType::Float | SoapType::Double)),
            SoapType::Array(i) => self.holds_float_in(self.arrays[usize::from(i)].item, seen),
            SoapType::Choice(_) => self
                .held_types(ty)
                .into_iter()
                .any(|t| self.holds_float_in(t, seen)),
            SoapType::Class(i) => {
                let i = usize::from(i);
                if std::mem::replace(&mut seen[i], true) {
                    return false;
                }
                // Its members, and those of any class derived from it (a value of it may be
                // one of them).
                let class = &self.classes[i];
                let types: Vec<SoapType> = class
                    .fields()
                    .chain(&class.attributes)
                    .map(|m| m.ty)
                    .chain(class.derived.iter().map(|&d| SoapType::Class(d as u16)))
                    .collect();
                types.into_iter().any(|t| self.holds_float_in(t, seen))
            }
            _ => false,
        }
    }

    /// Whether the operation's value trees hold raw XML (`OperationInfo::raw_trees`): an
    /// `XmlElement` or `XmlNode` inside an array or class among its parameters, result, out
    /// parameters or headers, or an `[XmlAnyElement]` member. A parameter or result that is
    /// raw XML itself is read apart, without a tree.
    pub fn raw_trees(&self, op: &OperationModel) -> bool {
        // The classes met, then whether an `object` was.
        let mut seen = vec![false; self.classes.len() + 1];
        op.params
            .iter()
            .map(|p| p.ty)
            .chain(std::iter::once(op.result))
            .chain(op.headers.iter().map(|h| SoapType::Class(h.class as u16)))
            .any(|ty| self.holds_raw_in(ty, &mut seen))
            // A bare operation's result is read as the response's member, as an out
            // parameter is.
            || (op.bare && matches!(op.result, SoapType::Xml | SoapType::XmlNode))
            // An out parameter is a member of the response's tree.
            || op.outs.iter().any(|o| {
                matches!(o.ty, SoapType::Xml | SoapType::XmlNode)
                    || self.holds_raw_in(o.ty, &mut seen)
            })
    }

    /// Whether a value of `ty` holds raw XML inside it (not whether it is raw XML).
    fn holds_raw_in(&self, ty: SoapType, seen: &mut Vec<bool>) -> bool {
        let raw = |ty: SoapType| matches!(ty, SoapType::Xml | SoapType::XmlNode);
        match ty {
            SoapType::Array(i) => {
                let item = self.arrays[usize::from(i)].item;
                raw(item) || self.holds_raw_in(item, seen)
            }
            SoapType::Class(i) => {
                let i = usize::from(i);
                if std::mem::replace(&mut seen[i], true) {
                    return false;
                }
                let class = &self.classes[i];
                if class.any_attribute.is_some() {
                    return true;
                }
                let types: Vec<SoapType> = class
                    .fields()
                    .flat_map(|m| self.held_types(m.ty))
                    .chain(class.derived.iter().map(|&d| SoapType::Class(d as u16)))
                    .collect();
                types
                    .into_iter()
                    .any(|t| raw(t) || self.holds_raw_in(t, seen))
            }
            // An object holds the service's classes and arrays.
            SoapType::Object => {
                if std::mem::replace(&mut seen[self.classes.len()], true) {
                    return false;
                }
                (0..self.arrays.len()).any(|i| self.holds_raw_in(SoapType::Array(i as u16), seen))
                    || (0..self.classes.len())
                        .any(|i| self.holds_raw_in(SoapType::Class(i as u16), seen))
            }
            _ => false,
        }
    }

    /// The array `ty` is, if it is one.
    pub fn array(&self, ty: SoapType) -> Option<&ArrayModel> {
        match ty {
            SoapType::Array(i) => Some(&self.arrays[usize::from(i)]),
            _ => None,
        }
    }

    /// The choice `ty` is, if it is one.
    pub fn choice(&self, ty: SoapType) -> Option<&ChoiceModel> {
        match ty {
            SoapType::Choice(i) => Some(&self.choices[usize::from(i)]),
            _ => None,
        }
    }

    /// The types a member of type `ty` holds values of: a choice's alternatives', else `ty`.
    pub fn held_types(&self, ty: SoapType) -> Vec<SoapType> {
        match self.choice(ty) {
            Some(choice) => choice.alternatives.iter().map(|a| a.ty).collect(),
            None => vec![ty],
        }
    }
}

/// XmlSerializer's names of the spec's arrays, by index: `ArrayOf` and the item type's name
/// with its first letter capitalised (`CodeIdentifier.MakePascal`: `ArrayOfString`,
/// `ArrayOfOrderLine`, `ArrayOfArrayOfInt`), numbered from 1 where the name is taken by another
/// type (`int?[]` and `int[]` both give `ArrayOfInt`: the second met is `ArrayOfInt1`). Names
/// are given in the order .NET's reflection importer meets the arrays: each operation's
/// parameters then its result, each class's members in order, depth first, an array's item
/// before the array (`XmlReflectionImporter.ImportArrayLikeMapping`); then any array no
/// operation reaches.
fn array_names(spec: &Spec) -> Vec<String> {
    struct Walk<'s> {
        spec: &'s Spec,
        names: Vec<Option<String>>,
        classes_seen: Vec<bool>,
        taken: Vec<String>,
    }
    impl Walk<'_> {
        fn xsd_name(&self, ty: SoapType) -> String {
            match ty {
                SoapType::Array(i) => self.names[usize::from(i)].clone().expect("named item"),
                SoapType::Object => "anyType".to_owned(),
                SoapType::Xml => "XmlElement".to_owned(),
                SoapType::XmlNode => "XmlNode".to_owned(),
                other => self.spec.type_name(other),
            }
        }

        fn visit(&mut self, ty: SoapType) {
            match ty {
                SoapType::Class(i) => {
                    let i = usize::from(i);
                    if std::mem::replace(&mut self.classes_seen[i], true) {
                        return;
                    }
                    // An unwrapped array member has no array type of its own: its items'.
                    let members: Vec<SoapType> = self.spec.classes[i]
                        .members
                        .iter()
                        // An `[XmlAnyElement]` member's array is no array type of XmlSerializer.
                        .filter(|m| !m.any)
                        .flat_map(|m| match m.ty {
                            SoapType::Array(a) if m.unwrapped => {
                                vec![self.spec.arrays[usize::from(a)].item]
                            }
                            ty => self.spec.held_types(ty),
                        })
                        .collect();
                    for member in members {
                        self.visit(member);
                    }
                }
                SoapType::Array(i) => {
                    let i = usize::from(i);
                    if self.names[i].is_some() {
                        return;
                    }
                    let item = self.spec.arrays[i].item;
                    self.visit(item);
                    let item_name = self.xsd_name(item);
                    let mut chars = item_name.chars();
                    let first = chars.next().map(|c| c.to_ascii_uppercase());
                    let base = format!(
                        "ArrayOf{}{}",
                        first.into_iter().collect::<String>(),
                        chars.as_str()
                    );
                    let mut name = base.clone();
                    let mut n = 1;
                    while self.taken.contains(&name) {
                        name = format!("{base}{n}");
                        n += 1;
                    }
                    self.taken.push(name.clone());
                    self.names[i] = Some(name);
                }
                _ => {}
            }
        }
    }
    let mut walk = Walk {
        spec,
        names: vec![None; spec.arrays.len()],
        classes_seen: vec![false; spec.classes.len()],
        taken: spec
            .classes
            .iter()
            .map(|c| c.name.clone())
            .chain(spec.enums.iter().map(|e| e.name.clone()))
            .collect(),
    };
    for op in &spec.operations {
        for p in &op.params {
            walk.visit(p.ty);
        }
        walk.visit(op.result);
    }
    for i in 0..spec.classes.len() {
        walk.visit(SoapType::Class(i as u16));
    }
    for i in 0..spec.arrays.len() {
        walk.visit(SoapType::Array(i as u16));
    }
    walk.names
        .into_iter()
        .map(|name| name.expect("every array named"))
        .collect()
}

/// The classes `class` derives from, its farthest base first.
fn bases(spec: &Spec, class: usize) -> Vec<usize> {
    let mut chain = Vec::new();
    let mut base = spec.classes[class].base;
    while let Some(b) = base {
        let b = usize::from(b);
        if chain.contains(&b) {
            break;
        }
        chain.push(b);
        base = spec.classes[b].base;
    }
    chain.reverse();
    chain
}

/// The attributes a class inherits, with the class declaring each, its farthest base's first.
fn inherited_attributes(
    spec: &Spec,
    class: usize,
) -> Vec<(&crate::spec::ClassDef, &crate::spec::Param)> {
    bases(spec, class)
        .into_iter()
        .flat_map(|b| {
            let owner = &spec.classes[b];
            owner.attributes.iter().map(move |m| (owner, m))
        })
        .collect()
}

/// The members a class inherits, its farthest base's first.
fn inherited_members(spec: &Spec, class: usize) -> Vec<&crate::spec::Param> {
    bases(spec, class)
        .into_iter()
        .flat_map(|b| &spec.classes[b].members)
        .collect()
}

/// The classes derived from `class`, directly or not, depth first in the spec's order (a
/// class, then those derived from it).
fn descendants(spec: &Spec, class: usize) -> Vec<usize> {
    let mut found = Vec::new();
    let mut stack = vec![class];
    while let Some(c) = stack.pop() {
        let children: Vec<usize> = (0..spec.classes.len())
            .filter(|&d| spec.classes[d].base.map(usize::from) == Some(c) && !found.contains(&d))
            .collect();
        for &d in children.iter().rev() {
            stack.push(d);
        }
        if c != class {
            found.push(c);
        }
    }
    found
}

/// Which classes each class reaches through its class members (not through arrays, whose
/// items live on the heap): `reach[a][b]` when a value of `a` holds a `b` by value.
fn class_reach(spec: &Spec) -> Vec<Vec<bool>> {
    let n = spec.classes.len();
    let mut reach = vec![vec![false; n]; n];
    // A class holds its base's members too, and a member of a class may hold any class
    // derived from it.
    for (a, class) in spec.classes.iter().enumerate() {
        for m in inherited_members(spec, a).into_iter().chain(&class.members) {
            // A choice that does not repeat holds its alternative's value by value too.
            let held = match m.ty {
                SoapType::Choice(c) if !spec.choices[usize::from(c)].repeated => {
                    spec.held_types(m.ty)
                }
                ty => vec![ty],
            };
            for ty in held {
                if let SoapType::Class(b) = ty {
                    reach[a][usize::from(b)] = true;
                    for d in descendants(spec, usize::from(b)) {
                        reach[a][d] = true;
                    }
                }
            }
        }
    }
    // Warshall's closure: the class graphs of real services are small.
    for k in 0..n {
        let through = reach[k].clone();
        for row in reach.iter_mut() {
            if row[k] {
                for (cell, &on) in row.iter_mut().zip(&through) {
                    *cell |= on;
                }
            }
        }
    }
    reach
}

/// The service and the names derived from it.
#[derive(Debug, Clone)]
pub struct ServiceModel {
    /// Wire name (`MobileService`).
    pub name: String,
    /// XML namespace.
    pub namespace: String,
    /// Endpoint path.
    pub path: String,
    /// `<?xml …?>\n<string xmlns="{namespace}">`, the start of an HTTP GET/POST result.
    pub string_open: String,
    /// The service trait's name: [`upper_camel`] of the name, numbered where taken
    /// (`MobileService`; `WSFSchedule` for `WSF_x0020_Schedule`).
    pub trait_name: String,
    /// The server type (`MobileServiceServer`: the trait's name and `Server`).
    pub server_type: String,
    /// The async client type (`MobileServiceClient`).
    pub client_type: String,
    /// The blocking client type (`MobileServiceBlockingClient`).
    pub blocking_client_type: String,
    /// The generated crate's package name (`rmm-mobile`).
    pub crate_name: String,
    /// The same as a Rust path segment (`rmm_mobile`), as downstream code and doctests name it.
    pub crate_ident: String,
    /// The service's own description, published in the WSDL (`description:`).
    pub description: Option<String>,
    /// How the WSDL declares a DataSet (`dataset_wsdl:`).
    pub dataset_wsdl: crate::spec::DataSetWsdl,
    /// Every operation's SOAP messages RPC/encoded: `style: rpc` on the service or on every
    /// operation.
    pub rpc: bool,
    /// `style: rpc` on the service (`[SoapRpcService]`): its types in its namespace, its HTTP
    /// GET/POST results in `{namespace}/literalTypes`, its bindings `style="rpc"`. Without it
    /// (`[SoapRpcMethod]` on each method) the types' namespace is `{namespace}/encodedTypes`.
    pub rpc_service: bool,
    /// The namespace of its encoded types (the `types` prefix of its messages).
    pub types_namespace: String,
    /// A `[ScriptService]` (`script:`): every operation answers JSON calls too.
    pub script: Option<crate::spec::ScriptService>,
    /// The class whose values a session keeps (`session:`), an index into
    /// [`Model::classes`], for the operations with session state.
    pub session: Option<usize>,
}

/// A credential: a parameter filled by a signer, not by the request type.
#[derive(Debug, Clone)]
pub struct CredentialModel {
    /// Wire name.
    pub wire: String,
    /// Rust field name of `Credentials`.
    pub field: String,
    /// SOAP type (the same in every operation carrying it).
    pub ty: SoapType,
    /// Carried by every operation.
    pub required: bool,
    /// Never printed.
    pub secret: bool,
    /// Wire names of the operations that carry it, in spec order.
    pub used_by: Vec<String>,
}

/// What a parameter is to the generated code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// A field of the operation's request type.
    Business,
    /// A field of `Credentials` (the index into [`Model::credentials`]).
    Credential(usize),
}

/// One parameter of one operation.
#[derive(Debug, Clone)]
pub struct ParamModel {
    /// Wire name (`accountnumber`, `type`).
    pub wire: String,
    /// Rust field name, escaped where Rust needs it (`r#type`).
    pub field: String,
    /// 1-based position on the wire.
    pub position: usize,
    /// SOAP type.
    pub ty: SoapType,
    /// Whether it may be null (`int?`): a Rust `Option`, `xsi:nil` on the wire.
    pub nullable: bool,
    /// Request field or credential.
    pub role: Role,
    /// Never printed by `Debug`.
    pub secret: bool,
    /// `<{wire}>`.
    pub open_tag: String,
    /// `</{wire}>`.
    pub close_tag: String,
    /// `<{wire} xsi:nil="true" />`, a null of a nullable parameter.
    pub nil_tag: String,
    /// Of a class with a root (`[XmlRoot]`): its element is nillable, `None` written as
    /// `xsi:nil` and read from it (a class's element otherwise is left out for `None`).
    pub nillable: bool,
}

/// One operation and every name and literal derived from it.
#[derive(Debug, Clone)]
pub struct OperationModel {
    /// 1-based position in the spec (the interface document's number).
    pub number: usize,
    /// Wire name (`MobileTaskCreate`).
    pub wire: String,
    /// The request type's name and the `Operation` variant's: the wire name in upper camel
    /// case (`Test_Cookie` is `TestCookie`; most wire names already are).
    pub rust_name: String,
    /// The response type (`MobileTaskCreateResponse`).
    pub response_type: String,
    /// The fault type of an operation with `Fault` headers (`TryFault`: the fault and those
    /// headers), what its method returns instead of a plain `Fault`.
    pub fault_type: Option<String>,
    /// snake_case name for methods and the wire module (`mobile_task_create`).
    pub snake: String,
    /// Documentation from the spec.
    pub doc: String,
    /// The service's own description, published in the WSDL (`description:`).
    pub description: Option<String>,
    /// Every parameter, in wire order.
    pub params: Vec<ParamModel>,
    /// `"{namespace}/{wire}"` (no `/` added when the namespace ends with one), quoted, as the
    /// SOAPAction header carries it.
    pub soap_action: String,
    /// The SOAP 1.2 request content type with its `action` parameter.
    pub soap12_content_type: String,
    /// `{path}/{wire}`.
    pub http_path: String,
    /// `<{wire} xmlns="{namespace}">` (the wrapper's name is `request_element:`'s where the
    /// spec renames it); empty for a bare operation.
    pub request_open: String,
    /// `</{wire}>`; empty for a bare operation.
    pub request_close: String,
    /// `style: bare`: over SOAP each parameter is an element of the Body, and the result
    /// `<{wire}Result>` is one too; no wrapper either way.
    pub bare: bool,
    /// The Body's element that routes a request without an action here: the request's
    /// wrapper (`wire`, or `request_element:`), or a bare operation's first parameter (`""`
    /// without one).
    pub request_element: String,
    /// `{wire}Response`, or `response_element:`: the response's wrapper.
    pub response_name: String,
    /// The namespace of an rpc operation's request element: the service's, or
    /// `request_namespace:`.
    pub request_namespace: String,
    /// The namespace of an rpc operation's response element: the service's, or
    /// `response_namespace:`.
    pub response_namespace: String,
    /// `<{wire}Response xmlns="{namespace}">`.
    pub response_open: String,
    /// `</{wire}Response>`.
    pub response_close: String,
    /// `{wire}Result`, or the result class's root, or `result_element:`.
    pub result_name: String,
    /// The result's SOAP type.
    pub result: SoapType,
    /// Whether the result may be null (`int?`).
    pub result_nullable: bool,
    /// The result is of a class with a root (`[XmlRoot]`): `result_name` is the root, and
    /// the element is nillable, `None` written as `xsi:nil` and read from it.
    pub result_nillable: bool,
    /// The `out` and `ref` parameters: response elements after the result, in parameter
    /// order, and the response type's fields after `result`.
    pub outs: Vec<MemberModel>,
    /// The bindings it is offered on, in the spec's order of the four.
    pub bindings: Vec<BindingName>,
    /// The .NET method's name where `[WebMethod(MessageName)]` named the operation `wire`
    /// (an overload): the WSDL's port type and binding operation name, whose input and output
    /// are then named `wire`.
    pub method: Option<String>,
    /// The SOAP headers it uses (`[SoapHeader]`), in spec order: fields of the request after
    /// the parameters (those it reads) and of the response after the out parameters (those
    /// it writes); blocks of the SOAP messages' Headers, in this order.
    pub headers: Vec<HeaderModel>,
    /// Over JSON (a `[ScriptService]`'s), called with GET (`UseHttpGet`), else with POST.
    pub script_get: bool,
    /// Over JSON, answered in XML (`ResponseFormat.Xml`).
    pub script_xml: bool,
    /// With session state (`session: true`): its handler gets the call's session.
    pub session: bool,
    /// The service trait's method giving the result's items as they are made (`{snake}_items`,
    /// numbered apart from every operation's method), for a result that may be written as it
    /// is made: a wrapped array, the whole answer, written as a document/literal array (no
    /// `out` parameters, SOAP headers, session state or fault headers; not RPC/encoded, whose
    /// arrays declare their length before their items). `None` for any other.
    pub items_method: Option<String>,
    /// The service trait's method giving a DataSet result's rows as they are made
    /// (`{snake}_rows`, numbered apart like [`items_method`](Self::items_method)), for a
    /// DataSet result under the same conditions as an array's. `None` for any other.
    pub rows_method: Option<String>,
}

/// A SOAP header an operation uses: a class's element in the request's Header, the
/// response's, or both.
#[derive(Debug, Clone)]
pub struct HeaderModel {
    /// The block's element name: its class's root (`[XmlRoot]`), else its name
    /// (`AuthHeader`).
    pub wire: String,
    /// The block's namespace: the service's, or its class's own.
    pub namespace: String,
    /// What the runtime's header reader knows it by: `wire`, or `{namespace}wire` for a class
    /// of another namespace than the service's.
    pub key: String,
    /// Its class (an index into [`Model::classes`]).
    pub class: usize,
    /// The field of the request and of the response (`auth_header`), numbered apart from the
    /// parameters', the result's and the out parameters'.
    pub field: String,
    /// Which messages carry it.
    pub direction: HeaderDirection,
}

impl OperationModel {
    /// The types of its parameters, its result (`void` too) and its out parameters, in that
    /// order: every value its messages carry but the headers.
    pub fn value_types(&self) -> impl Iterator<Item = SoapType> + '_ {
        self.params
            .iter()
            .map(|p| p.ty)
            .chain([self.result])
            .chain(self.outs.iter().map(|o| o.ty))
    }

    /// The SOAP headers the request carries (`In` and `InOut`), in spec order.
    pub fn in_headers(&self) -> impl Iterator<Item = &HeaderModel> {
        self.headers.iter().filter(|h| h.direction.reads())
    }

    /// The SOAP headers the response carries (`Out` and `InOut`), in spec order.
    pub fn out_headers(&self) -> impl Iterator<Item = &HeaderModel> {
        self.headers.iter().filter(|h| h.direction.writes())
    }

    /// Whether its result may be written as it is made (see
    /// [`items_method`](Self::items_method)), in a service whose messages are RPC/encoded
    /// (`rpc`) or not.
    fn may_stream_items(&self, rpc: bool) -> bool {
        matches!(self.result, SoapType::Array(_)) && self.may_stream(rpc)
    }

    /// Whether its result is a DataSet whose rows may be written as they are made (see
    /// [`rows_method`](Self::rows_method)).
    fn may_stream_rows(&self, rpc: bool) -> bool {
        self.result == SoapType::DataSet && self.may_stream(rpc)
    }

    /// Whether its result, the whole answer, may be written as it is made.
    fn may_stream(&self, rpc: bool) -> bool {
        self.outs.is_empty()
            && !self.bare
            && !self.result_nullable
            && !self.result_nillable
            && self.headers.is_empty()
            && self.fault_type.is_none()
            && !self.session
            && !rpc
    }

    /// The SOAP headers a fault carries (`Fault`), in spec order: fields of its
    /// [`fault_type`](Self::fault_type).
    pub fn fault_headers(&self) -> impl Iterator<Item = &HeaderModel> {
        self.headers.iter().filter(|h| h.direction.on_fault())
    }

    /// The headers of the response's Header in the WSDL (`soap:header` of the output): those
    /// the response carries, then those a fault does, as ASMX declares them.
    pub fn output_headers(&self) -> impl Iterator<Item = &HeaderModel> {
        self.headers
            .iter()
            .filter(|h| h.direction.writes() || h.direction.on_fault())
    }

    /// Whether it is offered on every binding.
    pub fn on_every_binding(&self) -> bool {
        self.bindings == BindingName::ALL
    }

    /// Whether it is offered on HTTP GET or POST (both read and write forms).
    pub fn over_http(&self) -> bool {
        self.bindings
            .iter()
            .any(|b| matches!(b, BindingName::Get | BindingName::Post))
    }

    /// The parameters that are fields of the request type.
    pub fn business_params(&self) -> impl Iterator<Item = &ParamModel> {
        self.params.iter().filter(|p| p.role == Role::Business)
    }
}

/// Whether `name` can be a .NET enum member's name (a C# identifier: a letter or `_`, then
/// letters, digits and `_`), which is what `Enum.Parse` reads over HTTP GET/POST.
pub fn is_member_name(name: &str) -> bool {
    name.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// The text of an XML name with XmlConvert's escapes decoded: `_xHHHH_` (and `_xHHHHHHHH_`)
/// is the character of that code (`WSF_x0020_Schedule` is `WSF Schedule`), as .NET's
/// `XmlConvert.DecodeName` reads it. A name without escapes, or with one that is not a
/// character, is kept. Only Rust names are made from the decoded text; wire names are
/// never decoded.
pub fn decode_xml_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut rest = name;
    while let Some(at) = rest.find("_x") {
        out.push_str(&rest[..at]);
        let tail = &rest[at + 2..];
        let decoded = [4, 8].into_iter().find_map(|digits| {
            let hex = tail.get(..digits)?;
            if !hex.bytes().all(|b| b.is_ascii_hexdigit())
                || tail.as_bytes().get(digits) != Some(&b'_')
            {
                return None;
            }
            let c = char::from_u32(u32::from_str_radix(hex, 16).ok()?)?;
            Some((c, digits + 1))
        });
        match decoded {
            Some((c, used)) => {
                out.push(c);
                rest = &tail[used..];
            }
            None => {
                out.push_str("_x");
                rest = tail;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The words of a wire name for Rust: its escapes decoded ([`decode_xml_name`]), then its
/// runs of ASCII letters and digits (every other character, `_`, `-`, `.`, a space, separates
/// two words).
fn words(name: &str) -> Vec<String> {
    decode_xml_name(name)
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The Rust variant name of an enum's wire value: its words ([`decode_xml_name`], then runs of
/// ASCII letters and digits), each with a capital first letter and the rest kept (`very-high`
/// is `VeryHigh`, `low` is `Low`, `ALL` stays `ALL`); `V` before one starting with a digit
/// (`2x` is `V2x`). `None` when that leaves no name. Whether the name is free (not `Self`, not
/// an item of the generated enum, not another value's) is decided by [`Model::from_spec`].
pub fn variant_name(value: &str) -> Option<String> {
    let mut name = String::new();
    for part in words(value) {
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            name.extend(first.to_uppercase());
            name.push_str(chars.as_str());
        }
    }
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        name.insert(0, 'V');
    }
    (!name.is_empty()).then_some(name)
}

/// Rust keywords that a raw identifier (`r#…`) can escape.
const RAW_KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "else", "enum", "extern", "false", "fn", "for", "if",
    "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "static",
    "struct", "trait", "true", "type", "unsafe", "use", "where", "while", "async", "await", "dyn",
    "abstract", "become", "box", "do", "final", "macro", "override", "priv", "typeof", "unsized",
    "virtual", "yield", "try", "gen",
];
/// Type names the generated code defines or imports by name (its own items, the runtime's
/// items it re-exports at its root, std's prelude and the generic parameters of the server
/// and client): a spec item whose Rust name would be one is numbered (`Err` is `Err2`).
/// Everything else of the runtime, hyper's and std's (`Request`, `Response`, `Route`,
/// `Context`, `Duration`) is named by path in generated code, so a spec's type keeps it.
pub const RESERVED_TYPES: &[&str] = &[
    "Credentials",
    "SoapHeaders",
    // The server's private state.
    "Shared",
    "Operation",
    "Call",
    "Verifier",
    "Signer",
    "SigningRequest",
    "StaticSigner",
    "Binding",
    "Decimal",
    "Uuid",
    "DateTime",
    "DateTimeKind",
    "Fault",
    "FaultCode",
    "EncodeError",
    "RequestError",
    "ResponseError",
    "ValueError",
    "CallError",
    "Transport",
    "TransportError",
    "Option",
    "Result",
    "String",
    "Vec",
    "Box",
    "Some",
    "None",
    "Ok",
    "Err",
    "Default",
    "Clone",
    "Debug",
    "Send",
    "Sync",
    "Sized",
    "Copy",
    "Eq",
    "PartialEq",
    "S",
    "B",
    "T",
    "F",
    "Self",
];

/// The generated enum's own items beside its variants (`Level::ALL`, the `Scalar` constants):
/// a value whose variant would be one is numbered (`ALL` is `ALL2`).
pub const RESERVED_VARIANTS: &[&str] =
    &["ALL", "WIRE_NAMES", "MEMBER_NAMES", "TYPE", "ROOM", "Self"];

/// The generated flags type's own constants beside its flags (and `bitflags`'): a flag whose
/// constant would be one is numbered (`ZERO_2`).
pub const RESERVED_FLAGS: &[&str] = &[
    "WIRE_NAMES",
    "MEMBER_NAMES",
    "ZERO",
    "ZERO_MEMBER",
    "ALL_NAMES",
    "FLAGS",
    "TYPE",
    "ROOM",
];

/// The generated clients' own methods: an operation whose method would be one is numbered
/// (`Call` is `call_2`).
pub const RESERVED_METHODS: &[&str] = &[
    "new",
    "from_async",
    "with_binding",
    "over",
    "with_timeout",
    "with_transport",
    "binding",
    "call",
];

/// Local variables of the generated decoders, where every parameter is a local too: a
/// parameter whose field would be one is numbered (`body` is `body_2`).
pub const DECODER_LOCALS: &[&str] = &["binding", "body", "reader", "param", "request", "form"];

/// Keywords that cannot be raw identifiers: these get a trailing underscore.
const RESERVED: &[&str] = &["self", "Self", "super", "crate", "_"];

/// Whether `name` is a Rust keyword (strict or reserved, 2024 edition), escaped or not.
pub fn is_keyword(name: &str) -> bool {
    RAW_KEYWORDS.contains(&name) || RESERVED.contains(&name)
}

/// A name in upper camel case, as Rust names types: its words ([`decode_xml_name`], then runs
/// of ASCII letters and digits), each starting with a capital and the rest kept
/// (`Test_Cookie` → `TestCookie`, `getRates` → `GetRates`, `temp` → `Temp`,
/// `WSF_x0020_Schedule` → `WSFSchedule`); a name already in upper camel case is kept. `T`
/// goes before a name that would start with a digit.
pub fn upper_camel(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for part in words(name) {
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            out.extend(first.to_uppercase());
            out.push_str(chars.as_str());
        }
    }
    if out.is_empty() {
        return "T".to_owned();
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'T');
    }
    out
}

/// `MobileTaskCreate` → `mobile_task_create`; `HTTPGetX` → `http_get_x`; already snake
/// names come out as they are, and escapes ([`decode_xml_name`]), `-`, `.` and every other
/// character but ASCII letters and digits as one `_` (`account-name.x` → `account_name_x`,
/// `WSF_x0020_Schedule` → `wsf_schedule`).
pub fn snake_case(name: &str) -> String {
    let decoded = decode_xml_name(name);
    let chars: Vec<char> = decoded.chars().collect();
    let mut out = String::with_capacity(decoded.len() + 4);
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_ascii_alphanumeric() {
            if c == '_' || !out.ends_with('_') {
                out.push('_');
            }
            continue;
        }
        if c.is_ascii_uppercase() {
            let prev = i.checked_sub(1).map(|j| chars[j]);
            let next = chars.get(i + 1).copied();
            let boundary = match prev {
                Some(p) if p.is_ascii_lowercase() || p.is_ascii_digit() => true,
                Some(p) if p.is_ascii_uppercase() => next.is_some_and(|n| n.is_ascii_lowercase()),
                _ => false,
            };
            if boundary && !out.ends_with('_') {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The Rust field name of a wire name: snake_case, escaped if it is a keyword (`r#type`, and
/// `self_` where Rust has no raw identifier).
pub fn field_name(wire: &str) -> String {
    let snake = snake_case(wire);
    if RAW_KEYWORDS.contains(&snake.as_str()) {
        format!("r#{snake}")
    } else if RESERVED.contains(&snake.as_str()) || snake.is_empty() {
        format!("{snake}_")
    } else {
        snake
    }
}

/// How a taken name is numbered: `Err2` for a type or variant (upper camel case has no `_`),
/// `body_2` for a snake_case name and `ZERO_2` for a constant (the escape `r#` dropped:
/// `type_2`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Numbering {
    /// `Name2`.
    Camel,
    /// `name_2`, `NAME_2`.
    Underscore,
}

impl Numbering {
    fn apply(self, base: &str, n: usize) -> String {
        let base = base.strip_prefix("r#").unwrap_or(base);
        match self {
            Numbering::Camel => format!("{base}{n}"),
            Numbering::Underscore => format!("{}_{n}", base.trim_end_matches('_')),
        }
    }
}

/// Decides the Rust names of one namespace, once: each candidate keeps its natural name where
/// it is free (not in `taken`, which holds the generated code's own names and those decided
/// before, and not wanted by an earlier candidate); every other one takes the first free
/// numbered name from 2 (`Err2`, `body_2`), in the candidates' order. The names given are
/// added to `taken`. Spec order in, the same names out: generation is deterministic, and a
/// spec without collisions keeps every natural name.
pub fn assign_names(
    naturals: &[String],
    taken: &mut Vec<String>,
    numbering: Numbering,
) -> Vec<String> {
    assign_names_where(naturals, taken, numbering, |_, _| false)
}

/// [`assign_names`], with names taken for one candidate only: `also_taken(i, name)` (an
/// operation's request type may not be `ALL`, which its `Operation` variant would hide).
pub fn assign_names_where(
    naturals: &[String],
    taken: &mut Vec<String>,
    numbering: Numbering,
    also_taken: impl Fn(usize, &str) -> bool,
) -> Vec<String> {
    let mut names: Vec<Option<String>> = vec![None; naturals.len()];
    for (i, natural) in naturals.iter().enumerate() {
        if !taken.contains(natural) && !also_taken(i, natural) {
            taken.push(natural.clone());
            names[i] = Some(natural.clone());
        }
    }
    for (i, natural) in naturals.iter().enumerate() {
        if names[i].is_none() {
            let mut n = 2;
            let name = loop {
                let candidate = numbering.apply(natural, n);
                if !taken.contains(&candidate) && !also_taken(i, &candidate) {
                    break candidate;
                }
                n += 1;
            };
            taken.push(name.clone());
            names[i] = Some(name);
        }
    }
    names
        .into_iter()
        .map(|n| n.expect("every candidate named"))
        .collect()
}

impl Model {
    /// Decides every name (see the module's documentation for the rules). `spec` must have
    /// passed validation; a name that collides in Rust is numbered apart, never refused, so
    /// this does not fail on a valid spec.
    pub fn from_spec(spec: &Spec, file: &str) -> Result<Model, SpecErrors> {
        let ns = &spec.service.namespace;
        let errors: Vec<SpecError> = Vec::new();
        // Credentials are fields of `Credentials` and locals of the decoders.
        let credential_fields = {
            let naturals: Vec<String> = spec
                .credentials
                .iter()
                .chain(&spec.optional_credentials)
                .map(|wire| field_name(wire))
                .collect();
            let mut taken: Vec<String> = DECODER_LOCALS.iter().map(|&s| s.to_owned()).collect();
            assign_names(&naturals, &mut taken, Numbering::Underscore)
        };
        let credentials: Vec<CredentialModel> = spec
            .credentials
            .iter()
            .map(|c| (c, true))
            .chain(spec.optional_credentials.iter().map(|c| (c, false)))
            .zip(&credential_fields)
            .map(|((wire, required), field)| {
                let users: Vec<_> = spec
                    .operations
                    .iter()
                    .filter_map(|op| {
                        op.params
                            .iter()
                            .find(|p| &p.name == wire)
                            .map(|p| (op, p.ty))
                    })
                    .collect();
                CredentialModel {
                    wire: wire.clone(),
                    field: field.clone(),
                    // Validation guarantees every credential is used, with one type.
                    ty: users.first().map_or(SoapType::String, |(_, ty)| *ty),
                    required,
                    secret: spec.secrets.contains(wire),
                    used_by: users.iter().map(|(op, _)| op.name.clone()).collect(),
                }
            })
            .collect();

        let operations = spec
            .operations
            .iter()
            .enumerate()
            .map(|(i, op)| {
                let bare = op.style == crate::spec::ParameterStyle::Bare;
                // Every parameter is a local of the decoders: the business ones are numbered
                // apart from the decoders' own locals, the credentials this operation carries
                // and each other.
                let credential_of =
                    |p: &crate::spec::Param| credentials.iter().position(|c| c.wire == p.name);
                let mut taken: Vec<String> = DECODER_LOCALS
                    .iter()
                    .map(|&s| s.to_owned())
                    .chain(
                        op.params
                            .iter()
                            .filter_map(|p| credential_of(p).map(|c| credentials[c].field.clone())),
                    )
                    .collect();
                let business: Vec<String> = op
                    .params
                    .iter()
                    .filter(|p| credential_of(p).is_none())
                    .map(|p| field_name(&p.name))
                    .collect();
                let mut business =
                    assign_names(&business, &mut taken, Numbering::Underscore).into_iter();
                let fields: Vec<String> = op
                    .params
                    .iter()
                    .map(|p| match credential_of(p) {
                        Some(c) => credentials[c].field.clone(),
                        None => business.next().expect("a field per business parameter"),
                    })
                    .collect();
                // The headers' fields, after the parameters', numbered apart from them.
                let header_names: Vec<String> = op
                    .headers
                    .iter()
                    .map(|h| field_name(&spec.classes[usize::from(h.class)].name))
                    .collect();
                // The response's fields too: its result and out parameters.
                taken.push("result".to_owned());
                taken.extend(op.outs.iter().map(|o| field_name(&o.name)));
                let header_fields = assign_names(&header_names, &mut taken, Numbering::Underscore);
                let headers: Vec<HeaderModel> = op
                    .headers
                    .iter()
                    .zip(header_fields)
                    .map(|(h, field)| {
                        let class = &spec.classes[usize::from(h.class)];
                        // The block's element: the class's root ([XmlRoot]), else its name.
                        let wire = class.root.clone().unwrap_or_else(|| class.name.clone());
                        let (namespace, key) = match &class.namespace {
                            Some(ns) => (ns.clone(), format!("{{{ns}}}{wire}")),
                            None => (ns.clone(), wire.clone()),
                        };
                        HeaderModel {
                            wire,
                            namespace,
                            key,
                            class: usize::from(h.class),
                            field,
                            direction: h.direction,
                        }
                    })
                    .collect();
                let params: Vec<ParamModel> = op
                    .params
                    .iter()
                    .zip(fields)
                    .enumerate()
                    .map(|(j, (p, field))| ParamModel {
                        wire: p.name.clone(),
                        field,
                        position: j + 1,
                        ty: p.ty,
                        nullable: p.nullable,
                        role: credentials
                            .iter()
                            .position(|c| c.wire == p.name)
                            .map_or(Role::Business, Role::Credential),
                        secret: spec.secrets.contains(&p.name),
                        // A bare operation's parameter stands in the Body: it declares its
                        // namespace itself.
                        open_tag: if bare {
                            format!("<{} xmlns=\"{ns}\">", p.name)
                        } else {
                            format!("<{}>", p.name)
                        },
                        close_tag: format!("</{}>", p.name),
                        nillable: root_of(spec, p.ty).is_some(),
                        nil_tag: if bare {
                            format!("<{} xsi:nil=\"true\" xmlns=\"{ns}\" />", p.name)
                        } else {
                            format!("<{} xsi:nil=\"true\" />", p.name)
                        },
                    })
                    .collect();
                let wire = &op.name;
                // ASMX's default action (SoapReflector.GetDefaultAction): the namespace and the
                // name, with a '/' between them unless the namespace ends with one
                // (`http://tempuri.org/` gives `http://tempuri.org/HelloWorld`).
                let action = match &op.action {
                    // `[SoapDocumentMethod(Action)]`: the service's own.
                    Some(action) => action.clone(),
                    None if ns.ends_with('/') => format!("{ns}{wire}"),
                    None => format!("{ns}/{wire}"),
                };
                // The wrappers, as `[SoapDocumentMethod]` names them: after the operation
                // unless `RequestElementName`/`ResponseElementName` say otherwise.
                let request_wrapper = op.request_element.clone().unwrap_or_else(|| wire.clone());
                let response_wrapper = op
                    .response_element
                    .clone()
                    .unwrap_or_else(|| format!("{wire}Response"));
                OperationModel {
                    request_namespace: op.request_namespace.clone().unwrap_or_else(|| ns.clone()),
                    response_namespace: op.response_namespace.clone().unwrap_or_else(|| ns.clone()),
                    number: i + 1,
                    wire: wire.clone(),
                    rust_name: upper_camel(wire),
                    response_type: format!("{}Response", upper_camel(wire)),
                    fault_type: None,
                    items_method: None,
                    rows_method: None,
                    snake: snake_case(wire),
                    doc: op.doc.trim().to_owned(),
                    description: op.description.clone(),
                    params,
                    soap_action: format!("\"{action}\""),
                    soap12_content_type: format!(
                        "application/soap+xml; charset=utf-8; action=\"{action}\""
                    ),
                    http_path: format!("{}/{wire}", spec.service.path),
                    // A bare request has no wrapper.
                    request_open: if bare {
                        String::new()
                    } else {
                        format!("<{request_wrapper} xmlns=\"{ns}\">")
                    },
                    request_close: if bare {
                        String::new()
                    } else {
                        format!("</{request_wrapper}>")
                    },
                    bare,
                    request_element: if bare {
                        op.params
                            .first()
                            .map_or_else(String::new, |p| p.name.clone())
                    } else {
                        request_wrapper.clone()
                    },
                    response_open: format!("<{response_wrapper} xmlns=\"{ns}\">"),
                    response_close: format!("</{response_wrapper}>"),
                    response_name: response_wrapper,
                    result_name: root_of(spec, op.result)
                        .map(str::to_owned)
                        .or_else(|| op.result_element.clone())
                        .unwrap_or_else(|| format!("{wire}Result")),
                    result: op.result,
                    result_nullable: op.result_nullable,
                    result_nillable: root_of(spec, op.result).is_some(),
                    outs: {
                        let mut taken = vec!["result".to_owned()];
                        op.outs
                            .iter()
                            .map(|o| {
                                let base = field_name(&o.name);
                                let mut field = base.clone();
                                let mut n = 2;
                                while taken.contains(&field) {
                                    field = Numbering::Underscore.apply(&base, n);
                                    n += 1;
                                }
                                taken.push(field.clone());
                                MemberModel {
                                    wire: o.name.clone(),
                                    field,
                                    ty: o.ty,
                                    nullable: o.nullable,
                                    boxed: false,
                                    unwrapped: false,
                                    optional: false,
                                    default: None,
                                    list: false,
                                    any: false,
                                    unqualified: false,
                                    data_type: None,
                                    plain_object: false,
                                    namespace: None,
                                    secret: false,
                                }
                            })
                            .collect()
                    },
                    bindings: op.bindings.clone(),
                    method: op.method.clone(),
                    headers,
                    script_get: op.script_get,
                    script_xml: op.script_xml,
                    session: op.session,
                }
            })
            .collect::<Vec<_>>();

        // The type namespace of the crate's root, decided once, in this order: the service's
        // trait, then its server and clients (named after the trait), then the spec's enums,
        // classes and operations' request types (spec order), then the types named after
        // those (a class's `Any…` enum, an operation's response).
        let mut taken: Vec<String> = RESERVED_TYPES.iter().map(|&s| s.to_owned()).collect();
        let trait_name = assign_names(
            &[upper_camel(&spec.service.name)],
            &mut taken,
            Numbering::Camel,
        )
        .remove(0);
        let mut service_types = assign_names(
            &[
                format!("{trait_name}Server"),
                format!("{trait_name}Client"),
                format!("{trait_name}BlockingClient"),
            ],
            &mut taken,
            Numbering::Camel,
        )
        .into_iter();
        let (server_type, client_type, blocking_client_type) = (
            service_types.next().expect("three names"),
            service_types.next().expect("three names"),
            service_types.next().expect("three names"),
        );
        // An operation's request type is also a variant of `Operation`, beside its `ALL`.
        let user_types: Vec<String> = spec
            .enums
            .iter()
            .map(|e| upper_camel(&e.name))
            .chain(spec.classes.iter().map(|c| upper_camel(&c.name)))
            .chain(spec.operations.iter().map(|op| upper_camel(&op.name)))
            .collect();
        let first_request = spec.enums.len() + spec.classes.len();
        let user_types =
            assign_names_where(&user_types, &mut taken, Numbering::Camel, |i, name| {
                i >= first_request && name == "ALL"
            });
        let (enum_names, rest) = user_types.split_at(spec.enums.len());
        let (class_names, request_names) = rest.split_at(spec.classes.len());
        let has_derived: Vec<bool> = (0..spec.classes.len())
            .map(|c| {
                spec.classes
                    .iter()
                    .any(|d| d.base.map(usize::from) == Some(c))
            })
            .collect();
        let uses_object = uses_object(spec);
        let derived_types: Vec<String> = class_names
            .iter()
            .zip(&has_derived)
            .filter(|(_, &d)| d)
            .map(|(name, _)| format!("Any{name}"))
            .chain(request_names.iter().map(|name| format!("{name}Response")))
            .chain(
                request_names
                    .iter()
                    .zip(&spec.operations)
                    .filter(|(_, op)| op.headers.iter().any(|h| h.direction.on_fault()))
                    .map(|(name, _)| format!("{name}Fault")),
            )
            .chain(
                uses_object
                    .then(|| ["Object".to_owned(), "KnownType".to_owned()])
                    .into_iter()
                    .flatten(),
            )
            .collect();
        let mut derived_types = assign_names(&derived_types, &mut taken, Numbering::Camel);
        // Typed DataSets and their rows' structs come after every other type, so that adding
        // one renames nothing else.
        let data_set_names: Vec<String> = spec
            .data_sets
            .iter()
            .map(|d| upper_camel(&d.name))
            .collect();
        let data_set_names = assign_names(&data_set_names, &mut taken, Numbering::Camel);
        let row_names: Vec<String> = spec
            .data_sets
            .iter()
            .flat_map(|d| &d.tables)
            .map(|t| format!("{}Row", variant_name(&t.name).expect("validated table")))
            .collect();
        let mut row_names = assign_names(&row_names, &mut taken, Numbering::Camel).into_iter();
        let data_sets: Vec<DataSetModel> = spec
            .data_sets
            .iter()
            .zip(data_set_names)
            .map(|(d, rust)| data_set_model(d, rust, &mut row_names))
            .collect();
        // Choices' enums last of all (after their classes' names, which they start with).
        let choice_names: Vec<String> = spec
            .choices
            .iter()
            .map(|c| {
                format!(
                    "{}{}",
                    class_names[usize::from(c.class)],
                    upper_camel(&c.member)
                )
            })
            .collect();
        let choice_names = assign_names(&choice_names, &mut taken, Numbering::Camel);
        let reach = class_reach(spec);
        let choices: Vec<ChoiceModel> = spec
            .choices
            .iter()
            .zip(choice_names)
            .map(|(c, rust)| {
                let class = usize::from(c.class);
                let naturals: Vec<String> = c
                    .alternatives
                    .iter()
                    .map(|a| upper_camel(&a.name))
                    .collect();
                let variants = assign_names(&naturals, &mut Vec::new(), Numbering::Camel);
                ChoiceModel {
                    rust,
                    class,
                    member: c.member.clone(),
                    repeated: c.repeated,
                    identified: c
                        .alternatives
                        .iter()
                        .enumerate()
                        .any(|(i, a)| c.alternatives[..i].iter().any(|other| other.ty == a.ty)),
                    alternatives: c
                        .alternatives
                        .iter()
                        .zip(variants)
                        .map(|(a, variant)| AlternativeModel {
                            wire: a.name.clone(),
                            variant,
                            ty: a.ty,
                            nillable: a.nillable,
                            boxed: !c.repeated
                                && match a.ty {
                                    SoapType::Class(b) => {
                                        let b = usize::from(b);
                                        std::iter::once(b)
                                            .chain(descendants(spec, b))
                                            .any(|x| x == class || reach[x][class])
                                    }
                                    _ => false,
                                },
                        })
                        .collect(),
                }
            })
            .collect();
        let object_names = uses_object.then(|| derived_types.split_off(derived_types.len() - 2));
        let faulting = spec
            .operations
            .iter()
            .filter(|op| op.headers.iter().any(|h| h.direction.on_fault()))
            .count();
        let fault_names = derived_types.split_off(derived_types.len() - faulting);
        let mut fault_names = fault_names.into_iter();
        let (any_names, response_names) =
            derived_types.split_at(has_derived.iter().filter(|&&d| d).count());
        let mut any_names = any_names.iter();
        let any_types: Vec<Option<String>> = has_derived
            .iter()
            .map(|&d| d.then(|| any_names.next().expect("an Any name").clone()))
            .collect();
        // Module and method names: one per operation, apart from keywords and the clients'
        // own methods.
        let mut taken: Vec<String> = RAW_KEYWORDS
            .iter()
            .chain(RESERVED)
            .chain(RESERVED_METHODS)
            .map(|&s| s.to_owned())
            .collect();
        let snakes: Vec<String> = spec
            .operations
            .iter()
            .map(|op| snake_case(&op.name))
            .collect();
        let snakes = assign_names(&snakes, &mut taken, Numbering::Underscore);
        let mut operations = operations;
        for (i, op) in operations.iter_mut().enumerate() {
            op.rust_name = request_names[i].clone();
            op.response_type = response_names[i].clone();
            if op.fault_headers().next().is_some() {
                op.fault_type = fault_names.next();
            }
            op.snake = snakes[i].clone();
        }
        // The streaming twins' names, after every operation's own.
        let rpc = spec.is_rpc();
        let streaming: Vec<usize> = (0..operations.len())
            .filter(|&i| operations[i].may_stream_items(rpc))
            .collect();
        let naturals: Vec<String> = streaming
            .iter()
            .map(|&i| format!("{}_items", operations[i].snake))
            .collect();
        let items_methods = assign_names(&naturals, &mut taken, Numbering::Underscore);
        for (&i, name) in streaming.iter().zip(items_methods) {
            operations[i].items_method = Some(name);
        }
        let streaming: Vec<usize> = (0..operations.len())
            .filter(|&i| operations[i].may_stream_rows(rpc))
            .collect();
        let naturals: Vec<String> = streaming
            .iter()
            .map(|&i| format!("{}_rows", operations[i].snake))
            .collect();
        let rows_methods = assign_names(&naturals, &mut taken, Numbering::Underscore);
        for (&i, name) in streaming.iter().zip(rows_methods) {
            operations[i].rows_method = Some(name);
        }
        let mut classes = class_models(spec);
        for (i, class) in classes.iter_mut().enumerate() {
            class.rust = class_names[i].clone();
            class.any_type = any_types[i].clone();
        }
        let arrays = array_models(spec);
        let object = object_names.map(|names| ObjectModel {
            alias: names[0].clone(),
            known: names[1].clone(),
            variants: known_variants(&classes, enum_names, &spec.enums, &arrays),
        });
        if !errors.is_empty() {
            return Err(SpecErrors(errors));
        }
        let service = &spec.service;
        Ok(Model {
            spec_file: file.to_owned(),
            service: ServiceModel {
                name: service.name.clone(),
                namespace: ns.clone(),
                path: service.path.clone(),
                string_open: format!(
                    "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<string xmlns=\"{ns}\">"
                ),
                trait_name,
                server_type,
                client_type,
                blocking_client_type,
                crate_name: service.crate_name.clone(),
                crate_ident: service.crate_name.replace('-', "_"),
                description: service.description.clone(),
                dataset_wsdl: service.dataset_wsdl,
                rpc: spec.is_rpc(),
                rpc_service: service.style == crate::spec::ServiceStyle::Rpc,
                script: service.script.clone(),
                session: service
                    .session
                    .as_ref()
                    .and_then(|name| spec.classes.iter().position(|c| &c.name == name)),
                types_namespace: if service.style == crate::spec::ServiceStyle::Rpc {
                    ns.clone()
                } else if ns.ends_with('/') {
                    format!("{ns}encodedTypes")
                } else {
                    format!("{ns}/encodedTypes")
                },
            },
            credentials,
            enums: spec
                .enums
                .iter()
                .zip(enum_names)
                .map(|(e, rust)| {
                    // Variants apart from the enum's own items and each other; a flags type's
                    // constants apart from its own constants and each other.
                    // A value of no letter or digit (`""`) takes its .NET member name's
                    // (`Item`, as wsdl.exe names it).
                    let naturals: Vec<String> = e
                        .values
                        .iter()
                        .zip(&e.members)
                        .map(|(v, m)| {
                            variant_name(v)
                                .or_else(|| variant_name(m))
                                .expect("validated enum value")
                        })
                        .collect();
                    let mut taken: Vec<String> =
                        RESERVED_VARIANTS.iter().map(|&s| s.to_owned()).collect();
                    let variants = assign_names(&naturals, &mut taken, Numbering::Camel);
                    let consts: Vec<String> = naturals
                        .iter()
                        .enumerate()
                        .filter(|&(i, _)| e.flags && Some(i) != e.zero)
                        .map(|(_, v)| snake_case(v).to_ascii_uppercase())
                        .collect();
                    let mut taken: Vec<String> =
                        RESERVED_FLAGS.iter().map(|&s| s.to_owned()).collect();
                    let mut consts =
                        assign_names(&consts, &mut taken, Numbering::Underscore).into_iter();
                    EnumModel {
                        name: e.name.clone(),
                        rust: rust.clone(),
                        doc: e.doc.clone(),
                        flag_consts: (0..e.values.len())
                            .map(|i| {
                                if e.flags && Some(i) != e.zero {
                                    consts.next().expect("a constant per flag")
                                } else {
                                    String::new()
                                }
                            })
                            .collect(),
                        values: e.values.iter().cloned().zip(variants).collect(),
                        members: e.members.clone(),
                        flags: e.flags,
                        zero: e.zero,
                        namespace: e.namespace.clone(),
                    }
                })
                .collect(),
            data_sets,
            sent_headers: {
                let classes: Vec<usize> = (0..spec.classes.len())
                    .filter(|&c| {
                        operations
                            .iter()
                            .any(|op| op.in_headers().any(|h| h.class == c))
                    })
                    .collect();
                let names: Vec<String> = classes
                    .iter()
                    .map(|&c| field_name(&spec.classes[c].name))
                    .collect();
                let fields = assign_names(&names, &mut Vec::new(), Numbering::Underscore);
                classes
                    .into_iter()
                    .zip(fields)
                    .map(|(class, field)| SentHeader { class, field })
                    .collect()
            },
            foreign_namespaces: foreign_namespaces(&classes, &spec.enums, &operations),
            classes,
            arrays,
            choices,
            operations,
            object,
        })
    }
}

/// [`Model::foreign_namespaces`].
fn foreign_namespaces(
    classes: &[ClassModel],
    enums: &[crate::spec::EnumDef],
    operations: &[OperationModel],
) -> Vec<String> {
    let mut namespaces: Vec<String> = Vec::new();
    let headers = operations
        .iter()
        .flat_map(|op| op.in_headers().chain(op.output_headers()))
        .filter_map(|h| classes[h.class].namespace.as_ref());
    for ns in headers.chain(enums.iter().filter_map(|e| e.namespace.as_ref())) {
        if !namespaces.contains(ns) {
            namespaces.push(ns.clone());
        }
    }
    namespaces
}

/// The field of a header class's struct holding its block's attributes (.NET's `SoapHeader`
/// members), named apart from the class's members.
pub const HEADER_ATTRIBUTES_FIELD: &str = "soap";

/// The spec's classes with their members' Rust names decided (numbered apart where two would
/// meet) and the members on a cycle boxed.
fn class_models(spec: &Spec) -> Vec<ClassModel> {
    let reach = class_reach(spec);
    spec.classes
        .iter()
        .enumerate()
        .map(|(a, class)| {
            // Field names are decided over the inherited members and the own ones together,
            // in wire order, so a derived struct's fields never meet its base's.
            let inherited = inherited_members(spec, a);
            let header = spec
                .operations
                .iter()
                .any(|op| op.headers.iter().any(|h| usize::from(h.class) == a));
            // A header's block attributes are its field `soap` (`SoapHeader`'s members).
            let mut taken: Vec<String> = if header {
                vec![HEADER_ATTRIBUTES_FIELD.to_owned()]
            } else {
                Vec::new()
            };
            let name_field = |wire: &str, taken: &mut Vec<String>| {
                let base = field_name(wire);
                let mut field = base.clone();
                let mut n = 2;
                while taken.contains(&field) {
                    field = Numbering::Underscore.apply(&base, n);
                    n += 1;
                }
                taken.push(field.clone());
                field
            };
            // `secrets: [Class.Member]`: a member of this class or of a class it derives from.
            let owners: Vec<&str> = std::iter::successors(Some(class), |c| {
                c.base.map(|b| &spec.classes[usize::from(b)])
            })
            .map(|c| c.name.as_str())
            .collect();
            let is_secret = |member: &str| {
                owners.iter().any(|owner| {
                    spec.secrets
                        .iter()
                        .any(|s| *s == format!("{owner}.{member}"))
                })
            };
            // The attributes it inherits come first, as XmlSerializer writes them.
            let inherited_attributes = inherited_attributes(spec, a);
            let attributes: Vec<MemberModel> = inherited_attributes
                .iter()
                .copied()
                .chain(class.attributes.iter().map(|m| (class, m)))
                .map(|(class, m)| MemberModel {
                    wire: m.name.clone(),
                    field: name_field(&m.name, &mut taken),
                    ty: m.ty,
                    nullable: false,
                    boxed: false,
                    unwrapped: false,
                    // A value-type attribute that may be absent (`xxxSpecified`).
                    optional: m.optional,
                    // `[DefaultValue]`: left out when equal, absent read as it.
                    default: m.default.clone(),
                    list: false,
                    any: false,
                    unqualified: false,
                    data_type: m.data_type.clone(),
                    plain_object: false,
                    // A qualified attribute is of its class's namespace.
                    namespace: match &m.namespace {
                        Some(ns) => Some(ns.clone()),
                        None if m.qualified => Some(
                            class
                                .namespace
                                .clone()
                                .unwrap_or_else(|| spec.service.namespace.clone()),
                        ),
                        None => None,
                    },
                    secret: is_secret(&m.name),
                })
                .collect();
            let text = class.text.map(|ty| MemberModel {
                wire: String::new(),
                field: name_field("text", &mut taken),
                ty,
                nullable: false,
                boxed: false,
                unwrapped: false,
                optional: false,
                default: None,
                list: false,
                any: false,
                unqualified: false,
                data_type: None,
                plain_object: false,
                namespace: None,
                secret: false,
            });
            let any_attribute = class.any_attribute.as_ref().map(|name| AnyAttributeModel {
                name: name.clone(),
                field: name_field(name, &mut taken),
            });
            let mut fields = inherited
                .iter()
                .copied()
                .chain(&class.members)
                .map(|m| {
                    let base = field_name(&m.name);
                    let mut field = base.clone();
                    let mut n = 2;
                    while taken.contains(&field) {
                        field = Numbering::Underscore.apply(&base, n);
                        n += 1;
                    }
                    taken.push(field.clone());
                    let boxed = match m.ty {
                        // A member holds a value of its class or of any derived from it: boxed
                        // when one of them holds (or is) this class.
                        SoapType::Class(b) => {
                            let b = usize::from(b);
                            std::iter::once(b)
                                .chain(descendants(spec, b))
                                .any(|x| x == a || reach[x][a])
                        }
                        _ => false,
                    };
                    MemberModel {
                        wire: m.name.clone(),
                        field,
                        ty: m.ty,
                        nullable: m.nullable,
                        boxed,
                        unwrapped: m.unwrapped,
                        optional: m.optional,
                        default: m.default.clone(),
                        list: m.list,
                        any: m.any,
                        unqualified: m.unqualified,
                        data_type: m.data_type.clone(),
                        plain_object: m.ty == SoapType::Object && class.namespace.is_some(),
                        namespace: None,
                        secret: is_secret(&m.name),
                    }
                })
                .collect::<Vec<_>>();
            let members = fields.split_off(inherited.len());
            let derived = descendants(spec, a);
            let inherited_attributes = inherited_attributes.len();
            ClassModel {
                inherited_attributes,
                name: class.name.clone(),
                // Decided with the crate's other type names (`Model::from_spec`).
                rust: String::new(),
                doc: class.doc.clone(),
                base: class.base.map(usize::from),
                is_abstract: class.is_abstract,
                root: class.root.clone(),
                namespace: class.namespace.clone(),
                header,
                attributes,
                text,
                any_attribute,
                any_type: (!derived.is_empty()).then(|| format!("Any{}", class.name)),
                derived,
                inherited: fields,
                members,
            }
        })
        .collect()
}

/// Whether the spec uses `object` anywhere: a parameter, result, out parameter, member or
/// array item.
fn uses_object(spec: &Spec) -> bool {
    let is = |ty: SoapType| ty == SoapType::Object;
    spec.operations
        .iter()
        .any(|op| is(op.result) || op.params.iter().chain(&op.outs).any(|p| is(p.ty)))
        || spec
            .classes
            .iter()
            // A class of another namespace holds a plain one (`MemberModel::plain_object`).
            .filter(|c| c.namespace.is_none())
            .any(|c| c.members.iter().any(|m| is(m.ty)))
        || spec.arrays.iter().any(|a| is(a.item))
}

/// The types an `object` may hold (see [`ObjectModel::variants`]): the concrete classes but
/// header ones, the enums of the service's namespace (an `xsi:type` naming one of another
/// namespace is not read), the arrays; their Rust names apart from one another.
fn known_variants(
    classes: &[ClassModel],
    enum_names: &[String],
    enums: &[crate::spec::EnumDef],
    arrays: &[ArrayModel],
) -> Vec<KnownVariant> {
    let mut types = Vec::new();
    let mut names = Vec::new();
    for (i, class) in classes.iter().enumerate() {
        if !class.is_abstract && !class.header {
            types.push(SoapType::Class(i as u16));
            names.push(class.rust.clone());
        }
    }
    for (i, name) in enum_names.iter().enumerate() {
        if enums[i].namespace.is_some() {
            continue;
        }
        types.push(SoapType::Enum(i as u16));
        names.push(name.clone());
    }
    for (i, array) in arrays.iter().enumerate() {
        types.push(SoapType::Array(i as u16));
        names.push(upper_camel(&array.name));
    }
    let mut taken = Vec::new();
    let names = assign_names(&names, &mut taken, Numbering::Camel);
    types
        .into_iter()
        .zip(names)
        .map(|(ty, rust)| KnownVariant { rust, ty })
        .collect()
}

/// The spec's arrays with their XmlSerializer names.
fn array_models(spec: &Spec) -> Vec<ArrayModel> {
    let names = array_names(spec);
    spec.arrays
        .iter()
        .zip(&names)
        .map(|(array, name)| ArrayModel {
            name: name.clone(),
            item: array.item,
            item_nullable: array.item_nullable,
            item_nillable: array.item_nullable || array.item.is_reference(),
            item_name: match (&array.item_name, array.item) {
                (Some(renamed), _) => renamed.clone(),
                (None, SoapType::Array(i)) => names[usize::from(i)].clone(),
                (None, SoapType::Object) => "anyType".to_owned(),
                (None, SoapType::Xml) => "XmlElement".to_owned(),
                (None, SoapType::XmlNode) => "XmlNode".to_owned(),
                (None, other) => spec.type_name(other),
            },
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snake_case_splits_words_and_acronyms() {
        assert_eq!(snake_case("MobileTaskCreate"), "mobile_task_create");
        assert_eq!(
            snake_case("MobileGetInvoiceDetails"),
            "mobile_get_invoice_details"
        );
        assert_eq!(snake_case("HTTPGetX"), "http_get_x");
        assert_eq!(snake_case("Op2Go"), "op2_go");
        assert_eq!(snake_case("accountnumber"), "accountnumber");
        assert_eq!(snake_case("account-name.x"), "account_name_x");
    }

    /// XmlSerializer's array names: after the item type, numbered where taken, in the order
    /// .NET meets them (parameters, then the result; members depth first; items first).
    #[test]
    fn arrays_are_named_as_xml_serializer_names_them() {
        let spec = crate::spec::parse(
            "service: {name: Svc, namespace: urn:s, path: /s.asmx}
types:
  - name: Bag
    members:
      - Scores: int?[]
      - Matrix: int[][]
      - Int: Int[]
  - name: Int
    members: []
  - name: ArrayOfString
    members: []
operations:
  - name: Op
    doc: One.
    params:
      - bag: Bag
      - names: string[]
    result: Int[][]
    bindings: [soap11]
",
            "s.yaml",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let model = Model::from_spec(&spec, "s.yaml").unwrap();
        let names: Vec<(String, &str, &str)> = model
            .arrays
            .iter()
            .enumerate()
            .map(|(i, a)| {
                (
                    spec.type_name(SoapType::Array(i as u16)),
                    a.name.as_str(),
                    a.item_name.as_str(),
                )
            })
            .collect();
        let want = [
            ("int?[]", "ArrayOfInt", "int"),
            ("int[]", "ArrayOfInt1", "int"),
            ("int[][]", "ArrayOfArrayOfInt1", "ArrayOfInt1"),
            ("Int[]", "ArrayOfInt2", "Int"),
            ("Int[][]", "ArrayOfArrayOfInt2", "ArrayOfInt2"),
            ("string[]", "ArrayOfString1", "string"),
        ];
        let got: Vec<(&str, &str, &str)> =
            names.iter().map(|(t, n, i)| (t.as_str(), *n, *i)).collect();
        assert_eq!(got, want);
    }

    /// The former bad specs of the model: each collision is numbered instead of refused.
    #[test]
    fn colliding_names_are_numbered_not_refused() {
        let spec = crate::spec::parse(
            "service: {name: S, namespace: urn:s, path: /s.asmx}
operations:
  - name: Self
    doc: A keyword.
    params: [{reader: string}, {account-name: string}, {account_name: string}]
    result: string
  - name: Mobile-Account-Search
    doc: Not a Rust name.
    params: []
    result: string
  - name: Get
    doc: Get.
    params: []
    result: string
  - name: GetResponse
    doc: The name of Get's response.
    params: []
    result: string
  - name: getItem
    doc: One.
    params: []
    result: string
  - name: GetItem
    doc: Two.
    params: []
    result: string
",
            "s.yaml",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let model = Model::from_spec(&spec, "s.yaml").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(model.service.trait_name, "S2");
        assert_eq!(model.service.server_type, "S2Server");
        assert_eq!(model.service.client_type, "S2Client");
        let ops: Vec<(&str, &str, &str)> = model
            .operations
            .iter()
            .map(|op| {
                (
                    op.rust_name.as_str(),
                    op.response_type.as_str(),
                    op.snake.as_str(),
                )
            })
            .collect();
        assert_eq!(
            ops,
            [
                ("Self2", "Self2Response", "self_2"),
                (
                    "MobileAccountSearch",
                    "MobileAccountSearchResponse",
                    "mobile_account_search"
                ),
                ("Get", "GetResponse2", "get"),
                ("GetResponse", "GetResponseResponse", "get_response"),
                ("GetItem", "GetItemResponse", "get_item"),
                ("GetItem2", "GetItem2Response", "get_item_2"),
            ]
        );
        let fields: Vec<&str> = model.operations[0]
            .params
            .iter()
            .map(|p| p.field.as_str())
            .collect();
        assert_eq!(fields, ["reader_2", "account_name", "account_name_2"]);
    }

    /// An array result's streaming twin is `{method}_items`, numbered apart from an operation
    /// of that name; a result that cannot stream (out parameters, a class, RPC/encoded) has
    /// none.
    #[test]
    fn streaming_twins_are_named_apart_and_only_where_items_stream() {
        let operations = "
operations:
  - name: Tags
    doc: Tags.
    params: []
    result: string[]
  - name: TagsItems
    doc: Named like the twin.
    params: []
    result: int[]
  - name: Split
    doc: An out parameter.
    params: []
    out: [{rest: string}]
    result: string[]
    bindings: [soap11, soap12]
  - name: One
    doc: Not an array.
    params: []
    result: string
";
        let literal = format!("service: {{name: S, namespace: urn:s, path: /s.asmx}}{operations}");
        let encoded = format!(
            "service: {{name: S, namespace: urn:s, path: /s.asmx, style: rpc}}{operations}"
        );
        let twins = |source: &str| -> Vec<Option<String>> {
            let spec = crate::spec::parse(source, "s.yaml").unwrap_or_else(|e| panic!("{e}"));
            let model = Model::from_spec(&spec, "s.yaml").unwrap_or_else(|e| panic!("{e}"));
            model
                .operations
                .iter()
                .map(|op| op.items_method.clone())
                .collect()
        };
        assert_eq!(
            twins(&literal),
            [
                Some("tags_items_2".to_owned()),
                Some("tags_items_items".to_owned()),
                None,
                None
            ]
        );
        assert_eq!(twins(&encoded), [None, None, None, None]);
    }

    #[test]
    fn escapes_are_decoded_for_rust_names_only() {
        assert_eq!(decode_xml_name("WSF_x0020_Schedule"), "WSF Schedule");
        assert_eq!(decode_xml_name("a_x002D_b_xZZ_"), "a-b_xZZ_");
        assert_eq!(upper_camel("WSF_x0020_Schedule"), "WSFSchedule");
        assert_eq!(upper_camel("temp"), "Temp");
        assert_eq!(upper_camel("Line_x0020_Item"), "LineItem");
        assert_eq!(snake_case("WSF_x0020_Schedule"), "wsf_schedule");
        assert_eq!(variant_name("ALL").as_deref(), Some("ALL"));
        assert_eq!(variant_name("Self").as_deref(), Some("Self"));
        assert_eq!(variant_name("-"), None);
    }

    #[test]
    fn field_names_escape_keywords() {
        assert_eq!(field_name("type"), "r#type");
        assert_eq!(field_name("primary"), "primary");
        assert_eq!(field_name("self"), "self_");
        assert_eq!(field_name("Match"), "r#match");
    }
}
