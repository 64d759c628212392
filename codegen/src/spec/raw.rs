//! The spec as serde reads it, before validation: names and type names are still plain text.
//!
//! Every map denies unknown fields, so a typo (`parms:`, `namespce:`) fails in serde_yaml with
//! its line and column and the unknown key named.

use std::fmt;

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::Deserialize;

/// The whole file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSpec {
    pub service: RawService,
    #[serde(default)]
    pub credentials: Vec<Word>,
    #[serde(default)]
    pub optional_credentials: Vec<Word>,
    #[serde(default)]
    pub secrets: Vec<Word>,
    #[serde(default)]
    pub enums: Vec<RawEnum>,
    #[serde(default)]
    pub types: Vec<RawClass>,
    #[serde(default)]
    pub data_sets: Vec<RawDataSet>,
    pub operations: Vec<RawOperation>,
}

impl RawSpec {
    /// Whether some class of `types:` derives from the class `name` (`base: name`).
    pub(super) fn has_derived(&self, name: &str) -> bool {
        self.types
            .iter()
            .any(|t| t.base.as_ref().is_some_and(|b| b.0 == name))
    }
}

/// One typed DataSet: `- name: ShopDs`, its `namespace:`, an optional `locale:` and `doc`,
/// and its `tables:`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawDataSet {
    pub name: Word,
    #[serde(default)]
    pub doc: Option<String>,
    /// `DataSet.Namespace`: the schema's target namespace.
    pub namespace: String,
    /// The culture's name (`msdata:Locale`, empty for the invariant culture); the current
    /// culture (`msdata:UseCurrentLocale`) when absent.
    #[serde(default)]
    pub locale: Option<String>,
    pub tables: Vec<RawTable>,
}

/// One table of a typed DataSet: `- name: Orders` and its `columns:`, each written as a
/// parameter is (`- Id: int`, `- Name: string?` for one that allows nulls).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawTable {
    pub name: Word,
    pub columns: Vec<RawParam>,
}

/// One class: `- name: Order`, an optional `doc`, `base:` and `abstract:`, and its `members:`
/// in wire order (its own, after its base's), each written as a parameter is (`- Id: int`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawClass {
    pub name: Word,
    #[serde(default)]
    pub doc: Option<String>,
    /// The class it derives from (`complexContent/extension`, .NET's base class, which an
    /// `[XmlInclude]` names it in).
    #[serde(default)]
    pub base: Option<Word>,
    /// An abstract class (`abstract="true"`): values are always of a derived class.
    #[serde(default, rename = "abstract")]
    pub is_abstract: bool,
    /// The element name `[XmlRoot]` gives the class where it stands alone: a parameter or
    /// result of its type, and its HTTP GET/POST result document.
    #[serde(default)]
    pub root: Option<Word>,
    /// The namespace of its type and elements when not the service's (`[XmlType(Namespace
    /// = …)]`, `[XmlRoot(Namespace = …)]`): a SOAP header class of another namespace
    /// (WS-Security's, ebXML's), and the classes it holds.
    #[serde(default)]
    pub namespace: Option<String>,
    /// Members written as attributes (`[XmlAttribute]`), before the elements.
    #[serde(default)]
    pub attributes: Vec<RawParam>,
    /// The type of its text content (`[XmlText]`), for a class of text and attributes.
    #[serde(default)]
    pub text: Option<TypeWord>,
    /// The name of its `[XmlAnyAttribute]` member: the attributes none of its own takes.
    #[serde(default)]
    pub any_attribute: Option<Word>,
    #[serde(default)]
    pub members: Vec<RawParam>,
}

/// One enum: `- name: Level`, `values: [Low, High]`, and an optional `doc`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawEnum {
    pub name: Word,
    #[serde(default)]
    pub doc: Option<String>,
    /// The namespace of its type when not the service's (`namespace:`,
    /// `[XmlType(Namespace = …)]`).
    #[serde(default)]
    pub namespace: Option<String>,
    /// A `[Flags]` enum (`xs:list`): a value is a set of flags.
    #[serde(default)]
    pub flags: bool,
    /// In a flags enum, the value that is no flag (.NET's `0`, usually `None`).
    #[serde(default)]
    pub zero: Option<Word>,
    pub values: Vec<RawEnumValue>,
}

/// One enum value: its wire name (`- High`), or its wire name and .NET member name when they
/// differ (`- very-high: VeryHigh`, an `[XmlEnum]` attribute).
#[derive(Debug)]
pub(super) struct RawEnumValue {
    pub wire: String,
    pub member: Option<String>,
}

/// The `service:` block.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawService {
    pub name: Word,
    pub namespace: String,
    pub path: String,
    /// The generated crate's package name; `rmm-` and the service name in kebab case when
    /// absent.
    #[serde(default, rename = "crate")]
    pub crate_name: Option<Word>,
    /// The service's own description (`[WebService(Description)]`), published in the WSDL.
    #[serde(default)]
    pub description: Option<String>,
    /// How the WSDL declares a DataSet: `"1.0"` (.NET's default) or `"2.0"`.
    #[serde(default)]
    pub dataset_wsdl: Option<crate::spec::DataSetWsdl>,
    /// `style: rpc` (.NET's `[SoapRpcService]`): every operation RPC/encoded.
    #[serde(default)]
    pub style: crate::spec::ServiceStyle,
    /// `script: true`, or `script: {namespace: Ns}` (.NET's `[ScriptService]`): every
    /// operation answers ASP.NET AJAX's JSON calls too.
    #[serde(default)]
    pub script: Option<RawScript>,
    /// `session: Basket`: the class of `types:` whose values a session keeps between one
    /// client's calls of the operations with `session: true`.
    #[serde(default)]
    pub session: Option<Word>,
}

/// A service's `script:`: `true` (or `false`), or a map of its settings.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(super) enum RawScript {
    /// `script: true`.
    On(bool),
    /// `script: {namespace: Rmm.Script}`.
    With(RawScriptService),
}

/// The settings of a `[ScriptService]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawScriptService {
    /// The .NET namespace of the service's classes, which `__type` hints name.
    #[serde(default)]
    pub namespace: Option<String>,
}

/// An operation's `script:` (.NET's `[ScriptMethod]`).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawScriptMethod {
    /// `get: true` (`UseHttpGet = true`): called with GET, its parameters JSON values in the
    /// query; POST otherwise.
    #[serde(default)]
    pub get: bool,
    /// `response: xml` (`ResponseFormat = ResponseFormat.Xml`): the answer is XML; `json`,
    /// the default, `{"d":…}`.
    #[serde(default)]
    pub response: ScriptResponse,
}

/// How a `[ScriptMethod]` answers (`ResponseFormat`).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum ScriptResponse {
    /// `{"d":…}`.
    #[default]
    Json,
    /// An XML document of the result (a string as it is).
    Xml,
}

/// One operation. `doc` is optional here so that a missing or empty doc is reported by the
/// validator, naming the operation; `description` is the service's own (published) text.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawOperation {
    pub name: Word,
    pub doc: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    pub params: Vec<RawParam>,
    pub result: TypeWord,
    /// The `out` and `ref` parameters, which the response carries after the result, in
    /// parameter order (a `ref` one is a parameter too).
    #[serde(default)]
    pub out: Vec<RawParam>,
    /// The SOAP headers the operation uses (`[SoapHeader]`): classes of `types:`, each a
    /// header block named after its class, `- AuthHeader` (direction `In`) or
    /// `- TraceHeader: InOut`.
    #[serde(default)]
    pub headers: Vec<RawHeader>,
    /// The bindings offered, when not all four; serde refuses an unknown name with its
    /// position and the four names.
    #[serde(default)]
    pub bindings: Option<Vec<super::BindingName>>,
    /// The .NET method's name where `[WebMethod(MessageName)]` names the operation otherwise
    /// (an overload): the WSDL's operation name, its input and output then named after it.
    #[serde(default)]
    pub method: Option<Word>,
    /// `style: bare` (`SoapParameterStyle.Bare`); `wrapped`, the default, when absent.
    #[serde(default)]
    pub style: super::ParameterStyle,
    /// The request's wrapper element where it is not the operation's name
    /// (`[SoapDocumentMethod(RequestElementName)]`).
    #[serde(default)]
    pub request_element: Option<Word>,
    /// The response's wrapper element where it is not `{name}Response`
    /// (`[SoapDocumentMethod(ResponseElementName)]`).
    #[serde(default)]
    pub response_element: Option<Word>,
    /// The result's element where it is not `{name}Result` (`[return: XmlElement(Name)]`).
    #[serde(default)]
    pub result_element: Option<Word>,
    /// The SOAPAction where it is not the service's default, `{namespace}/{name}`
    /// (`[SoapDocumentMethod(Action)]`, `[SoapRpcMethod(Action)]`).
    #[serde(default)]
    pub action: Option<String>,
    /// An rpc operation's request element's namespace where it is not the service's
    /// (`[SoapRpcMethod(RequestNamespace)]`).
    #[serde(default)]
    pub request_namespace: Option<String>,
    /// An rpc operation's response element's namespace where it is not the service's
    /// (`[SoapRpcMethod(ResponseNamespace)]`).
    #[serde(default)]
    pub response_namespace: Option<String>,
    /// How a `[ScriptService]` takes it over JSON (`[ScriptMethod]`).
    #[serde(default)]
    pub script: Option<RawScriptMethod>,
    /// `session: true` (`[WebMethod(EnableSession = true)]`): the handler gets the call's
    /// session, of the service's session class.
    #[serde(default)]
    pub session: bool,
}

impl RawOperation {
    /// The request's wrapper element: `request_element:`, else the operation's name.
    pub(super) fn request_wrapper(&self) -> &str {
        self.request_element.as_ref().map_or(&self.name.0, |w| &w.0)
    }

    /// The response's wrapper element: `response_element:`, else `{name}Response`.
    pub(super) fn response_wrapper(&self) -> String {
        self.response_element
            .as_ref()
            .map_or_else(|| format!("{}Response", self.name.0), |w| w.0.clone())
    }
}

/// One parameter, written as a single-key map: `- repnumber: int`. A class's member may also
/// be written `- Lines: {type: "OrderLine[]", item: Line}` (an array whose items are renamed,
/// `[XmlArrayItem]`) or `- Tag: {type: "string[]", unwrapped: true}` (an array without a
/// wrapper, `[XmlElement]` on an array: its items are repeated elements of the member's name),
/// or `- Item: {choice: [Circle: Circle, Label: string]}` (an `xs:choice`, .NET's
/// `[XmlElement(Name, Type)]` attributes on one `object` member).
#[derive(Debug, Default)]
pub(super) struct RawParam {
    pub name: String,
    pub ty: String,
    /// The items' element name of an array member, where it is not the item type's.
    pub item: Option<String>,
    /// An array member without a wrapper.
    pub unwrapped: bool,
    /// A value-type member that may be absent (`optional: true`: .NET's `xxxSpecified`).
    pub optional: bool,
    /// The member's default value (`default: 3`: `[DefaultValue]`), as its XML text.
    pub default: Option<String>,
    /// An array member that is a .NET `List<T>` (`list: true`).
    pub list: bool,
    /// A member of raw XML taking the elements no other member takes (`any: true`:
    /// `[XmlAnyElement]`).
    pub any: bool,
    /// A member element of no namespace (`unqualified: true`: `[XmlElement(Form =
    /// XmlSchemaForm.Unqualified)]`, `form="unqualified"`).
    pub unqualified: bool,
    /// An attribute's namespace (`namespace: "http://www.w3.org/XML/1998/namespace"`:
    /// `[XmlAttribute(Namespace = …)]`, `xml:lang`).
    pub namespace: Option<String>,
    /// An attribute of its class's namespace (`qualified: true`: `[XmlAttribute(Form =
    /// XmlSchemaForm.Qualified)]`, `form="qualified"`).
    pub qualified: bool,
    /// The XML Schema type of a string (`data_type: ID`: `[XmlAttribute(DataType = "ID")]`),
    /// one .NET reads trimmed.
    pub data_type: Option<String>,
    /// Whether it was written as a map (`{type: …}`), which only a member may be.
    pub extended: bool,
    /// A member that is an `xs:choice` (`choice:`): its alternatives, each an element name
    /// and its type (`- Circle: Circle`); `ty` is then empty.
    pub choice: Option<Vec<RawParam>>,
    /// A choice that repeats (`repeated: true`: `maxOccurs="unbounded"`, .NET's `object[]
    /// Items`).
    pub repeated: bool,
}

/// The value of a parameter or member: a type name, or a map of the type and its options.
#[derive(Debug, Default)]
pub(super) struct RawParamValue {
    ty: String,
    item: Option<String>,
    unwrapped: bool,
    optional: bool,
    default: Option<String>,
    list: bool,
    any: bool,
    unqualified: bool,
    namespace: Option<String>,
    qualified: bool,
    data_type: Option<String>,
    extended: bool,
    choice: Option<Vec<RawParam>>,
    repeated: bool,
}

/// The map form of a member's value.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMemberMap {
    /// The type; absent for a choice (which the validator checks).
    #[serde(rename = "type", default)]
    ty: Option<TypeWord>,
    #[serde(default)]
    choice: Option<Vec<RawParam>>,
    #[serde(default)]
    repeated: bool,
    #[serde(default)]
    item: Option<Word>,
    #[serde(default)]
    unwrapped: bool,
    #[serde(default)]
    optional: bool,
    #[serde(default)]
    default: Option<DefaultLiteral>,
    #[serde(default)]
    list: bool,
    #[serde(default)]
    any: bool,
    #[serde(default)]
    unqualified: bool,
    #[serde(default)]
    namespace: Option<String>,
    #[serde(default)]
    qualified: bool,
    #[serde(default)]
    data_type: Option<Word>,
}

/// A default value as its XML text: a YAML string, number or boolean (`3`, `1.5`, `true`,
/// `"en"`), checked against the member's type by the validator.
#[derive(Debug)]
struct DefaultLiteral(String);

impl<'de> Deserialize<'de> for DefaultLiteral {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct LiteralVisitor;

        impl Visitor<'_> for LiteralVisitor {
            type Value = DefaultLiteral;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a default value: a string, number or boolean")
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<DefaultLiteral, E> {
                Ok(DefaultLiteral(v.to_owned()))
            }

            fn visit_bool<E: de::Error>(self, v: bool) -> Result<DefaultLiteral, E> {
                Ok(DefaultLiteral(v.to_string()))
            }

            fn visit_i64<E: de::Error>(self, v: i64) -> Result<DefaultLiteral, E> {
                Ok(DefaultLiteral(v.to_string()))
            }

            fn visit_u64<E: de::Error>(self, v: u64) -> Result<DefaultLiteral, E> {
                Ok(DefaultLiteral(v.to_string()))
            }

            fn visit_f64<E: de::Error>(self, v: f64) -> Result<DefaultLiteral, E> {
                Ok(DefaultLiteral(v.to_string()))
            }
        }

        d.deserialize_any(LiteralVisitor)
    }
}

impl<'de> Deserialize<'de> for RawParamValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct ValueVisitor;

        impl<'de> Visitor<'de> for ValueVisitor {
            type Value = RawParamValue;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a type name (string, int, double, …), or a map {type: …, item: …, unwrapped: …, optional: …, default: …, list: …, any: …, unqualified: …, namespace: …, qualified: …, data_type: …} or {choice: […], repeated: …}")
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<RawParamValue, E> {
                Ok(RawParamValue {
                    ty: v.to_owned(),
                    ..RawParamValue::default()
                })
            }

            fn visit_unit<E: de::Error>(self) -> Result<RawParamValue, E> {
                Err(E::custom(
                    "expected a type name (string, int, double, …), found no value",
                ))
            }

            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<RawParamValue, A::Error> {
                let m = RawMemberMap::deserialize(de::value::MapAccessDeserializer::new(map))?;
                Ok(RawParamValue {
                    ty: m.ty.map(|t| t.0).unwrap_or_default(),
                    choice: m.choice,
                    repeated: m.repeated,
                    item: m.item.map(|w| w.0),
                    unwrapped: m.unwrapped,
                    optional: m.optional,
                    default: m.default.map(|d| d.0),
                    list: m.list,
                    any: m.any,
                    unqualified: m.unqualified,
                    namespace: m.namespace,
                    qualified: m.qualified,
                    data_type: m.data_type.map(|w| w.0),
                    extended: true,
                })
            }
        }

        d.deserialize_any(ValueVisitor)
    }
}

/// One SOAP header of an operation: its class, and the direction .NET's
/// `SoapHeaderAttribute.Direction` gives it (`In` when written as the bare class name).
#[derive(Debug)]
pub(super) struct RawHeader {
    pub class: String,
    pub direction: super::HeaderDirection,
}

const HEADER_SHAPE: &str =
    "a SOAP header: its class's name, or a one-key map `- ClassName: In|Out|InOut`";

impl<'de> Deserialize<'de> for RawHeader {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct HeaderVisitor;

        impl<'de> Visitor<'de> for HeaderVisitor {
            type Value = RawHeader;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(HEADER_SHAPE)
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<RawHeader, E> {
                Ok(RawHeader {
                    class: v.to_owned(),
                    direction: super::HeaderDirection::In,
                })
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawHeader, A::Error> {
                let mut entries: Vec<RawHeader> = Vec::new();
                while let Some((class, direction)) =
                    map.next_entry::<Word, super::HeaderDirection>()?
                {
                    entries.push(RawHeader {
                        class: class.0,
                        direction,
                    });
                }
                match entries.pop() {
                    Some(header) if entries.is_empty() => Ok(header),
                    _ => Err(de::Error::custom(format_args!(
                        "expected {HEADER_SHAPE}, found a map with {} keys",
                        entries.len() + usize::from(!entries.is_empty()),
                    ))),
                }
            }
        }

        d.deserialize_any(HeaderVisitor)
    }
}

/// A name: a YAML string. A number, boolean or null where a name belongs is an error.
#[derive(Debug)]
pub(super) struct Word(pub String);

/// A type name (`int`, `string`, …): a YAML string, checked by the validator.
#[derive(Debug)]
pub(super) struct TypeWord(pub String);

/// Accepts a string scalar only; says `what` was expected otherwise.
struct StrVisitor(&'static str);

impl Visitor<'_> for StrVisitor {
    type Value = String;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.0)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<String, E> {
        Ok(v.to_owned())
    }

    fn visit_unit<E: de::Error>(self) -> Result<String, E> {
        Err(E::custom(format_args!(
            "expected {}, found no value",
            self.0
        )))
    }
}

impl<'de> Deserialize<'de> for Word {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(StrVisitor("a name")).map(Word)
    }
}

impl<'de> Deserialize<'de> for TypeWord {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(StrVisitor("a type name (string, int, double, …)"))
            .map(TypeWord)
    }
}

const ENUM_VALUE_SHAPE: &str =
    "an enum value: its wire name, or a one-key map `- wire-name: MemberName`";

impl<'de> Deserialize<'de> for RawEnumValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct ValueVisitor;

        impl<'de> Visitor<'de> for ValueVisitor {
            type Value = RawEnumValue;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(ENUM_VALUE_SHAPE)
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<RawEnumValue, E> {
                Ok(RawEnumValue {
                    wire: v.to_owned(),
                    member: None,
                })
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawEnumValue, A::Error> {
                let mut entries: Vec<(String, String)> = Vec::new();
                while let Some((wire, member)) = map.next_entry::<Word, Word>()? {
                    entries.push((wire.0, member.0));
                }
                match entries.pop() {
                    Some((wire, member)) if entries.is_empty() => Ok(RawEnumValue {
                        wire,
                        member: Some(member),
                    }),
                    _ => Err(de::Error::custom(format_args!(
                        "expected {ENUM_VALUE_SHAPE}, found a map with {} keys",
                        entries.len() + usize::from(!entries.is_empty()),
                    ))),
                }
            }
        }

        d.deserialize_any(ValueVisitor)
    }
}

const PARAM_SHAPE: &str = "a parameter written as a one-key map `- name: type`";

impl<'de> Deserialize<'de> for RawParam {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct ParamVisitor;

        impl<'de> Visitor<'de> for ParamVisitor {
            type Value = RawParam;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(PARAM_SHAPE)
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawParam, A::Error> {
                let mut entries: Vec<(String, RawParamValue)> = Vec::new();
                while let Some((name, value)) = map.next_entry::<Word, RawParamValue>()? {
                    entries.push((name.0, value));
                }
                match entries.len() {
                    1 => {
                        let (name, value) = entries.pop().expect("one entry");
                        Ok(RawParam {
                            name,
                            ty: value.ty,
                            item: value.item,
                            unwrapped: value.unwrapped,
                            optional: value.optional,
                            default: value.default,
                            list: value.list,
                            any: value.any,
                            unqualified: value.unqualified,
                            namespace: value.namespace,
                            qualified: value.qualified,
                            data_type: value.data_type,
                            extended: value.extended,
                            choice: value.choice,
                            repeated: value.repeated,
                        })
                    }
                    0 => Err(de::Error::custom(format_args!(
                        "expected {PARAM_SHAPE}, found an empty map"
                    ))),
                    n => {
                        let keys: Vec<String> =
                            entries.iter().map(|(k, _)| format!("\"{k}\"")).collect();
                        Err(de::Error::custom(format_args!(
                            "expected {PARAM_SHAPE}, found a map with {n} keys ({}); \
                             write each parameter as its own list entry",
                            keys.join(", ")
                        )))
                    }
                }
            }
        }

        d.deserialize_map(ParamVisitor)
    }
}

impl<'de> Deserialize<'de> for crate::spec::DataSetWsdl {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // Written as .NET's setting is (`1.0`, `2.0`), which YAML reads as a number unless
        // quoted: either is taken.
        struct Version;
        impl Visitor<'_> for Version {
            type Value = crate::spec::DataSetWsdl;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("\"1.0\" (.NET's default) or \"2.0\"")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                match v {
                    "1.0" | "1" => Ok(crate::spec::DataSetWsdl::V1),
                    "2.0" | "2" => Ok(crate::spec::DataSetWsdl::V2),
                    _ => Err(E::invalid_value(de::Unexpected::Str(v), &self)),
                }
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
                self.visit_str(&format!("{v:.1}"))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
                self.visit_str(&v.to_string())
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
                self.visit_str(&v.to_string())
            }
        }
        d.deserialize_any(Version)
    }
}
