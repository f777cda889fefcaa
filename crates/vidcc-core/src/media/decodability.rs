//! Offline decodability: which frames a receiver could decode in time, from a run's log.
//!
//! Used by the simulator at the end of a run and by tests. Given the frames the application
//! produced ([`SentFrame`], with their references written out) and the per-packet log
//! ([`PacketRecord`]: every packet that went on the wire, with its arrival or `None` if lost),
//! [`evaluate`] gives each frame a [`FrameOutcome`].
//!
//! Rules (Evalvid semantics, docs/papers/asmp-tfmcc.md §2 and issue 4: "a frame is usable only if
//! all its packets arrived before its deadline and its references are usable"; frame mode of
//! Evalvid's `et`: a frame with any lost packet is lost):
//! * A frame's deadline is its playout time ([`PlayoutConfig`], `playout.rs`): from the first
//!   arrival, the frame's ready time, or its first packet's send time (the anchor).
//! * Layer `l` of a frame is *received in time* when each of its packets was sent, arrived, and
//!   arrived no later than the deadline. Its own usable layers are the longest prefix
//!   `0..k` of layers received in time (layers are cumulative).
//! * References: an I frame has none, a P frame its previous anchor, a B frame both anchors.
//!   They are given explicitly in [`SentFrame::refs`] (display indices), so this module does
//!   not depend on a GOP model. A reference is usable for layer `L` of a frame when it is
//!   decodable at `L` layers ([`LayerRefRule::SameLayer`], default: layer i needs layer i of
//!   its references) or at the base layer ([`LayerRefRule::BaseOnly`], FGS style), **and**
//!   those layers of the reference were complete by the frame's own deadline: a decoder needs
//!   the forward anchor of a B frame before it can show the B frame. For a P frame this is
//!   implied (its reference plays earlier).
//! * `layers_decodable` = the largest `L` such that the frame's own layers `0..L` are received
//!   in time and every reference is usable for `L` (0 = not decodable).
//!
//! Status (the first that applies): no layer sent, or a base-layer packet never transmitted
//! (dropped by the sender buffer) → `Unsent`; a base-layer packet transmitted but never
//! arrived → `Lost`; all base packets arrived, one after the deadline → `Late`; the base
//! layer fine but a reference unusable → `Dependency`; otherwise `Ok` (`decodable`).
//!
//! Choices where the sources are silent:
//! * A late frame is unusable as a reference too: Evalvid removes it from the rebuilt
//!   bitstream, so its dependants decode from a wrong reference (issue 4 asks for late frames
//!   "and their dependants").
//! * A reference to a frame that is not in `frames`, or a reference cycle, is unusable.
//! * Packets: a record matching no frame, a layer the frame did not send, or an index beyond the
//!   frame's count for that layer is ignored. Duplicates of one `(frame, layer, index)` count
//!   once, with the earliest arrival.
//! * `FirstArrival` anchor: `t0` is the earliest arrival of any valid packet and `n0` its
//!   frame (lowest frame id on a tie). If nothing arrived, deadlines fall back to
//!   `ready_at + startup_delay`.
//! * `SendTime` anchor: a frame's send time is the earliest `sent_at` of any record of its valid
//!   packets, duplicates included (a retransmission leaves after the first copy). A frame with no
//!   such record falls back to `ready_at + startup_delay` (`playout.rs`); its status is `Unsent`
//!   whatever its deadline.
//! * `complete_at` is when the base layer was complete (last base packet's arrival), `None`
//!   if a base packet never arrived.
//! * A frame id that appears twice in `frames` is evaluated twice; references resolve to the
//!   first.

use crate::media::frame::{FrameType, MediaTag};
use crate::media::playout::{scheduled_playout, LayerRefRule, PlayoutAnchor, PlayoutConfig};
use crate::time::Instant;

/// A frame as the application produced it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SentFrame {
    /// Display index.
    pub id: u32,
    pub frame_type: FrameType,
    /// Display indices of the frames it is predicted from (I: none; P: previous anchor; B: the
    /// previous and next anchors).
    pub refs: [Option<u32>; 2],
    pub ready_at: Instant,
    /// Packets the application produced for each layer it sent of this frame (index = layer;
    /// the length is the number of layers sent, at most 255).
    pub packets_per_layer: Vec<u16>,
}

impl SentFrame {
    pub fn layers_sent(&self) -> u8 {
        self.packets_per_layer.len().min(u8::MAX as usize) as u8
    }

    /// Packets of all layers sent.
    pub fn packets(&self) -> u64 {
        self.packets_per_layer.iter().take(u8::MAX as usize).map(|&c| c as u64).sum()
    }
}

/// One packet that left the sender.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PacketRecord {
    pub tag: MediaTag,
    pub size_bytes: u32,
    pub sent_at: Instant,
    /// Arrival at the receiver (`None`: lost).
    pub arrival: Option<Instant>,
}

/// Why a frame is or is not decodable (see the module docs for the precedence).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FrameStatus {
    Ok,
    /// A base-layer packet was sent but never arrived.
    Lost,
    /// All base-layer packets arrived, at least one after the deadline.
    Late,
    /// Its own base layer is fine, but a reference is unusable.
    Dependency,
    /// Dropped at the sender (a base-layer packet never went out, or no layer was sent).
    Unsent,
}

/// The verdict on one frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameOutcome {
    pub id: u32,
    pub frame_type: FrameType,
    pub status: FrameStatus,
    /// `status == Ok`, i.e. `layers_decodable ≥ 1`.
    pub decodable: bool,
    pub layers_sent: u8,
    pub layers_decodable: u8,
    /// When the base layer was complete (`None` if a base packet never arrived).
    pub complete_at: Option<Instant>,
    /// The frame's playout time.
    pub deadline: Instant,
}

/// Frame ids sorted for lookup (no hashing, deterministic).
pub(crate) struct FrameIndex {
    sorted: Vec<(u32, usize)>,
}

impl FrameIndex {
    pub(crate) fn new(frames: &[SentFrame]) -> Self {
        let mut sorted: Vec<(u32, usize)> = frames.iter().enumerate().map(|(i, f)| (f.id, i)).collect();
        sorted.sort_unstable();
        sorted.dedup_by_key(|e| e.0); // keeps the first (lowest position) of equal ids
        FrameIndex { sorted }
    }

    pub(crate) fn get(&self, id: u32) -> Option<usize> {
        self.sorted.binary_search_by_key(&id, |e| e.0).ok().map(|i| self.sorted[i].1)
    }
}

/// A packet record after duplicate removal.
#[derive(Clone, Copy, Debug)]
pub(crate) struct UniquePacket {
    /// Position in the packet log.
    pub record: usize,
    /// Position of its frame in `frames` if the record matches a packet the frame was sent with.
    pub frame: Option<usize>,
}

/// One record per distinct `(frame, layer, index)`, the earliest arrival kept, sorted by that key.
pub(crate) fn unique_packets(frames: &[SentFrame], index: &FrameIndex, packets: &[PacketRecord]) -> Vec<UniquePacket> {
    let key = |i: usize| {
        let p = &packets[i];
        (p.tag.frame, p.tag.layer, p.tag.index, p.arrival.is_none(), p.arrival.unwrap_or(Instant::ZERO), i)
    };
    let mut order: Vec<usize> = (0..packets.len()).collect();
    order.sort_unstable_by_key(|&i| key(i));
    order.dedup_by_key(|i| {
        let t = packets[*i].tag;
        (t.frame, t.layer, t.index)
    });
    order
        .into_iter()
        .map(|record| UniquePacket { record, frame: frame_of(frames, index, &packets[record].tag) })
        .collect()
}

/// Position of the frame `tag` names in `frames`, if it is a packet that frame was sent with.
fn frame_of(frames: &[SentFrame], index: &FrameIndex, t: &MediaTag) -> Option<usize> {
    index.get(t.frame).filter(|&pos| {
        let ppl = &frames[pos].packets_per_layer;
        (t.layer as usize) < ppl.len().min(u8::MAX as usize) && t.index < ppl[t.layer as usize]
    })
}

/// Playout deadline of every frame (positions as in `frames`).
pub(crate) fn deadlines(
    frames: &[SentFrame],
    index: &FrameIndex,
    packets: &[PacketRecord],
    unique: &[UniquePacket],
    cfg: &PlayoutConfig,
) -> Vec<Instant> {
    let from_ready = |f: &SentFrame| f.ready_at + cfg.startup_delay;
    match cfg.anchor {
        PlayoutAnchor::ReadyTime => frames.iter().map(from_ready).collect(),
        PlayoutAnchor::SendTime => {
            // Every record, not just the unique ones: the first copy of a packet left first.
            let mut first_sent: Vec<Option<Instant>> = vec![None; frames.len()];
            for p in packets {
                if let Some(pos) = frame_of(frames, index, &p.tag) {
                    first_sent[pos] = Some(first_sent[pos].map_or(p.sent_at, |t| t.min(p.sent_at)));
                }
            }
            frames
                .iter()
                .zip(first_sent)
                .map(|(f, sent)| sent.map_or_else(|| from_ready(f), |t| t + cfg.startup_delay))
                .collect()
        }
        PlayoutAnchor::FirstArrival => {
            let mut first: Option<(Instant, u32)> = None;
            for u in unique.iter().filter(|u| u.frame.is_some()) {
                let p = &packets[u.record];
                if let Some(a) = p.arrival {
                    if first.is_none_or(|(t, _)| a < t) {
                        first = Some((a, p.tag.frame));
                    }
                }
            }
            match first {
                None => frames.iter().map(from_ready).collect(),
                Some((t0, n0)) => frames
                    .iter()
                    .map(|f| scheduled_playout(t0, n0, cfg.startup_delay, cfg.frame_interval, f.id))
                    .collect(),
            }
        }
    }
}

#[derive(Clone, Copy, Debug, Default)]
struct LayerAcc {
    transmitted: u32,
    arrived: u32,
    last_arrival: Option<Instant>,
}

/// Decides every frame's outcome (see the module docs). Outcomes are in the order of `frames`.
pub fn evaluate(frames: &[SentFrame], packets: &[PacketRecord], cfg: &PlayoutConfig) -> Vec<FrameOutcome> {
    let index = FrameIndex::new(frames);
    let unique = unique_packets(frames, &index, packets);
    let deadline = deadlines(frames, &index, packets, &unique, cfg);

    // Per (frame, layer) accumulators, flattened: frame f's layers start at offset[f].
    let mut offset = Vec::with_capacity(frames.len() + 1);
    offset.push(0usize);
    for f in frames {
        offset.push(offset.last().copied().unwrap_or(0) + f.layers_sent() as usize);
    }
    let mut acc = vec![LayerAcc::default(); offset[frames.len()]];
    for u in &unique {
        if let Some(pos) = u.frame {
            let p = &packets[u.record];
            let a = &mut acc[offset[pos] + p.tag.layer as usize];
            a.transmitted += 1;
            if let Some(t) = p.arrival {
                a.arrived += 1;
                a.last_arrival = a.last_arrival.max(Some(t));
            }
        }
    }

    // Own status per layer, the prefix of layers received in time, and cumulative completion.
    let layer_status = |pos: usize, layer: usize| -> FrameStatus {
        let count = frames[pos].packets_per_layer[layer] as u32;
        let a = &acc[offset[pos] + layer];
        if a.transmitted < count {
            FrameStatus::Unsent
        } else if a.arrived < count {
            FrameStatus::Lost
        } else if a.last_arrival.is_some_and(|t| t > deadline[pos]) {
            FrameStatus::Late
        } else {
            FrameStatus::Ok
        }
    };
    let mut own_ok = vec![0u8; frames.len()];
    // complete[offset[f] + l] = when layers 0..=l of f had all arrived (None: no packet in them).
    let mut complete: Vec<Option<Instant>> = vec![None; acc.len()];
    for pos in 0..frames.len() {
        let layers = frames[pos].layers_sent() as usize;
        own_ok[pos] = (0..layers).take_while(|&l| layer_status(pos, l) == FrameStatus::Ok).count() as u8;
        let mut cum = None;
        for l in 0..layers {
            cum = cum.max(acc[offset[pos] + l].last_arrival);
            complete[offset[pos] + l] = cum;
        }
    }

    // Decodable layers in dependency order: an explicit-stack DFS over the references, so a long
    // P chain cannot overflow the call stack. 0 = unvisited, 1 = expanded, 2 = done.
    let mut state = vec![0u8; frames.len()];
    let mut decodable_layers = vec![0u8; frames.len()];
    let mut stack: Vec<usize> = Vec::new();
    for root in 0..frames.len() {
        if state[root] != 0 {
            continue;
        }
        stack.push(root);
        while let Some(&top) = stack.last() {
            match state[top] {
                0 => {
                    state[top] = 1;
                    for r in frames[top].refs.iter().flatten() {
                        if let Some(rp) = index.get(*r) {
                            if state[rp] == 0 {
                                stack.push(rp);
                            }
                        }
                    }
                }
                1 => {
                    let mut layers = own_ok[top];
                    for r in frames[top].refs.iter().flatten() {
                        let usable = match index.get(*r) {
                            // Missing reference, or still expanded (a cycle through `top`).
                            Some(rp) if state[rp] == 2 => {
                                let in_time =
                                    |l: u8| complete[offset[rp] + l as usize - 1].is_none_or(|t| t <= deadline[top]);
                                match cfg.layer_refs {
                                    LayerRefRule::SameLayer => {
                                        let mut l = decodable_layers[rp];
                                        while l > 0 && !in_time(l) {
                                            l -= 1;
                                        }
                                        l
                                    }
                                    LayerRefRule::BaseOnly => {
                                        if decodable_layers[rp] >= 1 && in_time(1) {
                                            u8::MAX
                                        } else {
                                            0
                                        }
                                    }
                                }
                            }
                            _ => 0,
                        };
                        layers = layers.min(usable);
                    }
                    decodable_layers[top] = layers;
                    state[top] = 2;
                    stack.pop();
                }
                _ => {
                    stack.pop();
                }
            }
        }
    }

    frames
        .iter()
        .enumerate()
        .map(|(pos, f)| {
            let layers_sent = f.layers_sent();
            let layers_decodable = decodable_layers[pos];
            let status = if layers_sent == 0 {
                FrameStatus::Unsent
            } else {
                match layer_status(pos, 0) {
                    FrameStatus::Ok if layers_decodable == 0 => FrameStatus::Dependency,
                    s => s,
                }
            };
            let complete_at = if layers_sent > 0 && acc[offset[pos]].arrived == f.packets_per_layer[0] as u32 {
                complete[offset[pos]]
            } else {
                None
            };
            FrameOutcome {
                id: f.id,
                frame_type: f.frame_type,
                status,
                decodable: status == FrameStatus::Ok,
                layers_sent,
                layers_decodable,
                complete_at,
                deadline: deadline[pos],
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::media::playout::PlayoutAnchor;
    use crate::time::Duration;
    use proptest::prelude::*;
    use FrameStatus::*;

    fn ms(v: u64) -> Instant {
        Instant::from_nanos(v * 1_000_000)
    }

    /// GOPs of 12 in display order, IBBPBBPBBPBB, with the B frames at a GOP's end
    /// referencing the next I (open GOP, as an MPEG-4 encoder with `IBBP…` does); `n` frames.
    fn gop_frames(n: u32, layers: usize, packets: u16) -> Vec<SentFrame> {
        (0..n)
            .map(|id| {
                let k = id % 3;
                let (frame_type, refs) = if id % 12 == 0 {
                    (FrameType::I, [None, None])
                } else if k == 0 {
                    (FrameType::P, [Some(id - 3), None])
                } else {
                    let prev = id - k;
                    (FrameType::B, [Some(prev), Some(prev + 3)])
                };
                SentFrame {
                    id,
                    frame_type,
                    refs,
                    ready_at: ms(40 * id as u64),
                    packets_per_layer: vec![packets; layers],
                }
            })
            .collect()
    }

    /// Every packet sent at its frame's ready time and arriving 50 ms later.
    fn all_packets(frames: &[SentFrame]) -> Vec<PacketRecord> {
        let mut out = Vec::new();
        for f in frames {
            for (layer, &count) in f.packets_per_layer.iter().enumerate() {
                for index in 0..count {
                    out.push(PacketRecord {
                        tag: MediaTag {
                            frame: f.id,
                            frame_type: f.frame_type.code(),
                            layer: layer as u8,
                            index,
                            count,
                        },
                        size_bytes: 1000,
                        sent_at: f.ready_at,
                        arrival: Some(f.ready_at + Duration::from_millis(50)),
                    });
                }
            }
        }
        out
    }

    fn find(log: &mut [PacketRecord], frame: u32, layer: u8, index: u16) -> &mut PacketRecord {
        log.iter_mut().find(|p| p.tag.frame == frame && p.tag.layer == layer && p.tag.index == index).unwrap()
    }

    fn cfg() -> PlayoutConfig {
        // FirstArrival: frame 0's first packet at 50 ms → deadline(n) = 50 + 100 + 40 n ms.
        PlayoutConfig { startup_delay: Duration::from_millis(100), ..PlayoutConfig::default() }
    }

    fn statuses(out: &[FrameOutcome]) -> Vec<FrameStatus> {
        out.iter().map(|o| o.status).collect()
    }

    // 25 frames: GOP 0..11, GOP 12..23, and the I frame 24 that B22 and B23 reference.
    const N: u32 = 25;

    #[test]
    fn lossless_run_is_all_decodable() {
        let frames = gop_frames(N, 1, 2);
        let out = evaluate(&frames, &all_packets(&frames), &cfg());
        assert!(out.iter().all(|o| o.decodable && o.layers_decodable == 1));
        assert_eq!(out[3].deadline, ms(150 + 120));
        assert_eq!(out[3].complete_at, Some(ms(170)));
    }

    #[test]
    fn lost_i_frame_kills_its_gop() {
        let frames = gop_frames(N, 1, 2);
        let mut log = all_packets(&frames);
        find(&mut log, 0, 0, 1).arrival = None;
        let out = evaluate(&frames, &log, &cfg());
        // I0 lost; P3, P6, P9 chain on it; every B of GOP 0 references one of them (B10, B11 need P9
        // and I12). GOP 1 (12..23) and I24 are untouched.
        let mut want = vec![Dependency; 12];
        want[0] = Lost;
        want.extend(vec![Ok; 13]);
        assert_eq!(statuses(&out), want);
        assert_eq!(out[0].complete_at, None);
    }

    #[test]
    fn lost_b_frame_kills_only_itself() {
        let frames = gop_frames(N, 1, 2);
        let mut log = all_packets(&frames);
        find(&mut log, 4, 0, 0).arrival = None;
        let out = evaluate(&frames, &log, &cfg());
        let mut want = vec![Ok; N as usize];
        want[4] = Lost;
        assert_eq!(statuses(&out), want);
    }

    #[test]
    fn lost_p_frame_kills_the_rest_of_its_gop() {
        let frames = gop_frames(N, 1, 2);
        let mut log = all_packets(&frames);
        find(&mut log, 6, 0, 0).arrival = None;
        let out = evaluate(&frames, &log, &cfg());
        // 0..3 fine (B1, B2 need I0, P3); P6 lost; B4, B5 need P6; P9 needs P6; B7..B11 need P9.
        let mut want = vec![Ok; N as usize];
        want[6] = Lost;
        for id in [4, 5, 7, 8, 9, 10, 11] {
            want[id] = Dependency;
        }
        assert_eq!(statuses(&out), want);
    }

    #[test]
    fn late_frames_and_their_dependants() {
        let frames = gop_frames(N, 1, 2);
        let mut log = all_packets(&frames);
        // P3's deadline = 150 + 120 = 270 ms; its second packet arrives 1 ns after.
        find(&mut log, 3, 0, 1).arrival = Some(Instant::from_nanos(270_000_001));
        let out = evaluate(&frames, &log, &cfg());
        // Late P3 is unusable: B1, B2 (need P3) and all later frames of GOP 0 depend on it.
        let mut want = vec![Dependency; 12];
        want[0] = Ok;
        want[3] = Late;
        want.extend(vec![Ok; 13]);
        assert_eq!(statuses(&out), want);
        assert_eq!(out[3].complete_at, Some(Instant::from_nanos(270_000_001)));
        // Exactly at the deadline P3 is in time, and so are P6.. that follow it; but B1 and B2
        // (deadlines 190 and 230 ms) play before their forward anchor P3 is complete.
        find(&mut log, 3, 0, 1).arrival = Some(ms(270));
        let mut want = vec![Ok; N as usize];
        want[1] = Dependency;
        want[2] = Dependency;
        assert_eq!(statuses(&evaluate(&frames, &log, &cfg())), want);
    }

    #[test]
    fn b_frame_needs_its_forward_anchor_before_its_own_deadline() {
        let frames = gop_frames(N, 1, 2);
        let mut log = all_packets(&frames);
        // P9: deadline 150 + 360 = 510 ms; both packets at 450 ms: P9 itself is in time.
        // B7 (deadline 150 + 280 = 430 ms) cannot be decoded before P9 arrives: Dependency.
        // B8 (deadline 470 ms ≥ 450 ms) is fine.
        find(&mut log, 9, 0, 0).arrival = Some(ms(450));
        find(&mut log, 9, 0, 1).arrival = Some(ms(450));
        let out = evaluate(&frames, &log, &cfg());
        let mut want = vec![Ok; N as usize];
        want[7] = Dependency;
        assert_eq!(statuses(&out), want);
    }

    #[test]
    fn frames_dropped_at_the_sender_are_unsent() {
        let frames = gop_frames(N, 1, 2);
        let mut log = all_packets(&frames);
        // The sender buffer dropped one packet of P15 (it is missing from the log), and B13
        // never went out at all (no record).
        log.retain(|p| !(p.tag.frame == 15 && p.tag.index == 1) && p.tag.frame != 13);
        let out = evaluate(&frames, &log, &cfg());
        // P15 unsent → B13 (also unsent), B14, P18, B16..B23 depend on it; I24 fine.
        let mut want = vec![Ok; N as usize];
        want[13] = Unsent;
        want[15] = Unsent;
        for id in [14, 16, 17, 18, 19, 20, 21, 22, 23] {
            want[id] = Dependency;
        }
        assert_eq!(statuses(&out), want);
        // A frame with no layer sent is unsent too.
        let mut f = frames.clone();
        f[24].packets_per_layer.clear();
        assert_eq!(evaluate(&f, &log, &cfg())[24].status, Unsent);
    }

    #[test]
    fn layered_decodability() {
        // 3 layers of 1 packet each.
        let frames = gop_frames(13, 3, 1);
        let mut log = all_packets(&frames);
        // I0 loses layer 2; P6 loses layer 1.
        find(&mut log, 0, 2, 0).arrival = None;
        find(&mut log, 6, 1, 0).arrival = None;
        let same = evaluate(&frames, &log, &cfg());
        let layers = |o: &[FrameOutcome]| o.iter().map(|x| x.layers_decodable).collect::<Vec<_>>();
        // SameLayer: I0 = 2; P3 = min(3, I0's 2) = 2; B1, B2 = min(3, 2, 2) = 2; P6 own = 1 → 1;
        // B4, B5 = min(P3 2, P6 1) = 1; P9 = 1; B7, B8, B10, B11 = 1 (B10/B11: min(P9 1, I12 3));
        // I12 = 3. All frames stay decodable (status Ok).
        assert_eq!(layers(&same), vec![2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 3]);
        assert!(same.iter().all(|o| o.status == Ok && o.layers_sent == 3));
        // BaseOnly: each frame keeps its own prefix: I0 = 2, P6 = 1, others 3.
        let base_only = evaluate(&frames, &log, &PlayoutConfig { layer_refs: LayerRefRule::BaseOnly, ..cfg() });
        assert_eq!(layers(&base_only), vec![2, 3, 3, 3, 3, 3, 1, 3, 3, 3, 3, 3, 3]);
        // A base-layer loss of P3 makes it Lost and everything depending on it Dependency,
        // whatever the enhancement layers did.
        find(&mut log, 3, 0, 0).arrival = None;
        let out = evaluate(&frames, &log, &cfg());
        assert_eq!(out[3].status, Lost);
        assert_eq!(out[3].layers_decodable, 0);
        assert_eq!(out[1].status, Dependency);
        assert_eq!(out[12].layers_decodable, 3);
    }

    #[test]
    fn layers_added_mid_gop_wait_for_the_next_i_frame() {
        // The sender goes from 1 to 2 layers at frame 6 (SameLayer: P6's layer 1 has no layer 1 in P3).
        let mut frames = gop_frames(13, 1, 1);
        for f in frames.iter_mut().skip(6) {
            f.packets_per_layer = vec![1, 1];
        }
        let out = evaluate(&frames, &all_packets(&frames), &cfg());
        // B4, B5 reference P3 (1 layer) → 1; P6..B11 are chained to P3 → 1; I12 → 2.
        let layers: Vec<u8> = out.iter().map(|o| o.layers_decodable).collect();
        assert_eq!(layers, vec![1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2]);
    }

    #[test]
    fn ready_time_anchor_and_odd_references() {
        let mut frames = gop_frames(4, 1, 1);
        let mut log = all_packets(&frames);
        // ReadyTime, D_pb = 50 ms: deadline(n) = 40 n + 50 ms; arrivals 40 n + 50 → all exactly in
        // time, but B1 and B2 (deadlines 90, 130 ms) cannot be decoded before P3 (170 ms) arrives.
        let c = PlayoutConfig { anchor: PlayoutAnchor::ReadyTime, startup_delay: Duration::from_millis(50), ..cfg() };
        assert_eq!(statuses(&evaluate(&frames, &log, &c)), vec![Ok, Dependency, Dependency, Ok]);
        // With D_pb = 200 ms the B frames wait long enough for P3.
        let c200 = PlayoutConfig { startup_delay: Duration::from_millis(200), ..c };
        assert!(evaluate(&frames, &log, &c200).iter().all(|o| o.decodable));
        // With 49 ms every frame is late, and all but I0 are late themselves (Late beats Dependency).
        let c49 = PlayoutConfig { startup_delay: Duration::from_millis(49), ..c };
        assert_eq!(statuses(&evaluate(&frames, &log, &c49)), vec![Late; 4]);
        // A reference to an unknown frame and a self-reference are unusable; stray records ignored.
        frames[3].refs = [Some(99), None];
        frames[1].refs = [Some(1), None];
        log.push(PacketRecord { tag: MediaTag { frame: 77, ..log[0].tag }, ..log[0] });
        log.push(PacketRecord { tag: MediaTag { index: 9, ..log[0].tag }, ..log[0] });
        let out = evaluate(&frames, &log, &c);
        // B2 needs P3, which now depends on the unknown frame.
        assert_eq!(statuses(&out), vec![Ok, Dependency, Dependency, Dependency]);
    }

    /// ASMP §6.5's D_pb counts from the frame's transmission: I0, ready at 0, waits 100 ms in the
    /// sender buffer and crosses a 20 ms network. With 50 ms from its send time it is on time
    /// (due at 150 ms); from its ready time, late (due at 50 ms). P1 never left the sender:
    /// `Unsent`, due at its ready time + 50 ms. I2's first copy (sent at 200 ms) was lost and its
    /// retransmission, sent at 300 ms, arrived at 320 ms: due 50 ms after the first copy, late.
    #[test]
    fn send_time_anchor_counts_from_the_first_packet_sent() {
        let frame = |id: u32, frame_type, refs| SentFrame {
            id,
            frame_type,
            refs,
            ready_at: ms(40 * id as u64),
            packets_per_layer: vec![1],
        };
        let frames = [
            frame(0, FrameType::I, [None, None]),
            frame(1, FrameType::P, [Some(0), None]),
            frame(2, FrameType::I, [None, None]),
        ];
        let packet = |id: u32, sent: u64, arrival: Option<u64>| PacketRecord {
            tag: MediaTag {
                frame: id,
                frame_type: frames[id as usize].frame_type.code(),
                layer: 0,
                index: 0,
                count: 1,
            },
            size_bytes: 1000,
            sent_at: ms(sent),
            arrival: arrival.map(ms),
        };
        let log = [packet(0, 100, Some(120)), packet(2, 200, None), packet(2, 300, Some(320))];
        let send = PlayoutConfig { anchor: PlayoutAnchor::SendTime, startup_delay: Duration::from_millis(50), ..cfg() };
        let out = evaluate(&frames, &log, &send);
        assert_eq!(statuses(&out), vec![Ok, Unsent, Late]);
        assert_eq!(out.iter().map(|o| o.deadline).collect::<Vec<_>>(), vec![ms(150), ms(90), ms(250)]);
        let ready = PlayoutConfig { anchor: PlayoutAnchor::ReadyTime, ..send };
        let out = evaluate(&frames, &log, &ready);
        assert_eq!((out[0].status, out[0].deadline), (Late, ms(50)));
    }

    #[test]
    fn duplicates_count_once_with_the_earliest_arrival() {
        let frames = gop_frames(1, 1, 1);
        let mut log = all_packets(&frames);
        let p = log[0];
        log.insert(0, PacketRecord { arrival: None, ..p });
        log.push(PacketRecord { arrival: Some(ms(5000)), ..p });
        let out = evaluate(&frames, &log, &cfg());
        assert_eq!((out[0].status, out[0].complete_at), (Ok, Some(ms(50))));
    }

    proptest! {
        #[test]
        fn random_logs_are_consistent(
            n in 1u32..40,
            layers in 1usize..4,
            fate in proptest::collection::vec((0u8..10, 0u64..300), 0..400),
            same in any::<bool>(),
        ) {
            let frames = gop_frames(n, layers, 2);
            let mut log = Vec::new();
            for (i, p) in all_packets(&frames).into_iter().enumerate() {
                let (f, extra) = fate.get(i).copied().unwrap_or((9, 0));
                match f {
                    0 => {}                                   // dropped at the sender
                    1 => log.push(PacketRecord { arrival: None, ..p }), // lost
                    _ => log.push(PacketRecord { arrival: p.arrival.map(|a| a + Duration::from_millis(extra)), ..p }),
                }
            }
            let rule = if same { LayerRefRule::SameLayer } else { LayerRefRule::BaseOnly };
            let out = evaluate(&frames, &log, &PlayoutConfig { layer_refs: rule, ..cfg() });
            prop_assert_eq!(out.len(), frames.len());
            for (o, f) in out.iter().zip(&frames) {
                prop_assert_eq!(o.decodable, o.status == Ok);
                prop_assert_eq!(o.decodable, o.layers_decodable >= 1);
                prop_assert!(o.layers_decodable <= o.layers_sent);
                if o.decodable {
                    // A decodable frame's references are decodable and were complete in time.
                    for r in f.refs.iter().flatten() {
                        if let Some(ro) = out.iter().find(|x| x.id == *r) {
                            prop_assert!(ro.decodable);
                            prop_assert!(ro.complete_at.is_some_and(|t| t <= o.deadline));
                            if same {
                                prop_assert!(ro.layers_decodable >= o.layers_decodable);
                            }
                        }
                    }
                    prop_assert!(o.complete_at.is_some_and(|t| t <= o.deadline));
                }
            }
        }
    }
}
