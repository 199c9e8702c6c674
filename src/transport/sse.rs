//! An incremental Server-Sent Events parser over bytes (the WHATWG `text/event-stream` rules), with
//! no I/O and no JS: feed it the body chunks as they arrive, split anywhere (inside a field, inside a
//! multi-byte character, between `\r` and `\n`), and it hands back each complete event.
//!
//! Lines end with CRLF, LF or CR. A line starting with `:` is a comment (keep-alive) and is skipped.
//! `field: value` loses one optional space after the colon; `data` lines of one event are joined with
//! `\n`; `event` sets the event type; `id` sets the last event id (kept across events, ignored when it
//! contains NUL); `retry` and unknown fields are ignored. A blank line dispatches the event, unless no
//! `data` line came (then only the type is reset). Bytes stay bytes: text is decoded by the caller, one
//! complete event at a time.

/// One dispatched event.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Event {
    /// The `event` field; empty when none was given (the type is then `message`).
    pub event: Vec<u8>,
    /// The `data` lines joined with `\n`.
    pub data: Vec<u8>,
    /// The last event id seen on the stream (empty when none).
    pub id: Vec<u8>,
}

impl Event {
    /// `true` for the default event type (`message`), the only one carrying JSON-RPC messages.
    pub fn is_message(&self) -> bool {
        self.event.is_empty() || self.event == b"message"
    }
}

/// The most bytes one event may hold (its data lines plus the line being read): past it the stream
/// fails instead of growing without bound.
pub const MAX_EVENT_BYTES: usize = 8 * 1024 * 1024;

/// The parser state between chunks.
#[derive(Debug, Default)]
pub struct Parser {
    /// The event being read grew past [`MAX_EVENT_BYTES`]: nothing more is parsed.
    overflow: bool,
    line: Vec<u8>,
    data: Vec<u8>,
    has_data: bool,
    event: Vec<u8>,
    id: Vec<u8>,
    /// The previous chunk ended with `\r`: a `\n` starting the next one belongs to that line end.
    after_cr: bool,
    /// At least one line was read (a UTF-8 BOM is only stripped from the first).
    started: bool,
}

impl Parser {
    /// A parser at the start of a stream.
    pub fn new() -> Self {
        Self::default()
    }

    /// `true` once an event grew past [`MAX_EVENT_BYTES`] (the stream must be failed).
    pub fn overflowed(&self) -> bool {
        self.overflow
    }

    /// Feeds one chunk; returns the events it completed, in order (none once overflowed).
    pub fn push(&mut self, chunk: &[u8]) -> Vec<Event> {
        let mut out = Vec::new();
        if self.overflow {
            return out;
        }
        for &b in chunk {
            if self.line.len() + self.data.len() > MAX_EVENT_BYTES {
                self.overflow = true;
                self.line = Vec::new();
                self.data = Vec::new();
                return out;
            }
            if self.after_cr {
                self.after_cr = false;
                if b == b'\n' {
                    continue;
                }
            }
            match b {
                b'\r' => {
                    self.after_cr = true;
                    self.end_line(&mut out);
                }
                b'\n' => self.end_line(&mut out),
                _ => self.line.push(b),
            }
        }
        out
    }

    /// Ends the stream: a last line without its line end counts as a line, and a pending event with
    /// data is dispatched (lenient: the standard would drop it).
    pub fn finish(&mut self) -> Option<Event> {
        let mut out = Vec::new();
        if !self.line.is_empty() {
            self.end_line(&mut out);
        }
        self.end_line(&mut out);
        out.pop()
    }

    fn end_line(&mut self, out: &mut Vec<Event>) {
        let line = std::mem::take(&mut self.line);
        let bom = !std::mem::replace(&mut self.started, true) && line.starts_with(b"\xEF\xBB\xBF");
        let line = line.get(if bom { 3 } else { 0 }..).unwrap_or_default();
        if line.is_empty() {
            return self.dispatch(out);
        }
        // `name: value`; a comment has an empty name and is ignored like any unknown field.
        let colon = line.iter().position(|&b| b == b':').unwrap_or(line.len());
        let name = line.get(..colon).unwrap_or_default();
        let mut value = line.get(colon + 1..).unwrap_or_default();
        if value.first() == Some(&b' ') {
            value = value.get(1..).unwrap_or_default();
        }
        match name {
            b"data" => {
                if self.has_data {
                    self.data.push(b'\n');
                }
                self.data.extend_from_slice(value);
                self.has_data = true;
            }
            b"event" => self.event = value.to_vec(),
            b"id" if value.iter().all(|&b| b != 0) => self.id = value.to_vec(),
            _ => {}
        }
    }

    fn dispatch(&mut self, out: &mut Vec<Event>) {
        let event = std::mem::take(&mut self.event);
        if std::mem::take(&mut self.has_data) {
            out.push(Event { event, data: std::mem::take(&mut self.data), id: self.id.clone() });
        }
    }
}

#[cfg(test)]
mod caps {
    use super::{Parser, MAX_EVENT_BYTES};

    #[test]
    fn an_event_past_the_cap_overflows_and_frees_its_buffers() {
        let mut p = Parser::new();
        assert!(p.push(b"data: ").is_empty());
        assert!(p.push(&vec![b'x'; MAX_EVENT_BYTES - 100]).is_empty());
        assert!(!p.overflowed());
        assert!(p.push(&[b'y'; 200]).is_empty());
        assert!(p.overflowed());
        assert!(p.push(b"\n\ndata: {}\n\n").is_empty(), "nothing more is parsed");
        // Many small events never overflow: each is drained as it is dispatched.
        let mut p = Parser::new();
        for _ in 0..20_000 {
            assert_eq!(p.push(&[b"data: ".as_slice(), &[b'z'; 1000], b"\n\n"].concat()).len(), 1);
        }
        assert!(!p.overflowed());
    }
}

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::panic)]
mod tests {
    use super::*;

    fn data(events: &[Event]) -> Vec<&[u8]> {
        events.iter().map(|e| e.data.as_slice()).collect()
    }

    /// Feeds `input` split at every possible position (and byte by byte): the events never change.
    fn all_splits(input: &[u8]) -> Vec<Event> {
        let mut whole = Parser::new();
        let expected = whole.push(input);
        for cut in 0..=input.len() {
            let (a, b) = input.split_at(cut);
            let mut p = Parser::new();
            let mut got = p.push(a);
            got.extend(p.push(b));
            assert_eq!(got, expected, "split at {cut}");
        }
        let mut p = Parser::new();
        let got: Vec<Event> = input.iter().flat_map(|b| p.push(std::slice::from_ref(b))).collect();
        assert_eq!(got, expected, "byte by byte");
        expected
    }

    #[test]
    fn one_event_per_blank_line() {
        let ev = all_splits(b"data: {\"a\":1}\n\ndata: two\n\n");
        assert_eq!(data(&ev), vec![&b"{\"a\":1}"[..], b"two"]);
        assert!(ev.iter().all(Event::is_message));
    }

    #[test]
    fn line_endings_crlf_cr_lf() {
        for input in [
            &b"data: x\r\n\r\ndata: y\r\n\r\n"[..],
            b"data: x\r\rdata: y\r\r",
            b"data: x\n\ndata: y\n\n",
            b"data: x\r\n\ndata: y\n\r\n",
        ] {
            let ev = all_splits(input);
            assert_eq!(data(&ev), vec![&b"x"[..], b"y"], "{input:?}");
        }
    }

    #[test]
    fn cr_at_chunk_end_then_lf() {
        let mut p = Parser::new();
        assert!(p.push(b"data: a\r").is_empty());
        assert!(p.push(b"\n").is_empty());
        let ev = p.push(b"\r\n");
        assert_eq!(data(&ev), vec![&b"a"[..]]);
        // a lone CR followed by another CR is two line ends (a blank line)
        assert_eq!(data(&p.push(b"data: b\r\r")), vec![&b"b"[..]]);
    }

    #[test]
    fn comments_are_skipped() {
        let ev = all_splits(b": keep-alive\n\n:\ndata: x\n: inside\n\n");
        assert_eq!(data(&ev), vec![&b"x"[..]]);
    }

    #[test]
    fn multi_line_data_is_joined_with_lf() {
        let ev = all_splits(b"data: a\ndata:b\ndata\ndata:  c\n\n");
        assert_eq!(data(&ev), vec![&b"a\nb\n\n c"[..]]);
    }

    #[test]
    fn only_one_space_is_stripped() {
        let ev = all_splits(b"data:x\n\ndata: x\n\ndata:  x\n\n");
        assert_eq!(data(&ev), vec![&b"x"[..], b"x", b" x"]);
    }

    #[test]
    fn event_and_id_fields() {
        let ev = all_splits(b"event: ping\nid: 7\ndata: p\n\ndata: m\n\nid\ndata: n\n\nid: a\0b\ndata: o\n\n");
        assert_eq!(ev.len(), 4);
        assert_eq!(ev[0].event, b"ping");
        assert!(!ev[0].is_message());
        assert_eq!(ev[0].id, b"7");
        assert!(ev[1].is_message(), "the type resets after dispatch");
        assert_eq!(ev[1].id, b"7", "the id is kept across events");
        assert_eq!(ev[2].id, b"", "a bare id field resets it");
        assert_eq!(ev[3].id, b"", "an id with NUL is ignored");
        let ev = all_splits(b"event: message\ndata: m\n\n");
        assert!(ev[0].is_message());
    }

    #[test]
    fn blank_lines_without_data_dispatch_nothing() {
        let ev = all_splits(b"\n\n\nevent: x\n\nretry: 10\nfoo: bar\n\ndata\n\n");
        assert_eq!(ev.len(), 1);
        assert_eq!(ev[0].data, b"");
        assert!(ev[0].is_message(), "event type reset by the blank line without data");
    }

    #[test]
    fn utf8_split_inside_a_character() {
        let input = "data: {\"t\":\"héllo ✓ 😀\"}\n\n".as_bytes();
        let ev = all_splits(input);
        assert_eq!(ev[0].data, "{\"t\":\"héllo ✓ 😀\"}".as_bytes());
    }

    #[test]
    fn bom_is_stripped_from_the_first_line_only() {
        let ev = all_splits(b"\xEF\xBB\xBFdata: a\n\n\xEF\xBB\xBFdata: b\n\ndata: c\n\n");
        assert_eq!(data(&ev), vec![&b"a"[..], b"c"]);
    }

    #[test]
    fn finish_flushes_a_last_event_without_blank_line() {
        let mut p = Parser::new();
        assert!(p.push(b"data: a\n\ndata: b").len() == 1);
        assert_eq!(p.finish().map(|e| e.data), Some(b"b".to_vec()));
        let mut p = Parser::new();
        assert!(p.push(b"data: c\n").is_empty());
        assert_eq!(p.finish().map(|e| e.data), Some(b"c".to_vec()));
        let mut p = Parser::new();
        assert!(p.push(b": only a comment\n").is_empty());
        assert_eq!(p.finish(), None);
    }
}
