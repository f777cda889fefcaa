//! The receiver's record of a real run, as the same tables a simulated run writes (column for
//! column: `vidcc-sim`'s `record/` and docs/scenarios.md): `flows`, `flow_summary`,
//! `aggregate`, `flow_samples`, `packets` and, for video, `frames` and `video_summary`, judged
//! by the simulator's own code (`vidcc_core::media::record`).
//!
//! Time zero is the receiver's acceptance of the session; send times come from the data
//! envelopes (Unix ns) and are put on that timeline, so one-way delays are exact when both ends
//! share a clock (one machine) and off by the clocks' offset otherwise.
//!
//! What a receiver cannot know, and how it is written:
//! - where a packet was lost: every packet sent and never received counts in `dropped_loss`
//!   (`dropped_queue` is 0; the relay `vidcc link` reports its own queue drops);
//! - packets none of whose bytes arrived: they appear in `packets` by sequence number with fate
//!   `loss`, size 0 and send time 0: the gaps between the sequence numbers that arrived, and
//!   those between the last arrival and the next sequence number of the sender's Bye. The
//!   table is built from what arrived, never by walking a sequence range a datagram claims: the
//!   driver admits only sequence numbers within [`crate::guard::MAX_DROPOUT`] of those seen
//!   and a Bye that fits them, so every gap is bounded and paid for in the state budget;
//! - receiver state is bounded ([`RecvRecorder::with_max_state`], default
//!   [`DEFAULT_MAX_STATE_BYTES`]): every arrival is charged [`ROW_BYTES`] for itself, for each
//!   sequence number it skips (a `loss` row to come) and, the first of its frame and layer,
//!   for each fragment of that frame (the video judgement's rows); once the budget is spent
//!   arrivals are counted ([`RecvRecorder::unrecorded`]) and no longer recorded;
//! - a fragment of a partly received frame that never arrived is known from its siblings' tags
//!   (the frame's packet count) and judged lost; a frame none of whose packets arrived is a gap in
//!   the frame numbers and is judged as the simulator judges a gap: `unsent`;
//! - the `events` table is not written (the endpoints' events are the sender's);
//! - fair share and path RTT: the receiver knows no link, so `fair_share_bps` and
//!   `normalized_throughput` are NaN and `path_rtt_ns` is 0.

use std::collections::{BTreeMap, BTreeSet};

use vidcc_core::estimate::jitter::Rfc3550Jitter;
use vidcc_core::media::config::VideoConfig;
use vidcc_core::media::record::{VideoRecorder, VideoTables};
use vidcc_core::media::MediaTag;
use vidcc_core::table::{Column, Table};
use vidcc_core::{Duration, Instant};

use crate::clock::Clock;
use crate::driver::Observer;
use crate::envelope::DataInfo;

struct Arrival {
    seq: u64,
    size: u32,
    sent: Instant,
    arrival: Instant,
    media: MediaTag,
}

/// What the receiver's run knows about the flow, for the `flows` table.
pub struct FlowInfo {
    pub label: String,
    pub protocol: String,
    pub src: String,
    pub dst: String,
}

/// Default budget of a receiver's recorded state.
pub const DEFAULT_MAX_STATE_BYTES: u64 = 64 << 20;
/// What one recorded row is charged against the budget: an arrival (48 bytes) with its
/// vector's growth slack, and its rows in the tables built at the end (`packets`: five
/// columns and a fate string; the video judgement's packet row).
pub const ROW_BYTES: u64 = 256;

pub struct RecvRecorder {
    clock: Clock,
    /// Rows the budget still allows, and arrivals turned away once it was spent.
    rows_left: u64,
    unrecorded: u64,
    highest: Option<u64>,
    highest_frame: Option<u32>,
    /// The distinct sequence numbers recorded.
    seqs: BTreeSet<u64>,
    frame_layers: BTreeSet<(u32, u8)>,
    interval: Duration,
    video: Option<VideoConfig>,
    arrivals: Vec<Arrival>,
    jitter: Rfc3550Jitter,
    jitter_sum_ns: f64,
    delay_sum_ns: u128,
    // The current sample interval.
    next_sample: Instant,
    i_bytes: u64,
    i_delivered: u64,
    i_delay_sum_ns: u128,
    i_delay_max_ns: u64,
    last_app_bytes: u64,
    samples: Vec<SampleRow>,
}

/// One `flow_samples` row (the simulator's columns; a receiver learns of losses only at the end).
struct SampleRow {
    t_ns: u64,
    throughput_bps: f64,
    goodput_bps: f64,
    /// Mean and largest one-way delay of the interval's arrivals (NaN: none).
    delay_ns: f64,
    delay_max_ns: f64,
    jitter_ns: f64,
    delivered: u64,
}

impl RecvRecorder {
    pub fn new(clock: Clock, sample_interval: Duration, video: Option<VideoConfig>) -> Self {
        let interval = if sample_interval.is_zero() { Duration::from_millis(100) } else { sample_interval };
        RecvRecorder {
            clock,
            rows_left: DEFAULT_MAX_STATE_BYTES / ROW_BYTES,
            unrecorded: 0,
            highest: None,
            highest_frame: None,
            seqs: BTreeSet::new(),
            frame_layers: BTreeSet::new(),
            interval,
            video,
            arrivals: Vec::new(),
            jitter: Rfc3550Jitter::new(),
            jitter_sum_ns: 0.0,
            delay_sum_ns: 0,
            next_sample: Instant::ZERO + interval,
            i_bytes: 0,
            i_delivered: 0,
            i_delay_sum_ns: 0,
            i_delay_max_ns: 0,
            last_app_bytes: 0,
            samples: Vec::new(),
        }
    }

    /// Bounds the recorded state to about `bytes` (see the module docs).
    pub fn with_max_state(mut self, bytes: u64) -> Self {
        self.rows_left = bytes / ROW_BYTES;
        self
    }

    /// Arrivals not recorded because the state budget was spent.
    pub fn unrecorded(&self) -> u64 {
        self.unrecorded
    }

    /// Distinct data sequence numbers recorded.
    pub fn unique_seqs(&self) -> u64 {
        self.seqs.len() as u64
    }

    pub fn delivered(&self) -> u64 {
        self.arrivals.len() as u64
    }

    /// Appends the arrivals after the first `from` to `out` as CSV lines (`seq,size_bytes,sent_ns,
    /// arrival_ns,frame,frame_type,layer,index,count`; media fields empty for non-media packets);
    /// returns how many arrivals are now written.
    pub fn write_log(&self, from: usize, out: &mut impl std::io::Write) -> std::io::Result<usize> {
        for a in &self.arrivals[from.min(self.arrivals.len())..] {
            write!(out, "{},{},{},{},", a.seq, a.size, a.sent.as_nanos(), a.arrival.as_nanos())?;
            if a.media.is_media() {
                let m = a.media;
                writeln!(out, "{},{},{},{},{}", m.frame, m.frame_type, m.layer, m.index, m.count)?;
            } else {
                writeln!(out, ",,,,")?;
            }
        }
        Ok(self.arrivals.len())
    }

    /// Closes every sample interval that ended by `now` (`app_bytes`: the endpoint's goodput
    /// counter).
    pub fn tick(&mut self, now: Instant, app_bytes: u64) {
        while now >= self.next_sample {
            let secs = self.interval.as_secs_f64();
            let delay =
                if self.i_delivered == 0 { f64::NAN } else { self.i_delay_sum_ns as f64 / self.i_delivered as f64 };
            self.samples.push(SampleRow {
                t_ns: self.next_sample.as_nanos(),
                throughput_bps: self.i_bytes as f64 * 8.0 / secs,
                goodput_bps: app_bytes.saturating_sub(self.last_app_bytes) as f64 * 8.0 / secs,
                delay_ns: delay,
                delay_max_ns: if self.i_delivered == 0 { f64::NAN } else { self.i_delay_max_ns as f64 },
                jitter_ns: self.jitter.jitter().as_nanos() as f64,
                delivered: self.i_delivered,
            });
            self.last_app_bytes = app_bytes;
            self.i_bytes = 0;
            self.i_delivered = 0;
            self.i_delay_sum_ns = 0;
            self.i_delay_max_ns = 0;
            self.next_sample += self.interval;
        }
    }

    /// The tables. `bye`: the sender's count of data packets sent and its next sequence number
    /// (its Bye, checked by the caller against what arrived), else the highest sequence number
    /// seen + 1 for both; `end`: the end of the run on the receiver's clock.
    pub fn finish(self, info: &FlowInfo, bye: Option<(u64, u64)>, app_bytes: u64, end: Instant) -> Vec<Table> {
        let delivered = self.arrivals.len() as u64;
        let unique = &self.seqs;
        let seen_next = unique.iter().next_back().map_or(0, |s| s + 1);
        // The Bye's next sequence number is at most MAX_DROPOUT beyond what arrived (checked by
        // the caller); min() keeps a direct caller of this function just as bounded.
        let next_seq = bye.map_or(seen_next, |b| b.1.clamp(seen_next, seen_next + crate::guard::MAX_DROPOUT));
        let sent = bye.map_or(next_seq, |b| b.0).max(unique.len() as u64);
        let lost = sent.saturating_sub(unique.len() as u64);
        let window = end.as_secs_f64();
        let bytes: u64 = self.arrivals.iter().map(|a| a.size as u64).sum();
        let throughput = if window > 0.0 { bytes as f64 * 8.0 / window } else { f64::NAN };
        let goodput = if window > 0.0 { app_bytes as f64 * 8.0 / window } else { f64::NAN };
        let mut moments = (0u64, 0.0f64, 0.0f64);
        for s in self.samples.iter().skip(1) {
            moments = (moments.0 + 1, moments.1 + s.throughput_bps, moments.2 + s.throughput_bps * s.throughput_bps);
        }
        let cov = if moments.0 == 0 || moments.1 == 0.0 {
            f64::NAN
        } else {
            let m = moments.1 / moments.0 as f64;
            (moments.2 / moments.0 as f64 - m * m).max(0.0).sqrt() / m
        };
        let mean = |sum: f64| if delivered == 0 { f64::NAN } else { sum / delivered as f64 };
        let drop_rate = if sent == 0 { f64::NAN } else { lost as f64 / sent as f64 };
        let one = |v: u64| Column::U64(vec![v]);
        let onef = |v: f64| Column::F64(vec![v]);
        let ones = |v: &str| Column::Str(vec![v.to_string()]);
        let mut tables = vec![
            Table::new("flows")
                .col("flow", one(0))
                .col("receiver", one(0))
                .col("group", one(0))
                .col("instance", one(0))
                .col("label", ones(&info.label))
                .col("protocol", ones(&info.protocol))
                .col("src", ones(&info.src))
                .col("dst", ones(&info.dst))
                .col("start_ns", one(0))
                .col("fair_share_bps", onef(f64::NAN))
                .col("path_rtt_ns", one(0)),
            Table::new("flow_summary")
                .col("flow", one(0))
                .col("receiver", one(0))
                .col("sent_packets", one(sent))
                .col("delivered_packets", one(delivered))
                .col("dropped_queue", one(0))
                .col("dropped_loss", one(lost))
                .col("delivered_bytes", one(bytes))
                .col("throughput_bps", onef(throughput))
                .col("goodput_bps", onef(goodput))
                .col("cov", onef(cov))
                .col("mean_delay_ns", onef(mean(self.delay_sum_ns as f64)))
                .col("jitter_ns", onef(mean(self.jitter_sum_ns)))
                .col("drop_rate", onef(drop_rate))
                .col("normalized_throughput", onef(f64::NAN)),
        ];
        let labels: Vec<String> =
            if info.label == "all" { vec!["all".into()] } else { vec!["all".into(), info.label.clone()] };
        let n = labels.len();
        tables.push(
            Table::new("aggregate")
                .col("flows", Column::U64(vec![1; n]))
                .col("throughput_bps_sum", Column::F64(vec![throughput; n]))
                .col("throughput_bps_mean", Column::F64(vec![throughput; n]))
                .col("goodput_bps_sum", Column::F64(vec![goodput; n]))
                .col("jain", Column::F64(vec![1.0; n]))
                .col("worst_case_fairness", Column::F64(vec![1.0; n]))
                .col("normalized_throughput_mean", Column::F64(vec![f64::NAN; n]))
                .col("drop_rate", Column::F64(vec![drop_rate; n]))
                .col("cov_mean", Column::F64(vec![cov; n])),
        );
        // `label` first, as the simulator writes it.
        let agg = tables.last_mut().expect("just pushed");
        agg.columns.insert(0, ("label", Column::Str(labels)));
        let s = &self.samples;
        tables.push(
            Table::new("flow_samples")
                .col("t_ns", Column::U64(s.iter().map(|r| r.t_ns).collect()))
                .col("flow", Column::U64(vec![0; s.len()]))
                .col("receiver", Column::U64(vec![0; s.len()]))
                .col("throughput_bps", Column::F64(s.iter().map(|r| r.throughput_bps).collect()))
                .col("goodput_bps", Column::F64(s.iter().map(|r| r.goodput_bps).collect()))
                .col("delay_ns", Column::F64(s.iter().map(|r| r.delay_ns).collect()))
                .col("delay_max_ns", Column::F64(s.iter().map(|r| r.delay_max_ns).collect()))
                .col("jitter_ns", Column::F64(s.iter().map(|r| r.jitter_ns).collect()))
                .col("delivered_packets", Column::U64(s.iter().map(|r| r.delivered).collect()))
                // A receiver learns of a loss only at the end (it may be reordering until then).
                .col("dropped_packets", Column::U64(vec![0; s.len()])),
        );
        tables.push(self.packets_table(next_seq));
        if let Some(v) = &self.video {
            let mut rec = VideoRecorder::new(v.clone());
            self.feed_video(&mut rec);
            let (rows, metrics) = rec.evaluate(Instant::ZERO, end, end);
            let mut vt = VideoTables::default();
            vt.add(0, 0, rec.is_simulcast(), rows, metrics);
            tables.extend(vt.into_tables());
        }
        tables.retain(|t| t.rows() > 0);
        tables
    }

    /// One row per sequence number that arrived, and one `loss` row per sequence number
    /// missing between them and up to `next_seq`: built from the arrivals, whose gaps the
    /// window and the budget bound (see the module docs).
    fn packets_table(&self, next_seq: u64) -> Table {
        let mut by_seq: BTreeMap<u64, &Arrival> = BTreeMap::new();
        for a in &self.arrivals {
            by_seq.entry(a.seq).or_insert(a);
        }
        let (mut seq, mut size, mut sent_ns, mut arrival, mut fate) = (vec![], vec![], vec![], vec![], vec![]);
        let mut expected = 0u64;
        let delivered = by_seq.iter().map(|(&s, a)| (s, Some(*a)));
        // The arrivals in order, then the end: every gap before each becomes loss rows.
        for (s, a) in delivered.chain(std::iter::once((next_seq.max(expected), None))) {
            for missing in expected..s {
                seq.push(missing);
                size.push(0);
                sent_ns.push(0);
                arrival.push(-1);
                fate.push("loss".to_string());
            }
            let Some(a) = a else { break };
            seq.push(s);
            size.push(a.size as u64);
            sent_ns.push(a.sent.as_nanos());
            arrival.push(a.arrival.as_nanos() as i64);
            fate.push("delivered".to_string());
            expected = s + 1;
        }
        Table::new("packets")
            .col("flow", Column::U64(vec![0; seq.len()]))
            .col("seq", Column::U64(seq))
            .col("size_bytes", Column::U64(size))
            .col("sent_ns", Column::U64(sent_ns))
            .col("arrival_ns", Column::I64(arrival))
            .col("fate", Column::Str(fate))
    }

    /// Every media packet received, and every fragment of a partly received frame that was not.
    fn feed_video(&self, rec: &mut VideoRecorder) {
        // Per (frame, layer): a tag, the earliest send time and size seen, the fragments received.
        type Seen = (MediaTag, Instant, u32, BTreeSet<u16>);
        let mut seen: BTreeMap<(u32, u8), Seen> = BTreeMap::new();
        for a in self.arrivals.iter().filter(|a| a.media.is_media()) {
            let row = rec.on_sent(a.media, a.seq, a.size, a.sent);
            rec.on_arrival(row, a.arrival);
            let e = seen.entry((a.media.frame, a.media.layer)).or_insert((a.media, a.sent, a.size, BTreeSet::new()));
            e.1 = e.1.min(a.sent);
            e.3.insert(a.media.index);
        }
        for (tag, sent, size, got) in seen.values() {
            for index in (0..tag.count).filter(|i| !got.contains(i)) {
                // Never received: no sequence number is known (used only with delivery reports,
                // which a real receiver does not make).
                let row = rec.on_sent(MediaTag { index, ..*tag }, 0, *size, *sent);
                rec.on_dropped(row);
            }
        }
    }
}

impl Observer for RecvRecorder {
    fn on_data_received(&mut self, now: Instant, info: &DataInfo, bytes: usize) {
        // Charge the rows this arrival brings: itself, the sequence numbers it skips (loss rows)
        // and, first of its frame and layer, that frame's fragments.
        let skipped = match self.highest {
            None => info.seq,
            Some(h) => info.seq.saturating_sub(h + 1),
        };
        let key = (info.media.frame, info.media.layer);
        let new_frame = info.media.is_media() && !self.frame_layers.contains(&key);
        // Frame numbers skipped: the video judgement fills every gap in them with a row.
        let frames_skipped = match (info.media.is_media(), self.highest_frame) {
            (false, _) => 0,
            (true, None) => 0,
            (true, Some(f)) => info.media.frame.saturating_sub(f.saturating_add(1)) as u64,
        };
        let fragments = if new_frame { info.media.count as u64 } else { 0 };
        let cost = 1u64.saturating_add(skipped).saturating_add(frames_skipped).saturating_add(fragments);
        if cost > self.rows_left {
            self.unrecorded += 1;
            return;
        }
        self.rows_left -= cost;
        self.highest = Some(self.highest.map_or(info.seq, |h| h.max(info.seq)));
        self.seqs.insert(info.seq);
        if new_frame {
            self.frame_layers.insert(key);
        }
        if info.media.is_media() {
            self.highest_frame = Some(self.highest_frame.map_or(info.media.frame, |f| f.max(info.media.frame)));
        }
        let sent = self.clock.from_unix_ns(info.sent_unix_ns).min(now);
        let delay = now.saturating_since(sent).as_nanos();
        self.jitter.on_packet(sent, now);
        self.jitter_sum_ns += self.jitter.jitter().as_nanos() as f64;
        self.delay_sum_ns += delay as u128;
        self.i_bytes += bytes as u64;
        self.i_delivered += 1;
        self.i_delay_sum_ns += delay as u128;
        self.i_delay_max_ns = self.i_delay_max_ns.max(delay);
        self.arrivals.push(Arrival { seq: info.seq, size: bytes as u32, sent, arrival: now, media: info.media });
    }
}

/// Tables as JSON for the Python side: `{table: {column: {"type": "u64"|"i64"|"f64"|"bool"|"str",
/// "values": [...]}}}` (NaN as null).
pub fn tables_json(tables: &[Table]) -> serde_json::Value {
    use serde_json::{json, Map, Value};
    let mut out = Map::new();
    for t in tables {
        let mut cols = Map::new();
        for (name, c) in &t.columns {
            let (ty, values): (&str, Value) = match c {
                Column::U64(v) => ("u64", json!(v)),
                Column::I64(v) => ("i64", json!(v)),
                Column::F64(v) => ("f64", Value::Array(v.iter().map(|x| json!(x)).collect())),
                Column::Bool(v) => ("bool", json!(v)),
                Column::Str(v) => ("str", json!(v)),
            };
            cols.insert(name.to_string(), json!({"type": ty, "values": values}));
        }
        out.insert(t.name.to_string(), Value::Object(cols));
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(seq: u64, media: MediaTag) -> DataInfo {
        DataInfo { seq, sent_unix_ns: 0, media, retransmit: false }
    }

    fn flow() -> FlowInfo {
        FlowInfo { label: "x".into(), protocol: "udp".into(), src: "a".into(), dst: "b".into() }
    }

    #[test]
    fn the_state_budget_bounds_every_table_whatever_the_numbers() {
        let budget_rows = 100;
        let mut rec = RecvRecorder::new(Clock::new(), Duration::ZERO, None).with_max_state(budget_rows * ROW_BYTES);
        let now = Instant::from_nanos(1);
        for seq in 0..60 {
            rec.on_data_received(now, &info(seq, MediaTag::NONE), 100);
        }
        // A number far ahead (which a driver's window refuses; the budget holds without it).
        rec.on_data_received(now, &info(1 << 62, MediaTag::NONE), 100);
        for seq in 60..200 {
            rec.on_data_received(now, &info(seq, MediaTag::NONE), 100);
        }
        assert_eq!(rec.delivered(), 100, "recorded until the budget was spent");
        assert_eq!(rec.unrecorded(), 101);
        let tables = rec.finish(&flow(), None, 0, Instant::from_nanos(2));
        let packets = tables.iter().find(|t| t.name == "packets").unwrap();
        assert_eq!(packets.u64s("seq"), &(0..100).collect::<Vec<u64>>()[..]);
    }

    #[test]
    fn a_frame_of_many_fragments_is_charged_for_each() {
        let mut rec = RecvRecorder::new(Clock::new(), Duration::ZERO, None).with_max_state(50 * ROW_BYTES);
        let tag = MediaTag { frame: 0, frame_type: 0, layer: 0, index: 0, count: 1000 };
        rec.on_data_received(Instant::from_nanos(1), &info(0, tag), 100);
        assert_eq!((rec.delivered(), rec.unrecorded()), (0, 1));
    }
}
