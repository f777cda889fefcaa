//! What a receiver believes of a data envelope's numbers: a window around what it has seen.
//!
//! A datagram's sequence number and media tag come from the network; believed blindly, one
//! forged number can make a receiver's state (or the tables built from it) as large as the
//! number: a sequence number of 2^62 once made `vidcc recv` allocate 1.6 GB for a `packets`
//! table. The idea is RFC 3550 Appendix A.1's: a sequence number is judged against the highest
//! one seen. A number at most [`MAX_DROPOUT`] ahead of the next expected one is accepted (a
//! run of losses), one behind it is accepted too (reordering, duplicates, retransmissions:
//! none of them can enlarge anything), and one further ahead is counted and ignored. The
//! first data packet of a session is judged against sequence number 0, where every sender
//! of this runtime starts.
//!
//! Unlike RFC 3550 A.1 there is no resynchronisation after two sequential packets beyond the
//! window: an RTP source may restart its numbering, a session of this runtime never does (a
//! new sender is a new session), and resynchronising would let two forged packets move the
//! window. The price: an outage longer than [`MAX_DROPOUT`] packets in a row ends the
//! reception of that session (the receiver then ends on its idle timer). The same rule applies
//! to frame numbers ([`MAX_FRAME_DROPOUT`]), and a media tag must describe a fragment of a
//! frame that can exist (`index < count <= MAX_FRAGMENTS`, `layer < MAX_LAYERS`): the
//! receiver's video judgement creates a row per fragment of every frame it has seen.

/// RFC 3550 A.1's MAX_DROPOUT: how far ahead of the next expected sequence number a data
/// packet may be.
pub const MAX_DROPOUT: u64 = 3000;
/// How far ahead of the highest frame number seen a media packet's frame may be (120 s of
/// video at 25 frames/s).
pub const MAX_FRAME_DROPOUT: u32 = 3000;
/// Most fragments a frame may have (1 000-byte packets: a 16 MB frame).
pub const MAX_FRAGMENTS: u16 = 16_384;
/// Most layers (or simulcast streams) a media tag may name.
pub const MAX_LAYERS: u8 = 64;

/// Where a data envelope's numbers fall.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Accept,
    /// A sequence or frame number too far ahead of what was seen.
    OutOfWindow,
    /// A media tag no frame can have.
    BadTag,
}

/// The data-sequence and frame-number window of one receiving session.
#[derive(Clone, Debug, Default)]
pub struct SeqWindow {
    /// Highest data sequence number accepted.
    highest: Option<u64>,
    /// Highest frame number accepted.
    highest_frame: Option<u32>,
}

impl SeqWindow {
    /// The next expected data sequence number (one past the highest accepted).
    pub fn next_seq(&self) -> u64 {
        self.highest.map_or(0, |h| h + 1)
    }

    /// Judges a data envelope's numbers without changing the window.
    pub fn judge(&self, seq: u64, media: Option<vidcc_core::media::MediaTag>) -> Verdict {
        if seq > self.next_seq() && seq - self.next_seq() > MAX_DROPOUT {
            return Verdict::OutOfWindow;
        }
        if let Some(m) = media {
            if m.count == 0 || m.index >= m.count || m.count > MAX_FRAGMENTS || m.layer >= MAX_LAYERS {
                return Verdict::BadTag;
            }
            let next_frame = self.highest_frame.map_or(0, |f| f.saturating_add(1));
            if m.frame > next_frame && m.frame - next_frame > MAX_FRAME_DROPOUT {
                return Verdict::OutOfWindow;
            }
        }
        Verdict::Accept
    }

    /// Moves the window for an accepted packet.
    pub fn commit(&mut self, seq: u64, media: Option<vidcc_core::media::MediaTag>) {
        self.highest = Some(self.highest.map_or(seq, |h| h.max(seq)));
        if let Some(m) = media {
            self.highest_frame = Some(self.highest_frame.map_or(m.frame, |f| f.max(m.frame)));
        }
    }

    /// Whether a Bye's claims fit what arrived: its next sequence number at least the next
    /// expected one and at most [`MAX_DROPOUT`] beyond it (the packets lost at the tail), and
    /// its count of data packets sent at least `unique_arrived` and at most twice `next_seq`
    /// (every packet once, and retransmissions: a count beyond that is no loss rate a
    /// retransmitting protocol survives).
    pub fn bye_fits(&self, sent: u64, next_seq: u64, unique_arrived: u64) -> bool {
        let expected = self.next_seq();
        next_seq >= expected
            && next_seq - expected <= MAX_DROPOUT
            && sent >= unique_arrived
            && sent <= next_seq.saturating_mul(2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vidcc_core::media::MediaTag;

    #[test]
    fn numbers_far_ahead_are_refused_and_late_ones_accepted() {
        let mut w = SeqWindow::default();
        for huge in [1 << 31, 1 << 62, u64::MAX] {
            assert_eq!(w.judge(huge, None), Verdict::OutOfWindow, "{huge}");
        }
        assert_eq!(w.judge(MAX_DROPOUT, None), Verdict::Accept);
        assert_eq!(w.judge(MAX_DROPOUT + 1, None), Verdict::OutOfWindow);
        w.commit(10, None);
        assert_eq!(w.judge(11 + MAX_DROPOUT, None), Verdict::Accept);
        assert_eq!(w.judge(12 + MAX_DROPOUT, None), Verdict::OutOfWindow);
        assert_eq!(w.judge(0, None), Verdict::Accept, "late: reordering or a retransmission");
        w.commit(3, None);
        assert_eq!(w.next_seq(), 11, "a late packet does not move the window back");
    }

    #[test]
    fn impossible_media_tags_and_far_frames_are_refused() {
        let w = SeqWindow::default();
        let tag = MediaTag { frame: 0, frame_type: 0, layer: 0, index: 0, count: 1 };
        assert_eq!(w.judge(0, Some(tag)), Verdict::Accept);
        assert_eq!(w.judge(0, Some(MediaTag { index: 1, ..tag })), Verdict::BadTag);
        assert_eq!(w.judge(0, Some(MediaTag { count: 0, ..tag })), Verdict::BadTag);
        assert_eq!(w.judge(0, Some(MediaTag { count: u16::MAX, ..tag })), Verdict::BadTag);
        assert_eq!(w.judge(0, Some(MediaTag { layer: 200, ..tag })), Verdict::BadTag);
        assert_eq!(w.judge(0, Some(MediaTag { frame: u32::MAX, ..tag })), Verdict::OutOfWindow);
    }

    #[test]
    fn a_bye_must_fit_what_arrived() {
        let mut w = SeqWindow::default();
        w.commit(807, None);
        assert!(w.bye_fits(808, 808, 808));
        assert!(w.bye_fits(900, 900, 800), "losses at the tail");
        assert!(!w.bye_fits(1 << 62, 1 << 62, 808));
        assert!(!w.bye_fits(808, 200_000, 808), "next sequence number beyond the window");
        assert!(!w.bye_fits(100, 808, 808), "fewer sent than arrived");
        assert!(!w.bye_fits(808, 700, 700), "before what arrived");
    }
}
