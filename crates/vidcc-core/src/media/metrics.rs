//! Delivery metrics of one video flow, from its frames, packet log and frame outcomes.
//!
//! Definitions (docs/papers/dvrc.md §4, docs/papers/ssvp.md §4; both papers
//! use the same ones):
//!
//! * **Delayed packet**: a received packet that arrives more than `delayed_threshold` (75 ms)
//!   after the previously received packet of the flow (inter-arrival time; the first received
//!   packet is never delayed). Only spacing is checked, not absolute latency.
//! * **Video Delivery Index** `VDI = #jitter-free packets / #packets sent by the application`,
//!   jitter-free = received and not delayed.
//! * **Delayed Packets Rate** `DPR = #delayed / #packets sent by the application` [D].
//! * **Packet Drop Rate** `PDR = #lost / #packets sent by the application`, lost = never
//!   received, whether dropped by the sender buffer or by the network [I].
//!
//!   With one denominator `VDI + DPR + PDR = 1` by construction (docs/papers/dvrc.md §4 [D]). "Sent
//!   by the application" = the packets of [`SentFrame::packets_per_layer`], whether or not they
//!   left the sender.
//! * **Jitter** (DVRC Eqs. 12–13, SSVP §4, RFC 3550 §6.4.1): `D(i,j) = (R_j − R_i) − (S_j − S_i)`
//!   over consecutive received packets in arrival order, `J ← (15/16)·J + (1/16)·|D(i,j)|`,
//!   `J_0 = 0`. The papers' estimator *is* RFC 3550's, so one [`Rfc3550Jitter`] gives both
//!   (integer nanoseconds, RFC 3550 A.8 fixed point). Reported: the last J, its maximum and mean
//!   over the measured received packets (SSVP claim C8 reads max J(t)), and the DVRC variant
//!   "delayed by delay variation": the count of `|D(i,j)| > jitter_threshold` (75 ms).
//! * **Frames**: counts by [`FrameStatus`] (issue 4; docs/papers/asmp-tfmcc.md §4 reports frame
//!   loss per I/P/B type, so the counts are kept per type too), and the **decodable frame rate** =
//!   decodable frames / seconds of video measured (frames × frame interval).
//! * **Layer (or stream) changes** (SSVP §4 "layer trace", docs/papers/sramt.md §4): from a series
//!   of `(time, layer count or stream index)`: number of changes (up and down), time spent at
//!   each value, the time of the last change (SRAMT "convergence time"), and the number of
//!   changes reversed by the next change within `reversal_window` (SRAMT "unsuccessful
//!   changes", T_change = 5 s).
//!
//! Parameters ([`MetricsConfig::default`]): `delayed_threshold` = 75 ms [P], `jitter_threshold`
//! = 75 ms [D], `frame_interval` = 40 ms [D], measurement window `[from, until)` =
//! everything (the papers skip a 2 s warm-up: set `from`), `reversal_window` = 5 s [P, SRAMT].
//!
//! Choices:
//! * The window selects frames by their ready time; a packet is measured with its frame.
//!   Inter-arrival gaps and D(i,j) still use the previous received packet even if it is not
//!   measured, since they describe the packet stream as it arrived.
//! * Packets are deduplicated as in `decodability.rs` (first arrival counts). Records that
//!   match no frame are not counted but do take part in the arrival sequence.
//! * With no packet sent by the application, VDI, DPR and PDR are all 0.
//! * Layer statistics cover `[from, until)`; with `until` unbounded the end is the latest of the
//!   series' last sample, the last arrival and the last send. Time before the first sample is
//!   not attributed to any layer; changes before `from` are not counted.

use crate::estimate::jitter::Rfc3550Jitter;
use crate::media::decodability::{unique_packets, FrameIndex, FrameOutcome, FrameStatus, PacketRecord, SentFrame};
use crate::media::frame::FrameType;
use crate::time::{Duration, Instant};

/// Metric parameters (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MetricsConfig {
    /// Inter-arrival time above which a received packet is delayed.
    pub delayed_threshold: Duration,
    /// |D(i,j)| above which a packet counts in [`VideoMetrics::d_over_threshold`].
    pub jitter_threshold: Duration,
    /// Display time of one frame, for the decodable frame rate.
    pub frame_interval: Duration,
    /// Frames ready at or after this instant are measured...
    pub from: Instant,
    /// ...and before this one.
    pub until: Instant,
    /// A change undone by the next change within this time is a reversal.
    pub reversal_window: Duration,
}

impl Default for MetricsConfig {
    fn default() -> Self {
        MetricsConfig {
            delayed_threshold: Duration::from_millis(75),
            jitter_threshold: Duration::from_millis(75),
            frame_interval: Duration::from_millis(40),
            from: Instant::ZERO,
            until: Instant::MAX,
            reversal_window: Duration::from_secs(5),
        }
    }
}

/// Frames by outcome. `sent = decodable + lost + late + dependency + unsent`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrameCounts {
    /// Frames the application produced.
    pub sent: u64,
    pub decodable: u64,
    pub lost: u64,
    pub late: u64,
    pub dependency: u64,
    pub unsent: u64,
}

impl FrameCounts {
    fn add(&mut self, status: FrameStatus) {
        self.sent += 1;
        match status {
            FrameStatus::Ok => self.decodable += 1,
            FrameStatus::Lost => self.lost += 1,
            FrameStatus::Late => self.late += 1,
            FrameStatus::Dependency => self.dependency += 1,
            FrameStatus::Unsent => self.unsent += 1,
        }
    }
}

/// Changes of a layer count or stream index over time.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LayerStats {
    pub changes: u64,
    pub increases: u64,
    pub decreases: u64,
    /// Changes undone (opposite direction) by the next change within the reversal window.
    pub reversals: u64,
    /// Time spent at each value (index = value).
    pub time_at: Vec<Duration>,
    pub last_change_at: Option<Instant>,
}

/// All delivery metrics of one video flow (see the module docs).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VideoMetrics {
    pub frames: FrameCounts,
    /// Indexed I = 0, P = 1, B = 2.
    pub frames_by_type: [FrameCounts; 3],
    /// Measured frames by `layers_decodable` (index = layers).
    pub frames_by_layers_decodable: Vec<u64>,
    /// Decodable frames per second of video.
    pub decodable_frame_rate: f64,
    /// Packets the application produced (the VDI/DPR/PDR denominator).
    pub packets_sent: u64,
    /// Packets that left the sender.
    pub packets_transmitted: u64,
    pub packets_received: u64,
    /// Dropped by the sender buffer (`sent − transmitted`).
    pub packets_unsent: u64,
    /// Transmitted and never received.
    pub packets_network_lost: u64,
    /// Never received (`unsent + network_lost`).
    pub packets_lost: u64,
    pub packets_delayed: u64,
    pub packets_jitter_free: u64,
    pub vdi: f64,
    pub dpr: f64,
    pub pdr: f64,
    /// RFC 3550 / DVRC Eq. 13 jitter after the last measured received packet.
    pub jitter: Duration,
    pub jitter_max: Duration,
    /// Mean of J over the measured received packets.
    pub jitter_mean: Duration,
    /// Measured received packets with |D(i,j)| above the jitter threshold.
    pub d_over_threshold: u64,
    pub d_max: Duration,
    pub interarrival_max: Duration,
    pub layers: LayerStats,
}

fn type_index(t: FrameType) -> usize {
    match t {
        FrameType::I => 0,
        FrameType::P => 1,
        FrameType::B => 2,
    }
}

/// Computes the metrics. `outcomes` must be `evaluate(frames, packets, ..)` (same order);
/// `layer_series` is the flow's `(time, layer count)` series (may be empty).
pub fn video_metrics(
    frames: &[SentFrame],
    packets: &[PacketRecord],
    outcomes: &[FrameOutcome],
    layer_series: &[(Instant, u8)],
    cfg: &MetricsConfig,
) -> VideoMetrics {
    let mut m = VideoMetrics::default();
    let measured: Vec<bool> = frames.iter().map(|f| f.ready_at >= cfg.from && f.ready_at < cfg.until).collect();

    for ((f, o), _) in frames.iter().zip(outcomes).zip(&measured).filter(|(_, in_window)| **in_window) {
        m.frames.add(o.status);
        m.frames_by_type[type_index(f.frame_type)].add(o.status);
        let l = o.layers_decodable as usize;
        if m.frames_by_layers_decodable.len() <= l {
            m.frames_by_layers_decodable.resize(l + 1, 0);
        }
        m.frames_by_layers_decodable[l] += 1;
    }
    m.packets_sent = frames.iter().zip(&measured).filter(|(_, in_window)| **in_window).map(|(f, _)| f.packets()).sum();

    let index = FrameIndex::new(frames);
    let unique = unique_packets(frames, &index, packets);
    let is_measured = |frame: Option<usize>| frame.is_some_and(|pos| measured[pos]);
    for u in unique.iter().filter(|u| is_measured(u.frame)) {
        m.packets_transmitted += 1;
        if packets[u.record].arrival.is_some() {
            m.packets_received += 1;
        }
    }

    // The arrival sequence: every distinct received packet, in arrival order (log order on ties).
    let mut arrivals: Vec<(Instant, usize, bool)> =
        unique.iter().filter_map(|u| packets[u.record].arrival.map(|a| (a, u.record, is_measured(u.frame)))).collect();
    arrivals.sort_unstable_by_key(|&(a, record, _)| (a, record));
    let mut jitter = Rfc3550Jitter::new();
    let mut prev_arrival: Option<Instant> = None;
    let (mut j_sum_ns, mut j_samples) = (0u128, 0u128);
    for &(arrival, record, counted) in &arrivals {
        jitter.on_packet(packets[record].sent_at, arrival);
        let gap = prev_arrival.map(|p| arrival.saturating_since(p));
        prev_arrival = Some(arrival);
        if !counted {
            continue;
        }
        if gap.is_some_and(|g| g > cfg.delayed_threshold) {
            m.packets_delayed += 1;
        }
        m.interarrival_max = m.interarrival_max.max(gap.unwrap_or(Duration::ZERO));
        if let Some(d) = jitter.last_d() {
            let d = Duration::from_nanos(d.unsigned_abs());
            if d > cfg.jitter_threshold {
                m.d_over_threshold += 1;
            }
            m.d_max = m.d_max.max(d);
        }
        let j = jitter.jitter();
        m.jitter = j;
        m.jitter_max = m.jitter_max.max(j);
        j_sum_ns += j.as_nanos() as u128;
        j_samples += 1;
    }
    if let Some(mean_ns) = j_sum_ns.checked_div(j_samples) {
        m.jitter_mean = Duration::from_nanos(mean_ns as u64);
    }

    m.packets_unsent = m.packets_sent - m.packets_transmitted;
    m.packets_network_lost = m.packets_transmitted - m.packets_received;
    m.packets_lost = m.packets_sent - m.packets_received;
    m.packets_jitter_free = m.packets_received - m.packets_delayed;
    if m.packets_sent > 0 {
        let n = m.packets_sent as f64;
        m.vdi = m.packets_jitter_free as f64 / n;
        m.dpr = m.packets_delayed as f64 / n;
        m.pdr = m.packets_lost as f64 / n;
    }
    let video_secs = m.frames.sent as f64 * cfg.frame_interval.as_secs_f64();
    if video_secs > 0.0 {
        m.decodable_frame_rate = m.frames.decodable as f64 / video_secs;
    }

    let end = if cfg.until != Instant::MAX {
        cfg.until
    } else {
        let last_series = layer_series.iter().map(|&(t, _)| t).max();
        let last_packet = packets.iter().map(|p| p.arrival.unwrap_or(p.sent_at).max(p.sent_at)).max();
        last_series.max(last_packet).unwrap_or(Instant::ZERO)
    };
    m.layers = layer_stats(layer_series, cfg.from, end, cfg.reversal_window);
    m
}

/// Statistics of a `(time, value)` series over `[start, end)`: each value holds from its sample
/// until the next sample (the last until `end`). Samples are taken in time order (stable for
/// equal times).
pub fn layer_stats(series: &[(Instant, u8)], start: Instant, end: Instant, reversal_window: Duration) -> LayerStats {
    let mut s = series.to_vec();
    s.sort_by_key(|&(t, _)| t);
    let mut out = LayerStats::default();
    if let Some(max) = s.iter().map(|&(_, v)| v).max() {
        out.time_at = vec![Duration::ZERO; max as usize + 1];
    }
    // (time, went up) of each counted change, for the reversal check.
    let mut last_change: Option<(Instant, bool)> = None;
    for (i, &(t, v)) in s.iter().enumerate() {
        let next = s.get(i + 1).map_or(end, |&(tn, _)| tn.min(end));
        let from = t.max(start);
        if next > from {
            out.time_at[v as usize] += next.saturating_since(from);
        }
        let Some(&(_, prev)) = i.checked_sub(1).and_then(|p| s.get(p)) else { continue };
        if v == prev || t < start || t >= end {
            continue;
        }
        let up = v > prev;
        out.changes += 1;
        if up {
            out.increases += 1;
        } else {
            out.decreases += 1;
        }
        if let Some((tc, was_up)) = last_change {
            if was_up != up && t.saturating_since(tc) <= reversal_window {
                out.reversals += 1;
            }
        }
        last_change = Some((t, up));
        out.last_change_at = Some(t);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::media::decodability::evaluate;
    use crate::media::frame::MediaTag;
    use crate::media::playout::PlayoutConfig;
    use proptest::prelude::*;

    fn ms(v: u64) -> Instant {
        Instant::from_nanos(v * 1_000_000)
    }

    fn secs(v: u64) -> Instant {
        ms(v * 1000)
    }

    fn frame(id: u32, frame_type: FrameType, refs: [Option<u32>; 2], packets: Vec<u16>) -> SentFrame {
        SentFrame { id, frame_type, refs, ready_at: ms(40 * id as u64), packets_per_layer: packets }
    }

    fn rec(frame: u32, index: u16, count: u16, sent: u64, arrival: Option<u64>) -> PacketRecord {
        PacketRecord {
            tag: MediaTag { frame, frame_type: 2, layer: 0, index, count },
            size_bytes: 1000,
            sent_at: ms(sent),
            arrival: arrival.map(ms),
        }
    }

    /// I0 P1 P2 P3 P4 (a P chain), 8 packets, 40 ms frame interval:
    ///
    /// ```text
    /// pkt frame/idx sent  arrival gap  D(i,j)                     fate
    /// a   0/0        0    100     -    -                          jitter-free
    /// b   0/1       10    110     10   (110−100)−(10−0)  =   0    jitter-free
    /// c   1/0       40    150     40   (150−110)−(40−10) = +10    jitter-free
    /// d   1/1       50    240     90   (240−150)−(50−40) = +80    delayed (90 > 75), |D| > 75
    /// e   2/0       80    lost                                    network loss
    /// f   2/1       90    250     10   (250−240)−(90−50) = −30    jitter-free
    /// g   3/0      120    never sent (sender drop)                unsent
    /// h   4/0      160    340     90   (340−250)−(160−90) = +20   delayed
    /// ```
    fn log() -> (Vec<SentFrame>, Vec<PacketRecord>) {
        let frames = vec![
            frame(0, FrameType::I, [None, None], vec![2]),
            frame(1, FrameType::P, [Some(0), None], vec![2]),
            frame(2, FrameType::P, [Some(1), None], vec![2]),
            frame(3, FrameType::P, [Some(2), None], vec![1]),
            frame(4, FrameType::P, [Some(3), None], vec![1]),
        ];
        let packets = vec![
            rec(0, 0, 2, 0, Some(100)),
            rec(0, 1, 2, 10, Some(110)),
            rec(1, 0, 2, 40, Some(150)),
            rec(1, 1, 2, 50, Some(240)),
            rec(2, 0, 2, 80, None),
            rec(2, 1, 2, 90, Some(250)),
            rec(4, 0, 1, 160, Some(340)),
        ];
        (frames, packets)
    }

    fn playout(startup_ms: u64) -> PlayoutConfig {
        PlayoutConfig { startup_delay: Duration::from_millis(startup_ms), ..PlayoutConfig::default() }
    }

    #[test]
    fn hand_computed_packet_log() {
        let (frames, packets) = log();
        // Playout anchored at a's arrival (100 ms) + 100 ms: deadline(n) = 200 + 40 n ms.
        // I0 complete at 110 ≤ 200 ok; P1 complete at 240 ≤ 240 ok (exactly); P2 lost (e);
        // P3 unsent (g); P4 complete at 340 ≤ 360 but needs P3 → dependency.
        let outcomes = evaluate(&frames, &packets, &playout(100));
        let m = video_metrics(&frames, &packets, &outcomes, &[], &MetricsConfig::default());
        let want = FrameCounts { sent: 5, decodable: 2, lost: 1, late: 0, dependency: 1, unsent: 1 };
        assert_eq!(m.frames, want);
        assert_eq!(m.frames_by_type[0], FrameCounts { sent: 1, decodable: 1, ..FrameCounts::default() });
        assert_eq!(
            m.frames_by_type[1],
            FrameCounts { sent: 4, decodable: 1, lost: 1, dependency: 1, unsent: 1, late: 0 }
        );
        assert_eq!(m.frames_by_layers_decodable, vec![3, 2]);
        // 2 decodable frames in 5 × 40 ms = 0.2 s of video → 10 frames/s.
        assert_eq!(m.decodable_frame_rate, 10.0);
        // sent 8, transmitted 7 (g unsent), received 6, delayed 2 (d, h), jitter-free 4, lost 2 (e, g).
        assert_eq!(
            (m.packets_sent, m.packets_transmitted, m.packets_received, m.packets_delayed, m.packets_jitter_free),
            (8, 7, 6, 2, 4)
        );
        assert_eq!((m.packets_lost, m.packets_unsent, m.packets_network_lost), (2, 1, 1));
        // VDI = 4/8, DPR = 2/8, PDR = 2/8.
        assert_eq!((m.vdi, m.dpr, m.pdr), (0.5, 0.25, 0.25));
        // J (A.8 fixed point, ×16 state J16, ns): b: D=0 → J16 0; c: D=10e6 → J16 10_000_000, J 625_000;
        // d: D=80e6 → 10_000_000 + 80_000_000 − 625_000 = 89_375_000, J 5_585_937;
        // f: |D|=30e6 → 89_375_000 + 30_000_000 − 5_585_938 = 113_789_062, J 7_111_816;
        // h: |D|=20e6 → 113_789_062 + 20_000_000 − 7_111_816 = 126_677_246, J 7_917_327.
        // (Float: 0.625, 5.5859375, 7.1118164, 7.9173279 ms.)
        assert_eq!(m.jitter, Duration::from_nanos(7_917_327));
        assert_eq!(m.jitter_max, Duration::from_nanos(7_917_327));
        // Mean over a..h's six samples: (0 + 0 + 625_000 + 5_585_937 + 7_111_816 + 7_917_327) / 6 = 3_540_013.
        assert_eq!(m.jitter_mean, Duration::from_nanos(3_540_013));
        // |D| > 75 ms: only d (80 ms).
        assert_eq!((m.d_over_threshold, m.d_max), (1, Duration::from_millis(80)));
        assert_eq!(m.interarrival_max, Duration::from_millis(90));

        // One millisecond less of startup delay: P1's deadline is 239 ms < 240 → late; P2 (own loss
        // wins over dependency) stays lost.
        let outcomes = evaluate(&frames, &packets, &playout(99));
        let m = video_metrics(&frames, &packets, &outcomes, &[], &MetricsConfig::default());
        assert_eq!(m.frames, FrameCounts { sent: 5, decodable: 1, lost: 1, late: 1, dependency: 1, unsent: 1 });
    }

    #[test]
    fn warm_up_window() {
        let (frames, packets) = log();
        let outcomes = evaluate(&frames, &packets, &playout(100));
        // Frames ready from 80 ms on: P2, P3, P4 with packets e, f, g, h.
        let cfg = MetricsConfig { from: ms(80), ..MetricsConfig::default() };
        let m = video_metrics(&frames, &packets, &outcomes, &[], &cfg);
        // sent 4, received 2 (f, h); f's gap (10 ms, from d outside the window) is short, h's
        // (90 ms) is delayed → VDI 1/4, DPR 1/4, PDR 2/4.
        assert_eq!((m.packets_sent, m.packets_received, m.packets_delayed), (4, 2, 1));
        assert_eq!((m.vdi, m.dpr, m.pdr), (0.25, 0.25, 0.5));
        // J samples at f and h only; no |D| above 75 ms among them (30, 20 ms).
        assert_eq!(m.jitter_max, Duration::from_nanos(7_917_327));
        assert_eq!(m.jitter_mean, Duration::from_nanos((7_111_816 + 7_917_327) / 2));
        assert_eq!((m.d_over_threshold, m.d_max), (0, Duration::from_millis(30)));
        assert_eq!(m.frames.sent, 3);
    }

    #[test]
    fn delayed_threshold_is_settable_and_strict() {
        let (frames, packets) = log();
        let outcomes = evaluate(&frames, &packets, &playout(100));
        // 90 ms gaps: delayed above 89 ms, not above 90 ms (strictly "more than").
        let at = |t| {
            let cfg = MetricsConfig { delayed_threshold: Duration::from_millis(t), ..MetricsConfig::default() };
            video_metrics(&frames, &packets, &outcomes, &[], &cfg).packets_delayed
        };
        assert_eq!((at(89), at(90), at(39), at(9)), (2, 0, 3, 5));
    }

    #[test]
    fn layer_changes() {
        // 1 until 1 s, 2 until 2 s, 3 until 2.5 s, 2 (repeated at 4 s: no change) until 6 s, 1 until 10 s.
        let series = [(secs(0), 1), (secs(1), 2), (secs(2), 3), (ms(2500), 2), (secs(4), 2), (secs(6), 1)];
        let s = layer_stats(&series, secs(0), secs(10), Duration::from_secs(5));
        // changes: 1→2, 2→3 up; 3→2, 2→1 down. 2→3 is undone 0.5 s later: one reversal
        // (3→2 then 2→1 go the same way).
        assert_eq!((s.changes, s.increases, s.decreases, s.reversals), (4, 2, 2, 1));
        assert_eq!(s.last_change_at, Some(secs(6)));
        // time: layer 1: 1 + 4 = 5 s; layer 2: 1 + 1.5 + 2 = 4.5 s; layer 3: 0.5 s.
        let want =
            vec![Duration::ZERO, Duration::from_secs(5), Duration::from_millis(4500), Duration::from_millis(500)];
        assert_eq!(s.time_at, want);
        // From 1.5 s: the 1→2 change is not counted; layer 2 gets 0.5 + 1.5 + 2 = 4 s, layer 1 4 s.
        let s = layer_stats(&series, ms(1500), secs(10), Duration::from_secs(5));
        assert_eq!((s.changes, s.increases, s.decreases, s.reversals), (3, 1, 2, 1));
        assert_eq!(s.time_at[1..], [Duration::from_secs(4), Duration::from_secs(4), Duration::from_millis(500)]);
        // A reversal window shorter than 0.5 s sees none.
        assert_eq!(layer_stats(&series, secs(0), secs(10), Duration::from_millis(499)).reversals, 0);
        // Through video_metrics: the end defaults to the last packet (340 ms arrival).
        let (frames, packets) = log();
        let outcomes = evaluate(&frames, &packets, &playout(100));
        let m = video_metrics(&frames, &packets, &outcomes, &[(ms(0), 1), (ms(300), 0)], &MetricsConfig::default());
        assert_eq!(m.layers.time_at, vec![Duration::from_millis(40), Duration::from_millis(300)]);
        assert_eq!((m.layers.changes, m.layers.decreases), (1, 1));
    }

    #[test]
    fn empty_inputs() {
        let m = video_metrics(&[], &[], &[], &[], &MetricsConfig::default());
        assert_eq!((m.packets_sent, m.vdi, m.dpr, m.pdr, m.decodable_frame_rate), (0, 0.0, 0.0, 0.0, 0.0));
        assert_eq!(m.layers, LayerStats::default());
    }

    proptest! {
        #[test]
        fn random_logs_count_consistently(
            counts in proptest::collection::vec((1u16..4, 0u16..3), 1..30),
            fates in proptest::collection::vec((0u8..8, 0u64..200), 0..200),
            extra in proptest::collection::vec((0u32..40, 0u16..4, 0u64..3000, proptest::option::of(0u64..3000)), 0..10),
            from_ms in 0u64..400,
            series in proptest::collection::vec((0u64..3000, 0u8..5), 0..10),
        ) {
            let frames: Vec<SentFrame> = counts.iter().enumerate().map(|(i, &(base, enh))| {
                let id = i as u32;
                let (t, refs) = if id.is_multiple_of(6) { (FrameType::I, [None, None]) } else { (FrameType::P, [Some(id - 1), None]) };
                let ppl = if enh > 0 { vec![base, enh] } else { vec![base] };
                frame(id, t, refs, ppl)
            }).collect();
            let mut packets = Vec::new();
            let mut k = 0;
            for f in &frames {
                for (layer, &count) in f.packets_per_layer.iter().enumerate() {
                    for index in 0..count {
                        let (fate, delay) = fates.get(k).copied().unwrap_or((7, 30));
                        k += 1;
                        let sent = f.ready_at.as_nanos() / 1_000_000;
                        let mut p = rec(f.id, index, count, sent, Some(sent + delay));
                        p.tag.layer = layer as u8;
                        match fate {
                            0 => continue,
                            1 => p.arrival = None,
                            2 => packets.push(p), // duplicate
                            _ => {}
                        }
                        packets.push(p);
                    }
                }
            }
            // Strays and duplicates with arbitrary times.
            for &(frame, index, sent, arrival) in &extra {
                packets.push(rec(frame, index, 2, sent, arrival));
            }
            let outcomes = evaluate(&frames, &packets, &playout(100));
            let series: Vec<(Instant, u8)> = series.iter().map(|&(t, v)| (ms(t), v)).collect();
            let cfg = MetricsConfig { from: ms(from_ms), ..MetricsConfig::default() };
            let m = video_metrics(&frames, &packets, &outcomes, &series, &cfg);
            let f = m.frames;
            prop_assert_eq!(f.sent, f.decodable + f.lost + f.late + f.dependency + f.unsent);
            let by_type: u64 = m.frames_by_type.iter().map(|c| c.sent).sum();
            prop_assert_eq!(by_type, f.sent);
            prop_assert_eq!(m.frames_by_layers_decodable.iter().sum::<u64>(), f.sent);
            prop_assert!(m.packets_received <= m.packets_transmitted && m.packets_transmitted <= m.packets_sent);
            prop_assert_eq!(m.packets_jitter_free + m.packets_delayed + m.packets_lost, m.packets_sent);
            prop_assert_eq!(m.packets_lost, m.packets_unsent + m.packets_network_lost);
            prop_assert!(m.d_over_threshold <= m.packets_received);
            prop_assert!(m.jitter_mean <= m.jitter_max && m.jitter <= m.jitter_max);
            if m.packets_sent > 0 {
                prop_assert!((m.vdi + m.dpr + m.pdr - 1.0).abs() < 1e-12);
            }
            prop_assert!(m.decodable_frame_rate <= 25.0 + 1e-9);
            prop_assert!(m.layers.changes == m.layers.increases + m.layers.decreases);
            prop_assert!(m.layers.reversals < m.layers.changes.max(1));
        }
    }
}
