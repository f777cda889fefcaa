//! One receiver's video record: every frame its sender's application produced for it, every
//! media packet (send time, arrival), and at the end the judgement of each frame with
//! [`crate::media::decodability`] and the delivery metrics of [`crate::media::metrics`], as the
//! `frames` and `video_summary` tables. Shared by every driver: the simulator's recorder and the
//! real-network receiver (`vidcc-net`) judge frames alike.
//!
//! **What was produced.** A driver that hears the sender's [`crate::media::report::MediaReport`]s (the simulator)
//! gives each receiver its share of every frame ([`VideoRecorder::on_produced`]): the frames
//! and packets counted are the application's, whether or not they left the sender (the
//! definition of `metrics.rs`), and a packet the sender buffer dropped is known as such
//! ([`VideoRecorder::on_discarded`]). A driver that does not (the real-network receiver) leaves
//! them unknown: the frames are then rebuilt from the media tags of the packets it got (frame,
//! type, layer, packets in the frame's layer); frame ids are consecutive, so a frame missing
//! between two seen ones shows as a gap and is recorded `unsent` with no packet count, its type
//! taken from the trace (display order, looping) or the GOP pattern. References follow the
//! frames' display-order types: a P frame references the previous anchor (I or P), a B frame
//! the previous and the next anchor; the last B frames of a run, whose forward anchor was never
//! produced, are judged on their backward reference alone.
//!
//! **Judged and pending.** Every frame whose playout deadline is at or before the run's `end`
//! is judged, whatever became of its packets: one whose base layer was still in the sender
//! buffer or in the network at the end (after its deadline) is `late`, as is one whose packets
//! arrived after the deadline; one with a base-layer packet the sender buffer dropped is
//! `unsent`; one with a base-layer packet dropped in the network is `lost`. A packet not at
//! the receiver by the end is never received for the packet counts (PDR), so VDI + DPR + PDR =
//! 1 over every produced packet of the judged frames. Only a frame whose deadline is after the
//! end is `pending` (its fate is unknown): the frames table marks it, the metrics leave it out.
//! With the send-time anchor a frame none of whose packets left has no send time and is due at
//! its ready time + the delay (`playout.rs`): one still queued at the end is `late` once that
//! has passed, not pending for ever (a sender that never sends must not look faultless).
use std::collections::BTreeMap;

use crate::media::config::{trace_format, PlayoutConfigSpec, VideoConfig, VideoModel};
use crate::media::decodability::{evaluate, FrameOutcome, FrameStatus, PacketRecord, SentFrame};
use crate::media::gop::GopPattern;
use crate::media::metrics::{video_metrics, MetricsConfig, VideoMetrics};
use crate::media::playout::{PlayoutAnchor, PlayoutConfig};
use crate::media::report::ProducedFrame;
use crate::media::source::frame_interval_for_fps;
use crate::media::stream::PartKind;
use crate::media::trace::{FrameOrder, Trace};
use crate::media::{FrameType, MediaTag};
use crate::table::{Column, Table};
use crate::{Duration, Instant};

/// Which parts of a produced frame a receiver is meant to get.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Share {
    /// Everything the application produced (a unicast flow's one receiver).
    All,
    /// Multicast, cumulative layers: the first `k` (the groups joined, from the base up).
    Layers(u8),
    /// Multicast, alternative streams: stream (tag layer) `j`, the group joined.
    Stream(u8),
    /// Multicast: no group joined.
    Nothing,
}

/// A frame as produced for this receiver.
#[derive(Clone, Debug)]
struct Produced {
    id: u32,
    frame_type: FrameType,
    ready_at: Instant,
    /// The tag layer of the one stream meant (alternatives); 0 for layers.
    stream: u8,
    packets_per_layer: Vec<u16>,
}

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
    /// What the application produced for this receiver (`None`: unknown; module docs).
    produced: Option<Vec<Produced>>,
    /// Packets the sender buffer dropped, as `(frame, layer, index)`.
    discarded: Vec<(u32, u8, u16)>,
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
            produced: None,
            discarded: Vec::new(),
        }
    }

    /// The sender's application produced `frame`; `share` is what of it this receiver is meant
    /// to get. Once called, the frames judged are the ones produced (module docs).
    pub fn on_produced(&mut self, frame: &ProducedFrame, share: Share) {
        let all = &frame.packets_per_layer;
        let (stream, ppl) = match (self.kind, share) {
            // A single-stream frame names its encoding even for a receiver not meant to get it
            // (the frames table's `encoding` says what the sender produced).
            (PartKind::Streams, Share::Nothing) if all.len() == 1 => (frame.first_layer, Vec::new()),
            (_, Share::Nothing) => (0, Vec::new()),
            (PartKind::Layers, Share::All) => (0, all.clone()),
            (PartKind::Layers, Share::Layers(k)) | (PartKind::Layers, Share::Stream(k)) => {
                (0, all[..all.len().min(k as usize)].to_vec())
            }
            // One stream produced (unicast, or a single-rate multicast sender's encoding, which
            // goes to every member): it is the one meant.
            (PartKind::Streams, Share::All) | (PartKind::Streams, Share::Layers(_)) => {
                (frame.first_layer, all.first().map(|&n| vec![n]).unwrap_or_default())
            }
            (PartKind::Streams, Share::Stream(_)) if all.len() == 1 => (frame.first_layer, vec![all[0]]),
            (PartKind::Streams, Share::Stream(j)) => {
                let at = j.checked_sub(frame.first_layer).and_then(|i| all.get(i as usize));
                (j, at.map(|&n| vec![n]).unwrap_or_default())
            }
        };
        let p = Produced {
            id: frame.id,
            frame_type: frame.frame_type,
            ready_at: frame.ready_at,
            stream,
            packets_per_layer: ppl,
        };
        self.produced.get_or_insert_with(Vec::new).push(p);
    }

    /// The sender buffer dropped the packet tagged `tag`: it never leaves the sender.
    pub fn on_discarded(&mut self, tag: MediaTag) {
        self.discarded.push((tag.frame, tag.layer, tag.index));
    }

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
    /// and a dropped copy whose retransmission the run did not deliver is still on its way.
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

    /// Every frame, in display order: `(id, type, ready time, packets per layer, stream)`; from
    /// the production reports, or rebuilt from the packets (module docs).
    fn frames_known(&self) -> BTreeMap<u32, (FrameType, Instant, Vec<u16>, u8)> {
        let mut by_frame: BTreeMap<u32, (FrameType, Instant, Vec<u16>, u8)> = BTreeMap::new();
        match &self.produced {
            Some(produced) => {
                for p in produced {
                    by_frame.insert(p.id, (p.frame_type, p.ready_at, p.packets_per_layer.clone(), p.stream));
                }
            }
            None => {
                for p in &self.packets {
                    let Some(t) = FrameType::from_code(p.tag.frame_type) else { continue };
                    let e = by_frame.entry(p.tag.frame).or_insert((t, p.sent_at, Vec::new(), p.tag.layer));
                    e.1 = e.1.min(p.sent_at);
                    e.3 = p.tag.layer;
                    // Alternatives: the one stream sent is judged as a single layer.
                    let l = if self.kind == PartKind::Streams { 0 } else { p.tag.layer as usize };
                    if e.2.len() <= l {
                        e.2.resize(l + 1, 0);
                    }
                    e.2[l] = p.tag.count;
                }
            }
        }
        if let (Some(&first), Some(&last)) = (by_frame.keys().next(), by_frame.keys().next_back()) {
            let type_of = self.frame_types();
            let t0 = by_frame[&first].1;
            for id in first..=last {
                by_frame.entry(id).or_insert_with(|| (type_of(id), t0, Vec::new(), 0));
            }
        }
        by_frame
    }

    /// Judges every frame and computes the flow's metrics over `[from, until)` (ready times),
    /// leaving out the frames whose deadline is after the run's `end` (pending).
    pub fn evaluate(&self, from: Instant, until: Instant, end: Instant) -> (Vec<FrameRow>, VideoMetrics) {
        let interval = frame_interval_for_fps(self.config.fps).unwrap_or(Duration::from_millis(40));
        let by_frame = self.frames_known();
        let (seen, resolved) = self.application_view();
        // Alternatives: the stream meant is judged as layer 0; a packet of another stream (a
        // simulcast receiver between two streams) matches no layer and is not counted.
        let packets: Vec<PacketRecord> = match self.kind {
            PartKind::Layers => seen,
            PartKind::Streams => seen
                .iter()
                .map(|p| {
                    let meant =
                        self.produced.is_none() || by_frame.get(&p.tag.frame).is_some_and(|f| f.3 == p.tag.layer);
                    PacketRecord { tag: MediaTag { layer: if meant { 0 } else { u8::MAX }, ..p.tag }, ..*p }
                })
                .collect(),
        };
        let anchors: Vec<u32> = by_frame.iter().filter(|(_, f)| f.0 != FrameType::B).map(|(&id, _)| id).collect();
        // Every frame is judged against its display slot: the first frame's ready (or send)
        // time plus whole frame intervals (frames leave in decode order, so a send slot is not a
        // display time).
        let t_first = by_frame.values().next().map(|f| f.1);
        let first_id = by_frame.keys().next().copied().unwrap_or(0);
        let frames: Vec<SentFrame> = by_frame
            .iter()
            .map(|(&id, (t, _, ppl, _))| {
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
            PlayoutConfigSpec::SendTime { delay_ns } => (PlayoutAnchor::SendTime, delay_ns),
        };
        let playout = PlayoutConfig {
            anchor,
            startup_delay: Duration::from_nanos(delay),
            frame_interval: interval,
            ..PlayoutConfig::default()
        };
        let mut outcomes = evaluate(&frames, &packets, &playout);
        // The base-layer packets the sender buffer dropped, `(frame, index)` (alternatives: of
        // the stream meant).
        let base_tag = |frame: u32| match self.kind {
            PartKind::Layers => 0,
            PartKind::Streams => by_frame.get(&frame).map_or(0, |f| f.3),
        };
        let mut discarded: Vec<(u32, u16)> =
            self.discarded.iter().filter(|&&(f, l, _)| l == base_tag(f)).map(|&(f, _, i)| (f, i)).collect();
        discarded.sort_unstable();
        self.base_layer_fates(&frames, &packets, &resolved, &discarded, end, &mut outcomes);
        // The pending frames are left out of the metrics one by one, not by ending the window at
        // the first: a send-time deadline does not grow with the display index (a B frame leaves
        // after its forward anchor, a frame may wait in the sender buffer). Their packets then
        // match no frame: not counted, still in the arrival sequence, as outside the window.
        let judged: Vec<usize> = (0..frames.len()).filter(|&i| outcomes[i].deadline <= end).collect();
        let judged_frames: Vec<SentFrame> = judged.iter().map(|&i| frames[i].clone()).collect();
        let judged_outcomes: Vec<FrameOutcome> = judged.iter().map(|&i| outcomes[i]).collect();
        let layers_sent = frames.first().map_or(0, |f| f.packets_per_layer.len() as u8);
        let mcfg = MetricsConfig {
            delayed_threshold: Duration::from_nanos(self.config.delayed_threshold_ns),
            frame_interval: interval,
            from,
            until,
            ..MetricsConfig::default()
        };
        let metrics = video_metrics(&judged_frames, &packets, &judged_outcomes, &[(from, layers_sent)], &mcfg);
        let rows = frames
            .iter()
            .zip(outcomes)
            .map(|(f, o)| FrameRow {
                stream: by_frame.get(&f.id).map_or(0, |b| b.3),
                ready_at: f.ready_at,
                pending: o.deadline > end,
                outcome: o,
            })
            .collect();
        (rows, metrics)
    }

    /// A frame whose base layer did not all reach the receiver (`unsent` or `lost` to
    /// `evaluate`, which sees only the packets that left) and whose deadline has passed by the
    /// end: `unsent` if the sender buffer dropped a base packet, `lost` if the network did,
    /// otherwise `late` (a base packet still in the sender or in flight after the deadline). A
    /// reliable sender (delivery reports) drops nothing and retransmits what the network drops,
    /// so its undelivered packets are all on their way.
    fn base_layer_fates(
        &self,
        frames: &[SentFrame],
        packets: &[PacketRecord],
        resolved: &[bool],
        discarded: &[(u32, u16)],
        end: Instant,
        outcomes: &mut [FrameOutcome],
    ) {
        let reliable = !self.deliveries.is_empty();
        if self.produced.is_none() && !reliable {
            return; // only packets that left are known: `evaluate`'s verdict stands
        }
        // Base-layer packets per frame: (arrived, dropped in the network) by index.
        let mut base: BTreeMap<(u32, u16), (bool, bool)> = BTreeMap::new();
        for (p, &done) in packets.iter().zip(resolved) {
            if p.tag.layer == 0 {
                let e = base.entry((p.tag.frame, p.tag.index)).or_default();
                e.0 |= p.arrival.is_some();
                e.1 |= done && p.arrival.is_none() && !reliable;
            }
        }
        for (f, o) in frames.iter().zip(outcomes.iter_mut()) {
            let count = f.packets_per_layer.first().copied().unwrap_or(0);
            if !matches!(o.status, FrameStatus::Unsent | FrameStatus::Lost) || count == 0 || o.deadline > end {
                continue;
            }
            let (mut sender_drop, mut network_drop) = (false, false);
            for i in 0..count {
                let (arrived, dropped) = base.get(&(f.id, i)).copied().unwrap_or_default();
                if !arrived && discarded.binary_search(&(f.id, i)).is_ok() {
                    sender_drop = true;
                } else if dropped && !arrived {
                    network_drop = true;
                }
            }
            o.status = if sender_drop {
                FrameStatus::Unsent
            } else if network_drop {
                FrameStatus::Lost
            } else {
                FrameStatus::Late
            };
        }
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

pub struct FrameRow {
    pub stream: u8,
    pub ready_at: Instant,
    /// Its deadline is after the end of the run: its fate is unknown.
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
#[path = "record_tests.rs"]
mod tests;
