//! Message text without `core::fmt`: the shipped module builds every message by concatenation, so
//! the formatting machinery (`format!`, `Display` for numbers, `Formatter::pad`) is not linked.

/// `n` in decimal.
pub(crate) fn decimal(n: u64) -> String {
    let mut digits = Vec::new();
    let mut n = n;
    loop {
        digits.push(b'0' + (n % 10) as u8);
        n /= 10;
        if n == 0 {
            break;
        }
    }
    digits.iter().rev().map(|d| char::from(*d)).collect()
}

#[cfg(test)]
mod tests {
    use super::decimal;

    #[test]
    fn decimal_writes_every_digit() {
        assert_eq!(decimal(0), "0");
        assert_eq!(decimal(7), "7");
        assert_eq!(decimal(10), "10");
        assert_eq!(decimal(1_234_567_890_123), "1234567890123");
        assert_eq!(decimal(u64::MAX), u64::MAX.to_string());
    }
}
