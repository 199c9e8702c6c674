//! RFC 3339 timestamps, read only to order two snapshots of one task (`lastUpdatedAt`).
//! Servers differ in fractional digits and offsets (`Z`, `+00:00`), so strings cannot be compared as such.

/// Seconds since the Unix epoch and the nanoseconds within that second (so the pair orders as the
/// instant does) for an RFC 3339 date-time, or `None` when it does not parse. A pair rather than one
/// `i128` of nanoseconds: 128-bit arithmetic would link its own multiply routine into the wasm build.
pub(crate) fn parse_rfc3339(s: &str) -> Option<(i64, u32)> {
    let b = s.as_bytes();
    let num = |from: usize, len: usize| -> Option<i64> {
        let part = b.get(from..from + len)?;
        let mut n: i64 = 0;
        for &c in part {
            if !c.is_ascii_digit() {
                return None;
            }
            n = n * 10 + i64::from(c - b'0');
        }
        Some(n)
    };
    let sep = |at: usize, options: &[u8]| b.get(at).is_some_and(|c| options.contains(c));
    if !(sep(4, b"-") && sep(7, b"-") && sep(10, b"Tt ") && sep(13, b":") && sep(16, b":")) {
        return None;
    }
    let (year, month, day) = (num(0, 4)?, num(5, 2)?, num(8, 2)?);
    let (hour, minute, second) = (num(11, 2)?, num(14, 2)?, num(17, 2)?);
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    let mut i = 19;
    let mut nanos: u32 = 0;
    if b.get(i) == Some(&b'.') {
        i += 1;
        let mut digits = 0;
        while let Some(c) = b.get(i).filter(|c| c.is_ascii_digit()) {
            if digits < 9 {
                nanos = nanos * 10 + u32::from(c - b'0');
                digits += 1;
            }
            i += 1;
        }
        if digits == 0 {
            return None;
        }
        for _ in digits..9 {
            nanos *= 10;
        }
    }
    let offset_secs: i64 = match b.get(i) {
        Some(b'Z' | b'z') if i + 1 == b.len() => 0,
        Some(&sign @ (b'+' | b'-')) if i + 6 == b.len() && sep(i + 3, b":") => {
            let mins = num(i + 1, 2)? * 60 + num(i + 4, 2)?;
            if sign == b'+' {
                mins * 60
            } else {
                -mins * 60
            }
        }
        _ => return None,
    };
    let days = days_from_civil(year, month, day);
    let secs = days * 86_400 + hour * 3600 + minute * 60 + second - offset_secs;
    Some((secs, nanos))
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::parse_rfc3339;

    #[test]
    fn reads_the_forms_real_servers_send() {
        let z = parse_rfc3339("2026-09-01T08:00:00Z");
        assert_eq!(z, Some((1_788_249_600, 0)));
        assert_eq!(parse_rfc3339("2026-09-01T08:00:00.000000000+00:00"), z);
        assert_eq!(parse_rfc3339("2026-09-01T10:00:00+02:00"), z);
        assert!(parse_rfc3339("2026-09-01T08:00:00.123456Z") > z);
        assert!(parse_rfc3339("2026-09-01T08:00:00.5Z") > parse_rfc3339("2026-09-01T08:00:00.123456789Z"));
    }

    #[test]
    fn rejects_what_is_not_a_timestamp() {
        for bad in [
            "",
            "2026-09-01",
            "2026-13-01T00:00:00Z",
            "2026-09-01T08:00:00",
            "2026-09-01T08:00:00.Z",
            "x026-09-01T08:00:00Z",
        ] {
            assert_eq!(parse_rfc3339(bad), None, "{bad}");
        }
    }
}
