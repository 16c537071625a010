//! A small generator of test data for the crate's unit tests: xorshift, so the same seed gives
//! the same sequence on every run and a failure can be replayed.

/// Xorshift64 state (any nonzero seed).
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    /// The next number below `n` (`n > 0`).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}
