//! Real payload bytes: the encoded frames of a prepared clip (`vidcc video prepare`'s `q{N}.m4v`),
//! put into the data packets the endpoint sends, where simulation has only their lengths.
//!
//! The endpoint packetizes a frame of `size` bytes into `count` fragments of `max_payload` bytes
//! but the last, which takes the remainder (vidcc-core `media::packetizer`): fragment `index`
//! of a frame therefore starts at `index · len` for every fragment but the last, and the last ends
//! at the frame's end (`size − len`). This needs no state, so it holds for any order of sending.
//! Only the base layer (layer 0) of a frame is the bitstream; enhancement layers of layered video
//! have no encoded bytes here and stay zeros, as does anything past a frame's end (a padded last
//! fragment).
//!
//! A looping source (a trace replays from its first frame after its last, ids increasing) maps
//! frame `id` to `id mod n` when the map's frames are exactly `0..n`: the clip plays again.
//!
//! Order: the sender sends frames as the simulator does, in display order (`TraceSource`), with
//! each frame's own bytes. A bitstream with B frames is stored in decode order (an anchor before
//! the B frames that precede it in display), so a third-party decoder receives those B frames
//! before their backward reference; a clip prepared with `--bframes 0` has one order and plays.
//!
//! The map comes from the sender's side (`vidcc send` writes it from the prepared trace): JSON
//! `{"bitstream": PATH, "frames": [[display_index, offset, size], ...]}`; every range must lie
//! inside the file.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
use vidcc_core::media::MediaTag;

/// Fills the payload of a data packet, given its media tag (the driver calls it on a sender).
pub trait PayloadSource: Send {
    /// Writes `out.len()` payload bytes of the packet tagged `media`.
    fn fill(&mut self, media: &MediaTag, out: &mut [u8]);
}

#[derive(Deserialize)]
struct MapFile {
    bitstream: std::path::PathBuf,
    frames: Vec<(u32, u64, u64)>,
}

/// A prepared clip's bitstream and where each frame's bytes are in it.
#[derive(Debug)]
pub struct Bitstream {
    bytes: Vec<u8>,
    /// Display index -> (offset, size).
    frames: BTreeMap<u32, (usize, usize)>,
    /// `n` when the frames are exactly `0..n` (ids past it wrap: the clip loops).
    period: Option<u32>,
}

impl Bitstream {
    /// From a map file (see the module docs); the bitstream path is relative to the map's folder.
    pub fn from_map_file(path: &Path) -> Result<Bitstream, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let map: MapFile = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let file = path.parent().unwrap_or(Path::new(".")).join(&map.bitstream);
        let bytes = std::fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        Bitstream::new(bytes, &map.frames).map_err(|e| format!("{}: {e}", path.display()))
    }

    pub fn new(bytes: Vec<u8>, frames: &[(u32, u64, u64)]) -> Result<Bitstream, String> {
        let mut map = BTreeMap::new();
        for &(id, offset, size) in frames {
            let end = offset.checked_add(size).filter(|e| *e <= bytes.len() as u64);
            if end.is_none() {
                return Err(format!(
                    "frame {id}: bytes {offset}..+{size} lie outside the {}-byte bitstream",
                    bytes.len()
                ));
            }
            if map.insert(id, (offset as usize, size as usize)).is_some() {
                return Err(format!("frame {id} appears twice"));
            }
        }
        let n = map.len() as u32;
        let period = (n > 0 && map.keys().next_back() == Some(&(n - 1))).then_some(n);
        Ok(Bitstream { bytes, frames: map, period })
    }
}

impl PayloadSource for Bitstream {
    fn fill(&mut self, media: &MediaTag, out: &mut [u8]) {
        out.fill(0);
        if !media.is_media() || media.layer != 0 {
            return;
        }
        let id = self.period.map_or(media.frame, |n| media.frame % n);
        let Some(&(offset, size)) = self.frames.get(&id) else { return };
        let len = out.len();
        let start = if media.index + 1 >= media.count { size.saturating_sub(len) } else { media.index as usize * len };
        let take = len.min(size.saturating_sub(start));
        out[..take].copy_from_slice(&self.bytes[offset + start..offset + start + take]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vidcc_core::media::packetizer::Packetizer;
    use vidcc_core::media::FrameType;

    #[test]
    fn fragments_carry_their_frames_bytes_in_order() {
        let bytes: Vec<u8> = (0..5000u32).map(|i| (i % 251) as u8).collect();
        let frames = [(0, 0, 2500), (2, 2500, 900), (1, 3400, 1600)];
        let mut b = Bitstream::new(bytes.clone(), &frames).unwrap();
        for &(id, offset, size) in &frames {
            let mut got = Vec::new();
            for (len, tag) in Packetizer::new(1000).unwrap().fragments(id, FrameType::P, 0, size as u32).unwrap() {
                let mut out = vec![9u8; len as usize];
                b.fill(&tag, &mut out);
                got.extend_from_slice(&out);
            }
            assert_eq!(got, bytes[offset as usize..(offset + size) as usize], "frame {id}");
        }
        // A looping source: frame 3 of a 3-frame clip is frame 0 again.
        let mut out = vec![9u8; 10];
        b.fill(&MediaTag { frame: 3, frame_type: 1, layer: 0, index: 0, count: 250 }, &mut out);
        assert_eq!(out, bytes[..10]);
        // Enhancement layers are zeros; so are unknown frames of a map that is not 0..n.
        b.fill(&MediaTag { frame: 0, frame_type: 1, layer: 1, index: 0, count: 1 }, &mut out);
        assert_eq!(out, vec![0; 10]);
        let mut gaps = Bitstream::new(bytes.clone(), &[(0, 0, 10), (5, 10, 10)]).unwrap();
        gaps.fill(&MediaTag { frame: 7, frame_type: 1, layer: 0, index: 0, count: 1 }, &mut out);
        assert_eq!(out, vec![0; 10]);
    }

    #[test]
    fn ranges_outside_the_file_are_refused() {
        assert!(Bitstream::new(vec![0; 10], &[(0, 5, 6)]).unwrap_err().contains("outside"));
        assert!(Bitstream::new(vec![0; 10], &[(0, u64::MAX, 2)]).is_err());
        assert!(Bitstream::new(vec![0; 10], &[(0, 0, 2), (0, 2, 2)]).unwrap_err().contains("twice"));
    }
}
