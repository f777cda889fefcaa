//! Test support: a "network" of in-flight datagrams for property tests that drive a sender and
//! a receiver through arbitrary delivery, loss, duplication and reordering.

use crate::endpoint::HeaderBuf;

/// Datagrams in flight one way: header and virtual payload length.
pub(crate) type Bag = Vec<(HeaderBuf, u32)>;

/// The `i`-th datagram in flight (modulo the count), removed unless `keep` (a duplicate stays
/// in flight); `None` if nothing is in flight. Taking any index, not just the first, reorders.
pub(crate) fn take(bag: &mut Bag, i: u8, keep: bool) -> Option<(HeaderBuf, u32)> {
    if bag.is_empty() {
        return None;
    }
    let i = i as usize % bag.len();
    Some(if keep { bag[i] } else { bag.remove(i) })
}
