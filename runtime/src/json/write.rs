//! Writing JSON as ASP.NET AJAX's `JavaScriptSerializer` writes it: no white space,
//! `HttpUtility.JavaScriptStringEncode`'s escapes, dates as `"\/Date(ms)\/"`, doubles in the
//! round-trip form (`1E+300`, `NaN` unquoted), decimals with their scale.

use crate::DateTime;

/// A JSON text being written, with the separators of the containers open in it.
#[derive(Debug, Default)]
pub struct JsonOut {
    out: String,
    /// Whether the container open at each depth has an item yet (a comma goes before the next).
    started: Vec<bool>,
    /// The deepest value written, as `SerializeValue` counts for `RecursionLimit`: the top
    /// value at 1, each value inside a container one deeper than it (a primitive too).
    deepest: usize,
}

impl JsonOut {
    /// An empty text.
    pub fn new() -> JsonOut {
        JsonOut::default()
    }

    /// A text that starts with `prefix`, with room for about `capacity` bytes: an answer
    /// written in place after its `{"d":`.
    pub(crate) fn after(prefix: &str, capacity: usize) -> JsonOut {
        let mut out = String::with_capacity(capacity.max(prefix.len()));
        out.push_str(prefix);
        JsonOut {
            out,
            ..JsonOut::default()
        }
    }

    /// The text written.
    pub(crate) fn into_string(self) -> String {
        self.out
    }

    /// Appends text as it is (a number, `null`, `true`).
    pub fn raw(&mut self, text: &str) {
        self.out.push_str(text);
    }

    /// Opens an object `{`.
    pub fn open_object(&mut self) {
        self.open('{');
    }

    /// Closes the innermost object `}`.
    pub fn close_object(&mut self) {
        self.started.pop();
        self.out.push('}');
    }

    /// Opens an array `[`.
    pub fn open_array(&mut self) {
        self.open('[');
    }

    /// Closes the innermost array `]`.
    pub fn close_array(&mut self) {
        self.started.pop();
        self.out.push(']');
    }

    fn open(&mut self, bracket: char) {
        self.started.push(false);
        self.out.push(bracket);
    }

    /// Starts a member of the innermost object: `,"name":` (no comma before the first).
    pub fn member(&mut self, name: &str) {
        self.separate();
        write_string(&mut self.out, name);
        self.out.push(':');
    }

    #[doc(hidden)] // for generated code
    /// Starts a member whose text the generator wrote: `"name":` as [`JsonOut::member`]
    /// writes a name with nothing to escape, or a whole `"__type":"hint"`. A constant, where
    /// `member` looks at every byte of the name.
    pub fn member_text(&mut self, text: &'static str) {
        self.separate();
        self.out.push_str(text);
    }

    /// Starts an item of the innermost array (a comma before every one but the first).
    pub fn item(&mut self) {
        self.separate();
    }

    fn separate(&mut self) {
        // A member or an item: a value one deeper than its container.
        self.deepest = self.deepest.max(self.started.len() + 1);
        if let Some(started) = self.started.last_mut() {
            if *started {
                self.out.push(',');
            }
            *started = true;
        }
    }

    /// Appends a string value, quoted and escaped.
    pub fn string(&mut self, value: &str) {
        write_string(&mut self.out, value);
    }

    /// Appends `null`.
    pub fn null(&mut self) {
        self.out.push_str("null");
    }

    /// The text written, or the error .NET throws for it within its default limits (nesting
    /// past `RecursionLimit`, more than `maxJsonLength` characters).
    pub fn finish(self) -> Result<String, super::JsonError> {
        self.finish_within(super::JsonLimits::default())
    }

    /// [`finish`](JsonOut::finish) within `limits`.
    pub fn finish_within(self, limits: super::JsonLimits) -> Result<String, super::JsonError> {
        match limits.refusal(self.deepest(), &self.out) {
            Some(error) => Err(error),
            None => Ok(self.out),
        }
    }

    /// The depth of the deepest value written, as `SerializeValue` counts it (the top value
    /// at 1, an item of it at 2).
    pub fn deepest(&self) -> usize {
        self.deepest.max(1)
    }

    #[doc(hidden)] // for the value writers
    /// The text, to append a value to.
    pub fn buffer(&mut self) -> &mut String {
        &mut self.out
    }

    /// The text written so far.
    pub fn as_str(&self) -> &str {
        &self.out
    }
}

/// Appends `value` in double quotes with `HttpUtility.JavaScriptStringEncode`'s escapes:
/// `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`; `\u` and four lower-case hex digits for the
/// other control characters and for `'`, `<`, `>`, `&`, U+0085, U+2028 and U+2029 (so that
/// the text can stand in HTML and in JavaScript source); everything else as it is, `/` too.
pub fn write_string(out: &mut String, value: &str) {
    out.reserve(value.len() + 2);
    out.push('"');
    let bytes = value.as_bytes();
    let mut start = 0;
    let mut at = 0;
    while at < bytes.len() {
        // Bytes that never start an escape are passed over by a table lookup each; the two
        // lead bytes of U+0085 (C2 85) and U+2028/U+2029 (E2 80 A8/A9) are looked at closer.
        if !WRITE_ATTENTION[bytes[at] as usize] {
            at += 1;
            continue;
        }
        let (c, len) = match bytes[at] {
            0xC2 if bytes.get(at + 1) == Some(&0x85) => ('\u{85}', 2),
            0xE2 if matches!(bytes.get(at + 1..at + 3), Some([0x80, 0xA8 | 0xA9])) => (
                if bytes[at + 2] == 0xA8 {
                    '\u{2028}'
                } else {
                    '\u{2029}'
                },
                3,
            ),
            0xC2 | 0xE2 => {
                at += 1;
                continue;
            }
            b => (char::from(b), 1),
        };
        out.push_str(&value[start..at]);
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            _ => {
                // `\u` and four lower-case hex digits, without formatting machinery.
                const HEX: &[u8; 16] = b"0123456789abcdef";
                let code = c as u32;
                out.push_str("\\u");
                for shift in [12, 8, 4, 0] {
                    out.push(char::from(HEX[((code >> shift) & 0xf) as usize]));
                }
            }
        }
        at += len;
        start = at;
    }
    out.push_str(&value[start..]);
    out.push('"');
}

/// The bytes [`write_string`] looks at: the ASCII it escapes (the control characters, `"`,
/// `\`, `'`, `<`, `>`, `&`) and the lead bytes of the other characters it escapes.
static WRITE_ATTENTION: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = true;
        b += 1;
    }
    let mut i = 0;
    let more = *b"\"\\'<>&";
    while i < more.len() {
        table[more[i] as usize] = true;
        i += 1;
    }
    table[0xC2] = true;
    table[0xE2] = true;
    table
};

/// The milliseconds since 1970 in UTC of a .NET `DateTime`, as `SerializeDateTime` counts
/// them: `(ticks - epoch) / 10000`, truncated toward zero (as chrono's `num_milliseconds`
/// truncates). A reading of no zone (`Unspecified`) is taken as UTC, the zone of the
/// reference host (.NET takes it as the server's local time).
pub fn date_milliseconds(value: &DateTime) -> i64 {
    use crate::DateTimeKind;
    let utc = match value.kind {
        DateTimeKind::Offset(offset) => {
            value.value - chrono::Duration::seconds(i64::from(offset.local_minus_utc()))
        }
        DateTimeKind::Utc | DateTimeKind::Unspecified => value.value,
    };
    (utc - chrono::DateTime::UNIX_EPOCH.naive_utc()).num_milliseconds()
}

/// Appends a date as `"\/Date(ms)\/"`.
pub fn write_date(out: &mut String, value: &DateTime) {
    out.push_str("\"\\/Date(");
    out.push_str(itoa::Buffer::new().format(date_milliseconds(value)));
    out.push_str(")\\/\"");
}

/// Appends a double as `Double.ToString("r")` writes it: XmlConvert's round-trip form but
/// for the specials, `NaN`, `Infinity` and `-Infinity`, which .NET writes unquoted.
pub fn write_double(out: &mut String, v: f64) {
    if !write_special(out, v) {
        crate::value::float::write_double(out, v);
    }
}

/// Appends a float as `Single.ToString("r")` writes it.
pub fn write_float(out: &mut String, v: f32) {
    if !write_special(out, f64::from(v)) {
        crate::value::float::write_float(out, v);
    }
}

/// Appends `v` if the round-trip form writes it as .NET's specials do (`NaN`, `Infinity`,
/// `-Infinity`, and `0` for either zero: .NET Framework's "r" writes negative zero as 0).
fn write_special(out: &mut String, v: f64) -> bool {
    let special = if v.is_nan() {
        "NaN"
    } else if v.is_infinite() {
        if v > 0.0 {
            "Infinity"
        } else {
            "-Infinity"
        }
    } else if v == 0.0 {
        "0"
    } else {
        return false;
    };
    out.push_str(special);
    true
}
