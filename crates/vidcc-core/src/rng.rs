//! One master seed, one independent random stream per component: the seeded randomness every
//! driver hands protocols and models (vidcc-core draws none of its own).
//!
//! A component's stream is seeded from the master seed and the component's name (e.g.
//! `"loss/link3/fwd"`, `"traffic/flow7"`), never from the order in which components happen to
//! be built, so adding a flow does not perturb the losses of a link. Streams are
//! xoshiro256++ seeded through SplitMix64, as the xoshiro authors recommend.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// The generator of every stream (named for the simulator, its first user).
pub type SimRng = Xoshiro256PlusPlus;

#[derive(Clone, Copy, Debug)]
pub struct RngStreams {
    master: u64,
}

impl RngStreams {
    pub fn new(master_seed: u64) -> Self {
        RngStreams { master: master_seed }
    }

    /// The stream for the component called `name`.
    pub fn stream(&self, name: &str) -> SimRng {
        // FNV-1a: a fixed, platform-independent hash of the name.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in name.bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        SimRng::seed_from_u64(self.master ^ h.rotate_left(17))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    #[test]
    fn streams_are_reproducible_and_distinct() {
        let s = RngStreams::new(42);
        let a: u64 = s.stream("loss/l1").gen();
        let b: u64 = RngStreams::new(42).stream("loss/l1").gen();
        let c: u64 = s.stream("loss/l2").gen();
        let d: u64 = RngStreams::new(43).stream("loss/l1").gen();
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_ne!(a, d);
    }
}
