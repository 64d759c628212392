//! The writer of clients: query strings and form bodies.

use crate::{Binding, EncodeError, Scalar, SoapType, ValueError};

/// Builds a query string or form body: `name=value` pairs joined with `&`, each part encoded
/// as `application/x-www-form-urlencoded` (space as `+`, `@` as `%40`, `:` as `%3A`, …).
#[derive(Debug, Clone, Default)]
pub struct FormWriter {
    out: String,
}

/// An item of an array parameter over HTTP GET/POST: a simple value ([`Scalar::write_form`],
/// [`Scalar::read_form`]) or a string (`Option<String>`, an item of `string[]`, which the form
/// cannot send as null).
pub trait FormItem: Sized {
    /// Appends the item's value, encoded; `false` for a null, which no pair can say.
    fn write_form_item(&self, out: &mut String) -> bool;
    /// Reads one value sent for the array, or its type and why not.
    fn read_form_item(text: &str) -> Result<Self, (SoapType, ValueError)>;
}

impl<T: Scalar> FormItem for T {
    fn write_form_item(&self, out: &mut String) -> bool {
        self.write_form(out);
        true
    }

    fn read_form_item(text: &str) -> Result<Self, (SoapType, ValueError)> {
        T::read_form(text).map_err(|error| (T::TYPE, error))
    }
}

impl FormItem for Option<String> {
    fn write_form_item(&self, out: &mut String) -> bool {
        match self {
            Some(text) => {
                out.extend(form_urlencoded::byte_serialize(text.as_bytes()));
                true
            }
            None => false,
        }
    }

    fn read_form_item(text: &str) -> Result<Self, (SoapType, ValueError)> {
        Ok(Some(text.to_owned()))
    }
}

impl FormWriter {
    /// An empty writer.
    pub fn new() -> FormWriter {
        FormWriter::default()
    }

    /// An empty writer whose buffer holds `capacity` bytes before it grows.
    pub fn with_capacity(capacity: usize) -> FormWriter {
        FormWriter {
            out: String::with_capacity(capacity),
        }
    }

    /// Appends `name=value`, both encoded.
    pub fn pair(&mut self, name: &str, value: &str) {
        self.name(name);
        self.out
            .extend(form_urlencoded::byte_serialize(value.as_bytes()));
    }

    /// Appends a parameter of any simple type but `string`, in a form .NET's `Convert`
    /// reads back as the same value.
    pub fn scalar<T: Scalar>(&mut self, name: &str, value: &T) {
        self.name(name);
        value.write_form(&mut self.out);
    }

    /// Appends a `byte[]` parameter as ASP.NET's HTTP handler reads one: each byte as its own
    /// pair (`p=1&p=255`). `None`, and an empty array (which no pair can say; the host fails
    /// on it), are refused.
    pub fn bytes(
        &mut self,
        operation: &'static str,
        name: &'static str,
        value: Option<&[u8]>,
        binding: Binding,
    ) -> Result<(), EncodeError> {
        let value = value.ok_or(EncodeError::AbsentOverHttp {
            operation,
            param: name,
            binding,
        })?;
        if value.is_empty() {
            return Err(EncodeError::EmptyArrayOverHttp {
                operation,
                param: name,
                array: "byte array",
                item: "byte",
                binding,
            });
        }
        for byte in value {
            self.scalar(name, byte);
        }
        Ok(())
    }

    /// Appends an array parameter of simple values as ASP.NET's HTTP handler reads one: each
    /// item as its own pair (`values=a&values=b`). `None`, an empty array (which no pair can
    /// say; the host fails on it) and a `None` item are refused.
    pub fn array<T: FormItem>(
        &mut self,
        operation: &'static str,
        name: &'static str,
        value: Option<&[T]>,
        binding: Binding,
    ) -> Result<(), EncodeError> {
        let absent = EncodeError::AbsentOverHttp {
            operation,
            param: name,
            binding,
        };
        let value = value.ok_or(absent.clone())?;
        if value.is_empty() {
            return Err(EncodeError::EmptyArrayOverHttp {
                operation,
                param: name,
                array: "array",
                item: "item",
                binding,
            });
        }
        for item in value {
            self.name(name);
            if !item.write_form_item(&mut self.out) {
                return Err(absent);
            }
        }
        Ok(())
    }

    /// Appends a string parameter.
    ///
    /// `None` is refused with [`EncodeError::AbsentOverHttp`]: HTTP GET and POST send every
    /// parameter, and the host would read a missing one as an error, an empty one as `""`.
    pub fn string(
        &mut self,
        operation: &'static str,
        name: &'static str,
        value: Option<&str>,
        binding: Binding,
    ) -> Result<(), EncodeError> {
        let value = value.ok_or(EncodeError::AbsentOverHttp {
            operation,
            param: name,
            binding,
        })?;
        self.pair(name, value);
        Ok(())
    }

    /// What has been written so far.
    pub fn as_str(&self) -> &str {
        &self.out
    }

    /// The finished query string or form body (without a leading `?`).
    pub fn finish(self) -> String {
        self.out
    }

    /// Starts a pair: the separator, the encoded name and `=`.
    /// Appends `text` form-encoded (for [`Scalar::write_form`] of a value that may need it).
    pub fn push_encoded(out: &mut String, text: &str) {
        out.extend(form_urlencoded::byte_serialize(text.as_bytes()));
    }

    fn name(&mut self, name: &str) {
        // Every pair writes '=', so a non-empty buffer always means a pair before this one.
        if !self.out.is_empty() {
            self.out.push('&');
        }
        self.out
            .extend(form_urlencoded::byte_serialize(name.as_bytes()));
        self.out.push('=');
    }
}
