//! A session: one flow between one sender and one receiver, built through the protocol
//! registry from the resolved configuration the sender offers.
//!
//! Handshake: the sender sends an Offer (the session's JSON description, [`Offer`]) every
//! 200 ms until the receiver's Accept; both clocks start there (the receiver's at the Offer it
//! accepts, the sender's at the Accept). The sender runs its endpoint until the flow's duration,
//! then sends Bye (three times, 20 ms apart). The receiver binds to the first valid Offer's
//! address: from then on everything from other addresses is ignored (counted) and it ends at the
//! Bye, at Ctrl-C/SIGTERM (the stop flag), or after `idle` without a datagram from its peer.

use std::io::Write;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::{Deserialize, Serialize};
use vidcc_core::media::config::{build_stream, PlayoutConfigSpec, VideoConfig};
use vidcc_core::proto::registry::{FlowContext, ProtocolConfig, Reach, ReceiverSpec};
use vidcc_core::proto::Application;
use vidcc_core::rng::RngStreams;
use vidcc_core::{DataSize, Duration, FlowEndpoints, Instant};

use crate::auth::{Auth, AuthError, Key, Role};
use crate::breaker::{cb_interval, Breaker, BreakerStats, Trip, REPORT_INTERVAL};
use crate::clock::{self, Clock};
use crate::driver::{Counters, Driver, NoObserver, Notice, Observer, MAX_WAIT};
use crate::envelope::{self, Kind};
use crate::record::{FlowInfo, RecvRecorder, DEFAULT_MAX_STATE_BYTES};
use crate::socket::Socket;

/// A bulk flow's rate ceiling when `--max-rate` is not given (bit/s).
pub const BULK_CEILING_BPS: u64 = 10_000_000;
/// A video flow's default ceiling, as a multiple of its full-quality mean rate...
pub const VIDEO_CEILING_HEADROOM: u64 = 4;
/// ... and never below this (bit/s).
pub const MIN_VIDEO_CEILING_BPS: u64 = 1_000_000;

/// The default ceiling's burst: a variable-rate encoding's I frame leaves at once, as it does
/// without a ceiling (an explicit `--max-rate` has [`crate::driver::CAP_BURST`]).
pub const DEFAULT_CEILING_BURST: Duration = Duration::from_millis(250);

/// Largest Offer accepted (a datagram; the trace text of a video flow travels in it).
pub const MAX_OFFER_BYTES: usize = 60_000;

/// The flow a sender offers: what the receiver needs to build its endpoint and judge frames.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Offer {
    pub protocol: ProtocolConfig,
    #[serde(default)]
    pub video: Option<VideoConfig>,
    pub packet_size_bytes: u64,
    pub seed: u64,
    /// The flow's index in its scenario: its random streams are the simulator's for that flow
    /// (`"video/flow{i}"`, ...). 0 for a one-flow session.
    #[serde(default)]
    pub flow_index: u64,
    pub duration_ns: u64,
    /// The flow's own `stop` (as in a scenario), if any: the sender stops at `duration_ns`
    /// regardless, as the simulator ends a run, without telling the endpoint (a protocol may wind
    /// down before a known stop, e.g. SSVP's layered sender a second early).
    #[serde(default)]
    pub stop_ns: Option<u64>,
    #[serde(default)]
    pub sample_interval_ns: u64,
    #[serde(default)]
    pub label: String,
    /// The user-level description (the Python side's scenario and resolved form), carried
    /// through untouched so the receiver's summary names the same flow.
    #[serde(default)]
    pub extra: serde_json::Value,
}

impl Offer {
    /// The flow's endpoints, built as the simulator builds flow `flow_index` of a run with this
    /// seed.
    pub fn build(&self) -> Result<FlowEndpoints, String> {
        // A multicast protocol built for one receiver would run, but its sender then waits for
        // group reports that a unicast session never carries: refuse before the handshake.
        if self.protocol.reach() == Reach::Multicast {
            return Err(format!(
                "protocol {} is a multicast protocol; the real-network runtime carries unicast sessions only \
                 (multicast protocols run in the simulator: `vidcc run`)",
                self.protocol.name()
            ));
        }
        let streams = RngStreams::new(self.seed);
        let index = self.flow_index;
        let rng = |what: &str| streams.stream(&format!("{what}/flow{index}"));
        let app = match &self.video {
            Some(v) => {
                Application::Video(build_stream(v, Instant::ZERO, &|| rng("video")).map_err(|e| format!("video: {e}"))?)
            }
            None => Application::Bulk,
        };
        let stop = self.stop_ns.map(Instant::from_nanos);
        let members = [ReceiverSpec { start: Instant::ZERO, stop, groups: Vec::new() }];
        let ctx = FlowContext {
            app,
            packet_size: DataSize::from_bytes(self.packet_size_bytes),
            start: Instant::ZERO,
            stop,
            receivers: 1,
            members: &members,
            rng: &rng,
        };
        self.protocol.build(ctx)
    }

    /// The sender's rate ceiling when none is given: four times the mean rate of the
    /// full-quality video it carries (every layer, or the top simulcast stream), at least
    /// [`MIN_VIDEO_CEILING_BPS`]; a bulk flow (no video), [`BULK_CEILING_BPS`]. The headroom
    /// covers the driver's envelope and the protocols' headers (under 10 % at 1 000-byte
    /// packets), a variable-rate encoding's large frames (within the cap's burst) and the
    /// probing of congestion control (TFRC may send at twice the rate it is told was
    /// received, a layered protocol joins a layer to try it). Feedback can never raise it.
    pub fn default_ceiling_bps(&self) -> Result<u64, String> {
        let Some(v) = &self.video else { return Ok(BULK_CEILING_BPS) };
        let streams = RngStreams::new(self.seed);
        let index = self.flow_index;
        let stream = build_stream(v, Instant::ZERO, &|| streams.stream(&format!("video/flow{index}")))
            .map_err(|e| format!("video: {e}"))?;
        Ok(stream.mean_rate().as_bps().saturating_mul(VIDEO_CEILING_HEADROOM).max(MIN_VIDEO_CEILING_BPS))
    }

    /// Reads a sender's configuration file: either an [`Offer`] or `{"resolved": <resolved
    /// scenario>, "scenario": ...}` (what `vidcc send` writes), whose flow 0 is offered.
    pub fn from_config_json(text: &str) -> Result<Offer, String> {
        let v: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("configuration: {e}"))?;
        let Some(resolved) = v.get("resolved") else {
            return serde_json::from_value(v).map_err(|e| format!("offer: {e}"));
        };
        let flow = resolved.pointer("/flows/0").ok_or("configuration: resolved.flows[0] is missing")?;
        let field = |k: &str| flow.get(k).ok_or(format!("configuration: resolved.flows[0].{k} is missing"));
        let num = |x: Option<&serde_json::Value>, what: &str| {
            x.and_then(|v| v.as_u64()).ok_or(format!("configuration: {what} must be a non-negative integer"))
        };
        Ok(Offer {
            protocol: serde_json::from_value(field("protocol")?.clone())
                .map_err(|e| format!("configuration: resolved.flows[0].protocol: {e}"))?,
            video: match flow.get("video") {
                None | Some(serde_json::Value::Null) => None,
                Some(v) => Some(
                    serde_json::from_value(v.clone())
                        .map_err(|e| format!("configuration: resolved.flows[0].video: {e}"))?,
                ),
            },
            packet_size_bytes: num(flow.get("packet_size_bytes"), "resolved.flows[0].packet_size_bytes")?,
            seed: num(resolved.get("seed"), "resolved.seed")?,
            flow_index: v.get("flow_index").and_then(|i| i.as_u64()).unwrap_or(0),
            duration_ns: num(resolved.get("duration_ns"), "resolved.duration_ns")?,
            stop_ns: flow.get("stop_ns").and_then(|v| v.as_u64()),
            sample_interval_ns: num(resolved.get("sample_interval_ns"), "resolved.sample_interval_ns").unwrap_or(0),
            label: flow.get("label").and_then(|l| l.as_str()).unwrap_or("").to_string(),
            extra: v.clone(),
        })
    }
}

/// How a sender or receiver authenticates (None: not at all).
#[derive(Clone, Debug, Default)]
pub struct Security {
    pub key: Option<Key>,
}

impl Security {
    fn auth(&self, role: Role) -> Option<Auth> {
        self.key.clone().map(|k| Auth::new(k, role))
    }
}

pub struct SendOptions {
    pub to: SocketAddr,
    pub offer: Offer,
    pub security: Security,
    /// The driver's rate cap (bit/s); None: [`Offer::default_ceiling_bps`].
    pub max_rate_bps: Option<u64>,
    /// Give up when no Accept came within this.
    pub handshake_timeout: Duration,
    /// Real payload bytes (a prepared clip's frames); None: zeros.
    pub payload: Option<Box<dyn crate::payload::PayloadSource>>,
    /// A plain copy of every data datagram (no envelope) goes here too (see `Driver::set_plain_copy`).
    pub plain_copy: Option<SocketAddr>,
    /// The feedback-timeout circuit breaker's timeout; None: [`FEEDBACK_TIMEOUT`].
    pub feedback_timeout: Option<Duration>,
    /// RFC 8083's report-based breakers (media timeout, congestion: [`crate::breaker`]) on or
    /// off; None: on for every protocol but the exempt generators ([`CIRCUIT_BREAKER_EXEMPT`]).
    pub circuit_breaker: Option<bool>,
}

/// RFC 8083 §4.1's RTCP timeout circuit breaker, for every congestion-controlled protocol: a
/// sender that has accepted no feedback (no control datagram from its peer) for this long
/// stops. Three reporting intervals of RTCP's 5-s minimum (RFC 3550 §6.2); every unicast
/// protocol here reports far more often (per RTT, per packet, or each second for rtcp-udp).
pub const FEEDBACK_TIMEOUT: Duration = Duration::from_secs(15);

/// Protocols the circuit breakers leave alone: the unresponsive traffic generators, which
/// take no feedback by design.
pub const CIRCUIT_BREAKER_EXEMPT: &[&str] = &["udp", "udp-cbr", "udp-pareto"];

#[derive(Debug, Serialize)]
pub struct SendReport {
    pub counters: Counters,
    /// The rate ceiling the driver enforced (bit/s), and its burst.
    pub ceiling_bps: u64,
    pub ceiling_burst_ns: u64,
    /// Datagrams rejected, every reason together ([`Counters::rejected`]; each in `counters`).
    pub rejected: u64,
    /// What ended the flow: `duration`, `signal`, or a circuit breaker (`circuit-breaker:
    /// feedback-timeout`, `circuit-breaker: media-timeout`, `circuit-breaker: congestion`).
    pub ended_by: &'static str,
    /// The report-based breakers' view (None: off for this protocol).
    pub circuit_breaker: Option<BreakerStats>,
    pub data_sent: u64,
    pub elapsed_ns: u64,
    pub stopped_early: bool,
}

fn session_id() -> u32 {
    let t = clock::unix_now_ns();
    (t ^ (t >> 32) ^ std::process::id() as u64) as u32
}

/// Runs a sender on `socket`: handshake, the flow for its duration (or until `stop`), Bye.
pub fn run_sender(
    socket: Socket,
    mut opts: SendOptions,
    stop: &AtomicBool,
    obs: &mut dyn Observer,
) -> Result<SendReport, String> {
    let endpoints = opts.offer.build()?;
    let offer_json = serde_json::to_vec(&opts.offer).map_err(|e| e.to_string())?;
    if offer_json.len() > MAX_OFFER_BYTES {
        return Err(format!("the session description is {} bytes, over {MAX_OFFER_BYTES}", offer_json.len()));
    }
    let mut d = Driver::new(socket, opts.to, session_id(), endpoints.sender);
    d.set_auth(opts.security.auth(Role::Sender));
    let (ceiling, burst) = match opts.max_rate_bps {
        Some(r) => (r, crate::driver::CAP_BURST),
        None => (opts.offer.default_ceiling_bps()?, DEFAULT_CEILING_BURST),
    };
    d.set_ceiling(Some(ceiling), burst);
    d.set_payload_source(opts.payload.take());
    d.set_plain_copy(opts.plain_copy);
    clock::tighten_timer_slack();
    let started = Clock::new();
    'handshake: loop {
        if stop.load(Ordering::Relaxed) {
            return Ok(SendReport {
                counters: d.counters,
                ceiling_bps: ceiling,
                ceiling_burst_ns: burst.as_nanos(),
                rejected: d.counters.rejected(),
                ended_by: "signal",
                circuit_breaker: None,
                data_sent: 0,
                elapsed_ns: 0,
                stopped_early: true,
            });
        }
        if started.now().as_nanos() > opts.handshake_timeout.as_nanos() {
            return Err(format!(
                "no answer from {} within {:?}",
                opts.to,
                std::time::Duration::from_nanos(opts.handshake_timeout.as_nanos())
            ));
        }
        d.send_envelope(Kind::Offer, &offer_json);
        let until = d.clock.now() + Duration::from_millis(200);
        while d.clock.now() < until {
            let got = d.socket.wait(&d.clock, until).map_err(|e| e.to_string())?.map(|(b, a)| (b.to_vec(), a));
            if let Some((b, a)) = got {
                d.handle(&b, a, &mut NoObserver);
                if d.take_notices().contains(&Notice::Accept) {
                    break 'handshake;
                }
            }
        }
    }
    d.set_clock(Clock::new());
    let end = Instant::from_nanos(opts.offer.duration_ns);
    let mut stopped_early = false;
    let exempt = CIRCUIT_BREAKER_EXEMPT.contains(&opts.offer.protocol.name());
    let breaker = (!exempt).then_some(opts.feedback_timeout.unwrap_or(FEEDBACK_TIMEOUT));
    if opts.circuit_breaker.unwrap_or(!exempt) {
        // CB_INTERVAL for the receiver's default report interval (10 reports for any interval
        // up to 1.5 s) and the video's frame interval.
        let frame =
            opts.offer.video.as_ref().filter(|v| v.fps > 0.0).map(|v| Duration::from_nanos((1e9 / v.fps) as u64));
        d.set_breaker(Some(Breaker::new(cb_interval(REPORT_INTERVAL, frame))));
    }
    let mut tripped = None;
    // Control datagrams accepted so far, and when that count last grew.
    let mut feedback = (d.counters.control_in, Instant::ZERO);
    let mut ended_by = "duration";
    loop {
        let now = d.clock.now();
        if now >= end {
            break;
        }
        if stop.load(Ordering::Relaxed) {
            stopped_early = true;
            ended_by = "signal";
            break;
        }
        if d.counters.control_in != feedback.0 {
            feedback = (d.counters.control_in, now);
        } else if breaker.is_some_and(|t| now.saturating_since(feedback.1) >= t) {
            tripped = Some(Trip::FeedbackTimeout);
        }
        if let Some(t) = tripped.or(d.tripped()) {
            tripped = Some(t);
            stopped_early = true;
            ended_by = t.as_str();
            break;
        }
        let wait = end.saturating_since(now).min(MAX_WAIT);
        d.step(obs, wait).map_err(|e| e.to_string())?;
        d.take_notices();
    }
    let elapsed_ns = d.clock.now().as_nanos();
    let mut bye = Vec::with_capacity(16);
    bye.extend_from_slice(&d.counters.data_out.to_be_bytes());
    bye.extend_from_slice(&d.next_data_seq().to_be_bytes());
    bye.push(tripped.map_or(0, Trip::code));
    for _ in 0..3 {
        d.send_envelope(Kind::Bye, &bye);
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    Ok(SendReport {
        counters: d.counters,
        ceiling_bps: ceiling,
        ceiling_burst_ns: burst.as_nanos(),
        rejected: d.counters.rejected(),
        ended_by,
        circuit_breaker: d.breaker().map(|b| b.stats),
        data_sent: d.counters.data_out,
        elapsed_ns,
        stopped_early,
    })
}

pub struct RecvOptions {
    pub security: Security,
    /// End after this long without a datagram from the peer (once the session started).
    pub idle: Duration,
    /// Give up waiting for an Offer after this (None: wait until stopped).
    pub wait_for_offer: Option<Duration>,
    /// Append every arrival to this CSV file once a second (and at the end), so that a receiver
    /// killed outright (SIGKILL, a crash) loses at most the last second of its log.
    pub log: Option<std::path::PathBuf>,
    /// Budget of the recorded state ([`crate::record`]); None: [`DEFAULT_MAX_STATE_BYTES`].
    pub max_state_bytes: Option<u64>,
    /// How often the receiver reports to the sender ([`crate::breaker`]); None:
    /// [`REPORT_INTERVAL`].
    pub report_interval: Option<Duration>,
}

/// What a receiver's run produced.
pub struct RecvOutcome {
    pub offer: Offer,
    pub peer: SocketAddr,
    pub counters: Counters,
    pub tables: Vec<vidcc_core::table::Table>,
    pub end_ns: u64,
    pub ended_by: &'static str,
}

/// Runs a receiver on `socket` until the sender's Bye, `stop`, or idleness; returns its tables.
/// `Ok(None)`: stopped (or timed out) before any session began.
pub fn run_receiver(mut socket: Socket, opts: RecvOptions, stop: &AtomicBool) -> Result<Option<RecvOutcome>, String> {
    let listen = socket.local_addr().map_err(|e| e.to_string())?;
    clock::tighten_timer_slack();
    let mut pre = Counters::default();
    let mut auth = opts.security.auth(Role::Receiver);
    let waiting = Clock::new();
    // Wait for the first valid Offer from anyone.
    let (offer, peer, session, clock) = loop {
        if stop.load(Ordering::Relaxed) || opts.wait_for_offer.is_some_and(|w| waiting.now().as_nanos() > w.as_nanos())
        {
            return Ok(None);
        }
        let until = waiting.now() + Duration::from_millis(100);
        let Some((bytes, from)) = socket.wait(&waiting, until).map_err(|e| e.to_string())? else { continue };
        pre.datagrams_in += 1;
        let Ok(env) = envelope::parse(bytes) else {
            pre.malformed_envelope += 1;
            continue;
        };
        if env.kind != Kind::Offer {
            pre.wrong_session += 1;
            continue;
        }
        let body = match &mut auth {
            None => env.body,
            Some(a) => match a.open(bytes) {
                Ok(b) => &b[envelope::PREFIX..],
                Err(e) => {
                    match e {
                        AuthError::Truncated => pre.auth_truncated += 1,
                        AuthError::BadTag => pre.auth_bad_tag += 1,
                        AuthError::Replay => pre.auth_replay += 1,
                    }
                    continue;
                }
            },
        };
        // An offer is bytes from the network: one that does not parse, or whose flow does not
        // build (a constructor may even panic on values no scenario file would pass), is
        // counted and ignored, and the receiver waits for another.
        match serde_json::from_slice::<Offer>(body) {
            Ok(o) if builds(&o) => {
                pre.session_in += 1;
                break (o, from, env.session, Clock::new());
            }
            _ => pre.malformed_envelope += 1,
        }
    };
    let mut endpoints = offer.build().map_err(|e| format!("the offered flow: {e}"))?;
    if endpoints.receivers.is_empty() {
        return Err("the offered flow has no receiver".into());
    }
    let receiver = endpoints.receivers.remove(0);
    let mut d = Driver::new(socket, peer, session, receiver);
    d.set_clock(clock);
    d.set_auth(auth);
    d.set_reports(Some(opts.report_interval.unwrap_or(REPORT_INTERVAL)));
    d.counters = pre;
    let mut rec = RecvRecorder::new(clock, Duration::from_nanos(offer.sample_interval_ns), offer.video.clone())
        .with_max_state(opts.max_state_bytes.unwrap_or(DEFAULT_MAX_STATE_BYTES));
    d.send_envelope(Kind::Accept, &[]);
    let mut last_heard = (d.counters.datagrams_in - d.counters.foreign_address, d.clock.now());
    let mut log = match &opts.log {
        Some(p) => {
            let mut f = std::fs::File::create(p).map_err(|e| format!("{}: {e}", p.display()))?;
            writeln!(f, "seq,size_bytes,sent_ns,arrival_ns,frame,frame_type,layer,index,count")
                .map_err(|e| format!("{}: {e}", p.display()))?;
            Some((f, 0usize, Instant::ZERO))
        }
        None => None,
    };
    let mut flush_log = |rec: &RecvRecorder, now: Instant, force: bool| -> Result<(), String> {
        if let Some((f, written, last)) = &mut log {
            if force || now.saturating_since(*last) >= Duration::from_secs(1) {
                let mut w = std::io::BufWriter::new(&mut *f);
                *written = rec.write_log(*written, &mut w).map_err(|e| format!("arrival log: {e}"))?;
                w.flush().map_err(|e| format!("arrival log: {e}"))?;
                *last = now;
            }
        }
        Ok(())
    };
    let mut sent = None;
    let mut sender_tripped: Option<Trip> = None;
    let linger = match &offer.video {
        Some(v) => match v.playout {
            PlayoutConfigSpec::FirstArrival { delay_ns }
            | PlayoutConfigSpec::ReadyTime { delay_ns }
            | PlayoutConfigSpec::SendTime { delay_ns } => Duration::from_nanos(delay_ns.min(3_000_000_000)),
        },
        None => Duration::ZERO,
    };
    let ended_by = loop {
        if stop.load(Ordering::Relaxed) {
            break "signal";
        }
        d.step(&mut rec, MAX_WAIT).map_err(|e| e.to_string())?;
        let now = d.clock.now();
        rec.tick(now, d.endpoint().stats().app_bytes_delivered);
        flush_log(&rec, now, false)?;
        for n in d.take_notices() {
            match n {
                Notice::Offer(_) => d.send_envelope(Kind::Accept, &[]),
                // A Bye's claims are believed only when they fit what arrived (else a forged one
                // would write its numbers into the tables, or end the session).
                Notice::Bye { sent: s, next_seq, tripped } => {
                    if d.window().bye_fits(s, next_seq, rec.unique_seqs()) {
                        sent = Some((s, next_seq));
                        sender_tripped = tripped;
                    } else {
                        d.reject_bye();
                    }
                }
                Notice::Accept => {}
            }
        }
        if sent.is_some() {
            // Let reordered or queued stragglers in, and the playout buffer play out: a player
            // shows its buffered frames after the last packet, so the last frames' deadlines
            // fall inside the run (else they would be `pending`).
            let until = now + Duration::from_millis(100) + linger;
            while d.clock.now() < until && !stop.load(Ordering::Relaxed) {
                d.step(&mut rec, until.saturating_since(d.clock.now())).map_err(|e| e.to_string())?;
            }
            break match sender_tripped {
                None => "bye",
                Some(Trip::FeedbackTimeout) => "bye: circuit-breaker: feedback-timeout",
                Some(Trip::MediaTimeout) => "bye: circuit-breaker: media-timeout",
                Some(Trip::Congestion) => "bye: circuit-breaker: congestion",
            };
        }
        let heard = d.counters.datagrams_in - d.counters.foreign_address;
        if heard != last_heard.0 {
            last_heard = (heard, now);
        } else if now.saturating_since(last_heard.1) >= opts.idle {
            // RFC 8083 §4.2 seen from the receiver: media stopped arriving.
            break "circuit-breaker: media-timeout (idle)";
        }
    };
    let end = d.clock.now();
    flush_log(&rec, end, true)?;
    let info = FlowInfo {
        label: if offer.label.is_empty() { offer.protocol.name().to_string() } else { offer.label.clone() },
        protocol: offer.protocol.name().to_string(),
        src: peer.to_string(),
        dst: listen.to_string(),
    };
    let app = d.endpoint().stats().app_bytes_delivered;
    let mut counters = d.counters;
    counters.state_cap_reached = rec.unrecorded();
    let tables = rec.finish(&info, sent, app, end);
    Ok(Some(RecvOutcome { offer, peer, counters, tables, end_ns: end.as_nanos(), ended_by }))
}

/// Whether an offered flow builds, without letting a constructor's panic end the receiver.
fn builds(offer: &Offer) -> bool {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| offer.build().is_ok())).unwrap_or(false)
}
