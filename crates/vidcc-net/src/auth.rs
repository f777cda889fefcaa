//! Optional authentication of every envelope the driver sends (data, feedback and other
//! control, session offers, acceptances and byes) with a pre-shared key: HMAC-SHA256
//! (RustCrypto `hmac` and `sha2`) over the whole envelope and a 64-bit sequence number, the
//! tag truncated to [`TAG_BYTES`] (RFC 2104 §5 allows truncation to at least half the hash;
//! 128 bits here). With a key set, nothing that fails the check reaches a protocol's parser
//! or the receiver's record.
//!
//! One key per direction, derived from the pre-shared key with HKDF-SHA256 (RFC 5869,
//! RustCrypto `hkdf`; [`Role`]): the sender seals with the sender-to-receiver key and opens
//! with the other, so a datagram reflected back at the end that sealed it fails.
//!
//! Trailer appended to a sealed envelope: `seq u64 | tag[16]`. A receiver drops and counts an
//! envelope too short to hold a trailer ([`AuthError::Truncated`]), a tag that does not verify
//! ([`AuthError::BadTag`]), and a sequence number already seen or older than a
//! [`WINDOW`]-wide window below the highest one ([`AuthError::Replay`], the IPsec anti-replay
//! window of RFC 4303 §3.4.3, wider than its 64 because data and control share one numbering
//! and a relay may reorder a burst of data).
//!
//! The key comes from a file or an environment variable, never the command line (where any
//! user could read it in the process list): [`Key::from_file`], [`Key::from_env`].

use hkdf::Hkdf;
use hmac::{Hmac, Mac};
use sha2::Sha256;

pub const TAG_BYTES: usize = 16;
pub const TRAILER_BYTES: usize = 8 + TAG_BYTES;
/// Width of the anti-replay window (sequence numbers).
pub const WINDOW: u64 = 1024;
const WORDS: usize = (WINDOW / 64) as usize;
const HKDF_SALT: &[u8] = b"vidcc-net authentication v2";

/// Which end of a session: it seals with its own direction's key and opens with the other's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Sender,
    Receiver,
}

impl Role {
    fn info(self) -> &'static [u8] {
        match self {
            Role::Sender => b"sender to receiver",
            Role::Receiver => b"receiver to sender",
        }
    }
    fn other(self) -> Role {
        match self {
            Role::Sender => Role::Receiver,
            Role::Receiver => Role::Sender,
        }
    }
}

#[derive(Clone)]
pub struct Key(Vec<u8>);

impl Key {
    /// A key of at least 16 bytes.
    pub fn new(bytes: Vec<u8>) -> Result<Key, String> {
        if bytes.len() < 16 {
            return Err(format!("authentication key: {} bytes, need at least 16", bytes.len()));
        }
        Ok(Key(bytes))
    }
    /// The key in a file (its bytes, a trailing newline removed).
    pub fn from_file(path: &std::path::Path) -> Result<Key, String> {
        let mut b = std::fs::read(path).map_err(|e| format!("authentication key file {}: {e}", path.display()))?;
        while b.last().is_some_and(|c| *c == b'\n' || *c == b'\r') {
            b.pop();
        }
        Key::new(b).map_err(|e| format!("{}: {e}", path.display()))
    }
    /// The key in an environment variable.
    pub fn from_env(var: &str) -> Result<Key, String> {
        let v = std::env::var(var).map_err(|_| format!("authentication key: environment variable {var} is not set"))?;
        Key::new(v.into_bytes()).map_err(|e| format!("{var}: {e}"))
    }
}

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Key(<{} bytes>)", self.0.len())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AuthError {
    Truncated,
    BadTag,
    Replay,
}

impl Key {
    /// The key of one direction (HKDF-SHA256, RFC 5869).
    fn direction(&self, role: Role) -> [u8; 32] {
        let mut out = [0u8; 32];
        Hkdf::<Sha256>::new(Some(HKDF_SALT), &self.0)
            .expand(role.info(), &mut out)
            .expect("32 bytes is a valid length");
        out
    }
}

/// One end's sealing and checking state.
pub struct Auth {
    seal: Hmac<Sha256>,
    open: Hmac<Sha256>,
    next_seq: u64,
    /// Highest sequence number accepted, and a ring bitmap of the window below it (bit
    /// `s % WINDOW`: sequence number `s` seen).
    highest: Option<u64>,
    seen: [u64; WORDS],
}

impl std::fmt::Debug for Auth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Auth {{ next_seq: {}, highest: {:?} }}", self.next_seq, self.highest)
    }
}

impl Auth {
    pub fn new(key: Key, role: Role) -> Self {
        let mac = |k: [u8; 32]| <Hmac<Sha256> as Mac>::new_from_slice(&k).expect("HMAC takes any key length");
        Auth {
            seal: mac(key.direction(role)),
            open: mac(key.direction(role.other())),
            next_seq: 0,
            highest: None,
            seen: [0; WORDS],
        }
    }

    fn tag(&self, bytes: &[u8]) -> [u8; 32] {
        let mut mac = self.seal.clone();
        mac.update(bytes);
        mac.finalize().into_bytes().into()
    }

    /// Appends `seq | tag` to the envelope in `out`.
    pub fn seal(&mut self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.next_seq.to_be_bytes());
        self.next_seq += 1;
        let tag = self.tag(out);
        out.extend_from_slice(&tag[..TAG_BYTES]);
    }

    /// Checks a sealed envelope; returns it without its trailer.
    pub fn open<'a>(&mut self, bytes: &'a [u8]) -> Result<&'a [u8], AuthError> {
        if bytes.len() < crate::envelope::PREFIX + TRAILER_BYTES {
            return Err(AuthError::Truncated);
        }
        let (signed, tag) = bytes.split_at(bytes.len() - TAG_BYTES);
        let mut mac = self.open.clone();
        mac.update(signed);
        mac.verify_truncated_left(tag).map_err(|_| AuthError::BadTag)?;
        let seq = u64::from_be_bytes(signed[signed.len() - 8..].try_into().expect("8 bytes"));
        self.check_replay(seq)?;
        Ok(&signed[..signed.len() - 8])
    }

    fn bit(&self, seq: u64) -> bool {
        let i = (seq % WINDOW) as usize;
        self.seen[i / 64] & (1 << (i % 64)) != 0
    }

    fn set(&mut self, seq: u64, on: bool) {
        let i = (seq % WINDOW) as usize;
        if on {
            self.seen[i / 64] |= 1 << (i % 64);
        } else {
            self.seen[i / 64] &= !(1 << (i % 64));
        }
    }

    fn check_replay(&mut self, seq: u64) -> Result<(), AuthError> {
        match self.highest {
            Some(h) if seq <= h => {
                if h - seq >= WINDOW || self.bit(seq) {
                    return Err(AuthError::Replay);
                }
            }
            Some(h) => {
                // The window slides up: the slots of the numbers it passes are cleared (all of
                // them when it moves by a whole window or more).
                for s in (h + 1)..=seq.min(h + WINDOW) {
                    self.set(s, false);
                }
                self.highest = Some(seq);
            }
            None => {
                self.seen = [0; WORDS];
                self.highest = Some(seq);
            }
        }
        self.set(seq, true);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(b: u8) -> Key {
        Key::new(vec![b; 32]).unwrap()
    }

    fn pair(b: u8) -> (Auth, Auth) {
        (Auth::new(key(b), Role::Sender), Auth::new(key(b), Role::Receiver))
    }

    fn sealed(a: &mut Auth, body: &[u8]) -> Vec<u8> {
        let mut out = vec![crate::envelope::KIND_CONTROL, 0, 0, 0, 1];
        out.extend_from_slice(body);
        a.seal(&mut out);
        out
    }

    #[test]
    fn a_sealed_envelope_opens_once_and_only_with_the_key() {
        let (mut tx, mut rx) = pair(1);
        let m = sealed(&mut tx, b"feedback");
        assert_eq!(rx.open(&m).unwrap(), &[&[crate::envelope::KIND_CONTROL, 0, 0, 0, 1][..], b"feedback"].concat()[..]);
        assert_eq!(rx.open(&m), Err(AuthError::Replay), "the same envelope twice is a replay");
        let m2 = sealed(&mut tx, b"next");
        assert_eq!(Auth::new(key(2), Role::Receiver).open(&m2), Err(AuthError::BadTag), "another key");
        let mut flipped = m2.clone();
        flipped[6] ^= 1;
        assert_eq!(rx.open(&flipped), Err(AuthError::BadTag), "a changed body");
        assert_eq!(rx.open(&m2[..m2.len() - 1]), Err(AuthError::BadTag), "a tag cut short");
        assert_eq!(rx.open(&m2[..10]), Err(AuthError::Truncated));
        assert!(rx.open(&m2).is_ok());
    }

    #[test]
    fn the_replay_window_accepts_reordering_within_its_width() {
        let (mut tx, mut rx) = pair(1);
        let n = WINDOW as usize + 200;
        let ms: Vec<Vec<u8>> = (0..n).map(|i| sealed(&mut tx, &[i as u8])).collect();
        let top = WINDOW as usize + 100;
        assert!(rx.open(&ms[top]).is_ok());
        assert!(rx.open(&ms[top - WINDOW as usize + 1]).is_ok(), "WINDOW − 1 behind: inside the window");
        assert_eq!(rx.open(&ms[top - WINDOW as usize]), Err(AuthError::Replay), "WINDOW behind: outside");
        assert_eq!(rx.open(&ms[top - WINDOW as usize + 1]), Err(AuthError::Replay));
        assert!(rx.open(&ms[top - 1]).is_ok());
        assert!(rx.open(&ms[n - 1]).is_ok());
        // The window slid up by 99: slots reused for the new numbers were cleared first.
        assert!(rx.open(&ms[n - 2]).is_ok());
        assert_eq!(rx.open(&ms[top]), Err(AuthError::Replay), "still seen");
    }

    #[test]
    fn a_datagram_reflected_back_at_its_sender_fails() {
        let (mut tx, mut rx) = pair(1);
        let m = sealed(&mut tx, b"data");
        assert_eq!(tx.open(&m), Err(AuthError::BadTag), "the sender's own datagram, sent back to it");
        let back = sealed(&mut rx, b"feedback");
        assert_eq!(rx.open(&back), Err(AuthError::BadTag), "the receiver's own");
        assert!(rx.open(&m).is_ok() && tx.open(&back).is_ok());
    }

    #[test]
    fn short_keys_and_missing_variables_are_refused() {
        assert!(Key::new(vec![0; 15]).is_err());
        assert!(Key::from_env("VIDCC_NO_SUCH_KEY_VARIABLE").unwrap_err().contains("VIDCC_NO_SUCH_KEY_VARIABLE"));
    }
}
