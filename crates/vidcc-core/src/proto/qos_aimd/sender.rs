//! The QoS-AIMD sender: the window rules of paper §II-B and Fig. 1 (docs/papers/qos-aimd.md §3.3–§3.6).
//!
//! State: a scoreboard of the packets in [W_head, next_seq), each outstanding, acked or
//! declared lost; W_head is the oldest packet that is neither. cwnd and ssthresh are fractional
//! packets; rwnd comes from the acks. The window W = min(cwnd, rwnd) bounds the packets that are
//! *outstanding* (sent, neither acked nor declared lost): packets acked out of order inflate
//! the window one for one (event D) and a declared loss deflates it (event E), which is SACK's
//! `pipe` accounting (RFC 3517) [I, docs/papers/qos-aimd.md §3.4 defers "inflate/deflate" to RFC 3517 / CCID2].
//!
//! Per ack (ack_a < W_head: discarded, event F):
//! 1. mark ack_a and every packet ack_a − i whose sackvec bit i is set as acked; ack_a, if newly
//!    acked, gives an RTT sample (the sender knows when it sent it: nothing is retransmitted);
//! 2. event E: an outstanding packet with ≥ `dupthresh` (3) acked packets above it is lost. The
//!    first such loss at or above `recover` reduces the window once:
//!    cwnd ← max(β × outstanding, 1), ssthresh ← cwnd, recover ← next_seq. "Outstanding"
//!    ([`ReductionBase`], the paper does not define it) is by default TCP's FlightSize [I]:
//!    next_seq − W_head less the packets sent by event D's inflation since the hole appeared
//!    (RFC 5681 §3.2 step 2 leaves limited-transmit data out), which is ⌊cwnd⌋ for a
//!    window-limited sender. Losses below `recover` belong to a window already reduced ("back
//!    off only once for all losses within one window"). Nothing is retransmitted;
//! 3. events B/C: W_head moves past every acked and lost packet at its front; with j the acked
//!    ones among them, cwnd += j in slow start (cwnd < ssthresh) and cwnd += α·j/cwnd in
//!    congestion avoidance (α per RTT), capped at rwnd.
//!
//! Timeout (event A): when the oldest outstanding packet has not been acked one RTO after it was
//! sent (paper: "a packet not indicated in any ack within certain time"), every outstanding
//! packet is given up, W_head jumps to next_seq, ssthresh is halved ([`TimeoutSsthresh`]),
//! cwnd ← IW and W new packets go out. The RTO backs off ×2 per timeout (RFC 6298 §5.5) until
//! a new RTT sample: with cwnd = 1 that is the paper's "inter-packet spacing doubled".
//!
//! Spacing (§3.5): packets the window lets out together leave at least rtt/W apart [P: "when
//! the sender is allowed to send more than one packet at certain time"]: a packet after which
//! the window still has room holds the next one back rtt/W; one that fills the window does
//! not, so the single packet a later ack releases goes at once ([`SpacingScope`]; the former
//! reading, every packet spaced, is `EveryPacket`).
//! Idle restart: a packet sent with nothing outstanding, one RTO or more after the previous
//! one, first sets cwnd ← min(cwnd, IW) (RFC 5681 §4.1).
//!
//! Application: bulk (always backlogged: every packet `packet_size` on the wire) or video:
//! frames are packetized when ready (payload ≤ packet_size − 16 B) into a
//! [`SenderBuffer`] that drops packets past their deadline; all layers (or the top simulcast
//! stream) are sent, since QoS-AIMD adapts no layers.

use std::collections::VecDeque;

use super::config::{Pacing, QosAimdConfig, ReductionBase, SpacingScope, TimeoutSsthresh};
use crate::endpoint::{Datagram, Destination, Endpoint, EndpointStats, Event, PacketMeta, Transmit};
use crate::estimate::rtt::Rfc6298;
use crate::media::sender_buffer::{SenderBuffer, SenderBufferConfig, SenderBufferStats};
use crate::media::stream::{FrameFeeder, PartSelection};
use crate::proto::plausible::FeedbackCheck;
use crate::proto::Application;
use crate::units::DataSize;
use crate::wire::qos_aimd::{AckHeader, DataHeader, Packet, DATA_HEADER_BYTES, SEQ_MASK, SEQ_MODULUS};
use crate::wire::WireError;
use crate::{Duration, Instant};

/// Events kept for a driver that does not drain them (oldest dropped beyond this).
const EVENT_CAPACITY: usize = 16;
/// Largest span next_seq − W_head: half the 24-bit space, so that ack numbers unwrap
/// unambiguously.
const MAX_SPAN: u64 = (SEQ_MODULUS / 2) as u64 - 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    Outstanding,
    Acked,
    Lost,
}

#[derive(Clone, Copy, Debug)]
struct Slot {
    status: Status,
    sent_at: Instant,
}

/// Counters for tests, logs and summaries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SenderCounters {
    pub packets_sent: u64,
    pub acks_received: u64,
    /// Acks with ack_a below W_head (event F).
    pub stale_acks: u64,
    /// Acks for a packet never sent.
    pub invalid_acks: u64,
    /// Packets declared lost by the sackvec rule (not by timeouts).
    pub packets_lost: u64,
    /// Packets given up at a timeout.
    pub packets_timed_out: u64,
    /// Window reductions (event E), one per window of losses.
    pub reductions: u64,
    pub timeouts: u64,
    pub idle_restarts: u64,
}

enum Source {
    Bulk { payload: u32 },
    Video(Box<VideoSource>),
}

struct VideoSource {
    feeder: FrameFeeder,
    buffer: SenderBuffer,
}

impl VideoSource {
    /// Moves every frame ready by `now` (and before `stop`) into the buffer, at full quality.
    fn produce(&mut self, now: Instant) {
        let buffer = &mut self.buffer;
        self.feeder.produce(
            now,
            |_| PartSelection::Full,
            |f, len, tag| {
                buffer.push(now, tag, len, f.ready_at);
            },
        );
    }

    fn next_ready(&self) -> Option<Instant> {
        self.feeder.next_ready()
    }
}

/// The QoS-AIMD sender.
pub struct QosAimdSender {
    alpha: f64,
    beta: f64,
    initial_window: f64,
    dupthresh: u32,
    reduction_base: ReductionBase,
    timeout_ssthresh: TimeoutSsthresh,
    pacing: Pacing,
    spacing_scope: SpacingScope,
    idle_restart: bool,
    packet_size_bytes: u32,
    source: Source,
    start: Instant,
    stop: Option<Instant>,
    started: bool,
    /// Bulk: the application has stopped (no new data from `stop` on).
    finished: bool,
    /// Latest `now` seen; earlier instants from a misbehaving driver are raised to it.
    now: Instant,

    cwnd: f64,
    ssthresh: f64,
    rwnd: u32,
    /// W_head: the oldest packet neither acked nor declared lost (= next_seq when none).
    head: u64,
    next_seq: u64,
    slots: VecDeque<Slot>,
    /// Outstanding packets: sent, neither acked nor declared lost.
    pipe: u64,
    /// Acked packets still in the scoreboard (above a hole).
    acked: u64,
    /// Packets sent by window inflation (event D) while acked packets sit above a hole;
    /// excluded from FlightSize at a reduction (RFC 5681 §3.2 step 2 for limited transmit).
    inflation: u64,
    /// Losses below this belong to a window already reduced.
    recover: u64,

    rtt: Rfc6298,
    min_rtt: Option<Duration>,
    last_send: Option<Instant>,
    /// Spacing: the next data packet may not leave before this.
    next_send_at: Instant,

    events: VecDeque<Event>,
    counters: SenderCounters,
    stats: EndpointStats,
    /// Judges acknowledgements against what was sent (`proto::plausible`).
    check: FeedbackCheck,
}

impl QosAimdSender {
    /// `packet_size`: wire bytes of a full data packet, header included (> 16 B). The config is
    /// assumed valid ([`QosAimdConfig::validate`]).
    pub fn new(
        config: &QosAimdConfig,
        app: Application,
        packet_size: DataSize,
        start: Instant,
        stop: Option<Instant>,
    ) -> Result<Self, String> {
        config.validate()?;
        let size = packet_size.as_bytes();
        if size <= DATA_HEADER_BYTES as u64 || size > u32::MAX as u64 {
            return Err(format!(
                "qos-aimd packet size {size} B must exceed the {DATA_HEADER_BYTES}-byte header (and fit u32)"
            ));
        }
        let payload = size as u32 - DATA_HEADER_BYTES as u32;
        let source = match app {
            Application::Bulk => Source::Bulk { payload },
            Application::Video(stream) => {
                let feeder = FrameFeeder::new(stream, payload, stop)?;
                let buffer = SenderBuffer::new(SenderBufferConfig {
                    max_age: Duration::from_nanos(config.buffer_max_age_ns),
                    max_packets: config.buffer_max_packets as usize,
                    ..SenderBufferConfig::default()
                });
                Source::Video(Box::new(VideoSource { feeder, buffer }))
            }
        };
        let rtt = Rfc6298::new(
            Duration::from_nanos(config.initial_rto_ns),
            Duration::from_nanos(config.min_rto_ns),
            Duration::from_nanos(config.max_rto_ns),
        )
        .with_granularity(Duration::from_nanos(config.rto_granularity_ns));
        let rwnd = config.rwnd_packets;
        let initial_window = config.initial_window_packets as f64;
        Ok(QosAimdSender {
            alpha: config.alpha(),
            beta: config.beta,
            initial_window,
            dupthresh: config.dupthresh,
            reduction_base: config.reduction_base,
            timeout_ssthresh: config.timeout_ssthresh,
            pacing: config.pacing,
            spacing_scope: config.spacing_scope,
            idle_restart: config.idle_restart,
            packet_size_bytes: size as u32,
            source,
            start,
            stop,
            started: false,
            finished: false,
            now: Instant::ZERO,
            cwnd: initial_window.min(rwnd as f64),
            ssthresh: config.initial_ssthresh_packets.map_or(f64::INFINITY, |s| s as f64),
            rwnd,
            head: 0,
            next_seq: 0,
            slots: VecDeque::with_capacity(rwnd as usize + 8),
            pipe: 0,
            acked: 0,
            inflation: 0,
            recover: 0,
            rtt,
            min_rtt: None,
            last_send: None,
            next_send_at: Instant::ZERO,
            events: VecDeque::with_capacity(EVENT_CAPACITY),
            counters: SenderCounters::default(),
            stats: EndpointStats::default(),
            check: FeedbackCheck::new(),
        })
    }

    /// Starts numbering at `seq` instead of 0 (tests of the 24-bit wrap; DCCP picks an ISN).
    pub fn with_first_seq(mut self, seq: u64) -> Self {
        assert!(self.next_seq == self.head && self.slots.is_empty(), "only before the first packet");
        self.head = seq;
        self.next_seq = seq;
        self.recover = seq;
        self
    }

    pub fn cwnd(&self) -> f64 {
        self.cwnd
    }
    /// `f64::INFINITY` until the first loss or timeout (unless configured).
    pub fn ssthresh(&self) -> f64 {
        self.ssthresh
    }
    /// The receiver window last advertised.
    pub fn rwnd(&self) -> u32 {
        self.rwnd
    }
    /// W = min(⌊cwnd⌋, rwnd), at least 1: how many packets may be outstanding.
    pub fn window(&self) -> u64 {
        let c = self.cwnd.floor().max(1.0) as u64;
        c.min(self.rwnd as u64).max(1)
    }
    /// W_head (internal 64-bit numbering).
    pub fn head(&self) -> u64 {
        self.head
    }
    pub fn next_seq(&self) -> u64 {
        self.next_seq
    }
    /// Packets sent and neither acked nor declared lost.
    pub fn outstanding(&self) -> u64 {
        self.pipe
    }
    pub fn recover(&self) -> u64 {
        self.recover
    }
    pub fn in_slow_start(&self) -> bool {
        self.cwnd < self.ssthresh
    }
    pub fn alpha(&self) -> f64 {
        self.alpha
    }
    pub fn srtt(&self) -> Option<Duration> {
        self.rtt.srtt()
    }
    pub fn min_rtt(&self) -> Option<Duration> {
        self.min_rtt
    }
    /// Current RTO, backoff included.
    pub fn rto(&self) -> Duration {
        self.rtt.rto()
    }
    pub fn counters(&self) -> SenderCounters {
        self.counters
    }
    /// Video: the sender buffer's drop counters (`None` for bulk data).
    pub fn buffer_stats(&self) -> Option<&SenderBufferStats> {
        match &self.source {
            Source::Video(v) => Some(v.buffer.stats()),
            Source::Bulk { .. } => None,
        }
    }
    /// When the oldest outstanding packet times out.
    pub fn rto_deadline(&self) -> Option<Instant> {
        self.slots.front().map(|s| s.sent_at + self.rtt.rto())
    }
    /// Minimum gap between data packets now: rtt/W (zero without an RTT or with pacing off).
    pub fn spacing(&self) -> Duration {
        let rtt = match self.pacing {
            Pacing::Off => return Duration::ZERO,
            Pacing::Srtt => self.rtt.srtt(),
            Pacing::MinRtt => self.min_rtt,
        };
        let Some(rtt) = rtt else { return Duration::ZERO };
        let w = self.cwnd.min(self.rwnd as f64).max(1.0);
        Duration::from_nanos((rtt.as_nanos() as f64 / w).floor() as u64)
    }

    fn clock(&mut self, now: Instant) -> Instant {
        self.now = self.now.max(now);
        if !self.started && self.now >= self.start {
            self.started = true;
            self.next_send_at = self.next_send_at.max(self.start);
        }
        if let Some(stop) = self.stop {
            if self.now >= stop {
                self.finished = true;
            }
        }
        self.now
    }

    fn push_event(&mut self, e: Event) {
        if self.events.len() == EVENT_CAPACITY {
            self.events.pop_front();
        }
        self.events.push_back(e);
    }

    fn window_event(&mut self) {
        let bytes = self.cwnd.floor().max(1.0) as u64 * self.packet_size_bytes as u64;
        self.push_event(Event::WindowChanged { cwnd: DataSize::from_bytes(bytes) });
    }

    fn clamp_cwnd(&mut self) {
        self.cwnd = self.cwnd.clamp(1.0, (self.rwnd as f64).max(1.0));
    }

    /// Marks `seq` (≥ head, < next_seq) acked; true if it was outstanding.
    fn mark_acked(&mut self, seq: u64) -> bool {
        let slot = &mut self.slots[(seq - self.head) as usize];
        if slot.status == Status::Outstanding {
            slot.status = Status::Acked;
            self.pipe -= 1;
            self.acked += 1;
            true
        } else {
            false
        }
    }

    /// Unwraps a 24-bit number against W_head: `Some(seq)` inside [head, head + 2^23).
    fn unwrap(&self, n: u32) -> Option<u64> {
        let d = n.wrapping_sub(self.head as u32) & SEQ_MASK;
        (d < SEQ_MODULUS / 2).then_some(self.head + d as u64)
    }

    /// The ack rules of Fig. 1 (events B–F); see the module docs.
    pub(crate) fn on_ack(&mut self, now: Instant, ack: &AckHeader) {
        self.counters.acks_received += 1;
        // Event F: ack_a < W_head (in 24-bit circular space) carries nothing new.
        let Some(a) = self.unwrap(ack.ack_a) else {
            self.counters.stale_acks += 1;
            return;
        };
        // The shared plausibility check: an acknowledgement of a packet never sent.
        if self.check.judge(now).acknowledged(a, self.next_seq).is_err() {
            self.counters.invalid_acks += 1;
            return;
        }
        self.rwnd = ack.rwnd as u32;

        let mut newly = 0u32;
        if self.mark_acked(a) {
            newly += 1;
            let sample = now.saturating_since(self.slots[(a - self.head) as usize].sent_at);
            self.rtt.on_sample(sample);
            self.min_rtt = Some(self.min_rtt.map_or(sample, |m| m.min(sample)));
        }
        for i in ack.sackvec.iter_set() {
            match a.checked_sub(i as u64) {
                Some(s) if s >= self.head => newly += self.mark_acked(s) as u32,
                _ => break, // the bits go further back from here on
            }
        }
        if newly > 0 {
            self.detect_losses();
        }
        // Events B/C: W_head moves past the acked and lost packets at the front.
        let mut j = 0u64;
        while let Some(front) = self.slots.front() {
            match front.status {
                Status::Outstanding => break,
                Status::Acked => j += 1,
                Status::Lost => {}
            }
            self.slots.pop_front();
            self.head += 1;
        }
        self.acked -= j;
        if self.acked == 0 {
            self.inflation = 0;
        }
        if j > 0 {
            if self.cwnd < self.ssthresh {
                // Event B, slow start: cwnd doubles per RTT.
                self.cwnd += j as f64;
            } else {
                // Event C, congestion avoidance: α packets per RTT.
                self.cwnd += self.alpha * j as f64 / self.cwnd;
            }
        }
        // Growth, and a smaller rwnd, both stop at rwnd.
        self.clamp_cwnd();
    }

    /// Event E: declares lost every outstanding packet with ≥ dupthresh acked packets above it,
    /// and reduces the window once per window of data.
    fn detect_losses(&mut self) {
        let outstanding_before = self.pipe;
        let mut above = 0u32;
        let mut reduce = false;
        let mut lost = 0u64;
        for k in (0..self.slots.len()).rev() {
            let slot = &mut self.slots[k];
            match slot.status {
                Status::Acked => above = above.saturating_add(1),
                Status::Outstanding if above >= self.dupthresh => {
                    slot.status = Status::Lost;
                    lost += 1;
                    if self.head + k as u64 >= self.recover {
                        reduce = true;
                    }
                }
                _ => {}
            }
        }
        if lost == 0 {
            return;
        }
        self.pipe -= lost;
        self.counters.packets_lost += lost;
        if reduce {
            // cwnd ← β × (packets outstanding), ssthresh ← cwnd (paper §II-B, event E).
            let base = match self.reduction_base {
                ReductionBase::Flight => {
                    ((self.next_seq - self.head).saturating_sub(self.inflation)).max(outstanding_before) as f64
                }
                ReductionBase::Pipe => outstanding_before as f64,
                ReductionBase::Cwnd => self.cwnd,
            };
            self.cwnd = (self.beta * base).max(1.0);
            self.ssthresh = self.cwnd;
            self.clamp_cwnd();
            self.recover = self.next_seq;
            self.inflation = 0;
            self.counters.reductions += 1;
            self.push_event(Event::LossEvent);
            self.window_event();
        }
    }

    /// Event A: see the module docs.
    pub(crate) fn on_timeout(&mut self, now: Instant) {
        self.counters.timeouts += 1;
        let flight = self.pipe;
        self.counters.packets_timed_out += flight;
        self.slots.clear();
        self.pipe = 0;
        self.acked = 0;
        self.inflation = 0;
        self.head = self.next_seq;
        self.recover = self.next_seq;
        let halved = match self.timeout_ssthresh {
            TimeoutSsthresh::HalveSsthresh if self.ssthresh.is_finite() => self.ssthresh / 2.0,
            TimeoutSsthresh::HalveSsthresh => self.cwnd / 2.0,
            TimeoutSsthresh::HalfFlight => flight as f64 / 2.0,
        };
        self.ssthresh = halved.max(2.0);
        self.cwnd = self.initial_window;
        self.clamp_cwnd();
        self.rtt.backoff();
        // "sends W new packets" right away.
        self.next_send_at = now;
        self.push_event(Event::Timeout);
        self.window_event();
    }

    /// Whether the application has a packet for `now` (bulk: until `stop`).
    fn has_data(&mut self, now: Instant) -> bool {
        match &mut self.source {
            Source::Bulk { .. } => !self.finished,
            Source::Video(v) => {
                v.produce(now);
                v.buffer.peek(now).is_some()
            }
        }
    }

    fn window_open(&self) -> bool {
        self.pipe < self.window() && self.next_seq - self.head < MAX_SPAN
    }
}

impl Endpoint for QosAimdSender {
    fn handle_datagram(&mut self, now: Instant, datagram: Datagram<'_>) -> Result<(), WireError> {
        let now = self.clock(now);
        match Packet::parse(datagram.bytes) {
            Ok(Packet::Ack(ack)) => {
                self.on_ack(now, &ack);
                Ok(())
            }
            Ok(Packet::Data(_)) => {
                self.stats.malformed_datagrams += 1;
                Err(WireError::Inconsistent("data packet sent to a qos-aimd sender"))
            }
            Err(e) => {
                self.stats.malformed_datagrams += 1;
                Err(e)
            }
        }
    }

    fn handle_timeout(&mut self, now: Instant) {
        let now = self.clock(now);
        if self.rto_deadline().is_some_and(|d| now >= d) {
            self.on_timeout(now);
        }
        if let Source::Video(v) = &mut self.source {
            v.produce(now);
        }
    }

    fn poll_transmit(&mut self, now: Instant) -> Option<Transmit> {
        let now = self.clock(now);
        if !self.started || !self.window_open() || now < self.next_send_at || !self.has_data(now) {
            return None;
        }
        if self.idle_restart && self.pipe == 0 && self.last_send.is_some_and(|t| now.saturating_since(t) >= self.rto())
        {
            // RFC 5681 §4.1 restart window after an idle RTO.
            if self.cwnd > self.initial_window {
                self.cwnd = self.initial_window;
                self.clamp_cwnd();
                self.counters.idle_restarts += 1;
            }
        }
        let (payload_len, media) = match &mut self.source {
            Source::Bulk { payload } => (*payload, crate::media::MediaTag::NONE),
            Source::Video(v) => {
                let p = v.buffer.pop(now)?;
                (p.size_bytes, p.tag)
            }
        };
        if self.acked > 0 {
            self.inflation += 1;
        }
        let seq = self.next_seq;
        self.next_seq += 1;
        self.slots.push_back(Slot { status: Status::Outstanding, sent_at: now });
        self.pipe += 1;
        self.last_send = Some(now);
        self.next_send_at = match self.spacing_scope {
            SpacingScope::EveryPacket => now + self.spacing(),
            SpacingScope::WindowBursts if self.window_open() => now + self.spacing(),
            SpacingScope::WindowBursts => now,
        };
        self.counters.packets_sent += 1;
        let header = DataHeader { seq: seq as u32 & SEQ_MASK, send_time_ns: now.as_nanos() }.emit();
        let meta = PacketMeta { media, ..PacketMeta::data(seq) };
        Some(Transmit { to: Destination::PEER, header, payload_len, meta })
    }

    fn poll_timeout(&self) -> Option<Instant> {
        if !self.started {
            let nothing = self.stop.is_some_and(|s| s <= self.start);
            return (!nothing).then_some(self.start);
        }
        let mut t = self.rto_deadline();
        let mut earliest = |x: Instant| t = Some(t.map_or(x, |y: Instant| y.min(x)));
        match &self.source {
            Source::Bulk { .. } => {
                if !self.finished && self.window_open() {
                    earliest(self.next_send_at);
                }
            }
            Source::Video(v) => {
                if !v.buffer.is_empty() && self.window_open() {
                    earliest(self.next_send_at);
                }
                if let Some(r) = v.next_ready() {
                    earliest(r);
                }
            }
        }
        t
    }

    fn poll_event(&mut self) -> Option<Event> {
        self.events.pop_front()
    }

    fn enable_media_reports(&mut self) {
        if let Source::Video(v) = &mut self.source {
            v.feeder.enable_media_reports();
            v.buffer.enable_media_reports();
        }
    }

    fn poll_media(&mut self) -> Option<crate::media::report::MediaReport> {
        match &mut self.source {
            Source::Video(v) => v.feeder.poll_media().or_else(|| v.buffer.poll_media()),
            _ => None,
        }
    }

    fn stats(&self) -> EndpointStats {
        EndpointStats { clamped_feedback: self.check.clamped(), ..self.stats }
    }
}

#[cfg(test)]
impl QosAimdSender {
    /// Bare-state tests start from a chosen window instead of replaying slow start.
    pub(crate) fn set_window(&mut self, cwnd: f64, ssthresh: f64) {
        self.cwnd = cwnd;
        self.ssthresh = ssthresh;
    }
}
