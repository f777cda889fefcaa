//! `vidcc link`: an emulated bottleneck in user space. A relay on one UDP socket: datagrams from
//! the far end `to` travel the reverse direction back to the client (the first address that sent
//! to the relay); datagrams from anyone else travel the forward direction to `to`. With routes
//! (`--route CLIENT=FAR,...`, for several flows through one bottleneck: `vidcc run --real`) each
//! client has its own far end, and all share the link.
//!
//! Each direction is a simulator link applied in wall-clock time, with the simulator's own code
//! (vidcc-core `queue/` and `loss/`) and its forwarding rules (vidcc-sim `forward.rs`): an
//! arriving datagram is enqueued (so RED sees every arrival); an idle link starts it at once;
//! serialisation takes `size·8/bandwidth` (rounded up to whole ns) and the loss model decides its
//! fate when serialisation starts (a lost packet still occupies the link); a packet that survives
//! leaves the relay after serialisation plus the propagation delay. The size is the whole UDP
//! payload (the protocol's datagram and the driver's envelope), or with `protocol_sizes` the
//! protocol's datagram alone, as the simulator sizes packets (`vidcc run --real`). Queue limits count waiting
//! packets, not the one on the link, as in ns-2.
//!
//! Random streams are seeded as in the simulator, one per component (`loss/forward`,
//! `queue/forward`, `loss/reverse`, `queue/reverse`), so a seed fixes the loss pattern per packet
//! sequence.

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;
use vidcc_core::loss::bernoulli::Bernoulli;
use vidcc_core::loss::gilbert_elliott::GilbertElliott;
use vidcc_core::loss::LossModel;
use vidcc_core::queue::drop_tail::DropTail;
use vidcc_core::queue::red::{Red, RedParams};
use vidcc_core::queue::{Enqueue, Limit, Queue, QueuedPacket};
use vidcc_core::rng::RngStreams;
use vidcc_core::{parse_duration, parse_rate, parse_size, DataRate, DataSize, Duration, Instant};

use crate::clock::{self, Clock};
use crate::envelope;
use crate::socket::{RecvBatch, Socket, BATCH};

/// A direction's loss model, as given on the command line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LossSpec {
    Bernoulli { p: f64 },
    GilbertElliott { p: f64, r: f64, loss_good: f64, loss_bad: f64 },
    CorrelatedBernoulli { p: f64, q: f64 },
}

impl LossSpec {
    /// `bernoulli:p=0.01`, `gilbert-elliott:p=0.01,r=0.15[,loss_good=0,loss_bad=1]`,
    /// `correlated-bernoulli:p=0.01,q=0.15`.
    pub fn parse(s: &str) -> Result<LossSpec, String> {
        let (kind, params) = s.split_once(':').unwrap_or((s, ""));
        let mut kv = Vec::new();
        for part in params.split(',').filter(|p| !p.is_empty()) {
            let (k, v) = part.split_once('=').ok_or(format!("loss {s:?}: expected key=value, got {part:?}"))?;
            let x: f64 = v.trim().parse().map_err(|_| format!("loss {s:?}: {k} = {v:?} is not a number"))?;
            kv.push((k.trim().to_string(), x));
        }
        let get = |k: &str, default: Option<f64>| {
            kv.iter().find(|(n, _)| n == k).map(|(_, v)| *v).or(default).ok_or(format!("loss {s:?}: missing {k}"))
        };
        let allowed: &[&str] = match kind {
            "bernoulli" => &["p"],
            "gilbert-elliott" => &["p", "r", "loss_good", "loss_bad"],
            "correlated-bernoulli" => &["p", "q"],
            _ => {
                return Err(format!(
                    "loss {s:?}: unknown model {kind:?} (bernoulli, gilbert-elliott, correlated-bernoulli)"
                ))
            }
        };
        if let Some((k, _)) = kv.iter().find(|(k, _)| !allowed.contains(&k.as_str())) {
            return Err(format!("loss {s:?}: unknown parameter {k:?} for {kind} ({})", allowed.join(", ")));
        }
        let spec = match kind {
            "bernoulli" => LossSpec::Bernoulli { p: get("p", None)? },
            "gilbert-elliott" => LossSpec::GilbertElliott {
                p: get("p", None)?,
                r: get("r", None)?,
                loss_good: get("loss_good", Some(0.0))?,
                loss_bad: get("loss_bad", Some(1.0))?,
            },
            _ => LossSpec::CorrelatedBernoulli { p: get("p", None)?, q: get("q", None)? },
        };
        spec.build(RngStreams::new(0).stream("check")).map(|_| spec)
    }

    fn build(&self, rng: vidcc_core::rng::SimRng) -> Result<Box<dyn LossModel>, String> {
        let e = |e: vidcc_core::loss::bernoulli::ProbabilityError| format!("loss: {e}");
        Ok(match *self {
            LossSpec::Bernoulli { p } => Box::new(Bernoulli::new(p, rng).map_err(e)?),
            LossSpec::GilbertElliott { p, r, loss_good, loss_bad } => {
                Box::new(GilbertElliott::new(p, r, loss_good, loss_bad, rng).map_err(e)?)
            }
            LossSpec::CorrelatedBernoulli { p, q } => {
                Box::new(GilbertElliott::correlated_bernoulli(p, q, rng).map_err(e)?)
            }
        })
    }
}

/// One direction's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DirectionSpec {
    pub bandwidth: DataRate,
    pub delay: Duration,
    pub limit: Limit,
    /// RED with ns-2's defaults instead of DropTail.
    pub red: bool,
    pub loss: Option<LossSpec>,
}

impl DirectionSpec {
    /// A queue limit: a number of packets (`50`) or a size (`64KB`).
    pub fn parse_limit(s: &str) -> Result<Limit, String> {
        match s.trim().parse::<u64>() {
            Ok(n) if n > 0 => Ok(Limit::Packets(n)),
            Ok(_) => Err(format!("queue {s:?}: must hold at least one packet")),
            Err(_) => parse_size(s).map(|b: DataSize| Limit::Bytes(b.as_bytes())).map_err(|e| format!("queue: {e}")),
        }
    }

    /// Changes from `key=value` words (`bandwidth=2Mbps delay=30ms queue=50 loss=... red=true`),
    /// for `--reverse`.
    pub fn with_overrides(mut self, words: &str) -> Result<Self, String> {
        self.loss = None;
        for w in words.split_whitespace() {
            let (k, v) = w.split_once('=').ok_or(format!("--reverse: expected key=value, got {w:?}"))?;
            match k {
                "bandwidth" => self.bandwidth = parse_rate(v).map_err(|e| format!("--reverse bandwidth: {e}"))?,
                "delay" => self.delay = parse_duration(v).map_err(|e| format!("--reverse delay: {e}"))?,
                "queue" => self.limit = Self::parse_limit(v)?,
                "loss" => self.loss = Some(LossSpec::parse(v)?),
                "red" => self.red = v == "true",
                _ => return Err(format!("--reverse: unknown key {k:?} (bandwidth, delay, queue, loss, red)")),
            }
        }
        Ok(self)
    }
}

/// Counters of one direction.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct DirectionStats {
    pub arrived: u64,
    pub forwarded: u64,
    pub dropped_queue: u64,
    pub dropped_loss: u64,
    pub bytes_forwarded: u64,
    pub max_queue_packets: u64,
}

#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct LinkStats {
    pub forward: DirectionStats,
    pub reverse: DirectionStats,
    /// Datagrams for the reverse direction before any client was known (dropped).
    pub no_client: u64,
    /// System calls that sent more than one datagram (GSO bursts of departures).
    pub coalesced_sends: u64,
}

struct Direction {
    spec: DirectionSpec,
    queue: Box<dyn Queue>,
    loss: Option<Box<dyn LossModel>>,
    busy_until: Instant,
    /// Packets on the wire or in propagation: (leave-at, packet id), in order.
    flight: VecDeque<(Instant, u32)>,
    stats: DirectionStats,
}

impl Direction {
    fn new(spec: DirectionSpec, streams: &RngStreams, name: &str) -> Result<Direction, String> {
        let queue: Box<dyn Queue> = if spec.red {
            Box::new(
                Red::new(
                    spec.limit,
                    RedParams::ns2_default(),
                    spec.bandwidth,
                    streams.stream(&format!("queue/{name}")),
                )
                .map_err(|e| e.to_string())?,
            )
        } else {
            Box::new(DropTail::new(spec.limit))
        };
        let loss = spec.loss.map(|l| l.build(streams.stream(&format!("loss/{name}")))).transpose()?;
        Ok(Direction {
            spec,
            queue,
            loss,
            busy_until: Instant::ZERO,
            flight: VecDeque::new(),
            stats: DirectionStats::default(),
        })
    }

    /// Starts the head of the queue at `start` (the link is free by then); returns the id of a
    /// packet the loss model dropped, for the caller to free.
    fn start_next(&mut self, start: Instant) -> Option<u32> {
        let p = self.queue.dequeue(start)?;
        let tx = self.spec.bandwidth.transmission_time(DataSize::from_bytes(p.size_bytes as u64));
        self.busy_until = start + tx;
        let lost = self.loss.as_mut().is_some_and(|m| m.should_drop());
        if lost {
            self.stats.dropped_loss += 1;
            Some(p.id)
        } else {
            self.flight.push_back((start + tx + self.spec.delay, p.id));
            None
        }
    }

    fn next_event(&self) -> Option<Instant> {
        let tx = (self.queue.len_packets() > 0).then_some(self.busy_until);
        let out = self.flight.front().map(|f| f.0);
        match (tx, out) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

pub struct LinkOptions {
    pub listen: SocketAddr,
    pub to: SocketAddr,
    pub forward: DirectionSpec,
    pub reverse: DirectionSpec,
    pub seed: u64,
    /// Several flows through one bottleneck: each `(client, far end)` pair is a route. A datagram
    /// from a route's client goes forward to its far end, one from its far end back to the
    /// client; all routes share the two directions (their queues, loss models and rates). Empty:
    /// one client, the first address that sends (forward to `to`).
    pub routes: Vec<(SocketAddr, SocketAddr)>,
    /// Size each datagram as the simulator sizes its packet: the protocol's bytes, without the
    /// driver's envelope prefix (32 bytes on data, 5 on control; see [`link_size`]). Off: the
    /// whole UDP payload, as a real bottleneck would carry it.
    pub protocol_sizes: bool,
}

/// The size the link queues and serialises for `bytes`: with `protocol_sizes`, a datagram that
/// starts with a vidcc-net envelope kind is counted without the envelope's prefix (an
/// authentication trailer still counts); anything else counts whole.
pub fn link_size(bytes: &[u8], protocol_sizes: bool) -> usize {
    if !protocol_sizes {
        return bytes.len();
    }
    let prefix = match bytes.first().copied().and_then(envelope::Kind::from_code) {
        Some(envelope::Kind::Data) => envelope::DATA_PREFIX,
        Some(_) => envelope::PREFIX,
        None => 0,
    };
    bytes.len().saturating_sub(prefix).max(1)
}

/// A relay bound and ready to run.
pub struct Link {
    socket: Socket,
    to: SocketAddr,
    client: Option<SocketAddr>,
    routes: Vec<(SocketAddr, SocketAddr)>,
    protocol_sizes: bool,
    dirs: [Direction; 2],
    packets: Vec<Vec<u8>>,
    /// Where each stored packet goes when it leaves (by packet id, as `packets`).
    dests: Vec<SocketAddr>,
    free: Vec<u32>,
    no_client: u64,
    scratch: Vec<u8>,
    /// `recvmmsg` batches and GSO sends (None: one `recvfrom` and one `sendto` per datagram).
    batch: Option<RecvBatch>,
    /// Departures not sent yet (with batching): one GSO send.
    gso: Option<Departures>,
    coalesced_sends: u64,
}

/// Departures of one direction to one destination, of one segment size (the last may be shorter).
struct Departures {
    dir: usize,
    dest: SocketAddr,
    segment: usize,
    count: usize,
    buf: Vec<u8>,
}

impl Link {
    pub fn bind(opts: &LinkOptions) -> Result<Link, String> {
        let socket = Socket::bind(opts.listen).map_err(|e| format!("bind {}: {e}", opts.listen))?;
        Link::on(socket, opts)
    }

    /// A relay on an already bound socket (`opts.listen` is then ignored).
    pub fn on(socket: Socket, opts: &LinkOptions) -> Result<Link, String> {
        let streams = RngStreams::new(opts.seed);
        let batch = RecvBatch::new(&socket).ok();
        Ok(Link {
            batch,
            gso: None,
            coalesced_sends: 0,
            socket,
            to: opts.to,
            client: None,
            routes: opts.routes.clone(),
            protocol_sizes: opts.protocol_sizes,
            dirs: [
                Direction::new(opts.forward, &streams, "forward")?,
                Direction::new(opts.reverse, &streams, "reverse")?,
            ],
            packets: Vec::new(),
            dests: Vec::new(),
            free: Vec::new(),
            no_client: 0,
            scratch: Vec::with_capacity(crate::socket::MAX_DATAGRAM),
        })
    }

    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.socket.local_addr()
    }

    /// Receive with `recvmmsg` batches and send bursts of departures with GSO (the default where
    /// available), or one `recvfrom` and one `sendto` per datagram (for the benchmark's
    /// comparison). Returns whether batching is on.
    pub fn set_recv_batching(&mut self, on: bool) -> bool {
        self.batch = if on { RecvBatch::new(&self.socket).ok() } else { None };
        self.batch.is_some()
    }

    pub fn stats(&self) -> LinkStats {
        LinkStats {
            forward: self.dirs[0].stats,
            reverse: self.dirs[1].stats,
            no_client: self.no_client,
            coalesced_sends: self.coalesced_sends,
        }
    }

    fn store(&mut self, bytes: &[u8], dest: SocketAddr) -> u32 {
        match self.free.pop() {
            Some(id) => {
                let b = &mut self.packets[id as usize];
                b.clear();
                b.extend_from_slice(bytes);
                self.dests[id as usize] = dest;
                id
            }
            None => {
                self.packets.push(bytes.to_vec());
                self.dests.push(dest);
                (self.packets.len() - 1) as u32
            }
        }
    }

    /// The direction (0 forward, 1 reverse) and destination of a datagram from `from`; None: it
    /// has nowhere to go (counted in `no_client`).
    fn route(&mut self, from: SocketAddr) -> Option<(usize, SocketAddr)> {
        if !self.routes.is_empty() {
            if let Some(&(client, _)) = self.routes.iter().find(|r| r.1 == from) {
                return Some((1, client));
            }
            if let Some(&(_, far)) = self.routes.iter().find(|r| r.0 == from) {
                return Some((0, far));
            }
            // A stranger's datagram crosses the link forward to the default far end, as below.
            return Some((0, self.to));
        }
        if from == self.to {
            return self.client.map(|c| (1, c));
        }
        // The first address to send is the client for the whole run: a stranger's datagram
        // still crosses the link forward (the relay is a wire), but never takes the return
        // path away from the client.
        self.client.get_or_insert(from);
        Some((0, self.to))
    }

    pub(crate) fn arrive(&mut self, now: Instant, bytes: &[u8], from: SocketAddr) {
        // Whatever was due before this arrival happens first (as the simulator's event order).
        self.advance(now);
        let Some((d, dest)) = self.route(from) else {
            self.no_client += 1;
            return;
        };
        let id = self.store(bytes, dest);
        let dir = &mut self.dirs[d];
        dir.stats.arrived += 1;
        let size_bytes = link_size(bytes, self.protocol_sizes) as u32;
        // The relay builds FIFO queues only (DropTail, RED), which ignore the flow key.
        match dir.queue.enqueue(now, QueuedPacket { id, size_bytes, flow: 0 }) {
            Enqueue::Dropped => {
                dir.stats.dropped_queue += 1;
                self.free.push(id);
            }
            Enqueue::Accepted => {
                dir.stats.max_queue_packets = dir.stats.max_queue_packets.max(dir.queue.len_packets() as u64);
                if dir.busy_until <= now {
                    if let Some(lost) = dir.start_next(now) {
                        self.free.push(lost);
                    }
                }
            }
        }
    }

    /// Serialisation ends and departures due by `now`.
    fn advance(&mut self, now: Instant) {
        for d in 0..2 {
            loop {
                let dir = &mut self.dirs[d];
                let mut progressed = false;
                if let Some(&(at, id)) = dir.flight.front() {
                    if at <= now {
                        dir.flight.pop_front();
                        self.depart(d, id);
                        progressed = true;
                    }
                }
                let dir = &mut self.dirs[d];
                if dir.queue.len_packets() > 0 && dir.busy_until <= now {
                    // The next packet starts when the previous one ended, not when we looked.
                    let at = dir.busy_until;
                    if let Some(lost) = dir.start_next(at) {
                        self.free.push(lost);
                    }
                    progressed = true;
                }
                if !progressed {
                    break;
                }
            }
        }
        self.flush_departures();
    }

    /// Sends a packet whose time to leave has come: at once, or (with batching) appended to the
    /// pending GSO send when it goes to the same place in the same direction with the same size
    /// (the last segment may be shorter), so that a burst of departures costs one system call.
    fn depart(&mut self, d: usize, id: u32) {
        let dest = self.dests[id as usize];
        let len = self.packets[id as usize].len();
        let Some(batch) = &self.batch else {
            if self.socket.send_to(&self.packets[id as usize], dest).is_ok() {
                self.dirs[d].stats.forwarded += 1;
                self.dirs[d].stats.bytes_forwarded += len as u64;
            }
            self.free.push(id);
            return;
        };
        let max = batch.max_segments();
        let fits = self.gso.as_ref().is_some_and(|g| {
            g.dir == d && g.dest == dest && g.count < max && len <= g.segment && g.buf.len() == g.count * g.segment
        });
        if !fits {
            self.flush_departures();
        }
        let g = self.gso.get_or_insert_with(|| Departures {
            dir: d,
            dest,
            segment: len,
            count: 0,
            buf: Vec::with_capacity(len * max.min(64)),
        });
        g.buf.extend_from_slice(&self.packets[id as usize]);
        g.count += 1;
        self.free.push(id);
    }

    /// Sends the pending GSO batch (one `sendmsg` with UDP_SEGMENT through quinn-udp).
    fn flush_departures(&mut self) {
        let (Some(g), Some(batch)) = (self.gso.take(), &self.batch) else { return };
        if batch.send_segments(&self.socket, g.dest, &g.buf, g.segment).is_ok() {
            self.coalesced_sends += (g.count > 1) as u64;
            self.dirs[g.dir].stats.forwarded += g.count as u64;
            self.dirs[g.dir].stats.bytes_forwarded += g.buf.len() as u64;
        }
    }

    /// The relay's bookkeeping holds (for the fuzz targets, [`crate::fuzzing`]): every stored
    /// datagram is queued or in flight, and no direction accounts for more than arrived.
    pub(crate) fn check_conservation(&self) -> Result<(), String> {
        let live = self.packets.len() - self.free.len();
        let held: usize = self.dirs.iter().map(|d| d.queue.len_packets() + d.flight.len()).sum();
        if live != held {
            return Err(format!("{live} datagrams stored, {held} queued or in flight"));
        }
        for d in &self.dirs {
            let s = d.stats;
            let out = s.dropped_queue + s.dropped_loss + s.forwarded + (d.queue.len_packets() + d.flight.len()) as u64;
            if out > s.arrived {
                return Err(format!("{out} datagrams accounted of {} arrived: {s:?}", s.arrived));
            }
        }
        Ok(())
    }

    /// Relays until `stop` is set (or `duration` passes).
    pub fn run(&mut self, stop: &AtomicBool, duration: Option<Duration>) -> Result<LinkStats, String> {
        clock::tighten_timer_slack();
        let clock = Clock::new();
        let end = duration.map(|d| Instant::ZERO + d);
        while !stop.load(Ordering::Relaxed) {
            let now = clock.now();
            if end.is_some_and(|e| now >= e) {
                break;
            }
            self.advance(now);
            let mut deadline = now + Duration::from_millis(20);
            for d in &self.dirs {
                if let Some(t) = d.next_event() {
                    deadline = deadline.min(t);
                }
            }
            if deadline <= now {
                continue;
            }
            // One scratch buffer, reused: the socket's buffer is borrowed while a datagram is
            // handled, and the handling needs the socket (to forward what falls due).
            let mut scratch = std::mem::take(&mut self.scratch);
            let mut from = None;
            if let Some((b, a)) = self.socket.wait(&clock, deadline).map_err(|e| e.to_string())? {
                scratch.clear();
                scratch.extend_from_slice(b);
                from = Some(a);
            }
            if let Some(a) = from {
                let now = clock.now();
                self.arrive(now, &scratch, a);
                // Whatever else is queued, at the same instant: up to BATCH datagrams, in
                // recvmmsg batches when available.
                match self.batch.take() {
                    Some(mut batch) => {
                        let mut left = BATCH - 1;
                        while left > 0 {
                            let n = batch.recv(&self.socket).map_err(|e| e.to_string())?;
                            for k in 0..n {
                                let (b, a) = batch.get(k);
                                self.arrive(now, b, a);
                            }
                            if n < crate::socket::RECV_BATCH {
                                break;
                            }
                            left = left.saturating_sub(n);
                        }
                        self.batch = Some(batch);
                    }
                    None => {
                        for _ in 1..BATCH {
                            let Some((b, a)) = self.socket.try_recv().map_err(|e| e.to_string())? else { break };
                            scratch.clear();
                            scratch.extend_from_slice(b);
                            self.arrive(now, &scratch, a);
                        }
                    }
                }
            }
            self.scratch = scratch;
        }
        Ok(self.stats())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protocol_sizes_leave_out_the_envelope_prefix_only() {
        let data = [&[envelope::KIND_DATA][..], &[0u8; 31], &[7u8; 1000]].concat();
        let control = [&[envelope::KIND_CONTROL][..], &[0u8; 4], &[7u8; 40]].concat();
        assert_eq!(link_size(&data, false), 1032);
        assert_eq!(link_size(&data, true), 1000);
        assert_eq!(link_size(&control, true), 40);
        // Not an envelope (a stranger's datagram): counted whole; an empty one still takes time.
        assert_eq!(link_size(&[0u8; 50], true), 50);
        assert_eq!(link_size(&[envelope::KIND_DATA; 3], true), 1);
    }
}
