//! The server's request decoders: SOAP 1.1 and 1.2 bodies, HTTP GET queries and HTTP POST
//! forms, for any of the service's operations.

use rmm_mobile::runtime::deps::bytes::Bytes;
use rmm_mobile::runtime::deps::http::{header, Request, Uri};
use rmm_mobile::runtime::form::{FormReader, FormSource};
use rmm_mobile::wire::OperationRequest;
use rmm_mobile::{Binding, SERVICE};

use crate::input::Choices;
use crate::Outcome;

/// The content types a SOAP request is read under: each version's own, and ones that send
/// the reader through its charset paths (none, a single-byte one, UTF-16, an unknown one).
pub(crate) const SOAP_CONTENT_TYPES: [&str; 8] = [
    "text/xml; charset=utf-8",
    "application/soap+xml; charset=utf-8",
    "text/xml",
    "application/soap+xml",
    "text/xml; charset=iso-8859-1",
    "application/soap+xml; charset=utf-16",
    "text/xml; charset=us-ascii",
    "application/soap+xml; charset=x-unknown",
];

/// The bindings of [`soap`] and of [`form`], by their choice byte.
pub(crate) const SOAP_BINDINGS: [Binding; 2] = [Binding::Soap11, Binding::Soap12];
pub(crate) const FORM_BINDINGS: [Binding; 2] = [Binding::HttpGet, Binding::HttpPost];

/// The content types an HTTP POST form is read under.
pub(crate) const FORM_CONTENT_TYPES: [&str; 6] = [
    "application/x-www-form-urlencoded",
    "application/x-www-form-urlencoded; charset=utf-8",
    "application/x-www-form-urlencoded; charset=iso-8859-1",
    "application/x-www-form-urlencoded; charset=windows-1252",
    "application/x-www-form-urlencoded; charset=utf-16",
    "application/x-www-form-urlencoded; charset=shift_jis",
];

/// A decoder run: reads `request` as operation `T` over `binding`, and when that succeeds,
/// checks that what was read survives the client's encoding and the server's decoding.
fn decode<T: OperationRequest>(request: &Request<Bytes>, binding: Binding) -> Outcome {
    let Ok((credentials, decoded)) = T::decode_request(request, binding) else {
        return Outcome::Refused;
    };
    // A value the client refuses to write (a character XML cannot carry) ends the check.
    let Ok(encoded) = decoded.encode_request(&credentials, binding) else {
        return Outcome::Accepted;
    };
    match T::decode_request(&encoded, binding) {
        Ok((again_credentials, again)) => {
            assert!(
                again == decoded && again_credentials == credentials,
                "{} over {binding:?}: read {decoded:?}, re-read {again:?}",
                T::OPERATION.name()
            );
        }
        Err(error) => panic!(
            "{} over {binding:?}: our own encoding of {decoded:?} is refused: {error}",
            T::OPERATION.name()
        ),
    }
    Outcome::Accepted
}

type Decode = fn(&Request<Bytes>, Binding) -> Outcome;

macro_rules! decoders {
    ($($method:ident: $request:ident,)*) => {
        [$(decode::<rmm_mobile::$request> as Decode,)*]
    };
}

/// Every operation's decoder, in operation order.
const DECODERS: [Decode; 20] = rmm_mobile::for_each_operation!(decoders);

/// Input: operation, binding (1.1 or 1.2), content type, then the body.
pub fn soap(data: &[u8]) -> Outcome {
    let mut choices = Choices::new(data);
    let op = choices.index(DECODERS.len());
    let binding = choices.pick(&SOAP_BINDINGS);
    let content_type = choices.pick(&SOAP_CONTENT_TYPES);
    let request = Request::post(SERVICE.path)
        .header(header::CONTENT_TYPE, content_type)
        .body(Bytes::copy_from_slice(choices.rest()))
        .expect("a fixed path and header");
    DECODERS[op](&request, binding)
}

/// Input: operation, binding (GET or POST), content type (POST), then the query or form.
/// A query hyper would refuse as a URI is read by the form reader alone.
pub fn form(data: &[u8]) -> Outcome {
    let mut choices = Choices::new(data);
    let op = choices.index(DECODERS.len());
    let binding = choices.pick(&FORM_BINDINGS);
    let content_type = choices.pick(&FORM_CONTENT_TYPES);
    let form = choices.rest();
    let path = format!("{}/{}", SERVICE.path, rmm_mobile::Operation::ALL[op].name());
    let request = if binding == Binding::HttpGet {
        let uri = std::str::from_utf8(form)
            .ok()
            .and_then(|query| format!("{path}?{query}").parse::<Uri>().ok());
        match uri {
            Some(uri) => Request::get(uri).body(Bytes::new()),
            None => {
                read_raw_query(form);
                return Outcome::NotReached;
            }
        }
    } else {
        Request::post(path)
            .header(header::CONTENT_TYPE, content_type)
            .body(Bytes::copy_from_slice(form))
    };
    DECODERS[op](&request.expect("a parsed URI and a fixed header"), binding)
}

/// A query that is no URI (hyper would refuse it) through the form reader alone: split,
/// decoded, validated, and read as each type under a few names.
fn read_raw_query(query: &[u8]) {
    let Ok(reader) = FormReader::parse(query, FormSource::Query) else {
        return;
    };
    for name in ["repnumber", "accountname", "amount", "a"] {
        let _ = reader.scalar::<i32>("Fuzz", name);
        let _ = reader.scalar::<bool>("Fuzz", name);
        let _ = reader.scalar::<rmm_mobile::Decimal>("Fuzz", name);
        let _ = reader.scalar::<u64>("Fuzz", name);
        let _ = reader.scalar::<f64>("Fuzz", name);
        let _ = reader.scalar::<f32>("Fuzz", name);
        let _ = reader.string("Fuzz", name);
    }
}
