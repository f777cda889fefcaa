//! GOP patterns: frame types, decode order and reference frames of an MPEG-4 Part 2 stream.
//!
//! A [`GopPattern`] is parsed from a string such as `IBBPBBPBBPBB` (the DVRC/SSVP default,
//! docs/papers/dvrc.md §2.1 \[D\], docs/papers/ssvp.md §2 \[U\]: N = 12, M = 3) or `IBPBPBPBPBPB`
//! (Evalvid-RA clips, docs/papers/asmp-tfmcc.md §2, AMB-11 \[C\]: `-g 12 -bf 1`). It must start
//! with `I` and contain only `I`, `P`, `B` (either case; surrounding whitespace is ignored). The
//! pattern repeats forever: display frame `n` has the type of position `n mod N`.
//!
//! Semantics chosen — **open GOP**, as MPEG-4 Part 2 encoders with B frames produce them (ffmpeg's
//! default without `-flags +cgop`):
//! - an anchor is an I or P frame; frame 0 is an I, so every B has an anchor before it;
//! - I references nothing; P references the previous anchor (I or P); B references the previous
//!   and the next anchor. The B frames at the end of a GOP (after its last anchor) therefore reference the
//!   **next GOP's I**, and a lost I frame also kills the trailing B frames of the GOP before it.
//! - decode (= transmission) order: every anchor is decoded before the B frames that precede it
//!   in display order. For `IBBPBBPBBPBB`: I0 P3 B1 B2 P6 B4 B5 P9 B7 B8 I12 B10 B11 P15 ...
//!   Closed form: a B frame `n` has decode position `n + 1`; an anchor `a > 0` has decode position
//!   `prev_anchor(a) + 1`; frame 0 has position 0.
//!
//! Deviations: no closed-GOP mode (closed GOPs would turn trailing B frames into backward-only
//! predictions, which the papers' traces do not show). Display indices are `u32` like
//! `Frame::id`; a next anchor beyond `u32::MAX` (after 5 years at 25 fps) saturates.

use super::frame::FrameType;
use std::fmt;

/// Why a GOP pattern string was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid GOP pattern {pattern:?}: {reason}")]
pub struct GopError {
    pub pattern: String,
    pub reason: String,
}

/// The frames a frame is predicted from (display indices).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum References {
    /// I frame: decodable on its own.
    None,
    /// P frame: the previous anchor.
    Forward(u32),
    /// B frame: the previous and the next anchor.
    Bidirectional(u32, u32),
}

impl References {
    /// The referenced frames, previous anchor first.
    pub fn iter(self) -> impl Iterator<Item = u32> {
        let (a, b) = match self {
            References::None => (None, None),
            References::Forward(p) => (Some(p), None),
            References::Bidirectional(p, n) => (Some(p), Some(n)),
        };
        a.into_iter().chain(b)
    }
}

/// A repeating GOP pattern (display order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GopPattern {
    types: Vec<FrameType>,
    /// Per position j: distance back to the previous anchor (from frame j of any GOP but the
    /// first; for position 0 of GOP 0 there is none).
    prev_anchor_dist: Vec<u32>,
    /// Per position j: distance forward to the next anchor.
    next_anchor_dist: Vec<u32>,
    /// Decode slot → display index, for decode positions 0..N of the first GOP.
    first_decode: Vec<u32>,
    /// Decode slot j of later periods: display index = N·p + offset[j] (offset may be negative:
    /// the trailing B frames of the previous GOP).
    decode_offset: Vec<i64>,
}

impl GopPattern {
    pub fn parse(s: &str) -> Result<Self, GopError> {
        let err = |reason: String| GopError { pattern: s.to_string(), reason };
        let t = s.trim();
        if t.is_empty() {
            return Err(err("empty; expected e.g. \"IBBPBBPBBPBB\"".into()));
        }
        let mut types = Vec::with_capacity(t.len());
        for (i, c) in t.chars().enumerate() {
            match FrameType::from_char(c) {
                Some(ft) => types.push(ft),
                None => {
                    return Err(err(format!("character {c:?} at position {} is not I, P or B", i + 1)));
                }
            }
        }
        if types[0] != FrameType::I {
            return Err(err(format!("must start with I, not {:?}", types[0].as_char())));
        }
        Ok(Self::from_types(types))
    }

    fn from_types(types: Vec<FrameType>) -> Self {
        let n = types.len();
        let is_anchor = |k: usize| types[k % n] != FrameType::B;
        // Distances computed over the periodic extension; position 0 is an I so both searches stop
        // within one period.
        let prev_anchor_dist =
            (0..n).map(|j| (1..=n).find(|&d| is_anchor(j + n - d)).expect("I in pattern") as u32).collect();
        let next_anchor_dist =
            (0..n).map(|j| (1..=n).find(|&d| is_anchor(j + d)).expect("I in pattern") as u32).collect();
        let mut g =
            GopPattern { types, prev_anchor_dist, next_anchor_dist, first_decode: vec![], decode_offset: vec![] };
        // Invert the closed-form decode position over the first three periods.
        let mut slots = vec![u32::MAX; 3 * n];
        for d in 0..3 * n as u32 {
            let pos = g.decode_position(d);
            if (pos as usize) < slots.len() {
                slots[pos as usize] = d;
            }
        }
        g.first_decode = slots[..n].to_vec();
        g.decode_offset = slots[n..2 * n].iter().map(|&d| i64::from(d) - n as i64).collect();
        g
    }

    /// Frames per GOP (N).
    pub fn len(&self) -> usize {
        self.types.len()
    }
    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
    }
    /// The pattern, one type per position.
    pub fn types(&self) -> &[FrameType] {
        &self.types
    }
    /// Count of I, P and B frames per GOP.
    pub fn counts(&self) -> [usize; 3] {
        let mut c = [0; 3];
        for t in &self.types {
            c[(t.code() - 1) as usize] += 1;
        }
        c
    }
    fn pos(&self, n: u32) -> usize {
        n as usize % self.types.len()
    }
    /// Type of display frame `n`.
    pub fn frame_type(&self, n: u32) -> FrameType {
        self.types[self.pos(n)]
    }
    /// Whether display frame `n` starts a GOP (is at position 0 of the pattern).
    pub fn is_gop_start(&self, n: u32) -> bool {
        self.pos(n) == 0
    }
    pub fn is_anchor(&self, n: u32) -> bool {
        self.frame_type(n) != FrameType::B
    }
    /// The anchor (I or P) before display frame `n`; `None` for frame 0.
    pub fn prev_anchor(&self, n: u32) -> Option<u32> {
        n.checked_sub(self.prev_anchor_dist[self.pos(n)])
    }
    /// The anchor after display frame `n` (saturating at `u32::MAX`).
    pub fn next_anchor(&self, n: u32) -> u32 {
        n.saturating_add(self.next_anchor_dist[self.pos(n)])
    }
    /// Frames display frame `n` is predicted from.
    pub fn references(&self, n: u32) -> References {
        match self.frame_type(n) {
            FrameType::I => References::None,
            FrameType::P => References::Forward(self.prev_anchor(n).expect("a P frame is never frame 0")),
            FrameType::B => {
                References::Bidirectional(self.prev_anchor(n).expect("a B frame is never frame 0"), self.next_anchor(n))
            }
        }
    }
    /// Position of display frame `n` in decode (transmission) order, 0-based.
    pub fn decode_position(&self, n: u32) -> u64 {
        match (self.frame_type(n), self.prev_anchor(n)) {
            (_, None) => 0,
            (FrameType::B, _) => u64::from(n) + 1,
            (_, Some(p)) => u64::from(p) + 1,
        }
    }
    /// Display index of the frame at decode position `d` (inverse of [`decode_position`]).
    ///
    /// [`decode_position`]: GopPattern::decode_position
    pub fn display_index_at(&self, d: u64) -> u32 {
        let n = self.types.len() as u64;
        if d < n {
            return self.first_decode[d as usize];
        }
        let base = (d / n * n) as i64;
        (base + self.decode_offset[(d % n) as usize]).clamp(0, i64::from(u32::MAX)) as u32
    }
    /// Display indices in decode order, starting at decode position 0 (never ends).
    pub fn decode_order(&self) -> impl Iterator<Item = u32> + '_ {
        (0u64..).map(move |d| self.display_index_at(d))
    }
}

impl fmt::Display for GopPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for t in &self.types {
            write!(f, "{}", t.as_char())?;
        }
        Ok(())
    }
}

impl std::str::FromStr for GopPattern {
    type Err = GopError;
    fn from_str(s: &str) -> Result<Self, GopError> {
        GopPattern::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use FrameType::*;

    fn types_of(g: &GopPattern, n: u32) -> String {
        (0..n).map(|i| g.frame_type(i).as_char()).collect()
    }

    #[test]
    fn types_repeat_in_display_order() {
        let g = GopPattern::parse("IBBPBBPBBPBB").unwrap();
        assert_eq!(g.len(), 12);
        assert_eq!(g.counts(), [1, 3, 8]);
        assert_eq!(types_of(&g, 26), "IBBPBBPBBPBBIBBPBBPBBPBBIB");
        let g2: GopPattern = "ibpbpbpbpbpb".parse().unwrap();
        assert_eq!(g2.to_string(), "IBPBPBPBPBPB");
        assert_eq!(g2.counts(), [1, 5, 6]);
        assert!(g.is_gop_start(24) && !g.is_gop_start(23));
    }

    #[test]
    fn decode_order_ibbp() {
        let g = GopPattern::parse("IBBPBBPBBPBB").unwrap();
        let order: Vec<u32> = g.decode_order().take(27).collect();
        assert_eq!(
            order,
            vec![0, 3, 1, 2, 6, 4, 5, 9, 7, 8, 12, 10, 11, 15, 13, 14, 18, 16, 17, 21, 19, 20, 24, 22, 23, 27, 25]
        );
        for n in 0..200 {
            assert_eq!(g.display_index_at(g.decode_position(n)), n, "frame {n}");
        }
    }

    #[test]
    fn decode_order_ibpb() {
        let g = GopPattern::parse("IBPBPBPBPBPB").unwrap();
        let order: Vec<u32> = g.decode_order().take(15).collect();
        assert_eq!(order, vec![0, 2, 1, 4, 3, 6, 5, 8, 7, 10, 9, 12, 11, 14, 13]);
        for n in 0..200 {
            assert_eq!(g.display_index_at(g.decode_position(n)), n);
        }
        // Every frame is decoded after all its references.
        for n in 0..200 {
            for r in g.references(n).iter() {
                assert!(g.decode_position(r) < g.decode_position(n), "{n} refs {r}");
            }
        }
    }

    #[test]
    fn references_open_gop() {
        let g = GopPattern::parse("IBBPBBPBBPBB").unwrap();
        assert_eq!(g.references(0), References::None);
        assert_eq!(g.references(12), References::None);
        assert_eq!(g.references(3), References::Forward(0));
        assert_eq!(g.references(9), References::Forward(6));
        assert_eq!(g.references(15), References::Forward(12));
        assert_eq!(g.references(1), References::Bidirectional(0, 3));
        assert_eq!(g.references(5), References::Bidirectional(3, 6));
        // Trailing B frames of GOP 0 reference GOP 1's I frame.
        assert_eq!(g.references(10), References::Bidirectional(9, 12));
        assert_eq!(g.references(11), References::Bidirectional(9, 12));
        assert_eq!(g.references(23), References::Bidirectional(21, 24));
        let g2 = GopPattern::parse("IBPBPBPBPBPB").unwrap();
        assert_eq!(g2.references(1), References::Bidirectional(0, 2));
        assert_eq!(g2.references(2), References::Forward(0));
        assert_eq!(g2.references(11), References::Bidirectional(10, 12));
        assert_eq!(g2.references(13).iter().collect::<Vec<_>>(), vec![12, 14]);
        assert_eq!(g2.prev_anchor(0), None);
        assert_eq!(g2.next_anchor(u32::MAX - 1), u32::MAX);
    }

    #[test]
    fn patterns_without_b_and_all_i() {
        let g = GopPattern::parse("IPPP").unwrap();
        assert_eq!(g.decode_order().take(8).collect::<Vec<_>>(), (0..8).collect::<Vec<_>>());
        assert_eq!(g.references(4), References::None);
        assert_eq!(g.references(5), References::Forward(4));
        let i = GopPattern::parse("I").unwrap();
        assert_eq!(i.references(7), References::None);
        assert_eq!(i.frame_type(7), I);
        let short = GopPattern::parse("IB").unwrap();
        assert_eq!(short.references(1), References::Bidirectional(0, 2));
        assert_eq!(short.decode_order().take(5).collect::<Vec<_>>(), vec![0, 2, 1, 4, 3]);
        assert_eq!(short.frame_type(3), B);
        assert_eq!(GopPattern::parse("IPB").unwrap().frame_type(2), B);
    }

    #[test]
    fn bad_patterns_name_the_problem() {
        let e = GopPattern::parse("IBBXB").unwrap_err();
        assert!(e.to_string().contains("'X' at position 4"), "{e}");
        let e = GopPattern::parse("PBBI").unwrap_err();
        assert!(e.to_string().contains("must start with I"), "{e}");
        assert!(GopPattern::parse("  ").unwrap_err().to_string().contains("empty"));
        assert!(GopPattern::parse("I B").unwrap_err().to_string().contains("' ' at position 2"));
    }
}
