//! The errors of the wire layer, one type per direction:
//! [`EncodeError`] (we cannot put a value on the wire), [`RequestError`] (a server could not
//! read a request), [`ResponseError`] (a client got something other than a result).

use crate::{Binding, Fault, SoapType};

/// Why a value could not be read as its SOAP type. The message is a sentence fragment that
/// [`RequestError::InvalidValue`] completes with the parameter's name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ValueError {
    /// Nothing but whitespace where a number or boolean was expected.
    #[error("it is empty")]
    Empty,
    /// Not an optionally signed run of decimal digits.
    #[error("it is not an integer")]
    NotInteger,
    /// A number outside the range of its type (an integer's, or a `float`'s or `double`'s
    /// largest magnitude: .NET throws `OverflowException` rather than read infinity).
    #[error("it is outside the range of {} ({})", ty.with_article(), ty.range_text())]
    OutOfRange {
        /// The integer type.
        ty: SoapType,
    },
    /// A sign before an unsigned type's digits, where the binding refuses one (SOAP's
    /// `XmlConvert` does, even for `+5` and `-0`).
    #[error("it has a sign, which {} does not take here", ty.with_article())]
    Signed {
        /// The unsigned type.
        ty: SoapType,
    },
    /// Not one of the boolean spellings the binding accepts.
    #[error("it is not a boolean (accepted here: {accepted})")]
    NotBoolean {
        /// The spellings the binding accepts, for the message.
        accepted: &'static str,
    },
    /// Not a `float` or `double`: no number, nor `INF`, `-INF` (SOAP), `Infinity`,
    /// `-Infinity` or `NaN`.
    #[error("it is not a number")]
    NotNumber,
    /// A `char` that is a UTF-16 surrogate (`55296` to `57343`): .NET holds one, a Rust
    /// `char` cannot.
    #[error("it is the UTF-16 surrogate {0}, which no Rust char holds")]
    Surrogate(u16),
    /// Over HTTP GET/POST, a `char` must be exactly one UTF-16 unit (`Convert.ToChar`).
    #[error("it is not exactly one character (of the Basic Multilingual Plane)")]
    NotOneChar,
    /// Not a GUID in any of the forms .NET's `Guid` constructor reads.
    #[error("it is not a GUID (32 hex digits, hyphenated as 8-4-4-4-12, optionally in braces or parentheses)")]
    NotGuid,
    /// Not a `dateTime` in the XML Schema form (`2026-01-01T00:00:00`, with up to seven
    /// fraction digits and `Z` or `±hh:mm`), nor a date alone.
    #[error("it is not a dateTime (yyyy-MM-ddTHH:mm:ss, up to seven fraction digits, then Z, ±hh:mm or nothing)")]
    NotDateTime,
    /// Not a `date` as ASMX reads one: `yyyy-MM-dd`, `yyyy-MM` or `yyyy`, the first two with
    /// `Z` or `±hh:mm`.
    #[error("it is not a date (yyyy-MM-dd, then Z, ±hh:mm or nothing; or yyyy-MM, or yyyy)")]
    NotDate,
    /// Not base64: a character out of its alphabet, or text after the padding.
    #[error("it is not base64")]
    NotBase64,
    /// A type HTTP GET/POST cannot carry (ASMX leaves such operations out there).
    #[error("HTTP GET/POST cannot carry {0}")]
    NotOverHttp(&'static str),
    /// Not one of an enum's values (as the wire spells them; case matters).
    #[error("it is not one of {}", values.join(", "))]
    NotEnumValue {
        /// The values, as the wire spells them.
        values: &'static [&'static str],
    },
    /// Not a decimal number.
    #[error("it is not a decimal number")]
    NotDecimal,
    /// A comma: ASMX reads `1,5` over HTTP GET/POST as 15, so we refuse it everywhere.
    #[error(
        "it contains a comma; only '.' is a decimal point and thousands separators are refused"
    )]
    DecimalComma,
    /// An exponent (`1E2`): not xsd:decimal, and ASMX refuses it too.
    #[error("it has an exponent, which a decimal does not allow")]
    DecimalExponent,
    /// More significant digits than a 96-bit decimal holds.
    #[error("it has more digits than a decimal can hold")]
    DecimalPrecision,
}

/// A value that cannot be written on the chosen binding.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EncodeError {
    /// An absent (`None`) string: only SOAP can leave an element out; HTTP GET/POST send every
    /// parameter, and sending `""` instead would silently change the value.
    #[error("parameter {param} of {operation} is absent (None), which {binding} cannot express: it sends every parameter; pass Some(\"\") to send an empty string")]
    AbsentOverHttp {
        /// Operation name.
        operation: &'static str,
        /// Wire name of the parameter.
        param: &'static str,
        /// The binding that cannot carry it.
        binding: Binding,
    },
    /// A call over a binding the operation is not offered on: ASMX leaves HTTP GET and POST
    /// out for an operation whose types they cannot carry, and the host would not find it.
    #[error("{operation} is not offered over {binding}: the service's WSDL leaves it out there")]
    NotOffered {
        /// Operation name.
        operation: &'static str,
        /// The binding asked for.
        binding: Binding,
    },
    /// A JSON call of an operation that answers in XML (`ResponseFormat.Xml`), which the
    /// generated client does not read yet.
    #[error("{operation} answers JSON calls in XML (ResponseFormat.Xml), which rmm's client does not read yet: call it over SOAP")]
    XmlAnswer {
        /// Operation name.
        operation: &'static str,
    },
    /// An empty array (a `byte[]`, or an array of simple values) over HTTP GET/POST, which send
    /// each item as a pair: no pair at all is a missing parameter there.
    #[error("parameter {param} of {operation} is an empty {array}, which {binding} cannot express: it sends each {item} as a pair of its own")]
    EmptyArrayOverHttp {
        /// Operation name.
        operation: &'static str,
        /// Wire name of the parameter.
        param: &'static str,
        /// What the parameter is: `byte array` (`base64Binary`) or `array`.
        array: &'static str,
        /// What each pair holds: `byte` or `item`.
        item: &'static str,
        /// The binding that cannot carry it.
        binding: Binding,
    },
    /// A `char` outside the Basic Multilingual Plane: a .NET `char` is one UTF-16 unit.
    #[error("{field} of {operation} is {value:?}, which is two UTF-16 units; a .NET char is one")]
    NotOneUnit {
        /// Operation name.
        operation: &'static str,
        /// Wire name of the parameter, or of the result element.
        field: &'static str,
        /// The char.
        value: char,
    },
    /// A `dateTime` .NET cannot hold: a year outside 1 to 9999, or a fraction finer than its
    /// 100 ns.
    #[error("{field} of {operation} is {value}, which a .NET DateTime cannot hold (years 1 to 9999, to 100 ns)")]
    NotDotnetDateTime {
        /// Operation name.
        operation: &'static str,
        /// Wire name of the parameter, or of the result element.
        field: &'static str,
        /// The reading, as chrono prints it.
        value: String,
    },
    /// A character XML 1.0 cannot carry (a C0 control other than tab, LF and CR).
    #[error(
        "{field} of {operation} contains the character U+{code:04X}, which XML 1.0 cannot carry"
    )]
    InvalidXmlChar {
        /// Operation name.
        operation: &'static str,
        /// Wire name of the parameter, or of the result element.
        field: &'static str,
        /// The offending code point.
        code: u32,
    },
    /// A `DataTable` without a name, which .NET cannot write (the host's own words).
    #[error("There was an error generating the XML document. ---> Cannot serialize the DataTable. DataTable name is not set.")]
    UnnamedDataTable {
        /// Operation name.
        operation: &'static str,
        /// Wire name of the parameter, or of the result element.
        field: &'static str,
    },
}

/// Why a server could not read a request as the operation it was routed to.
///
/// [`RequestError::is_malformed`] tells the errors an ASMX host answers with `400` and an
/// empty body from those it answers with a client fault.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RequestError {
    /// The body is not well-formed XML (truncated, mismatched tags, not XML, empty).
    #[error("The request body is not well-formed XML: {reason}.")]
    MalformedXml {
        /// What the XML reader reported, with its byte position.
        reason: String,
    },
    /// A document type declaration. Refused before anything in it is read, so no entity is
    /// ever expanded or fetched.
    #[error(
        "The request body contains a document type declaration (DOCTYPE), which is not allowed."
    )]
    Doctype,
    /// Well-formed XML that is not a SOAP envelope of the expected version with one body
    /// element.
    #[error("The request is not a {binding} envelope: {reason}.")]
    NotAnEnvelope {
        /// The binding that was expected.
        binding: Binding,
        /// What was found instead.
        reason: String,
    },
    /// A header block marked `mustUnderstand` that this service does not understand.
    #[error("The SOAP header {header} is marked mustUnderstand and this service does not understand it.")]
    MustUnderstand {
        /// The header's `{namespace}local` name.
        header: String,
    },
    /// A header block's `mustUnderstand` or `relay` that is none of `0`, `1`, `false` and
    /// `true` (exactly: .NET's `SoapHeader` trims nothing).
    #[error("'{value}' is not a valid value for the field {field}. Valid values are '0', '1', 'true', and 'false'.")]
    InvalidHeaderAttribute {
        /// `SoapHeader`'s field: `EncodedMustUnderstand` or `EncodedRelay`.
        field: &'static str,
        /// The value sent.
        value: String,
    },
    /// Text where a parameter of raw XML (`XmlElement`) holds its element: .NET cannot make
    /// an element of it, and refuses the request.
    #[error("Parameter {param} of {operation} holds text where an XML element belongs (an XmlElement parameter): Specified cast is not valid.")]
    NotAnElement {
        /// Operation name.
        operation: &'static str,
        /// Wire name of the parameter.
        param: &'static str,
    },
    /// A DataSet parameter .NET cannot read (a bad cell, a bad row order), or one it would
    /// read losing data without a word (a row of an undeclared table, a cell twice), or one
    /// holding what rmm does not model yet (constraints, relations, column facets).
    #[error("Parameter {param} of {operation} is not a DataSet rmm reads whole: {error}")]
    InvalidDataSet {
        /// Operation name.
        operation: &'static str,
        /// Wire name of the parameter.
        param: &'static str,
        /// What was wrong.
        error: crate::dataset::DataSetError,
    },
    /// A JSON call ([`Binding::Json`]) that cannot be read: its JSON, a parameter's value,
    /// a missing parameter, the wrong verb.
    #[error("{0}")]
    Json(crate::json::JsonError),
    /// An encoded (`[SoapRpcMethod]`) request whose values cannot be read.
    #[error("The request of {operation} cannot be read: {error}.")]
    Encoded {
        /// Operation name.
        operation: &'static str,
        /// Why.
        error: crate::encoded::EncodedError,
    },
    /// The body element is not the operation this request was routed to.
    #[error("The body element {found} is not the operation's element {expected} in namespace {namespace}.")]
    WrongOperation {
        /// The element of the operation the request was routed to: its name, or its renamed
        /// wrapper's (`RequestElementName`).
        expected: &'static str,
        /// The namespace the operation element must be in.
        namespace: &'static str,
        /// `{namespace}local` of what the body held.
        found: String,
    },
    /// A bare operation's Body whose first element is none of its parameters (another
    /// operation's element, say). ASMX reads the parameters as absent; we refuse instead.
    #[error("The body element {found} is not a parameter of the operation {operation}, whose parameters are the Body's elements (SoapParameterStyle.Bare).")]
    NotAParameter {
        /// The operation the request was routed to.
        operation: &'static str,
        /// `{namespace}local` of what the Body held first.
        found: String,
    },
    /// A child of the operation element outside the service namespace. ASMX silently reads
    /// such parameters as absent (0, false, null); we refuse instead.
    #[error("The element {found} in {operation} is not in the service namespace {namespace}; parameters must be qualified.")]
    UnqualifiedParameter {
        /// Operation name.
        operation: &'static str,
        /// The service namespace.
        namespace: &'static str,
        /// `{namespace}local` of the element.
        found: String,
    },
    /// `xsi:nil="true"` on a parameter. The service's schema declares no parameter nillable
    /// (ASMX would read a nil string as `""` and fault on a nil int or boolean).
    #[error("Parameter {param} of {operation} is marked xsi:nil, but no parameter of this service is nillable; leave the element out instead.")]
    NilParameter {
        /// Operation name.
        operation: &'static str,
        /// Wire name of the parameter.
        param: &'static str,
    },
    /// A parameter element holding something besides text: a child element, a comment or a
    /// processing instruction. ASMX's reader (`XmlReader.ReadElementString`) refuses it, and
    /// the request is answered `400` as malformed XML is.
    #[error("Parameter {param} of {operation} contains {found}; a parameter holds text only.")]
    NotSimpleContent {
        /// Operation name.
        operation: &'static str,
        /// Wire name of the parameter.
        param: &'static str,
        /// What it held besides text.
        found: &'static str,
    },
    /// HTTP GET/POST: a parameter was not sent (every parameter is required there).
    #[error("Parameter {param} of {operation} is missing; {binding} requires every parameter.")]
    MissingParameter {
        /// Operation name.
        operation: &'static str,
        /// Wire name of the parameter.
        param: &'static str,
        /// HTTP GET or HTTP POST.
        binding: Binding,
    },
    /// HTTP GET/POST: a parameter sent more than once. ASMX joins the values with commas; we
    /// refuse instead.
    #[error("Parameter {param} of {operation} is given {count} times; send it once.")]
    RepeatedParameter {
        /// Operation name.
        operation: &'static str,
        /// Wire name of the parameter.
        param: &'static str,
        /// How many times it was sent.
        count: usize,
    },
    /// A value that is not of the parameter's SOAP type.
    #[error("Parameter {param} of {operation} must be {ty}, and the value '{value}' is not valid: {error}.")]
    InvalidValue {
        /// Operation name.
        operation: &'static str,
        /// Wire name of the parameter.
        param: &'static str,
        /// Its SOAP type.
        ty: SoapType,
        /// The text as sent (after unescaping).
        value: String,
        /// Why it was refused.
        error: ValueError,
    },
    /// A parameter of a class or array type whose value tree holds a value that is not of its
    /// type, an element of a simple type holding more than text, or too many elements.
    #[error("Parameter {param} of {operation}: {error}.")]
    InvalidMember {
        /// Operation name.
        operation: &'static str,
        /// Wire name of the parameter.
        param: String,
        /// What was wrong, and where below the parameter (boxed: it is rare and large).
        error: Box<crate::tree::MemberError>,
    },
    /// A SOAP header block (a `[SoapHeader]` class) whose value is not of its class: `xsi:nil`
    /// on the block, a member that is not of its type, an unknown `xsi:type`.
    #[error("The SOAP header {header} of {operation}: {error}.")]
    InvalidHeader {
        /// Operation name.
        operation: &'static str,
        /// The header block's element name.
        header: &'static str,
        /// What was wrong, and where below the block (boxed: it is rare and large).
        error: Box<crate::tree::MemberError>,
    },
    /// A SOAP body whose XML declaration names an encoding this service does not know, where
    /// the declaration decides (an `application/*` type without a charset ASP.NET can name).
    /// .NET's XML reader throws then, and the host answers as for malformed XML.
    #[error("The request body is declared in the encoding '{label}', which is not supported.")]
    UnsupportedEncoding {
        /// The encoding's name as declared.
        label: String,
    },
    /// A `text/*` SOAP body with bytes above `0x7F` and no `charset` ASP.NET can name (none,
    /// empty, unknown): it would read the body as US-ASCII, every such byte as `?`.
    #[error("The request's text/xml content type {}: ASP.NET reads the body as US-ASCII then, and this body holds other bytes; send charset=utf-8.", match label { Some(label) => format!("declares the charset '{label}', which ASP.NET cannot name"), None => "declares no charset".to_owned() })]
    UnnamedCharset {
        /// The charset as declared, if one is.
        label: Option<String>,
    },
    /// Text that is not UTF-8 after percent-decoding (GET/POST) or in the body.
    #[error("The {part} is not valid UTF-8.")]
    InvalidUtf8 {
        /// Which part of the request (`query string`, `form body`, `request body`).
        part: &'static str,
    },
    /// A form body in a charset it cannot be read in, or with bytes that are not text in it.
    #[error("The {part} is declared {charset}, {problem}.")]
    FormCharset {
        /// Which part of the request (`form body`).
        part: &'static str,
        /// The charset, as named by its encoding.
        charset: &'static str,
        /// What is wrong.
        problem: &'static str,
    },
    /// A `%uXXXX` escape of half a UTF-16 surrogate pair without its other half (GET/POST):
    /// no character. ASP.NET on .NET Framework reads it as U+FFFD, silently; we refuse.
    #[error("The {part} holds the escape {escape}, half of a UTF-16 surrogate pair without its other half, which is no character.")]
    LoneSurrogate {
        /// Which part of the request (`query string`, `form body`).
        part: &'static str,
        /// The escape as sent (`%uD834`).
        escape: String,
    },
    /// ASP.NET request validation (GET/POST only), as the Mono host applies it: a value with `<`
    /// or `＜` (U+FF1C) followed by an ASCII letter, `!` or a character below U+0020, or with
    /// `&#` (`</` and `<?` pass). ASMX refuses these with this message, so we do too.
    #[error("A potentially dangerous Request.{collection} value was detected from the client ({name}=\"{excerpt}\").")]
    DangerousValue {
        /// `QueryString` (GET) or `Form` (POST).
        collection: &'static str,
        /// The parameter's name as sent.
        name: String,
        /// The start of the value, as ASP.NET quotes it.
        excerpt: String,
    },
    /// More distinct names in a query string or form body than ASP.NET reads
    /// (`MaxHttpCollectionKeys`, 1000; the host throws an `InvalidOperationException` whose
    /// message names nothing).
    #[error("The request has more than {limit} distinct Request.{collection} names, the most ASP.NET reads (MaxHttpCollectionKeys).")]
    TooManyKeys {
        /// `QueryString` (GET) or `Form` (POST).
        collection: &'static str,
        /// The most that are read.
        limit: usize,
    },
    /// More name/value pairs in a query string or form body, repeated names included, than
    /// this service reads: a bound on what a request of tiny pairs costs, which ASP.NET does
    /// not have.
    #[error("The request has more than {limit} Request.{collection} values, more than this service reads.")]
    TooManyValues {
        /// `QueryString` (GET) or `Form` (POST).
        collection: &'static str,
        /// The most that are read.
        limit: usize,
    },
    /// A request over a binding the operation is not offered on (the router answers such a
    /// request as naming no operation; a decoder called directly says so).
    #[error("{operation} is not offered over {binding}.")]
    NotOffered {
        /// Operation name.
        operation: &'static str,
        /// The binding of the request.
        binding: Binding,
    },
}

impl RequestError {
    /// Whether an ASMX host answers this with `400 Bad Request` and an empty body (malformed
    /// XML, an unknown declared encoding, any DOCTYPE, a parameter holding more than text,
    /// text that is not base64 where base64 is due: .NET's XML reader decodes base64 itself,
    /// `ReadContentAsBase64`, and throws an XmlException) rather than with a client fault.
    pub fn is_malformed(&self) -> bool {
        matches!(
            self,
            RequestError::MalformedXml { .. }
                | RequestError::UnsupportedEncoding { .. }
                | RequestError::Doctype
                | RequestError::NotSimpleContent { .. }
                | RequestError::InvalidValue {
                    error: ValueError::NotBase64,
                    ..
                }
        ) || matches!(
            self,
            RequestError::InvalidMember { error, .. } | RequestError::InvalidHeader { error, .. }
                if error.is_malformed()
        )
    }
}

/// What a client got instead of an operation's result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ResponseError {
    /// A SOAP 1.1 or 1.2 fault.
    #[error("{operation} over {binding}: SOAP fault {fault}")]
    Fault {
        /// Operation name.
        operation: &'static str,
        /// The binding the call went over.
        binding: Binding,
        /// The fault as sent.
        fault: Fault,
        /// The response's body, which holds the SOAP headers an operation writes on a fault
        /// (`SoapHeaderDirection.Fault`), for its generated `…Fault::from_response_error`
        /// (boxed: an error stays small to pass around).
        body: Box<[u8]>,
    },
    /// The `500 text/plain` error of HTTP GET/POST: what a SOAP fault is to SOAP.
    #[error("{operation} over {binding}: the service answered with the error: {message}")]
    ErrorBody {
        /// Operation name.
        operation: &'static str,
        /// HTTP GET or HTTP POST.
        binding: Binding,
        /// The error text (its trailing line feed removed).
        message: String,
    },
    /// Any other status than 200 without a fault or error body, e.g. the `400` (empty body)
    /// an ASMX host gives for malformed XML, or a `404` from a proxy.
    #[error("{operation} over {binding}: HTTP status {status}: {body}")]
    Status {
        /// Operation name.
        operation: &'static str,
        /// The binding the call went over.
        binding: Binding,
        /// The HTTP status code.
        status: u16,
        /// The body as text (lossy UTF-8, trailing newline removed).
        body: String,
    },
    /// A response that could not be read; the body is kept for diagnosis.
    #[error("{operation} over {binding}: undecodable response: {reason}")]
    Undecodable {
        /// Operation name.
        operation: &'static str,
        /// The binding the call went over.
        binding: Binding,
        /// What was wrong with it.
        reason: String,
        /// The body bytes as received.
        body: bytes::Bytes,
    },
}
