//! Optional authentication of the driver's control envelopes (feedback, acknowledgements,
//! session offers, acceptances and byes) with a pre-shared key: HMAC-SHA256 (RustCrypto `hmac`
//! and `sha2`) over the whole envelope and a 64-bit sequence number, the tag truncated to
//! [`TAG_BYTES`] (RFC 2104 §5 allows truncation to at least half the hash; 128 bits here).
//!
//! Trailer appended to a sealed envelope: `seq u64 | tag[16]`. A receiver drops and counts an
//! envelope too short to hold a trailer ([`AuthError::Truncated`]), a tag that does not verify
//! ([`AuthError::BadTag`]), and a sequence number already seen or older than a 64-wide window
//! below the highest one ([`AuthError::Replay`], the IPsec anti-replay window of RFC 4303 §3.4.3).
//! Data packets are not authenticated (they carry media, and a forged one can only be counted
//! as received).
//!
//! The key comes from a file or an environment variable, never the command line (where any
//! user could read it in the process list): [`Key::from_file`], [`Key::from_env`].

use hmac::{Hmac, Mac};
use sha2::Sha256;

pub const TAG_BYTES: usize = 16;
pub const TRAILER_BYTES: usize = 8 + TAG_BYTES;
const WINDOW: u64 = 64;

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

/// One end's sealing and checking state.
#[derive(Debug)]
pub struct Auth {
    key: Key,
    next_seq: u64,
    /// Highest sequence number accepted, and a bitmap of the 64 below it (bit i: highest − i).
    highest: Option<u64>,
    seen: u64,
}

impl Auth {
    pub fn new(key: Key) -> Self {
        Auth { key, next_seq: 0, highest: None, seen: 0 }
    }

    fn tag(&self, bytes: &[u8]) -> [u8; 32] {
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(&self.key.0).expect("HMAC takes any key length");
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
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(&self.key.0).expect("HMAC takes any key length");
        mac.update(signed);
        mac.verify_truncated_left(tag).map_err(|_| AuthError::BadTag)?;
        let seq = u64::from_be_bytes(signed[signed.len() - 8..].try_into().expect("8 bytes"));
        self.check_replay(seq)?;
        Ok(&signed[..signed.len() - 8])
    }

    fn check_replay(&mut self, seq: u64) -> Result<(), AuthError> {
        match self.highest {
            None => {
                self.highest = Some(seq);
                self.seen = 1;
            }
            Some(h) if seq > h => {
                let shift = seq - h;
                self.seen = if shift >= WINDOW { 1 } else { (self.seen << shift) | 1 };
                self.highest = Some(seq);
            }
            Some(h) => {
                let back = h - seq;
                if back >= WINDOW || self.seen & (1 << back) != 0 {
                    return Err(AuthError::Replay);
                }
                self.seen |= 1 << back;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(b: u8) -> Key {
        Key::new(vec![b; 32]).unwrap()
    }

    fn sealed(a: &mut Auth, body: &[u8]) -> Vec<u8> {
        let mut out = vec![crate::envelope::KIND_CONTROL, 0, 0, 0, 1];
        out.extend_from_slice(body);
        a.seal(&mut out);
        out
    }

    #[test]
    fn a_sealed_envelope_opens_once_and_only_with_the_key() {
        let mut tx = Auth::new(key(1));
        let mut rx = Auth::new(key(1));
        let m = sealed(&mut tx, b"feedback");
        assert_eq!(rx.open(&m).unwrap(), &[&[crate::envelope::KIND_CONTROL, 0, 0, 0, 1][..], b"feedback"].concat()[..]);
        assert_eq!(rx.open(&m), Err(AuthError::Replay), "the same envelope twice is a replay");
        let m2 = sealed(&mut tx, b"next");
        assert_eq!(Auth::new(key(2)).open(&m2), Err(AuthError::BadTag), "another key");
        let mut flipped = m2.clone();
        flipped[6] ^= 1;
        assert_eq!(rx.open(&flipped), Err(AuthError::BadTag), "a changed body");
        assert_eq!(rx.open(&m2[..m2.len() - 1]), Err(AuthError::BadTag), "a tag cut short");
        assert_eq!(rx.open(&m2[..10]), Err(AuthError::Truncated));
        assert!(rx.open(&m2).is_ok());
    }

    #[test]
    fn the_replay_window_accepts_reordering_within_64() {
        let mut tx = Auth::new(key(1));
        let mut rx = Auth::new(key(1));
        let ms: Vec<Vec<u8>> = (0..100).map(|i| sealed(&mut tx, &[i as u8])).collect();
        assert!(rx.open(&ms[70]).is_ok());
        assert!(rx.open(&ms[10]).is_ok(), "60 behind: inside the window");
        assert_eq!(rx.open(&ms[5]), Err(AuthError::Replay), "65 behind: outside");
        assert_eq!(rx.open(&ms[10]), Err(AuthError::Replay));
        assert!(rx.open(&ms[99]).is_ok());
    }

    #[test]
    fn short_keys_and_missing_variables_are_refused() {
        assert!(Key::new(vec![0; 15]).is_err());
        assert!(Key::from_env("VIDCC_NO_SUCH_KEY_VARIABLE").unwrap_err().contains("VIDCC_NO_SUCH_KEY_VARIABLE"));
    }
}
