//! The routing headers of a Streamable HTTP request (MCP 2026-07-28): which `params` field the
//! `Mcp-Name` header carries for a method, and how a header value that is not plain printable ASCII is
//! sent (`=?base64?<standard base64 of its UTF-8>?=`). Pure: no I/O, no JS.

/// The sentinel's opening marker (lowercase, case-sensitive).
const PREFIX: &str = "=?base64?";
/// The sentinel's closing marker.
const SUFFIX: &str = "?=";

/// The `params` field whose string value goes into `Mcp-Name` for `method`: `name` for `tools/call`
/// and `prompts/get`, `uri` for `resources/read`, `taskId` for `tasks/get`, `tasks/update` and
/// `tasks/cancel`; `None` for every other method (no `Mcp-Name`).
pub fn name_field(method: &str) -> Option<&'static str> {
    match method {
        "tools/call" | "prompts/get" => Some("name"),
        "resources/read" => Some("uri"),
        "tasks/get" | "tasks/update" | "tasks/cancel" => Some("taskId"),
        _ => None,
    }
}

/// `true` when `value` can travel as a plain header value: not empty, only printable ASCII (and tabs
/// inside), no leading or trailing space or tab, and not shaped like the base64 sentinel.
pub fn is_plain(value: &str) -> bool {
    let bytes = value.as_bytes();
    let edge = |b: Option<&u8>| matches!(b, Some(b' ' | b'\t') | None);
    !(edge(bytes.first()) || edge(bytes.last()))
        && bytes.iter().all(|&b| b == b'\t' || (b' '..=b'~').contains(&b))
        && !(value.starts_with(PREFIX) && value.ends_with(SUFFIX))
}

/// The header value for `value`: itself when [`is_plain`], else `=?base64?<base64 of UTF-8>?=`.
pub fn encode_value(value: &str) -> String {
    if is_plain(value) {
        return value.to_owned();
    }
    let mut out = String::from(PREFIX);
    base64_into(value.as_bytes(), &mut out);
    out.push_str(SUFFIX);
    out
}

/// Standard base64 (RFC 4648 §4, with `=` padding) of `bytes`, appended to `out`.
pub fn base64_into(bytes: &[u8], out: &mut String) {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let symbol = |n: u32| ALPHABET.get((n & 63) as usize).map_or('=', |&b| char::from(b));
    for group in bytes.chunks(3) {
        let n = group.iter().enumerate().fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            out.push(if i <= group.len() { symbol(n >> (18 - 6 * i)) } else { '=' });
        }
    }
}

#[cfg(test)]
#[allow(clippy::indexing_slicing)]
mod tests {
    use super::*;

    fn b64(s: &[u8]) -> String {
        let mut out = String::new();
        base64_into(s, &mut out);
        out
    }

    #[test]
    fn base64_matches_rfc4648_vectors() {
        let cases: [(&[u8], &str); 8] = [
            (b"", ""),
            (b"f", "Zg=="),
            (b"fo", "Zm8="),
            (b"foo", "Zm9v"),
            (b"foob", "Zm9vYg=="),
            (b"fooba", "Zm9vYmE="),
            (b"foobar", "Zm9vYmFy"),
            (&[0xff, 0xfe, 0x00, 0x3f, 0xbf], "//4AP78="),
        ];
        for (input, want) in cases {
            assert_eq!(b64(input), want);
        }
        assert_eq!(b64("héllo ✓".as_bytes()), "aMOpbGxvIOKckw==");
    }

    #[test]
    fn name_fields() {
        assert_eq!(name_field("tools/call"), Some("name"));
        assert_eq!(name_field("prompts/get"), Some("name"));
        assert_eq!(name_field("resources/read"), Some("uri"));
        for m in ["tasks/get", "tasks/update", "tasks/cancel"] {
            assert_eq!(name_field(m), Some("taskId"));
        }
        for m in ["subscriptions/listen", "server/discover", "tasks/list", "ping", "tools/list"] {
            assert_eq!(name_field(m), None);
        }
    }

    #[test]
    fn plain_values_pass_through() {
        for v in ["slow", "tsk_0123abcd", "file:///a b/c?x=1", "a\tb", "~!@#$%^&*()", "=?base64?", "x?="] {
            assert!(is_plain(v), "{v}");
            assert_eq!(encode_value(v), v);
        }
    }

    #[test]
    fn unsafe_values_are_encoded() {
        assert_eq!(encode_value("tâche-1"), "=?base64?dMOiY2hlLTE=?=");
        assert_eq!(encode_value(" lead"), "=?base64?IGxlYWQ=?=");
        assert_eq!(encode_value("trail "), "=?base64?dHJhaWwg?=");
        assert_eq!(encode_value("\ttab"), "=?base64?CXRhYg==?=");
        assert_eq!(encode_value("a\nb"), "=?base64?YQpi?=");
        assert_eq!(encode_value("a\rb"), "=?base64?YQ1i?=");
        assert_eq!(encode_value("nul\0"), "=?base64?bnVsAA==?=");
        assert_eq!(encode_value("del\x7f"), "=?base64?ZGVsfw==?=");
        assert_eq!(encode_value(""), "=?base64??=");
        assert_eq!(encode_value("😀"), "=?base64?8J+YgA==?=");
    }

    #[test]
    fn sentinel_shaped_values_are_encoded() {
        assert_eq!(encode_value("=?base64?Zm9v?="), "=?base64?PT9iYXNlNjQ/Wm05dj89?=");
        assert_eq!(encode_value("=?base64??="), "=?base64?PT9iYXNlNjQ/Pz0=?=");
        // the markers are case-sensitive: an uppercase look-alike is plain
        assert_eq!(encode_value("=?BASE64?Zm9v?="), "=?BASE64?Zm9v?=");
    }
}
