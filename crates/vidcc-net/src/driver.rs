//! The wall-clock driver of one endpoint over one UDP socket: the same loop the simulator runs
//! (vidcc_core::endpoint), with real time and a real peer.
//!
//! ```text
//! loop {
//!     now = clock.now()
//!     if poll_timeout() <= now: handle_timeout(now)
//!     send every poll_transmit(now) (held back only by the optional rate cap)
//!     hand poll_event()s to the observer
//!     wait until the next deadline or a datagram (sleep, then busy wait: socket.rs)
//!     on datagrams (up to a batch): validate, handle_datagram(now, ..)
//! }
//! ```
//!
//! Nothing here knows a protocol. Validation, in order: the datagram comes from the session's
//! peer (else `foreign_address`), its envelope parses (`malformed_envelope`), it names the
//! session (`wrong_session`), its authentication trailer verifies when a key is set
//! (`auth_*`), a data envelope's sequence and frame numbers fall within the window around
//! those seen and its media tag can exist (`out_of_window`, `bad_media_tag`: [`crate::guard`]),
//! and the protocol accepts its bytes (`malformed_protocol`). Every rejected datagram is
//! counted and dropped; the endpoint never sees it. Feedback the protocol's parser finds
//! impossible for what was sent (the shared `vidcc_core::proto::plausible` check) is clamped or
//! refused there and counted here too (`clamped_feedback`).
//!
//! One turn of the loop sends at most [`MAX_TRANSMITS_PER_STEP`] datagrams, so that however
//! fast an endpoint wants to send (feedback can claim anything), the caller's deadline and
//! stop checks run at least every few hundred microseconds.
//!
//! The rate cap ([`Driver::set_max_rate`]) is a last line of defence independent of the
//! protocol: whatever feedback says, the driver never puts more than `max_rate` (with a 20 ms
//! burst) on the wire; a transmit over the cap waits until it conforms (GCRA). The test is the
//! GCRA's: a datagram goes when the theoretical arrival time is at most 20 ms ahead of now, and
//! then adds its own cost, so over any interval T the capped datagrams carry at most
//! `max_rate × (T + 20 ms)` plus the one datagram admitted at the burst's edge. The session's
//! own envelopes (Offer, Accept, Bye: [`Counters::session_bytes_out`]) are not capped.

use std::io;
use std::net::SocketAddr;

use serde::Serialize;
use vidcc_core::{Datagram, Duration, Endpoint, Event, Instant, PacketKind, PeerId, Transmit};

use crate::auth::{Auth, AuthError};
use crate::breaker::{Breaker, Report, Reporter, Trip};
use crate::clock::Clock;
use crate::envelope::{self, DataInfo, Kind};
use crate::guard::{SeqWindow, Verdict};
use crate::payload::PayloadSource;
use crate::socket::{Socket, BATCH};

/// What the driver tells whoever records the run.
pub trait Observer {
    fn on_data_sent(&mut self, _now: Instant, _info: &DataInfo, _bytes: usize) {}
    /// A data packet the endpoint accepted; `bytes` is the protocol datagram's size.
    fn on_data_received(&mut self, _now: Instant, _info: &DataInfo, _bytes: usize) {}
    fn on_event(&mut self, _now: Instant, _event: Event) {}
}

/// An observer that keeps nothing.
pub struct NoObserver;
impl Observer for NoObserver {}

/// Every datagram the driver saw or sent, by fate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counters {
    pub datagrams_in: u64,
    pub datagrams_out: u64,
    pub bytes_out: u64,
    /// Bytes of session envelopes (Offer, Accept, Bye), included in `bytes_out`: the handshake
    /// and the end, which the rate cap does not govern.
    pub session_bytes_out: u64,
    pub data_out: u64,
    /// Datagrams accepted: data packets, the protocol's control datagrams, and session
    /// envelopes (Offer, Accept, Bye).
    pub data_in: u64,
    pub control_in: u64,
    pub session_in: u64,
    /// The peer driver's receiver reports accepted ([`crate::breaker`]).
    pub reports_in: u64,
    pub foreign_address: u64,
    pub malformed_envelope: u64,
    pub wrong_session: u64,
    pub malformed_protocol: u64,
    pub auth_truncated: u64,
    pub auth_bad_tag: u64,
    pub auth_replay: u64,
    pub unauthenticated: u64,
    /// Data envelopes whose sequence or frame number lies beyond the window around what was
    /// seen ([`crate::guard`]).
    pub out_of_window: u64,
    /// Data envelopes whose media tag no frame can have.
    pub bad_media_tag: u64,
    /// Byes whose claims do not fit what arrived.
    pub bye_rejected: u64,
    /// Receiver reports that cannot be true (more packets than were sent, an echo from the
    /// future): ignored.
    pub implausible_report: u64,
    /// Arrivals not recorded because the receiver's state budget was spent.
    pub state_cap_reached: u64,
    pub send_errors: u64,
    /// Transmits the rate cap held back.
    pub rate_capped: u64,
    /// The peer's feedback datagrams with a claim that cannot be true for what this side sent
    /// (a receive rate above it, a loss fraction outside [0, 1], a count above the packets
    /// sent, an echo of a time nothing was sent), found by the protocol's parser through the one
    /// shared check (`vidcc_core::proto::plausible`): clamped and used (then among
    /// `control_in`), or refused (then among `malformed_protocol`). Not a share of
    /// [`Counters::rejected`], since most are accepted once clamped.
    pub clamped_feedback: u64,
}

impl Counters {
    /// Every datagram read lands in exactly one counter: accepted, from another address, or
    /// rejected for one reason. True when that holds.
    pub fn accounted(&self) -> bool {
        self.datagrams_in
            == self.data_in
                + self.control_in
                + self.session_in
                + self.reports_in
                + self.foreign_address
                + self.rejected()
    }

    /// Datagrams dropped as malformed or unauthentic (not counting foreign addresses).
    pub fn rejected(&self) -> u64 {
        self.malformed_envelope
            + self.wrong_session
            + self.malformed_protocol
            + self.auth_truncated
            + self.auth_bad_tag
            + self.auth_replay
            + self.unauthenticated
            + self.out_of_window
            + self.bad_media_tag
            + self.bye_rejected
            + self.implausible_report
    }
}

/// The session-level news of a datagram, for the caller (the handshake, the end).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    Offer(Vec<u8>),
    Accept,
    /// The sender finished: data packets sent, and the next data sequence number.
    Bye {
        sent: u64,
        next_seq: u64,
        /// The circuit breaker that ended the flow, if one did.
        tripped: Option<Trip>,
    },
}

/// Longest the loop sleeps without looking at its stop condition.
pub const MAX_WAIT: Duration = Duration::from_millis(20);
/// The burst of a rate cap given explicitly (`--max-rate`).
pub const CAP_BURST: Duration = Duration::from_millis(20);
/// Most datagrams one turn of the loop sends: however fast the endpoint wants to send, the
/// loop comes back to its deadline and stop checks after this many.
pub const MAX_TRANSMITS_PER_STEP: usize = 64;

pub struct Driver {
    pub socket: Socket,
    pub peer: SocketAddr,
    pub session: u32,
    pub clock: Clock,
    pub counters: Counters,
    endpoint: Box<dyn Endpoint + Send>,
    auth: Option<Auth>,
    out: Vec<u8>,
    payload: Vec<u8>,
    held: Option<Transmit>,
    /// Real payload bytes for data packets (None: zeros of the right length).
    source: Option<Box<dyn PayloadSource>>,
    /// Where a plain copy of every data datagram goes: the protocol's bytes alone, no envelope
    /// (for a third-party receiver of a protocol whose data packets are a standard format, such
    /// as `rtcp-udp`'s RTP to FFmpeg).
    plain_copy: Option<SocketAddr>,
    /// Rate cap in bit/s and its theoretical arrival time (GCRA).
    cap: Option<(u64, Instant)>,
    cap_burst: Duration,
    notices: Vec<Notice>,
    scratch: Vec<u8>,
    /// The receiving side's window on data sequence and frame numbers.
    window: SeqWindow,
    /// One past the highest data sequence number sent.
    next_data_seq: u64,
    /// Data bytes put on the wire (envelopes included): the rate the breaker judges.
    data_bytes_out: u64,
    /// The receiving side's reports, and the sending side's breakers that read them.
    reporter: Option<Reporter>,
    breaker: Option<Breaker>,
    tripped: Option<Trip>,
}

impl Driver {
    pub fn new(socket: Socket, peer: SocketAddr, session: u32, endpoint: Box<dyn Endpoint + Send>) -> Self {
        Driver {
            socket,
            peer,
            session,
            clock: Clock::new(),
            counters: Counters::default(),
            endpoint,
            auth: None,
            out: Vec::with_capacity(2048),
            payload: Vec::new(),
            held: None,
            source: None,
            plain_copy: None,
            cap: None,
            cap_burst: CAP_BURST,
            notices: Vec::new(),
            scratch: Vec::with_capacity(crate::socket::MAX_DATAGRAM),
            window: SeqWindow::default(),
            next_data_seq: 0,
            data_bytes_out: 0,
            reporter: None,
            breaker: None,
            tripped: None,
        }
    }

    /// Seal and check every envelope with this state.
    pub fn set_auth(&mut self, auth: Option<Auth>) {
        self.auth = auth;
    }

    /// Never put more than `bps` on the wire ([`CAP_BURST`] of burst).
    pub fn set_max_rate(&mut self, bps: Option<u64>) {
        self.set_ceiling(bps, CAP_BURST);
    }

    /// Never put more than `bps` on the wire, with `burst` of burst: over any interval T the
    /// capped bytes are at most `bps × (T + burst)` plus one datagram.
    pub fn set_ceiling(&mut self, bps: Option<u64>, burst: Duration) {
        self.cap = bps.filter(|&b| b > 0).map(|b| (b, Instant::ZERO));
        self.cap_burst = burst;
    }

    /// Send a receiver report ([`crate::breaker`]) every `interval` once data arrives.
    pub fn set_reports(&mut self, interval: Option<Duration>) {
        self.reporter = interval.map(|i| Reporter::new(i, self.clock.now()));
    }

    /// Judge the peer's receiver reports with these breakers (None: count them only).
    pub fn set_breaker(&mut self, breaker: Option<Breaker>) {
        self.breaker = breaker;
    }

    /// The report-based breaker that tripped, if one did.
    pub fn tripped(&self) -> Option<Trip> {
        self.tripped
    }

    pub fn breaker(&self) -> Option<&Breaker> {
        self.breaker.as_ref()
    }

    /// Fill data packets' payloads from `source` (the encoded frames of a clip).
    pub fn set_payload_source(&mut self, source: Option<Box<dyn PayloadSource>>) {
        self.source = source;
    }

    /// Also send every data datagram, as the protocol's bytes alone (no envelope), to `to`.
    pub fn set_plain_copy(&mut self, to: Option<SocketAddr>) {
        self.plain_copy = to;
    }

    /// Restarts the clock (the session's time zero).
    pub fn set_clock(&mut self, clock: Clock) {
        self.clock = clock;
    }

    /// The window data envelopes are judged against.
    pub fn window(&self) -> &SeqWindow {
        &self.window
    }

    /// The caller judged a Bye this driver passed on (as a session envelope) not to fit what
    /// arrived (it knows the record): counted as rejected instead.
    pub fn reject_bye(&mut self) {
        self.counters.session_in = self.counters.session_in.saturating_sub(1);
        self.counters.bye_rejected += 1;
    }

    /// One past the highest data sequence number sent (what a Bye reports).
    pub fn next_data_seq(&self) -> u64 {
        self.next_data_seq
    }

    pub fn endpoint(&self) -> &dyn Endpoint {
        self.endpoint.as_ref()
    }

    /// Session news gathered since the last call.
    pub fn take_notices(&mut self) -> Vec<Notice> {
        std::mem::take(&mut self.notices)
    }

    /// Sends a session envelope (Offer, Accept, Bye; sealed when a key is set), outside the
    /// rate cap.
    pub fn send_envelope(&mut self, kind: Kind, body: &[u8]) {
        envelope::write_prefix(&mut self.out, kind, self.session);
        self.out.extend_from_slice(body);
        if let Some(a) = &mut self.auth {
            a.seal(&mut self.out);
        }
        let before = self.counters.bytes_out;
        self.send_out();
        self.counters.session_bytes_out += self.counters.bytes_out - before;
    }

    fn send_out(&mut self) {
        match self.socket.send_to(&self.out, self.peer) {
            Ok(_) => {
                self.counters.datagrams_out += 1;
                self.counters.bytes_out += self.out.len() as u64;
            }
            Err(_) => self.counters.send_errors += 1,
        }
    }

    /// One turn of the loop: timers, transmits, events, then a wait of at most `max_wait` for
    /// the next deadline or datagrams.
    pub fn step(&mut self, obs: &mut dyn Observer, max_wait: Duration) -> io::Result<()> {
        let now = self.clock.now();
        if self.endpoint.poll_timeout().is_some_and(|t| t <= now) {
            self.endpoint.handle_timeout(now);
        }
        let release = self.flush(now, obs);
        if let Some(r) = self.reporter.as_mut().and_then(|r| r.due(now)) {
            let mut body = Vec::with_capacity(crate::breaker::REPORT_BYTES);
            r.emit(&mut body);
            self.send_envelope(Kind::Report, &body);
        }
        while let Some(e) = self.endpoint.poll_event() {
            obs.on_event(now, e);
        }
        let mut deadline = now + max_wait;
        if let Some(t) = self.endpoint.poll_timeout() {
            deadline = deadline.min(t);
        }
        if let Some(t) = release {
            deadline = deadline.min(t);
        }
        if let Some(r) = &self.reporter {
            deadline = deadline.min(r.next_at.max(now + Duration::from_micros(1)));
        }
        if deadline <= now {
            // Due already (a transmit the cap just released, or a timer): receive what is
            // queued without waiting.
            return self.drain(obs, BATCH);
        }
        // One scratch buffer, reused: the socket's buffer stays borrowed while a datagram is
        // handled, and handling needs `self`.
        let mut scratch = std::mem::take(&mut self.scratch);
        let got = match self.socket.wait(&self.clock, deadline)? {
            Some((b, a)) => {
                scratch.clear();
                scratch.extend_from_slice(b);
                Some(a)
            }
            None => None,
        };
        if let Some(from) = got {
            self.handle(&scratch, from, obs);
        }
        self.scratch = scratch;
        if got.is_some() {
            self.drain(obs, BATCH - 1)?;
        }
        Ok(())
    }

    fn drain(&mut self, obs: &mut dyn Observer, max: usize) -> io::Result<()> {
        let mut scratch = std::mem::take(&mut self.scratch);
        for _ in 0..max {
            let Some((b, from)) = self.socket.try_recv()? else { break };
            scratch.clear();
            scratch.extend_from_slice(b);
            self.handle(&scratch, from, obs);
        }
        self.scratch = scratch;
        Ok(())
    }

    /// Sends what the endpoint wants now; returns when a transmit held by the cap may go.
    /// At most [`MAX_TRANSMITS_PER_STEP`] datagrams: with more to send, returns `now`.
    fn flush(&mut self, now: Instant, obs: &mut dyn Observer) -> Option<Instant> {
        for _ in 0..MAX_TRANSMITS_PER_STEP {
            let (t, was_held) = match self.held.take() {
                Some(t) => (t, true),
                None => match self.endpoint.poll_transmit(now) {
                    Some(t) => (t, false),
                    None => return None,
                },
            };
            // What goes on the wire: the driver's envelope included (and the authentication
            // trailer of a sealed control envelope), so the cap holds for the bytes a link sees.
            let trailer = if self.auth.is_some() { crate::auth::TRAILER_BYTES } else { 0 };
            let envelope = trailer
                + match t.meta.kind {
                    PacketKind::Data => envelope::DATA_PREFIX,
                    PacketKind::Control => envelope::PREFIX,
                };
            let size = (envelope + t.header.len()) as u64 + t.payload_len as u64;
            if let Some((bps, tat)) = &mut self.cap {
                let burst_start = tat.saturating_since(now);
                if *tat > now && burst_start > self.cap_burst {
                    let release = Instant::from_nanos(tat.as_nanos() - self.cap_burst.as_nanos());
                    self.held = Some(t);
                    if !was_held {
                        self.counters.rate_capped += 1;
                    }
                    return Some(release);
                }
                let cost = Duration::from_nanos(((size * 8) as u128 * 1_000_000_000 / *bps as u128) as u64);
                *tat = (*tat).max(now) + cost;
            }
            self.transmit(now, &t, obs);
        }
        Some(now)
    }

    fn transmit(&mut self, now: Instant, t: &Transmit, obs: &mut dyn Observer) {
        let data = t.meta.kind == PacketKind::Data;
        let info = DataInfo::from_meta(&t.meta, self.clock.to_unix_ns(now));
        if data {
            envelope::write_data_prefix(&mut self.out, self.session, &info);
        } else {
            envelope::write_prefix(&mut self.out, Kind::Control, self.session);
        }
        let protocol_start = self.out.len();
        self.out.extend_from_slice(t.header.as_slice());
        let n = t.payload_len as usize;
        if self.payload.len() < n {
            self.payload.resize(n, 0);
        }
        if let (true, Some(src)) = (data, &mut self.source) {
            src.fill(&t.meta.media, &mut self.payload[..n]);
        }
        self.out.extend_from_slice(&self.payload[..n]);
        if let (true, Some(to)) = (data, self.plain_copy) {
            if self.socket.send_to(&self.out[protocol_start..], to).is_err() {
                self.counters.send_errors += 1;
            }
        }
        if let Some(a) = &mut self.auth {
            a.seal(&mut self.out);
        }
        self.send_out();
        if data {
            self.counters.data_out += 1;
            self.data_bytes_out += self.out.len() as u64;
            self.next_data_seq = self.next_data_seq.max(t.meta.seq.saturating_add(1));
            obs.on_data_sent(now, &info, t.header.len() + n);
        }
    }

    /// Validates one datagram and hands it to the endpoint (or the caller, for session news).
    pub fn handle(&mut self, bytes: &[u8], from: SocketAddr, obs: &mut dyn Observer) {
        self.counters.datagrams_in += 1;
        if from != self.peer {
            self.counters.foreign_address += 1;
            return;
        }
        let now = self.clock.now();
        let env = match envelope::parse(bytes) {
            Ok(e) => e,
            Err(_) => {
                self.counters.malformed_envelope += 1;
                return;
            }
        };
        if env.session != self.session {
            self.counters.wrong_session += 1;
            return;
        }
        // With a key, every envelope (data included) must verify before anything reads its body.
        let body = match &mut self.auth {
            None => env.body,
            Some(a) => {
                let prefix = if env.kind == Kind::Data { envelope::DATA_PREFIX } else { envelope::PREFIX };
                match a.open(bytes) {
                    Ok(opened) if opened.len() >= prefix => &opened[prefix..],
                    Ok(_) => {
                        // Sealed by the peer's key yet shorter than its envelope: never sent.
                        self.counters.auth_truncated += 1;
                        return;
                    }
                    Err(e) => {
                        match e {
                            AuthError::Truncated => self.counters.auth_truncated += 1,
                            AuthError::BadTag => self.counters.auth_bad_tag += 1,
                            AuthError::Replay => self.counters.auth_replay += 1,
                        }
                        return;
                    }
                }
            }
        };
        match env.kind {
            Kind::Data | Kind::Control => {
                let media = env.data.map(|i| i.media).filter(|m| m.is_media());
                if let Some(info) = env.data {
                    match self.window.judge(info.seq, media) {
                        Verdict::Accept => {}
                        Verdict::OutOfWindow => {
                            self.counters.out_of_window += 1;
                            return;
                        }
                        Verdict::BadTag => {
                            self.counters.bad_media_tag += 1;
                            return;
                        }
                    }
                }
                let d = Datagram { from: PeerId::PEER, bytes: body, virtual_payload: 0 };
                let handled = self.endpoint.handle_datagram(now, d);
                self.counters.clamped_feedback = self.endpoint.stats().clamped_feedback;
                if handled.is_err() {
                    self.counters.malformed_protocol += 1;
                } else if let Some(info) = env.data {
                    self.window.commit(info.seq, media);
                    if let Some(r) = &mut self.reporter {
                        r.on_data(info.seq, info.sent_unix_ns, now);
                    }
                    self.counters.data_in += 1;
                    obs.on_data_received(now, &info, body.len());
                } else {
                    self.counters.control_in += 1;
                }
            }
            Kind::Offer => {
                self.counters.session_in += 1;
                self.notices.push(Notice::Offer(body.to_vec()));
            }
            Kind::Accept => {
                self.counters.session_in += 1;
                self.notices.push(Notice::Accept);
            }
            Kind::Bye => {
                if body.len() >= 16 {
                    let sent = u64::from_be_bytes(body[..8].try_into().expect("8 bytes"));
                    let next_seq = u64::from_be_bytes(body[8..16].try_into().expect("8 bytes"));
                    let tripped = body.get(16).and_then(|&c| Trip::from_code(c));
                    self.counters.session_in += 1;
                    self.notices.push(Notice::Bye { sent, next_seq, tripped });
                } else {
                    self.counters.malformed_envelope += 1;
                }
            }
            Kind::Report => self.on_report(body, now),
        }
    }

    /// A receiver report: judged against what this side sent, then given to the breakers.
    fn on_report(&mut self, body: &[u8], now: Instant) {
        let Some(r) = Report::parse(body) else {
            self.counters.malformed_envelope += 1;
            return;
        };
        let now_unix = self.clock.to_unix_ns(now);
        let start_unix = self.clock.to_unix_ns(Instant::ZERO);
        let plausible = r.next_seq <= self.next_data_seq
            && r.echo_unix_ns <= now_unix
            && r.echo_unix_ns >= start_unix
            && r.delay_ns <= now_unix - r.echo_unix_ns;
        if !plausible {
            self.counters.implausible_report += 1;
            return;
        }
        self.counters.reports_in += 1;
        if let (Some(b), None) = (&mut self.breaker, self.tripped) {
            self.tripped = b.on_report(r, now, now_unix, self.counters.data_out, self.data_bytes_out);
        }
    }
}
