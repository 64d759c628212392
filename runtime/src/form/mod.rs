//! The query-string and form-body codec of HTTP GET and HTTP POST.
//!
//! Both bindings carry parameters as `application/x-www-form-urlencoded` pairs: GET in the
//! query string, POST in the body. [`FormWriter`] builds them; [`FormReader`] reads them the
//! way an ASMX host does (the `get-*` and `post-*` exchanges in `tests/fixtures/asmx/`),
//! except where the host silently reads wrong data, which it refuses instead.

mod percent;
mod read;
mod source;
#[cfg(test)]
mod tests;
mod validate;
mod write;

pub use read::{FormReader, MAX_KEYS, MAX_VALUES};
pub use source::{FormCharset, FormSource};
pub use write::{FormItem, FormWriter};
