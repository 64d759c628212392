//! The model: a validated [`Spec`] with every name and wire literal decided, once.
//!
//! Emitters read names from here and never derive one themselves, so a Rust name, a wire
//! name and a position can only ever disagree in one place.

use crate::spec::{BindingName, SoapType, Spec, SpecError, SpecErrors};

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
    /// The operations, in spec order.
    pub operations: Vec<OperationModel>,
}

/// An enum of the spec, and its Rust names.
#[derive(Debug, Clone)]
pub struct EnumModel {
    /// Its name, in the WSDL and in Rust (`Level`).
    pub name: String,
    /// Documentation, if the spec gives some.
    pub doc: Option<String>,
    /// Each value: its wire spelling and its Rust variant (`very-high`, `VeryHigh`).
    pub values: Vec<(String, String)>,
    /// Each value's .NET member name, in the same order: its spelling over HTTP GET/POST.
    pub members: Vec<String>,
    /// A `[Flags]` enum: a value is a set of its values (all but `zero`, bit `i` for the
    /// `i`th of them).
    pub flags: bool,
    /// In a flags enum, the index of the value that is no flag.
    pub zero: Option<usize>,
}

/// A class: a generated struct and its `xs:complexType`.
#[derive(Debug, Clone)]
pub struct ClassModel {
    /// Its name, in the WSDL (`xs:complexType name`) and in Rust (`Order`).
    pub name: String,
    /// Documentation, if the spec gives some.
    pub doc: Option<String>,
    /// The class it derives from (an index into [`Model::classes`]).
    pub base: Option<usize>,
    /// Whether it is abstract: no value is of it, only of classes derived from it.
    pub is_abstract: bool,
    /// The classes derived from it, directly or not, depth first in the spec's order.
    pub derived: Vec<usize>,
    /// The enum of its concrete classes where it has derived ones (`AnyShape`): the Rust
    /// type of an element declared of it, which may hold a value of any of them.
    pub any_type: Option<String>,
    /// Its members written as attributes, in declaration order (fields before the others).
    pub attributes: Vec<MemberModel>,
    /// Its text content (`[XmlText]`), a field named `text` or numbered apart.
    pub text: Option<MemberModel>,
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
        self.any_type.as_deref().unwrap_or(&self.name)
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

impl Model {
    /// The WSDL's name of a type: the simple type's, the enum's, the class's or the array's
    /// (`ArrayOfString`).
    pub fn type_name(&self, ty: SoapType) -> &str {
        match ty {
            SoapType::Enum(i) => &self.enums[usize::from(i)].name,
            SoapType::Class(i) => &self.classes[usize::from(i)].name,
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

    /// Whether a value of `ty` holds a `float` or `double` anywhere (then its Rust type cannot
    /// be `Eq`: NaN is not equal to itself).
    pub fn holds_float(&self, ty: SoapType) -> bool {
        let mut seen = vec![false; self.classes.len()];
        self.holds_float_in(ty, &mut seen)
    }

    fn holds_float_in(&self, ty: SoapType, seen: &mut Vec<bool>) -> bool {
        match ty {
            SoapType::Float | SoapType::Double => true,
            SoapType::Array(i) => self.holds_float_in(self.arrays[usize::from(i)].item, seen),
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

    /// The array `ty` is, if it is one.
    pub fn array(&self, ty: SoapType) -> Option<&ArrayModel> {
        match ty {
            SoapType::Array(i) => Some(&self.arrays[usize::from(i)]),
            _ => None,
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
                        .map(|m| match m.ty {
                            SoapType::Array(a) if m.unwrapped => {
                                self.spec.arrays[usize::from(a)].item
                            }
                            ty => ty,
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

/// The members a class inherits, its farthest base's first.
fn inherited_members(spec: &Spec, class: usize) -> Vec<&crate::spec::Param> {
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
    chain
        .iter()
        .rev()
        .flat_map(|&b| &spec.classes[b].members)
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
            if let SoapType::Class(b) = m.ty {
                reach[a][usize::from(b)] = true;
                for d in descendants(spec, usize::from(b)) {
                    reach[a][d] = true;
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
    /// The server type (`MobileServiceServer`); the service trait takes [`Self::name`].
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
    /// `<{wire} xmlns="{namespace}">`; empty for a bare operation.
    pub request_open: String,
    /// `</{wire}>`; empty for a bare operation.
    pub request_close: String,
    /// `style: bare`: over SOAP each parameter is an element of the Body, and the result
    /// `<{wire}Result>` is one too; no wrapper either way.
    pub bare: bool,
    /// The Body's element that routes a request without an action here: `wire`, or a bare
    /// operation's first parameter (`""` without one).
    pub request_element: String,
    /// `{wire}Response`.
    pub response_name: String,
    /// `<{wire}Response xmlns="{namespace}">`.
    pub response_open: String,
    /// `</{wire}Response>`.
    pub response_close: String,
    /// `{wire}Result`.
    pub result_name: String,
    /// The result's SOAP type.
    pub result: SoapType,
    /// Whether the result may be null (`int?`).
    pub result_nullable: bool,
    /// The `out` and `ref` parameters: response elements after the result, in parameter
    /// order, and the response type's fields after `result`.
    pub outs: Vec<MemberModel>,
    /// The bindings it is offered on, in the spec's order of the four.
    pub bindings: Vec<BindingName>,
}

impl OperationModel {
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

/// The Rust variant name of an enum's wire value: its alphanumeric runs, each capitalised
/// (`very-high` is `VeryHigh`, `low` is `Low`); `V` before one starting with a digit (`2x` is
/// `V2x`). `None` when that leaves no name, or `Self`.
pub fn variant_name(value: &str) -> Option<String> {
    let mut name = String::new();
    for part in value.split(|c: char| !c.is_alphanumeric()) {
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            name.extend(first.to_uppercase());
            name.push_str(chars.as_str());
        }
    }
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        name.insert(0, 'V');
    }
    (!name.is_empty() && name != "Self").then_some(name)
}

/// Rust keywords that a raw identifier (`r#…`) can escape.
const RAW_KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "else", "enum", "extern", "false", "fn", "for", "if",
    "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "static",
    "struct", "trait", "true", "type", "unsafe", "use", "where", "while", "async", "await", "dyn",
    "abstract", "become", "box", "do", "final", "macro", "override", "priv", "typeof", "unsized",
    "virtual", "yield", "try", "gen",
];
/// Type names the generated code defines or imports (its own items, the runtime's, std's
/// prelude and the generic parameters of the server and client): no spec item may take one.
const RESERVED_TYPES: &[&str] = &[
    "Credentials",
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
    "BlockingRuntime",
    "Transport",
    "TransportError",
    "ParamValue",
    "Route",
    "ServerConfig",
    "OperationRequest",
    "OperationResponse",
    "Request",
    "Response",
    "Bytes",
    "Body",
    "Full",
    "TcpListener",
    "Arc",
    "Duration",
    "Infallible",
    "Future",
    "Pin",
    "Context",
    "Poll",
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

/// Local variables of the generated decoders; a parameter's field may not be one.
const DECODER_LOCALS: &[&str] = &["binding", "body", "reader", "param", "request", "form"];

/// Keywords that cannot be raw identifiers: these get a trailing underscore.
const RESERVED: &[&str] = &["self", "Self", "super", "crate", "_"];

/// A name in upper camel case, as Rust names types: each run between `_`, `-` and `.`
/// starts with a capital (`Test_Cookie` → `TestCookie`, `getRates` → `GetRates`); a name
/// already in upper camel case is kept.
pub fn upper_camel(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for part in name.split(['_', '-', '.']) {
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            out.extend(first.to_uppercase());
            out.push_str(chars.as_str());
        }
    }
    if out.is_empty() {
        name.to_owned()
    } else {
        out
    }
}

/// `MobileTaskCreate` → `mobile_task_create`; `HTTPGetX` → `http_get_x`; already snake
/// names (and `-`/`.` separated ones) come out with `_`.
pub fn snake_case(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::with_capacity(name.len() + 4);
    for (i, &c) in chars.iter().enumerate() {
        if c == '-' || c == '.' {
            out.push('_');
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

/// The Rust field name of a wire name: snake_case, escaped if it is a keyword.
pub fn field_name(wire: &str) -> String {
    let snake = snake_case(wire);
    if RAW_KEYWORDS.contains(&snake.as_str()) {
        format!("r#{snake}")
    } else if RESERVED.contains(&snake.as_str()) {
        format!("{snake}_")
    } else {
        snake
    }
}

impl Model {
    /// Decides every name. `spec` must have passed validation; what can still fail here is
    /// a collision between two names that only meet in Rust (`account-name` and
    /// `account_name` both become `account_name`).
    pub fn from_spec(spec: &Spec, file: &str) -> Result<Model, SpecErrors> {
        let ns = &spec.service.namespace;
        let mut errors = Vec::new();
        let credentials: Vec<CredentialModel> = spec
            .credentials
            .iter()
            .map(|c| (c, true))
            .chain(spec.optional_credentials.iter().map(|c| (c, false)))
            .map(|(wire, required)| {
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
                    field: field_name(wire),
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
                let params: Vec<ParamModel> = op
                    .params
                    .iter()
                    .enumerate()
                    .map(|(j, p)| ParamModel {
                        wire: p.name.clone(),
                        field: field_name(&p.name),
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
                        nil_tag: if bare {
                            format!("<{} xsi:nil=\"true\" xmlns=\"{ns}\" />", p.name)
                        } else {
                            format!("<{} xsi:nil=\"true\" />", p.name)
                        },
                    })
                    .collect();
                let mut fields: Vec<(&str, &str)> =
                    params.iter().map(|p| (p.field.as_str(), p.wire.as_str())).collect();
                fields.sort();
                for pair in fields.windows(2) {
                    if pair[0].0 == pair[1].0 {
                        errors.push(SpecError {
                            file: file.to_owned(),
                            line: None,
                            column: None,
                            message: format!(
                                "operation \"{}\": parameters \"{}\" and \"{}\" both become the Rust field `{}`; rename one",
                                op.name, pair[0].1, pair[1].1, pair[0].0
                            ),
                        });
                    }
                }
                let wire = &op.name;
                // ASMX's default action (SoapReflector.GetDefaultAction): the namespace and the
                // name, with a '/' between them unless the namespace ends with one
                // (`http://tempuri.org/` gives `http://tempuri.org/HelloWorld`).
                let action = if ns.ends_with('/') {
                    format!("{ns}{wire}")
                } else {
                    format!("{ns}/{wire}")
                };
                OperationModel {
                    number: i + 1,
                    wire: wire.clone(),
                    rust_name: upper_camel(wire),
                    response_type: format!("{}Response", upper_camel(wire)),
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
                        format!("<{wire} xmlns=\"{ns}\">")
                    },
                    request_close: if bare {
                        String::new()
                    } else {
                        format!("</{wire}>")
                    },
                    bare,
                    request_element: if bare {
                        op.params.first().map_or_else(String::new, |p| p.name.clone())
                    } else {
                        wire.clone()
                    },
                    response_name: format!("{wire}Response"),
                    response_open: format!("<{wire}Response xmlns=\"{ns}\">"),
                    response_close: format!("</{wire}Response>"),
                    result_name: format!("{wire}Result"),
                    result: op.result,
                    result_nullable: op.result_nullable,
                    outs: {
                        let mut taken = vec!["result".to_owned()];
                        op.outs
                            .iter()
                            .map(|o| {
                                let base = field_name(&o.name);
                                let mut field = base.clone();
                                let mut n = 2;
                                while taken.contains(&field) {
                                    field = format!("{}_{n}", base.trim_start_matches("r#"));
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
                                }
                            })
                            .collect()
                    },
                    bindings: op.bindings.clone(),
                }
            })
            .collect::<Vec<_>>();

        let error = |message: String| SpecError {
            file: file.to_owned(),
            line: None,
            column: None,
            message,
        };
        // Every type name the generated crate defines, with who defines it.
        let service_name = &spec.service.name;
        let (server_type, client_type, blocking_client_type) = (
            format!("{service_name}Server"),
            format!("{service_name}Client"),
            format!("{service_name}BlockingClient"),
        );
        let mut types: Vec<(String, String)> = [
            service_name,
            &server_type,
            &client_type,
            &blocking_client_type,
        ]
        .into_iter()
        .map(|name| (name.clone(), format!("service \"{service_name}\"")))
        .collect();
        for e in &spec.enums {
            types.push((e.name.clone(), format!("enum \"{}\"", e.name)));
        }
        for c in &spec.classes {
            types.push((c.name.clone(), format!("type \"{}\"", c.name)));
            if spec.classes.iter().any(|d| {
                d.base
                    .is_some_and(|b| spec.classes[usize::from(b)].name == c.name)
            }) {
                types.push((
                    format!("Any{}", c.name),
                    format!("type \"{}\" (its enum of derived classes)", c.name),
                ));
            }
        }
        for op in &operations {
            types.push((op.rust_name.clone(), format!("operation \"{}\"", op.wire)));
            types.push((
                op.response_type.clone(),
                format!("operation \"{}\"", op.wire),
            ));
        }
        for (name, owner) in &types {
            if RESERVED_TYPES.contains(&name.as_str()) {
                errors.push(error(format!(
                    "{owner} would define the type `{name}`, a name the generated code already uses; rename it"
                )));
            }
        }
        types.sort();
        for pair in types.windows(2) {
            if pair[0].0 == pair[1].0 && pair[0].1 != pair[1].1 {
                errors.push(error(format!(
                    "{} and {} both define the type `{}`; rename one",
                    pair[0].1, pair[1].1, pair[0].0
                )));
            }
        }
        // Module and method names: one per operation, never a keyword.
        let mut snakes: Vec<(&str, &str)> = operations
            .iter()
            .map(|op| (op.snake.as_str(), op.wire.as_str()))
            .collect();
        for (snake, wire) in &snakes {
            if RAW_KEYWORDS.contains(snake) || RESERVED.contains(snake) {
                errors.push(error(format!(
                    "operation \"{wire}\" gives the module and method name `{snake}`, a Rust keyword; rename the operation"
                )));
            }
        }
        snakes.sort();
        for pair in snakes.windows(2) {
            if pair[0].0 == pair[1].0 {
                errors.push(error(format!(
                    "operations \"{}\" and \"{}\" both give the module and method name `{}`; rename one",
                    pair[0].1, pair[1].1, pair[0].0
                )));
            }
        }
        // Parameter fields become local variables of the decoders, beside these.
        for op in &operations {
            for p in &op.params {
                if DECODER_LOCALS.contains(&p.field.as_str()) {
                    errors.push(error(format!(
                        "parameter \"{}\" of operation \"{}\" has the Rust name `{}`, which the generated decoders use for their own variables; rename it",
                        p.wire, op.wire, p.field
                    )));
                }
            }
        }
        if !errors.is_empty() {
            return Err(SpecErrors(errors));
        }
        let classes = class_models(spec);
        let arrays = array_models(spec);
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
                server_type,
                client_type,
                blocking_client_type,
                crate_name: service.crate_name.clone(),
                crate_ident: service.crate_name.replace('-', "_"),
                description: service.description.clone(),
            },
            credentials,
            enums: spec
                .enums
                .iter()
                .map(|e| EnumModel {
                    name: e.name.clone(),
                    doc: e.doc.clone(),
                    values: e
                        .values
                        .iter()
                        .map(|v| {
                            let variant = variant_name(v).expect("validated enum value");
                            (v.clone(), variant)
                        })
                        .collect(),
                    members: e.members.clone(),
                    flags: e.flags,
                    zero: e.zero,
                })
                .collect(),
            classes,
            arrays,
            operations,
        })
    }
}

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
            let mut taken: Vec<String> = Vec::new();
            let name_field = |wire: &str, taken: &mut Vec<String>| {
                let base = field_name(wire);
                let mut field = base.clone();
                let mut n = 2;
                while taken.contains(&field) {
                    field = format!("{}_{n}", base.trim_start_matches("r#"));
                    n += 1;
                }
                taken.push(field.clone());
                field
            };
            let attributes: Vec<MemberModel> = class
                .attributes
                .iter()
                .map(|m| MemberModel {
                    wire: m.name.clone(),
                    field: name_field(&m.name, &mut taken),
                    ty: m.ty,
                    nullable: false,
                    boxed: false,
                    unwrapped: false,
                    optional: false,
                    default: None,
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
                        field = format!("{}_{n}", base.trim_start_matches("r#"));
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
                    }
                })
                .collect::<Vec<_>>();
            let members = fields.split_off(inherited.len());
            let derived = descendants(spec, a);
            ClassModel {
                name: class.name.clone(),
                doc: class.doc.clone(),
                base: class.base.map(usize::from),
                is_abstract: class.is_abstract,
                attributes,
                text,
                any_type: (!derived.is_empty()).then(|| format!("Any{}", class.name)),
                derived,
                inherited: fields,
                members,
            }
        })
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

    #[test]
    fn field_names_escape_keywords() {
        assert_eq!(field_name("type"), "r#type");
        assert_eq!(field_name("primary"), "primary");
        assert_eq!(field_name("self"), "self_");
        assert_eq!(field_name("Match"), "r#match");
    }
}
