//! Packetizer: splits a frame (or one layer / simulcast stream of a frame) into packets of at
//! most `max_payload` bytes, each tagged with a [`MediaTag`].
//!
//! Source: docs/papers/dvrc.md §2.1 (DVRC: "each frame into fixed-size packets" of 1000 B \[P\], "a
//! frame's last fragment may be shorter than 1000 B" \[D\]), docs/papers/ssvp.md §2 (SSVP:
//! 1000-byte packets, last fragment padded \[U\]), docs/papers/asmp-tfmcc.md §2 (Evalvid-RA: ≤ 978
//! B payloads, ≤ 1018 B packets).
//!
//! Parameters:
//! - `max_payload`: payload bytes per packet. The packet size on the wire (1000 B in the papers)
//!   minus the protocol's header is the caller's business, so the packetizer takes payload bytes.
//! - `pad_last` (default `false`): the last fragment is as long as what remains (DVRC \[D\]); with
//!   `true` it is padded to `max_payload` (SSVP's reading, which keeps every packet the same size).
//!
//! A frame of `s > 0` bytes gives `⌈s / max_payload⌉` packets: all full except possibly the last.
//! Tags carry the frame's display index, `FrameType::code()`, the layer or stream index, the
//! packet's index within this frame-and-layer and the packet count, so a receiver knows when it
//! has a whole frame. **A zero-byte frame or layer gives one packet with a zero-byte payload**
//! (header only): the frame is still represented on the wire, so "all packets of the frame
//! arrived" stays well defined for the receiver's decodability and delivery metrics, and the
//! payload byte count still sums to the frame size. (Zero-byte frames only come from synthetic
//! sources or from splitting tiny frames across layers; a real coder always emits a VOP header.)
//! More than 65 535 packets for one frame (`MediaTag::count` is a `u16`) is an error.

use super::frame::{Frame, FrameType, MediaTag};

/// Why a frame cannot be packetized.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct PacketizeError(pub String);

/// Splits frames into tagged packets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packetizer {
    max_payload: u32,
    pad_last: bool,
}

impl Packetizer {
    pub fn new(max_payload: u32) -> Result<Self, PacketizeError> {
        if max_payload == 0 {
            return Err(PacketizeError("max_payload must be at least 1 byte".into()));
        }
        Ok(Packetizer { max_payload, pad_last: false })
    }
    /// Pad the last fragment of every frame to `max_payload` bytes.
    pub fn with_padding(mut self, pad_last: bool) -> Self {
        self.pad_last = pad_last;
        self
    }
    pub fn max_payload(&self) -> u32 {
        self.max_payload
    }
    /// Packets for `size_bytes` (at least one).
    pub fn packet_count(&self, size_bytes: u32) -> u32 {
        size_bytes.div_ceil(self.max_payload).max(1)
    }

    /// Packets of one layer (or stream) of a frame: `(payload_len, tag)` in order.
    pub fn fragments(
        &self,
        frame_id: u32,
        frame_type: FrameType,
        layer: u8,
        size_bytes: u32,
    ) -> Result<Fragments, PacketizeError> {
        let count = self.packet_count(size_bytes);
        let count = u16::try_from(count).map_err(|_| {
            PacketizeError(format!(
                "frame {frame_id} layer {layer}: {size_bytes} bytes need {count} packets of at most {} bytes \
                 (more than {})",
                self.max_payload,
                u16::MAX
            ))
        })?;
        Ok(Fragments {
            tag: MediaTag { frame: frame_id, frame_type: frame_type.code(), layer, index: 0, count },
            remaining: size_bytes,
            max_payload: self.max_payload,
            pad_last: self.pad_last,
        })
    }

    /// Packets of a whole (single-layer) frame, tagged layer 0.
    pub fn frame(&self, frame: &Frame) -> Result<Fragments, PacketizeError> {
        self.fragments(frame.id, frame.frame_type, 0, frame.size_bytes)
    }
}

/// Iterator over the packets of one frame-and-layer.
#[derive(Clone, Debug)]
pub struct Fragments {
    tag: MediaTag,
    remaining: u32,
    max_payload: u32,
    pad_last: bool,
}

impl Iterator for Fragments {
    type Item = (u32, MediaTag);

    #[inline]
    fn next(&mut self) -> Option<(u32, MediaTag)> {
        if self.tag.index >= self.tag.count {
            return None;
        }
        let take = self.remaining.min(self.max_payload);
        self.remaining -= take;
        let len = if self.pad_last && take > 0 { self.max_payload } else { take };
        let tag = self.tag;
        self.tag.index += 1;
        Some((len, tag))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = usize::from(self.tag.count - self.tag.index);
        (n, Some(n))
    }
}

impl ExactSizeIterator for Fragments {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::Instant;
    use FrameType::*;

    fn collect(p: &Packetizer, size: u32) -> Vec<(u32, MediaTag)> {
        p.fragments(7, P, 2, size).unwrap().collect()
    }

    #[test]
    fn sizes_counts_and_tags() {
        let p = Packetizer::new(1000).unwrap();
        let v = collect(&p, 2500);
        assert_eq!(v.iter().map(|x| x.0).collect::<Vec<_>>(), vec![1000, 1000, 500]);
        for (i, (_, tag)) in v.iter().enumerate() {
            assert_eq!(*tag, MediaTag { frame: 7, frame_type: 2, layer: 2, index: i as u16, count: 3 });
            assert!(tag.is_media());
        }
        assert_eq!(collect(&p, 3000).iter().map(|x| x.0).collect::<Vec<_>>(), vec![1000; 3]);
        assert_eq!(collect(&p, 1).iter().map(|x| x.0).collect::<Vec<_>>(), vec![1]);
        assert_eq!(collect(&p, 1001).len(), 2);
        assert_eq!(p.packet_count(1001), 2);
        for size in [1, 999, 1000, 1001, 12345, 65_535_000] {
            let f = p.fragments(1, I, 0, size).unwrap();
            assert_eq!(f.len() as u32, p.packet_count(size));
            assert_eq!(f.map(|x| u64::from(x.0)).sum::<u64>(), u64::from(size));
        }
    }

    #[test]
    fn zero_size_gives_one_header_only_packet() {
        let p = Packetizer::new(978).unwrap();
        let v = collect(&p, 0);
        assert_eq!(v, vec![(0, MediaTag { frame: 7, frame_type: 2, layer: 2, index: 0, count: 1 })]);
        assert_eq!(p.with_padding(true).fragments(0, B, 0, 0).unwrap().next().unwrap().0, 0);
    }

    #[test]
    fn padding_fills_the_last_fragment() {
        let p = Packetizer::new(1000).unwrap().with_padding(true);
        assert_eq!(collect(&p, 2500).iter().map(|x| x.0).collect::<Vec<_>>(), vec![1000; 3]);
        let f = Frame { id: 3, frame_type: B, size_bytes: 10, ready_at: Instant::ZERO };
        let v: Vec<_> = p.frame(&f).unwrap().collect();
        assert_eq!(v, vec![(1000, MediaTag { frame: 3, frame_type: 3, layer: 0, index: 0, count: 1 })]);
    }

    #[test]
    fn limits() {
        assert!(Packetizer::new(0).is_err());
        let p = Packetizer::new(1).unwrap();
        assert_eq!(p.fragments(0, I, 0, 65_535).unwrap().len(), 65_535);
        let e = p.fragments(9, I, 1, 65_536).unwrap_err();
        assert!(e.0.contains("frame 9 layer 1") && e.0.contains("65536 packets"), "{e}");
        assert!(Packetizer::new(1000).unwrap().fragments(0, I, 0, u32::MAX).is_err());
    }
}
