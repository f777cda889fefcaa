//! The receiver's playout clock and per-layer buffer levels.
//!
//! **Playout clock.** Frame `n` (display index) plays at
//!
//! ```text
//! playout(n) = t0 + startup_delay + (n − n0) · frame_interval
//! ```
//!
//! where `(t0, n0)` is the clock's anchor. With [`PlayoutAnchor::FirstArrival`] (the default) `t0`
//! is the arrival of the first packet received and `n0` the frame it belongs to: Evalvid's
//! receiver and SSVP-LA (docs/papers/ssvp.md A-LA-7, "playout starts after 1 s of buffering")
//! start a fixed playout delay after the first arrival, so the first packet's one-way delay is
//! absorbed and later frames are judged by their delay *variation*. With
//! [`PlayoutAnchor::ReadyTime`] frame `n` is due at its own ready (generation) time plus the
//! delay: a per-frame deadline that counts the time the frame waits in the sender buffer. With
//! [`PlayoutAnchor::SendTime`] frame `n` is due at the send time of its first packet plus the
//! delay, `G_n + D_pb` as ASMP §6.5 words it (docs/papers/asmp-tfmcc.md §4 "Playout deadline" and
//! §6 item 13: the play-out buffer time is "relative to the frame transmission time", Eq. 8's
//! `G_i` "the sending time of frame i"), so only the time from the first packet's departure
//! counts, not the frame's wait in the sender buffer. Both need synchronised clocks, as in
//! simulation. A packet is *late* when it arrives strictly after its frame's playout time; a
//! packet arriving exactly then is on time.
//!
//! **Layer buffers.** [`LayerBuffers`] is the receiver state SSVP's layered adaptation reads
//! (docs/papers/ssvp.md §1.2: each layer i has a receiver buffer buf_i that fills when R > C and
//! drains at the consumption rate): per layer, the bytes received but not yet played and the
//! playout time they cover. A frame's data leaves the buffer at the frame's playout time.
//!
//! Parameters ([`PlayoutConfig::default`]):
//! * `anchor` = `FirstArrival` [D, Evalvid];
//! * `startup_delay` = 1 s [D, docs/papers/ssvp.md A-LA-7; ASMP's S3: `SendTime`, 150 ms];
//! * `frame_interval` = 40 ms (25 fps) [D, docs/papers/dvrc.md §2.1];
//! * `layer_refs` = [`LayerRefRule::SameLayer`], read by the decodability evaluator
//!   (`decodability.rs`).
//!
//! Deviations and choices:
//! * Playout times follow the frame index, not the ready times, so a trace with irregular
//!   timestamps is played at the nominal rate (the online clock does not know ready times).
//!   Frames before `n0` get earlier playout times (clamped at zero).
//! * The online [`PlayoutClock`] always anchors at the first arrival unless the driver calls
//!   [`PlayoutClock::start`] first; a driver with synchronised clocks that wants `ReadyTime`
//!   semantics starts it with `(ready time of frame n, n)`. `SendTime` deadlines are per frame
//!   and not on a clock: only the offline judge (`decodability.rs`) applies them.
//! * `SendTime`: a frame none of whose packets was sent has no send time; its deadline is its
//!   ready time + the delay (the `ReadyTime` rule, as `FirstArrival` falls back when nothing
//!   arrived), so that it is still judged (`unsent`, or `late` if still queued when that passes)
//!   and not left pending for ever: the judge counts every frame the application produced.
//! * A buffer's playout time is the number of distinct frames it holds times `frame_interval`
//!   (missing frames do not count), not the span from now to its last frame.
//! * Late packets are counted and not buffered: they can no longer be played.

use std::collections::VecDeque;

use crate::media::frame::MediaTag;
use crate::time::{Duration, Instant};

/// What the playout clock is anchored to (see the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PlayoutAnchor {
    /// `t0` = first packet's arrival (Evalvid, SSVP-LA).
    #[default]
    FirstArrival,
    /// Frame n is due at its ready time + `startup_delay`.
    ReadyTime,
    /// Frame n is due at its first packet's send time + `startup_delay` (ASMP §6.5, `G_n + D_pb`,
    /// G "the sending time of frame i"); a frame never sent: as `ReadyTime`.
    SendTime,
}

/// Which layers of a frame's references the frame's layer i needs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum LayerRefRule {
    /// Layer i of a P/B frame is predicted from layer i of its references, so it needs the
    /// references decodable up to layer i (the usual layered-coding assumption).
    #[default]
    SameLayer,
    /// Enhancement layers are predicted from the references' base layer only (MPEG-4 FGS
    /// style): every layer of a frame needs just the references' base layer.
    BaseOnly,
}

/// Playout and decodability parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayoutConfig {
    pub anchor: PlayoutAnchor,
    /// Delay between the anchor and the first frame's playout (`D_pb` with `ReadyTime` and
    /// `SendTime`).
    pub startup_delay: Duration,
    /// Display time of one frame (1 / fps).
    pub frame_interval: Duration,
    pub layer_refs: LayerRefRule,
}

impl Default for PlayoutConfig {
    fn default() -> Self {
        PlayoutConfig {
            anchor: PlayoutAnchor::FirstArrival,
            startup_delay: Duration::from_secs(1),
            frame_interval: Duration::from_millis(40),
            layer_refs: LayerRefRule::SameLayer,
        }
    }
}

/// `t0 + startup + (frame − frame0) · interval`, clamped to the `Instant` range.
pub fn scheduled_playout(t0: Instant, frame0: u32, startup: Duration, interval: Duration, frame: u32) -> Instant {
    let ns = t0.as_nanos() as i128
        + startup.as_nanos() as i128
        + (frame as i128 - frame0 as i128) * interval.as_nanos() as i128;
    Instant::from_nanos(ns.clamp(0, u64::MAX as i128) as u64)
}

/// Whether a packet arrived in time for its frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArrivalTiming {
    /// At or before its frame's playout time.
    OnTime,
    /// After its frame's playout time.
    Late,
}

/// The online playout clock (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayoutClock {
    startup_delay: Duration,
    frame_interval: Duration,
    /// `(t0, n0)`: frame n0 plays at t0 + startup_delay.
    anchor: Option<(Instant, u32)>,
}

impl PlayoutClock {
    pub fn new(cfg: &PlayoutConfig) -> Self {
        PlayoutClock { startup_delay: cfg.startup_delay, frame_interval: cfg.frame_interval, anchor: None }
    }

    /// Anchors the clock: `frame` plays at `at + startup_delay`. Ignored once started.
    pub fn start(&mut self, at: Instant, frame: u32) {
        if self.anchor.is_none() {
            self.anchor = Some((at, frame));
        }
    }

    pub fn is_started(&self) -> bool {
        self.anchor.is_some()
    }

    /// Records a packet of `frame` arriving at `now` (the first one starts the clock).
    pub fn on_arrival(&mut self, now: Instant, frame: u32) -> ArrivalTiming {
        self.start(now, frame);
        match self.playout_time(frame) {
            Some(t) if now > t => ArrivalTiming::Late,
            _ => ArrivalTiming::OnTime,
        }
    }

    /// When `frame` plays; `None` before the clock starts.
    pub fn playout_time(&self, frame: u32) -> Option<Instant> {
        self.anchor.map(|(t0, n0)| scheduled_playout(t0, n0, self.startup_delay, self.frame_interval, frame))
    }

    pub fn frame_interval(&self) -> Duration {
        self.frame_interval
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct LayerQueue {
    /// (frame, bytes of this layer of that frame), frame ids strictly increasing.
    frames: VecDeque<(u32, u64)>,
    bytes: u64,
}

/// Per-layer receive buffers drained by the playout clock (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayerBuffers {
    clock: PlayoutClock,
    layers: Vec<LayerQueue>,
    late_packets: u64,
    late_bytes: u64,
}

impl LayerBuffers {
    pub fn new(cfg: &PlayoutConfig) -> Self {
        LayerBuffers { clock: PlayoutClock::new(cfg), layers: Vec::new(), late_packets: 0, late_bytes: 0 }
    }

    pub fn clock(&self) -> &PlayoutClock {
        &self.clock
    }

    /// Anchors the playout clock explicitly (see [`PlayoutClock::start`]).
    pub fn start(&mut self, at: Instant, frame: u32) {
        self.clock.start(at, frame);
    }

    /// A media packet of `size_bytes` arrived at `now`. Plays out what is due first.
    pub fn on_packet(&mut self, now: Instant, tag: MediaTag, size_bytes: u32) -> ArrivalTiming {
        if self.clock.on_arrival(now, tag.frame) == ArrivalTiming::Late {
            self.late_packets += 1;
            self.late_bytes += size_bytes as u64;
            self.advance(now);
            return ArrivalTiming::Late;
        }
        self.advance(now);
        let layer = tag.layer as usize;
        if self.layers.len() <= layer {
            self.layers.resize_with(layer + 1, LayerQueue::default);
        }
        let q = &mut self.layers[layer];
        q.bytes += size_bytes as u64;
        // Packets come mostly in frame order: check the back first, then search.
        match q.frames.back_mut() {
            Some(back) if back.0 == tag.frame => back.1 += size_bytes as u64,
            Some(back) if back.0 > tag.frame => match q.frames.binary_search_by_key(&tag.frame, |e| e.0) {
                Ok(i) => q.frames[i].1 += size_bytes as u64,
                Err(i) => q.frames.insert(i, (tag.frame, size_bytes as u64)),
            },
            _ => q.frames.push_back((tag.frame, size_bytes as u64)),
        }
        ArrivalTiming::OnTime
    }

    /// Plays out (removes) every frame whose playout time is at or before `now`.
    pub fn advance(&mut self, now: Instant) {
        let clock = self.clock;
        for q in &mut self.layers {
            while let Some(&(frame, bytes)) = q.frames.front() {
                match clock.playout_time(frame) {
                    Some(t) if t <= now => {
                        q.frames.pop_front();
                        q.bytes -= bytes;
                    }
                    _ => break,
                }
            }
        }
    }

    /// Bytes buffered in `layer` and the playout time they cover (frames held × frame interval).
    pub fn level(&self, layer: u8) -> (u64, Duration) {
        match self.layers.get(layer as usize) {
            Some(q) => (q.bytes, self.clock.frame_interval() * q.frames.len() as u64),
            None => (0, Duration::ZERO),
        }
    }

    /// Bytes buffered over all layers (SSVP's Σ buf_i).
    pub fn total_bytes(&self) -> u64 {
        self.layers.iter().map(|q| q.bytes).sum()
    }

    /// Packets (and their bytes) that arrived after their frame's playout time.
    pub fn late(&self) -> (u64, u64) {
        (self.late_packets, self.late_bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(v: u64) -> Instant {
        Instant::from_nanos(v * 1_000_000)
    }

    fn tag(frame: u32, layer: u8) -> MediaTag {
        MediaTag { frame, frame_type: 2, layer, index: 0, count: 1 }
    }

    fn cfg(startup_ms: u64) -> PlayoutConfig {
        PlayoutConfig { startup_delay: Duration::from_millis(startup_ms), ..PlayoutConfig::default() }
    }

    #[test]
    fn clock_anchors_at_first_arrival() {
        let mut c = PlayoutClock::new(&cfg(100));
        assert_eq!(c.playout_time(0), None);
        // First packet: frame 2 at 50 ms → frame 2 plays at 150 ms, frame n at 150 + (n − 2)·40.
        assert_eq!(c.on_arrival(ms(50), 2), ArrivalTiming::OnTime);
        assert_eq!(c.playout_time(2), Some(ms(150)));
        assert_eq!(c.playout_time(5), Some(ms(270)));
        assert_eq!(c.playout_time(0), Some(ms(70)));
        // Frame 3 plays at 190 ms: arriving at 190 is on time, at 191 late.
        assert_eq!(c.on_arrival(ms(190), 3), ArrivalTiming::OnTime);
        assert_eq!(c.on_arrival(Instant::from_nanos(190_000_001), 3), ArrivalTiming::Late);
        // Frames far before the anchor clamp at zero instead of wrapping.
        let mut c = PlayoutClock::new(&cfg(0));
        c.start(ms(10), 100);
        assert_eq!(c.playout_time(0), Some(Instant::ZERO));
    }

    #[test]
    fn layer_buffers_fill_and_drain() {
        let mut b = LayerBuffers::new(&cfg(100));
        // t=0: frame 0 arrives → plays at 100 ms; frame n at 100 + 40 n.
        b.on_packet(ms(0), tag(0, 0), 1000);
        b.on_packet(ms(0), tag(0, 1), 500);
        b.on_packet(ms(10), tag(1, 0), 1000);
        b.on_packet(ms(10), tag(1, 0), 200);
        b.on_packet(ms(20), tag(3, 0), 800);
        b.on_packet(ms(30), tag(2, 0), 900); // out of order, inserted before frame 3
                                             // base: frames 0,1,2,3 = 1000 + 1200 + 900 + 800 = 3900 B, 4 frames = 160 ms
        assert_eq!(b.level(0), (3900, Duration::from_millis(160)));
        assert_eq!(b.level(1), (500, Duration::from_millis(40)));
        assert_eq!(b.level(7), (0, Duration::ZERO));
        assert_eq!(b.total_bytes(), 4400);
        // At 100 ms frame 0 plays: base 2900 B / 3 frames, layer 1 empty.
        b.advance(ms(100));
        assert_eq!(b.level(0), (2900, Duration::from_millis(120)));
        assert_eq!(b.level(1), (0, Duration::ZERO));
        // At 179 ms frame 1 (140 ms) played, frame 2 (180 ms) not yet.
        b.advance(ms(179));
        assert_eq!(b.level(0), (1700, Duration::from_millis(80)));
        // Frame 2 arriving at 181 ms is late and not buffered; advancing plays frame 2 too.
        assert_eq!(b.on_packet(ms(181), tag(2, 1), 300), ArrivalTiming::Late);
        assert_eq!(b.late(), (1, 300));
        assert_eq!(b.level(0), (800, Duration::from_millis(40)));
        assert_eq!(b.level(1), (0, Duration::ZERO));
    }
}
