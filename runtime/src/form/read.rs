//! The reader of servers: pairs as an ASMX host reads them, bounded in keys and values.

use std::borrow::Cow;
use std::collections::HashSet;

use super::percent::{decode, decode_in};
use super::source::{FormCharset, FormSource};
use super::validate::{dangerous_value_error, is_dangerous, is_validated};
use super::write::FormItem;
use crate::value::dotnet;
use crate::{RequestError, Scalar, SoapType, ValueError};

/// The decoded pairs of a query string or form body, and the typed lookups a generated
/// server uses to read an operation's parameters from them.
#[derive(Debug, Clone)]
pub struct FormReader<'a> {
    pub(super) pairs: Vec<Pair<'a>>,
    source: FormSource,
}

/// One `&`-separated segment, decoded.
#[derive(Debug, Clone)]
pub(super) struct Pair<'a> {
    /// `None` for a segment without `=`, which no parameter matches.
    pub(super) name: Option<Cow<'a, str>>,
    /// The text after the first `=`, or the whole segment when there is none.
    pub(super) value: Cow<'a, str>,
}

impl<'a> FormReader<'a> {
    /// Splits and decodes `input` (a query string without its `?`, or a form body) and applies
    /// ASP.NET request validation to every value, as the host does before any parameter is
    /// read.
    ///
    /// Empty segments are skipped; `+` is a space; `%uXXXX` is a UTF-16 unit (as the host's
    /// `HttpUtility.UrlDecode` reads it); a bad escape such as `%zz` is kept literally, as the
    /// host keeps it. Names and values borrow from `input` unless decoding changed them. More
    /// than [`MAX_KEYS`] distinct names are refused, as ASP.NET refuses them, and more than
    /// [`MAX_VALUES`] pairs, which bounds what a request of tiny pairs costs.
    pub fn parse(input: &'a [u8], source: FormSource) -> Result<FormReader<'a>, RequestError> {
        FormReader::parse_in(input, source, FormCharset::Utf8)
    }

    /// [`FormReader::parse`] of a form in `charset` (the request's content encoding).
    pub fn parse_in(
        input: &'a [u8],
        source: FormSource,
        charset: FormCharset,
    ) -> Result<FormReader<'a>, RequestError> {
        if let FormCharset::Unreadable(name) = charset {
            if !input.is_empty() {
                return Err(RequestError::FormCharset {
                    part: source.part(),
                    charset: name,
                    problem: "in which no form can be written (its names and separators are ASCII bytes); ASP.NET reads no parameter from it",
                });
            }
        }
        let decode = |raw: &'a [u8]| match charset {
            FormCharset::Utf8 => decode(raw, source),
            other => decode_in(raw, source, other),
        };
        // Room for an operation's parameters; a body of many separators grows it as it goes
        // (never sized by a count the sender chooses).
        let mut pairs = Vec::with_capacity(PRESIZED_PAIRS);
        let mut dangerous = false;
        for segment in input.split(|&byte| byte == b'&') {
            if segment.is_empty() {
                continue;
            }
            if pairs.len() == MAX_VALUES {
                return Err(RequestError::TooManyValues {
                    collection: source.collection(),
                    limit: MAX_VALUES,
                });
            }
            let pair = match memchr::memchr(b'=', segment) {
                Some(eq) => Pair {
                    name: Some(decode(&segment[..eq])?),
                    value: decode(&segment[eq + 1..])?,
                },
                None => Pair {
                    name: None,
                    value: decode(segment)?,
                },
            };
            dangerous = dangerous || (is_validated(&pair, source) && is_dangerous(&pair.value));
            pairs.push(pair);
        }
        // ASP.NET fills the whole collection, and counts its keys, before it validates any.
        if pairs.len() > MAX_KEYS && distinct_names(&pairs) > MAX_KEYS {
            return Err(RequestError::TooManyKeys {
                collection: source.collection(),
                limit: MAX_KEYS,
            });
        }
        if dangerous {
            return Err(dangerous_value_error(&pairs, source));
        }
        Ok(FormReader { pairs, source })
    }

    /// Where the pairs came from.
    pub fn source(&self) -> FormSource {
        self.source
    }

    /// Reads a parameter of any simple type but `string` with the HTTP rules (what .NET's
    /// `Convert.ChangeType` reads, [`Scalar::read_form`]).
    pub fn scalar<T: Scalar>(
        &self,
        operation: &'static str,
        name: &'static str,
    ) -> Result<T, RequestError> {
        self.typed(operation, name, T::TYPE, T::read_form)
    }

    /// Reads a string parameter. `name=` gives `""`; over HTTP a string is never absent.
    pub fn string(
        &self,
        operation: &'static str,
        name: &'static str,
    ) -> Result<String, RequestError> {
        self.text(operation, name).map(str::to_owned)
    }

    fn typed<T>(
        &self,
        operation: &'static str,
        name: &'static str,
        ty: SoapType,
        parse: fn(&str) -> Result<T, ValueError>,
    ) -> Result<T, RequestError> {
        let text = self.text(operation, name)?;
        parse(text).map_err(|error| RequestError::InvalidValue {
            operation,
            param: name,
            ty,
            value: text.to_owned(),
            error,
        })
    }

    /// The one value sent for `name`.
    ///
    /// Names match ASCII-case-insensitively, as on the host (parameter names are ASCII
    /// identifiers). The host joins a repeated parameter's values with commas, which no
    /// caller means, so a repeat is refused.
    /// Reads a `byte[]` parameter (`base64Binary`) as ASP.NET's HTTP handler does: every
    /// value sent for `name`, each a byte (`Convert.ToByte`), in order (`p=1&p=255`). None at
    /// all is a missing parameter (the host answers 500 too).
    pub fn bytes(
        &self,
        operation: &'static str,
        name: &'static str,
    ) -> Result<Vec<u8>, RequestError> {
        let values: Vec<&str> = self
            .pairs
            .iter()
            .filter(|pair| {
                pair.name
                    .as_deref()
                    .is_some_and(|sent| sent.eq_ignore_ascii_case(name))
            })
            .map(|pair| &*pair.value)
            .collect();
        if values.is_empty() {
            return Err(RequestError::MissingParameter {
                operation,
                param: name,
                binding: self.source.binding(),
            });
        }
        values
            .into_iter()
            .map(|text| {
                dotnet::parse_integer::<u8>(text).map_err(|error| RequestError::InvalidValue {
                    operation,
                    param: name,
                    ty: SoapType::UnsignedByte,
                    value: text.to_owned(),
                    error,
                })
            })
            .collect()
    }

    /// Reads an array parameter of simple values as ASP.NET's HTTP handler does: every value
    /// sent for `name`, in order (`values=a&values=b`), each read as [`FormItem`] reads it.
    /// None at all is a missing parameter (the host answers 500 too).
    pub fn array<T: FormItem>(
        &self,
        operation: &'static str,
        name: &'static str,
    ) -> Result<Vec<T>, RequestError> {
        let values: Vec<&str> = self
            .pairs
            .iter()
            .filter(|pair| {
                pair.name
                    .as_deref()
                    .is_some_and(|sent| sent.eq_ignore_ascii_case(name))
            })
            .map(|pair| &*pair.value)
            .collect();
        if values.is_empty() {
            return Err(RequestError::MissingParameter {
                operation,
                param: name,
                binding: self.source.binding(),
            });
        }
        values
            .into_iter()
            .map(|text| {
                T::read_form_item(text).map_err(|(ty, error)| RequestError::InvalidValue {
                    operation,
                    param: name,
                    ty,
                    value: text.to_owned(),
                    error,
                })
            })
            .collect()
    }

    fn text(&self, operation: &'static str, name: &'static str) -> Result<&str, RequestError> {
        let mut matches = self.pairs.iter().filter(|pair| {
            pair.name
                .as_deref()
                .is_some_and(|sent| sent.eq_ignore_ascii_case(name))
        });
        let first = matches.next().ok_or(RequestError::MissingParameter {
            operation,
            param: name,
            binding: self.source.binding(),
        })?;
        let repeats = matches.count();
        if repeats > 0 {
            return Err(RequestError::RepeatedParameter {
                operation,
                param: name,
                count: repeats + 1,
            });
        }
        Ok(&first.value)
    }
}

/// The pairs [`FormReader::parse`] makes room for before reading any (the most parameters an
/// operation has, with room to spare).
pub(super) const PRESIZED_PAIRS: usize = 16;

/// The most distinct names (keys) a query string or form body may hold: ASP.NET's
/// `MaxHttpCollectionKeys` default. Names compare ignoring case, as in ASP.NET's collection,
/// and the segments without `=` share one (null) key.
pub const MAX_KEYS: usize = 1000;

/// The most name/value pairs read from a query string or form body, repeated names included.
/// ASP.NET has no such bound; each pair costs about 48 bytes besides its text, so a body of
/// 4 MiB of `a&a&…` would otherwise hold some 100 MiB.
pub const MAX_VALUES: usize = 10 * MAX_KEYS;

/// How many distinct keys `pairs` make for ASP.NET (see [`MAX_KEYS`]).
fn distinct_names(pairs: &[Pair<'_>]) -> usize {
    let names: HashSet<Option<String>> = pairs
        .iter()
        .map(|pair| pair.name.as_deref().map(str::to_lowercase))
        .collect();
    names.len()
}
