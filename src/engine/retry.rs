//! Backoff with jitter for re-issuing requests that failed without an answer. The randomness is a
//! seeded xorshift generator, so the machines stay deterministic under a fixed seed.

use super::settings::RETRY_BASE_MS;

/// The backoff schedule of one machine.
#[derive(Clone, Debug)]
pub(crate) struct Backoff {
    state: u64,
}

impl Backoff {
    /// A schedule whose jitter comes from `seed`.
    pub(crate) fn new(seed: u64) -> Self {
        Self { state: seed | 1 }
    }

    /// The wait before re-issue number `attempt` (1 for the first): `250·2^(attempt−1)` ms plus a random
    /// share of up to half of that again, and never less than the transport's `Retry-After`.
    pub(crate) fn delay(&mut self, attempt: u32, retry_after: Option<u64>) -> u64 {
        let base = RETRY_BASE_MS.saturating_mul(1u64 << attempt.saturating_sub(1).min(30));
        let jitter = self.next() % (base / 2 + 1);
        base.saturating_add(jitter).max(retry_after.unwrap_or(0))
    }

    fn next(&mut self) -> u64 {
        let mut x = self.state;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.state = x;
        x
    }
}

#[cfg(test)]
mod tests {
    use super::Backoff;

    #[test]
    fn doubles_from_250_with_up_to_half_again_of_jitter() {
        let mut b = Backoff::new(7);
        for attempt in 1..=4u32 {
            let base = 250u64 << (attempt - 1);
            let d = b.delay(attempt, None);
            assert!((base..=base + base / 2).contains(&d), "attempt {attempt}: {d}");
        }
        assert_eq!(b.delay(1, Some(2000)), 2000, "Retry-After wins when longer");
    }
}
