//! One receiver's video record: every media packet (send time, arrival), and at the end the
//! judgement of each frame with [`crate::media::decodability`] and the delivery metrics of
//! [`crate::media::metrics`], as the `frames` and `video_summary` tables. Shared by every driver:
//! the simulator's recorder and the real-network receiver (`vidcc-net`) judge frames alike.
//!
//! The frames a sender produced are rebuilt from the media tags of the packets it sent (frame,
//! type, layer, packets in the frame's layer). Frame ids are consecutive, so a frame a sender
//! dropped whole (at its buffer) shows as a gap and is recorded `unsent`, its type taken from the
//! trace (display order, looping) or the GOP pattern. References follow the frames' display-order types: a P frame references the
//! previous anchor (I or P), a B frame the previous and the next anchor; the last B frames of a
//! run, whose forward anchor was never sent, are judged on their backward reference alone.
//!
//! The end of a run cuts some frames short: packets still in the network, or a playout deadline
//! after the last instant simulated. Their fate is unknown, so they are neither lost nor late:
//! the frames table marks them `pending`, and the measurement window ends at the first of them.

use std::collections::BTreeMap;

use crate::media::config::{trace_format, PlayoutConfigSpec, VideoConfig, VideoModel};
use crate::media::decodability::{evaluate, FrameOutcome, FrameStatus, PacketRecord, SentFrame};
use crate::media::gop::GopPattern;
use crate::media::metrics::{video_metrics, MetricsConfig, VideoMetrics};
use crate::media::playout::{PlayoutAnchor, PlayoutConfig};
use crate::media::source::frame_interval_for_fps;
use crate::media::stream::PartKind;
use crate::media::trace::{FrameOrder, Trace};
use crate::media::{FrameType, MediaTag};
use crate::table::{Column, Table};
use crate::{Duration, Instant};

/// One video flow's record of its media packets.
pub struct VideoRecorder {
    pub config: VideoConfig,
    kind: PartKind,
    pub packets: Vec<PacketRecord>,
    /// Per packet: its fate is known (arrived or dropped) by the end of the run.
    resolved: Vec<bool>,
    /// Per packet: its data sequence number (`PacketMeta::seq`).
    seqs: Vec<u64>,
    /// In-order delivery reports `(up_to, when)`, `up_to` increasing (reliable flows only).
    deliveries: Vec<(u64, Instant)>,
}

impl VideoRecorder {
    pub fn new(config: VideoConfig) -> Self {
        // Simulcast streams and the traces of a rate-adaptive set are alternatives: the packets'
        // layer tag names the one sent (the frames table's `encoding`).
        let alternatives = !config.streams_bps.is_empty() || matches!(config.model, VideoModel::RateAdaptive { .. });
        let kind = if alternatives { PartKind::Streams } else { PartKind::Layers };
        VideoRecorder {
            config,
            kind,
            packets: Vec::new(),
            resolved: Vec::new(),
            seqs: Vec::new(),
            deliveries: Vec::new(),
        }
    }

    /// Records a sent media packet; returns its row for the arrival.
    /// Records a sent media packet of data sequence number `seq`; returns its row for the arrival.
    pub fn on_sent(&mut self, tag: MediaTag, seq: u64, size_bytes: u32, now: Instant) -> u32 {
        self.packets.push(PacketRecord { tag, size_bytes, sent_at: now, arrival: None });
        self.resolved.push(false);
        self.seqs.push(seq);
        (self.packets.len() - 1) as u32
    }

    /// The receiver's application now holds every packet of sequence number below `up_to`.
    pub fn on_delivered(&mut self, up_to: u64, now: Instant) {
        if self.deliveries.last().is_none_or(|&(u, _)| up_to > u) {
            self.deliveries.push((up_to, now));
        }
    }

    /// The packet log as the application saw it, and which fates are known: network arrivals,
    /// or for a flow that reports in-order delivery (TCP carrying video), the delivery of each
    /// packet's sequence number (the first report covering it): head-of-line blocking included,
    /// and a dropped copy whose retransmission the run did not deliver leaves its frame pending.
    fn application_view(&self) -> (Vec<PacketRecord>, Vec<bool>) {
        if self.deliveries.is_empty() {
            return (self.packets.clone(), self.resolved.clone());
        }
        let delivered = |seq: u64| {
            let i = self.deliveries.partition_point(|&(up_to, _)| up_to <= seq);
            self.deliveries.get(i).map(|&(_, t)| t)
        };
        let packets: Vec<PacketRecord> =
            self.packets.iter().zip(&self.seqs).map(|(p, &s)| PacketRecord { arrival: delivered(s), ..*p }).collect();
        let resolved = packets.iter().map(|p| p.arrival.is_some()).collect();
        (packets, resolved)
    }

    pub fn on_arrival(&mut self, row: u32, now: Instant) {
        let r = &mut self.packets[row as usize];
        r.arrival = Some(r.arrival.map_or(now, |a| a.min(now)));
        self.resolved[row as usize] = true;
    }

    pub fn on_dropped(&mut self, row: u32) {
        self.resolved[row as usize] = true;
    }

    /// Judges every frame and computes the flow's metrics over `[from, until)` (ready times),
    /// `until` cut back to the first frame whose fate the run's `end` leaves unknown.
    pub fn evaluate(&self, from: Instant, until: Instant, end: Instant) -> (Vec<FrameRow>, VideoMetrics) {
        let interval = frame_interval_for_fps(self.config.fps).unwrap_or(Duration::from_millis(40));
        // Simulcast: the one stream sent is what the receiver decodes; judge it as a single layer
        // and keep the stream number apart.
        let (seen, resolved) = self.application_view();
        let packets: Vec<PacketRecord> = match self.kind {
            PartKind::Layers => seen,
            PartKind::Streams => {
                seen.iter().map(|p| PacketRecord { tag: MediaTag { layer: 0, ..p.tag }, ..*p }).collect()
            }
        };
        let mut stream_of: BTreeMap<u32, u8> = BTreeMap::new();
        let mut by_frame: BTreeMap<u32, (FrameType, Instant, Vec<u16>)> = BTreeMap::new();
        for (p, orig) in packets.iter().zip(&self.packets) {
            let Some(t) = FrameType::from_code(p.tag.frame_type) else { continue };
            stream_of.insert(p.tag.frame, orig.tag.layer);
            let e = by_frame.entry(p.tag.frame).or_insert((t, p.sent_at, Vec::new()));
            e.1 = e.1.min(p.sent_at);
            let l = p.tag.layer as usize;
            if e.2.len() <= l {
                e.2.resize(l + 1, 0);
            }
            e.2[l] = p.tag.count;
        }
        if let (Some(&first), Some(&last)) = (by_frame.keys().next(), by_frame.keys().next_back()) {
            let type_of = self.frame_types();
            for id in first..=last {
                by_frame.entry(id).or_insert_with(|| {
                    let ready = by_frame_ready(first, id, interval, &self.packets);
                    (type_of(id), ready, Vec::new())
                });
            }
        }
        let anchors: Vec<u32> = by_frame.iter().filter(|(_, f)| f.0 != FrameType::B).map(|(&id, _)| id).collect();
        // Every frame is judged against its display slot: the first frame's send time plus whole
        // frame intervals (frames leave in decode order, so a send time is not a display time).
        let t_first = by_frame.values().next().map(|f| f.1);
        let first_id = by_frame.keys().next().copied().unwrap_or(0);
        let frames: Vec<SentFrame> = by_frame
            .iter()
            .map(|(&id, (t, _sent, ppl))| {
                let ready = t_first.map_or(Instant::ZERO, |t0| t0 + interval * (id - first_id) as u64);
                let at = anchors.partition_point(|&a| a < id);
                let prev = at.checked_sub(1).map(|i| anchors[i]);
                let next = anchors.get(if anchors.get(at) == Some(&id) { at + 1 } else { at }).copied();
                let refs = match t {
                    FrameType::I => [None, None],
                    FrameType::P => [prev, None],
                    FrameType::B => [prev, next],
                };
                SentFrame { id, frame_type: *t, refs, ready_at: ready, packets_per_layer: ppl.clone() }
            })
            .collect();
        let (anchor, delay) = match self.config.playout {
            PlayoutConfigSpec::FirstArrival { delay_ns } => (PlayoutAnchor::FirstArrival, delay_ns),
            PlayoutConfigSpec::ReadyTime { delay_ns } => (PlayoutAnchor::ReadyTime, delay_ns),
        };
        let playout = PlayoutConfig {
            anchor,
            startup_delay: Duration::from_nanos(delay),
            frame_interval: interval,
            ..PlayoutConfig::default()
        };
        let mut outcomes = evaluate(&frames, &packets, &playout);
        if !self.deliveries.is_empty() {
            // A reliable sender drops nothing: a frame not (wholly) sent by the end of the run
            // is still in its send buffer, and late once its deadline has passed.
            for o in outcomes.iter_mut().filter(|o| o.status == FrameStatus::Unsent && o.deadline <= end) {
                o.status = FrameStatus::Late;
            }
        }
        let mut unknown: BTreeMap<u32, ()> = BTreeMap::new();
        for (p, done) in self.packets.iter().zip(&resolved) {
            if !done {
                unknown.insert(p.tag.frame, ());
            }
        }
        let pending_from = frames
            .iter()
            .zip(&outcomes)
            .filter(|(f, o)| o.deadline > end || unknown.contains_key(&f.id))
            .map(|(f, _)| f.ready_at)
            .min()
            .unwrap_or(Instant::MAX);
        let until = until.min(pending_from);
        let layers_sent = frames.first().map_or(0, |f| f.packets_per_layer.len() as u8);
        let mcfg = MetricsConfig {
            delayed_threshold: Duration::from_nanos(self.config.delayed_threshold_ns),
            frame_interval: interval,
            from,
            until,
            ..MetricsConfig::default()
        };
        let metrics = video_metrics(&frames, &packets, &outcomes, &[(from, layers_sent)], &mcfg);
        let rows = frames
            .iter()
            .zip(outcomes)
            .map(|(f, o)| FrameRow {
                stream: stream_of.get(&f.id).copied().unwrap_or(0),
                ready_at: f.ready_at,
                pending: f.ready_at >= pending_from,
                outcome: o,
            })
            .collect();
        (rows, metrics)
    }

    /// The type of display frame `id` as the source makes it.
    fn frame_types(&self) -> Box<dyn Fn(u32) -> FrameType> {
        let trace = match &self.config.model {
            VideoModel::Trace { text, format, .. } => Some((text, format)),
            // Every trace of the set codes the same clip with the same frame types.
            VideoModel::RateAdaptive { traces, format, .. } => traces.first().map(|t| (&t.text, format)),
            _ => None,
        };
        if let Some((text, format)) = trace {
            if let Ok(t) = Trace::parse(text, trace_format(*format)) {
                let types: Vec<FrameType> = t
                    .in_display_order(FrameOrder::of_format(trace_format(*format)))
                    .frames
                    .iter()
                    .map(|f| f.0)
                    .collect();
                if !types.is_empty() {
                    return Box::new(move |id| types[id as usize % types.len()]);
                }
            }
        }
        match GopPattern::parse(&self.config.gop) {
            Ok(g) => Box::new(move |id| g.frame_type(id)),
            Err(_) => Box::new(|_| FrameType::P),
        }
    }

    pub fn is_simulcast(&self) -> bool {
        self.kind == PartKind::Streams
    }
}

/// Ready time of an unsent frame: the first frame's send time plus whole frame intervals.
fn by_frame_ready(first: u32, id: u32, interval: Duration, packets: &[PacketRecord]) -> Instant {
    let t0 = packets.iter().filter(|p| p.tag.frame == first).map(|p| p.sent_at).min().unwrap_or(Instant::ZERO);
    t0 + interval * (id - first) as u64
}

pub struct FrameRow {
    pub stream: u8,
    pub ready_at: Instant,
    /// At or after the first frame whose fate the end of the run left unknown.
    pub pending: bool,
    pub outcome: FrameOutcome,
}

fn status_name(s: FrameStatus) -> &'static str {
    match s {
        FrameStatus::Ok => "ok",
        FrameStatus::Lost => "lost",
        FrameStatus::Late => "late",
        FrameStatus::Dependency => "dependency",
        FrameStatus::Unsent => "unsent",
    }
}

/// Column builders for the `frames` and `video_summary` tables.
#[derive(Default)]
pub struct VideoTables {
    f_flow: Vec<u64>,
    f_receiver: Vec<u64>,
    f_frame: Vec<u64>,
    f_type: Vec<String>,
    f_encoding: Vec<u64>,
    f_layers_sent: Vec<u64>,
    f_layers_dec: Vec<u64>,
    f_decodable: Vec<bool>,
    f_status: Vec<String>,
    f_ready: Vec<u64>,
    f_complete: Vec<i64>,
    f_deadline: Vec<u64>,
    v: Vec<(u64, u64, VideoMetrics)>,
}

impl VideoTables {
    pub fn add(&mut self, flow: u64, receiver: u64, simulcast: bool, rows: Vec<FrameRow>, m: VideoMetrics) {
        for r in rows {
            let o = r.outcome;
            self.f_flow.push(flow);
            self.f_receiver.push(receiver);
            self.f_frame.push(o.id as u64);
            self.f_type.push(o.frame_type.as_char().to_string());
            // Simulcast: the stream sent is the encoding; layered: one encoding per layer count.
            self.f_encoding.push(if simulcast { r.stream as u64 } else { 0 });
            self.f_layers_sent.push(o.layers_sent as u64);
            self.f_layers_dec.push(o.layers_decodable as u64);
            self.f_decodable.push(o.decodable && !r.pending);
            self.f_status.push(if r.pending { "pending" } else { status_name(o.status) }.into());
            self.f_ready.push(r.ready_at.as_nanos());
            self.f_complete.push(o.complete_at.map_or(-1, |t| t.as_nanos() as i64));
            self.f_deadline.push(o.deadline.as_nanos());
        }
        self.v.push((flow, receiver, m));
    }

    pub fn is_empty(&self) -> bool {
        self.v.is_empty()
    }

    pub fn into_tables(self) -> [Table; 2] {
        let frames = Table::new("frames")
            .col("flow", Column::U64(self.f_flow))
            .col("receiver", Column::U64(self.f_receiver))
            .col("frame", Column::U64(self.f_frame))
            .col("frame_type", Column::Str(self.f_type))
            .col("encoding", Column::U64(self.f_encoding))
            .col("layers_sent", Column::U64(self.f_layers_sent))
            .col("layers_decodable", Column::U64(self.f_layers_dec))
            .col("decodable", Column::Bool(self.f_decodable))
            .col("status", Column::Str(self.f_status))
            .col("ready_ns", Column::U64(self.f_ready))
            .col("complete_ns", Column::I64(self.f_complete))
            .col("deadline_ns", Column::U64(self.f_deadline));
        let v = &self.v;
        let u = |g: &dyn Fn(&VideoMetrics) -> u64| Column::U64(v.iter().map(|(_, _, m)| g(m)).collect());
        let f = |g: &dyn Fn(&VideoMetrics) -> f64| Column::F64(v.iter().map(|(_, _, m)| g(m)).collect());
        let summary = Table::new("video_summary")
            .col("flow", Column::U64(v.iter().map(|(k, _, _)| *k).collect()))
            .col("receiver", Column::U64(v.iter().map(|(_, r, _)| *r).collect()))
            .col("frames_sent", u(&|m| m.frames.sent))
            .col("frames_decodable", u(&|m| m.frames.decodable))
            .col("frames_lost", u(&|m| m.frames.lost))
            .col("frames_late", u(&|m| m.frames.late))
            .col("frames_dependency", u(&|m| m.frames.dependency))
            .col("frames_unsent", u(&|m| m.frames.unsent))
            .col("decodable_frame_rate", f(&|m| m.decodable_frame_rate))
            .col("packets_sent", u(&|m| m.packets_sent))
            .col("packets_received", u(&|m| m.packets_received))
            .col("packets_lost", u(&|m| m.packets_lost))
            .col("packets_delayed", u(&|m| m.packets_delayed))
            .col("vdi", f(&|m| m.vdi))
            .col("delayed_packet_rate", f(&|m| m.dpr))
            .col("packet_drop_rate", f(&|m| m.pdr))
            .col("jitter_ns", u(&|m| m.jitter.as_nanos()))
            .col("jitter_mean_ns", u(&|m| m.jitter_mean.as_nanos()))
            .col("jitter_max_ns", u(&|m| m.jitter_max.as_nanos()))
            .col("d_over_threshold", u(&|m| m.d_over_threshold))
            .col("layer_changes", u(&|m| m.layers.changes));
        [frames, summary]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cbr_config() -> VideoConfig {
        VideoConfig {
            model: VideoModel::Cbr { rate_bps: 1_000_000 },
            fps: 25.0,
            gop: "IPPP".into(),
            layers_bps: vec![],
            streams_bps: vec![],
            playout: PlayoutConfigSpec::ReadyTime { delay_ns: 200_000_000 },
            delayed_threshold_ns: 75_000_000,
            display_order: false,
        }
    }

    fn tag(frame: u32, t: FrameType) -> MediaTag {
        MediaTag { frame, frame_type: t.code(), layer: 0, index: 0, count: 1 }
    }

    /// Frame 2 never left the sender: it is `unsent`, and P frame 3, which references it, is
    /// `dependency`; frames 0 and 1 arrived in time.
    #[test]
    fn a_frame_missing_between_sent_ones_is_unsent() {
        let mut r = VideoRecorder::new(cbr_config());
        let ms = |m: u64| Instant::from_nanos(m * 1_000_000);
        for (id, t) in [(0, FrameType::I), (1, FrameType::P), (3, FrameType::P)] {
            let row = r.on_sent(tag(id, t), id as u64, 1000, ms(40 * id as u64));
            r.on_arrival(row, ms(40 * id as u64 + 30));
        }
        let (rows, m) = r.evaluate(Instant::ZERO, ms(10_000), ms(10_000));
        let status: Vec<&str> = rows.iter().map(|r| status_name(r.outcome.status)).collect();
        assert_eq!(status, ["ok", "ok", "unsent", "dependency"]);
        assert_eq!(rows[2].outcome.frame_type, FrameType::P, "type from the GOP pattern IPPP");
        assert_eq!(rows[2].ready_at, ms(80));
        assert_eq!((m.frames.sent, m.frames.unsent, m.frames.decodable), (4, 1, 2));
    }

    /// Head-of-line blocking: frame 1's only packet (segment 1) reaches the receiver at 50 ms, but
    /// the application gets it only with segment 0, whose first copy was dropped and whose
    /// retransmission arrives at 500 ms; both frames are late (deadlines 200 and 240 ms). Judged
    /// by network arrival, frame 1 would be on time.
    #[test]
    fn a_reliable_flow_is_judged_by_in_order_delivery() {
        let ms = |m: u64| Instant::from_nanos(m * 1_000_000);
        let mut r = VideoRecorder::new(cbr_config());
        let lost = r.on_sent(tag(0, FrameType::I), 0, 1000, ms(0));
        r.on_dropped(lost);
        let p1 = r.on_sent(tag(1, FrameType::P), 1, 1000, ms(40));
        r.on_arrival(p1, ms(50));
        r.on_delivered(0, ms(50)); // nothing in order yet: ignored (not beyond 0)
        let again = r.on_sent(tag(0, FrameType::I), 0, 1000, ms(300));
        r.on_arrival(again, ms(500));
        r.on_delivered(2, ms(500));
        let (rows, m) = r.evaluate(Instant::ZERO, ms(10_000), ms(10_000));
        let status: Vec<&str> = rows.iter().map(|r| status_name(r.outcome.status)).collect();
        assert_eq!(status, ["late", "late"]);
        assert_eq!(rows[1].outcome.complete_at, Some(ms(500)));
        assert_eq!((m.packets_sent, m.packets_received), (2, 2));
    }

    /// A segment dropped and not yet delivered again when the run ends leaves its frame pending,
    /// never lost, once the flow has reported deliveries.
    #[test]
    fn an_undelivered_segment_of_a_reliable_flow_is_pending() {
        let ms = |m: u64| Instant::from_nanos(m * 1_000_000);
        let mut r = VideoRecorder::new(cbr_config());
        let p0 = r.on_sent(tag(0, FrameType::I), 0, 1000, ms(0));
        r.on_arrival(p0, ms(10));
        r.on_delivered(1, ms(10));
        let p1 = r.on_sent(tag(1, FrameType::P), 1, 1000, ms(40));
        r.on_dropped(p1);
        let (rows, _) = r.evaluate(Instant::ZERO, ms(10_000), ms(10_000));
        assert_eq!(status_name(rows[0].outcome.status), "ok");
        assert!(rows[1].pending, "frame 1's fate is unknown: TCP would still retransmit it");
    }
}
