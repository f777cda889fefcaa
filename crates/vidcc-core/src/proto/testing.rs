//! The protocols' shared test harness: time helpers, draining an endpoint, a two-endpoint
//! [`Pipe`] (an event loop over a link with delay, loss, duplication and reordering), and the
//! one generic property driver, [`drive_network`], that throws arbitrary network behaviour at a
//! sender and a receiver while the protocol's own [`Invariants`] watch; [`feed_garbage`] checks
//! that a parser rejects random bytes without panicking.
//!
//! A protocol's `tests.rs` imports what it needs (`use crate::proto::testing::*`) and adds only
//! what is its own: hand-made packets, its invariants, its configurations.

use std::collections::BinaryHeap;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use crate::endpoint::{Datagram, Endpoint, EndpointStats, Event, HeaderBuf, PacketKind, PeerId, Transmit};
use crate::time::{Duration, Instant};
use crate::wire::WireError;

// ---------------------------------------------------------------------------------------------
// Time and draining

/// The instant `x` milliseconds after time zero.
pub(crate) fn ms(x: u64) -> Instant {
    Instant::from_nanos(x * 1_000_000)
}

/// A span of `x` milliseconds.
pub(crate) fn millis(x: u64) -> Duration {
    Duration::from_millis(x)
}

/// Everything `e` wants to send at `now`.
pub(crate) fn drain<E: Endpoint + ?Sized>(e: &mut E, now: Instant) -> Vec<Transmit> {
    std::iter::from_fn(|| e.poll_transmit(now)).collect()
}

/// (sequence number, retransmission?) of everything `e` wants to send at `now`.
pub(crate) fn sent_seqs<E: Endpoint + ?Sized>(e: &mut E, now: Instant) -> Vec<(u64, bool)> {
    drain(e, now).iter().map(|t| (t.meta.seq, t.meta.retransmit)).collect()
}

/// Every pending event of `e`.
pub(crate) fn events<E: Endpoint + ?Sized>(e: &mut E) -> Vec<Event> {
    std::iter::from_fn(|| e.poll_event()).collect()
}

/// Hands `t` to `e` as it would arrive from the peer: header bytes plus the virtual payload.
pub(crate) fn deliver<E: Endpoint + ?Sized>(e: &mut E, now: Instant, t: &Transmit) -> Result<(), WireError> {
    e.handle_datagram(now, Datagram { from: PeerId::PEER, bytes: t.header.as_slice(), virtual_payload: t.payload_len })
}

/// Hands `bytes` to `e` as a datagram from the peer with `virtual_payload` bytes after them.
pub(crate) fn receive<E: Endpoint + ?Sized>(
    e: &mut E,
    now: Instant,
    bytes: &[u8],
    virtual_payload: u32,
) -> Result<(), WireError> {
    e.handle_datagram(now, Datagram { from: PeerId::PEER, bytes, virtual_payload })
}

/// A boxed endpoint (what a protocol's `pair` returns) drives like the endpoint inside it.
impl<E: Endpoint + ?Sized> Endpoint for Box<E> {
    fn handle_datagram(&mut self, now: Instant, d: Datagram<'_>) -> Result<(), WireError> {
        (**self).handle_datagram(now, d)
    }
    fn handle_timeout(&mut self, now: Instant) {
        (**self).handle_timeout(now)
    }
    fn poll_transmit(&mut self, now: Instant) -> Option<Transmit> {
        (**self).poll_transmit(now)
    }
    fn poll_timeout(&self) -> Option<Instant> {
        (**self).poll_timeout()
    }
    fn poll_event(&mut self) -> Option<Event> {
        (**self).poll_event()
    }
    // Without this a boxed multicast receiver would answer the trait's default (no request).
    fn poll_membership(&mut self) -> Option<crate::endpoint::Membership> {
        (**self).poll_membership()
    }
    fn enable_media_reports(&mut self) {
        (**self).enable_media_reports()
    }
    fn poll_media(&mut self) -> Option<crate::media::report::MediaReport> {
        (**self).poll_media()
    }
    fn stats(&self) -> EndpointStats {
        (**self).stats()
    }
}

// ---------------------------------------------------------------------------------------------
// The pipe: a sender and a receiver over a link, run as a small event loop

/// What the link does to one datagram (both directions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fate {
    Lost,
    /// Arrives after this one-way delay.
    Delayed(Duration),
    /// Arrives twice: after the delay and 1 ms later.
    Duplicated(Duration),
    /// Arrives 300 ms later than the delay says: datagrams sent after it overtake it.
    HeldBack(Duration),
}

impl Fate {
    /// Any fate with a delay below 200 ms.
    pub(crate) fn any() -> impl Strategy<Value = Fate> {
        (0u8..4, 0u64..200).prop_map(|(kind, delay)| {
            let delay = millis(delay);
            match kind {
                0 => Fate::Lost,
                1 => Fate::Delayed(delay),
                2 => Fate::Duplicated(delay),
                _ => Fate::HeldBack(delay),
            }
        })
    }

    /// When the copies of a datagram sent at `now` arrive (none if lost).
    fn arrivals(self, now: Instant) -> Vec<Instant> {
        match self {
            Fate::Lost => vec![],
            Fate::Delayed(d) => vec![now + d],
            Fate::Duplicated(d) => vec![now + d, now + d + millis(1)],
            Fate::HeldBack(d) => vec![now + d + millis(300)],
        }
    }
}

/// A datagram on its way: arrival time, then the order it was sent in (a tie-breaker that
/// keeps equal arrival times first-in, first-out).
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct InFlight {
    at: std::cmp::Reverse<(Instant, u64)>,
    header: [u8; crate::endpoint::MAX_HEADER_BYTES],
    len: u8,
    payload: u32,
}

/// One direction of the link, earliest arrival first.
#[derive(Default)]
struct Lane {
    queue: BinaryHeap<InFlight>,
    sent: u64,
}

impl Lane {
    fn push(&mut self, at: Instant, t: &Transmit) {
        let mut header = [0; crate::endpoint::MAX_HEADER_BYTES];
        header[..t.header.len()].copy_from_slice(t.header.as_slice());
        let at = std::cmp::Reverse((at, self.sent));
        self.sent += 1;
        self.queue.push(InFlight { at, header, len: t.header.len() as u8, payload: t.payload_len });
    }
    fn next_arrival(&self) -> Option<Instant> {
        self.queue.peek().map(|p| p.at.0 .0)
    }
    fn pop_due(&mut self, now: Instant) -> Option<(HeaderBuf, u32)> {
        if self.next_arrival()? > now {
            return None;
        }
        let p = self.queue.pop()?;
        Some((HeaderBuf::from_slice(&p.header[..p.len as usize]), p.payload))
    }
}

/// A sender `s` and a receiver `r` joined by a link with no bandwidth limit. By default every
/// datagram arrives `rtt / 2` after it left; [`Pipe::drop_first`] loses chosen data segments,
/// [`Pipe::with_fates`] gives each datagram in turn a [`Fate`] instead.
///
/// The loop checks what every driver may rely on: the peer's datagrams are accepted, no timer
/// asks for a time already past, and the loop reaches its end (an endpoint that keeps asking to
/// be woken at the same instant is caught).
pub(crate) struct Pipe<S, R> {
    pub(crate) s: S,
    pub(crate) r: R,
    pub(crate) now: Instant,
    one_way: Duration,
    fwd: Lane,
    rev: Lane,
    /// Data segments whose first transmission is dropped.
    drop_first: Vec<u64>,
    /// Data segments dropped by `drop_first`, in the order they were sent.
    pub(crate) dropped: Vec<u64>,
    fates: Vec<Fate>,
    next_fate: usize,
    /// The sender's events, with the time they were collected.
    pub(crate) events: Vec<(Instant, Event)>,
    /// The receiver's events, with the time they were collected.
    pub(crate) receiver_events: Vec<(Instant, Event)>,
}

impl<S: Endpoint, R: Endpoint> Pipe<S, R> {
    /// A lossless link with round-trip time `rtt`.
    pub(crate) fn new(s: S, r: R, rtt: Duration) -> Self {
        Pipe {
            s,
            r,
            now: Instant::ZERO,
            one_way: rtt / 2,
            fwd: Lane::default(),
            rev: Lane::default(),
            drop_first: vec![],
            dropped: vec![],
            fates: vec![],
            next_fate: 0,
            events: vec![],
            receiver_events: vec![],
        }
    }

    /// Loses the first transmission of each of these data segments (retransmissions pass).
    pub(crate) fn drop_first(mut self, seqs: &[u64]) -> Self {
        self.drop_first = seqs.to_vec();
        self
    }

    /// Datagrams (both directions, in the order they are sent) meet these fates, cycling.
    pub(crate) fn with_fates(mut self, fates: &[Fate]) -> Self {
        assert!(!fates.is_empty(), "a pipe needs at least one fate");
        self.fates = fates.to_vec();
        self
    }

    fn fate(&mut self) -> Fate {
        if self.fates.is_empty() {
            return Fate::Delayed(self.one_way);
        }
        let f = self.fates[self.next_fate % self.fates.len()];
        self.next_fate += 1;
        f
    }

    fn flush(&mut self) {
        while let Some(t) = self.s.poll_transmit(self.now) {
            if t.meta.kind == PacketKind::Data && !t.meta.retransmit && self.drop_first.contains(&t.meta.seq) {
                self.dropped.push(t.meta.seq);
                continue;
            }
            for at in self.fate().arrivals(self.now) {
                self.fwd.push(at, &t);
            }
        }
        while let Some(t) = self.r.poll_transmit(self.now) {
            for at in self.fate().arrivals(self.now) {
                self.rev.push(at, &t);
            }
        }
        while let Some(e) = self.s.poll_event() {
            self.events.push((self.now, e));
        }
        while let Some(e) = self.r.poll_event() {
            self.receiver_events.push((self.now, e));
        }
    }

    /// Runs the loop until `end` (the clock then reads `end`).
    pub(crate) fn run_until(&mut self, end: Instant) {
        for _ in 0..50_000_000u64 {
            self.flush();
            for (side, t) in [("sender", self.s.poll_timeout()), ("receiver", self.r.poll_timeout())] {
                assert!(t.is_none_or(|t| t >= self.now), "{side} timer {t:?} is in the past of {}", self.now);
            }
            let next = [self.fwd.next_arrival(), self.rev.next_arrival(), self.s.poll_timeout(), self.r.poll_timeout()]
                .into_iter()
                .flatten()
                .min();
            match next {
                Some(t) if t <= end => self.now = t,
                _ => {
                    self.now = end;
                    return;
                }
            }
            while let Some((h, len)) = self.fwd.pop_due(self.now) {
                let from = self.now;
                receive(&mut self.r, from, h.as_slice(), len).expect("the receiver rejected the sender's datagram");
                self.flush();
            }
            while let Some((h, len)) = self.rev.pop_due(self.now) {
                let from = self.now;
                receive(&mut self.s, from, h.as_slice(), len).expect("the sender rejected the receiver's datagram");
                self.flush();
            }
            if self.s.poll_timeout().is_some_and(|t| t <= self.now) {
                self.s.handle_timeout(self.now);
            }
            if self.r.poll_timeout().is_some_and(|t| t <= self.now) {
                self.r.handle_timeout(self.now);
            }
        }
        panic!("event loop did not reach {end}");
    }
}

// ---------------------------------------------------------------------------------------------
// Datagrams in flight as a bag: any of them may be delivered, dropped or duplicated next

/// Datagrams in flight one way: header and virtual payload length.
pub(crate) type Bag = Vec<(HeaderBuf, u32)>;

/// The `i`-th datagram in flight (modulo the count), removed unless `keep` (a duplicate stays
/// in flight); `None` if nothing is in flight. Taking any index, not just the first, reorders.
pub(crate) fn take(bag: &mut Bag, i: u8, keep: bool) -> Option<(HeaderBuf, u32)> {
    if bag.is_empty() {
        return None;
    }
    let i = i as usize % bag.len();
    Some(if keep { bag[i] } else { bag.remove(i) })
}

// ---------------------------------------------------------------------------------------------
// The property driver

/// Which way a datagram travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Way {
    /// Sender to receiver (data).
    Forward,
    /// Receiver to sender (feedback).
    Back,
}

/// One thing an arbitrary network (and an imperfect driver) does.
#[derive(Clone, Copy, Debug)]
pub(crate) enum NetOp {
    /// The clock moves on by this many µs.
    Advance(u64),
    /// The driver's clock goes back by this many µs (never below zero): endpoints must cope.
    Rewind(u64),
    /// Both endpoints are woken whether or not a timer is due.
    Wake,
    /// The i-th datagram in flight (modulo the count) arrives: any order, so reordering.
    Deliver(Way, u8),
    /// The i-th datagram in flight is lost.
    Drop(Way, u8),
    /// A copy of the i-th datagram in flight arrives; the original stays in flight.
    Duplicate(Way, u8),
}

/// How far the clock may jump in one step, forwards and backwards.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Clock {
    pub(crate) max_advance: Duration,
    pub(crate) max_rewind: Duration,
}

/// `count` arbitrary network steps (`count` is a range such as `0..400`).
pub(crate) fn net_ops(clock: Clock, count: std::ops::Range<usize>) -> impl Strategy<Value = Vec<NetOp>> {
    let advance = clock.max_advance.as_nanos() / 1000 + 1;
    assert!(clock.max_rewind > Duration::ZERO, "every driver's clock may go back a little");
    let rewind = clock.max_rewind.as_nanos() / 1000 + 1;
    let way = prop_oneof![Just(Way::Forward), Just(Way::Back)];
    let op = prop_oneof![
        4 => (0..advance).prop_map(NetOp::Advance),
        1 => (1..rewind).prop_map(NetOp::Rewind),
        1 => Just(NetOp::Wake),
        8 => (way.clone(), any::<u8>()).prop_map(|(w, i)| NetOp::Deliver(w, i)),
        2 => (way.clone(), any::<u8>()).prop_map(|(w, i)| NetOp::Drop(w, i)),
        2 => (way, any::<u8>()).prop_map(|(w, i)| NetOp::Duplicate(w, i)),
    ];
    proptest::collection::vec(op, count)
}

/// What a protocol checks while [`drive_network`] runs it; every hook defaults to "fine".
pub(crate) trait Invariants<S, R> {
    /// A datagram the sender just emitted, before it enters the network.
    fn sender_sent(&mut self, _s: &S, _t: &Transmit) -> Result<(), TestCaseError> {
        Ok(())
    }
    /// A datagram the receiver just emitted.
    fn receiver_sent(&mut self, _r: &R, _t: &Transmit) -> Result<(), TestCaseError> {
        Ok(())
    }
    fn sender_event(&mut self, _e: Event) -> Result<(), TestCaseError> {
        Ok(())
    }
    fn receiver_event(&mut self, _e: Event) -> Result<(), TestCaseError> {
        Ok(())
    }
    /// The state of both sides after every step.
    fn after_step(&mut self, _s: &S, _r: &R) -> Result<(), TestCaseError> {
        Ok(())
    }
}

/// Datagrams in flight one way beyond this are lost, oldest first (keeps long runs bounded).
const MAX_IN_FLIGHT: usize = 300;

/// Wakes `e` while a timer is due at `now`, sending what it releases each time; fails if it is
/// still due after many wake-ups (a driver would spin at `now` for ever).
fn fire_due<E: Endpoint>(
    side: &str,
    e: &mut E,
    now: Instant,
    mut send: impl FnMut(&E, Transmit) -> Result<(), TestCaseError>,
) -> Result<(), TestCaseError> {
    for _ in 0..64 {
        if e.poll_timeout().is_none_or(|t| t > now) {
            return Ok(());
        }
        e.handle_timeout(now);
        while let Some(t) = e.poll_transmit(now) {
            send(e, t)?;
        }
    }
    let due = e.poll_timeout();
    Err(TestCaseError::fail(format!("the {side}'s timer ({due:?}) stays due at {now} however often it is handled")))
}

/// Runs `s` and `r` through `ops`: datagrams are delivered in any order, lost, duplicated; the
/// clock jumps, and may go back; endpoints are woken when a timer is due and sometimes when
/// none is. Checks, for every protocol, that the peer's datagrams are always accepted, that a
/// receiver sends only feedback, and that a handled timer does not stay due; `check` adds the
/// protocol's own invariants.
pub(crate) fn drive_network<S: Endpoint, R: Endpoint>(
    s: &mut S,
    r: &mut R,
    ops: &[NetOp],
    check: &mut impl Invariants<S, R>,
) -> Result<(), TestCaseError> {
    let (mut fwd, mut back): (Bag, Bag) = (vec![], vec![]);
    let mut now = Instant::ZERO;
    for &op in ops {
        match op {
            NetOp::Advance(us) => now += Duration::from_micros(us),
            NetOp::Rewind(us) => now = Instant::from_nanos(now.as_nanos().saturating_sub(us * 1000)),
            NetOp::Wake => {
                s.handle_timeout(now);
                r.handle_timeout(now);
            }
            NetOp::Deliver(way, i) | NetOp::Duplicate(way, i) => {
                let keep = matches!(op, NetOp::Duplicate(..));
                match way {
                    Way::Forward => {
                        if let Some((h, len)) = take(&mut fwd, i, keep) {
                            let d = receive(r, now, h.as_slice(), len);
                            prop_assert!(d.is_ok(), "the receiver rejected the sender's datagram: {:?}", d);
                        }
                    }
                    Way::Back => {
                        if let Some((h, len)) = take(&mut back, i, keep) {
                            let d = receive(s, now, h.as_slice(), len);
                            prop_assert!(d.is_ok(), "the sender rejected the receiver's datagram: {:?}", d);
                        }
                    }
                }
            }
            NetOp::Drop(way, i) => {
                take(if way == Way::Forward { &mut fwd } else { &mut back }, i, false);
            }
        }
        fire_due("sender", s, now, |s, t| {
            check.sender_sent(s, &t)?;
            fwd.push((t.header, t.payload_len));
            Ok(())
        })?;
        fire_due("receiver", r, now, |r, t| {
            prop_assert_eq!(t.meta.kind, PacketKind::Control, "a receiver sends feedback, never data");
            check.receiver_sent(r, &t)?;
            back.push((t.header, t.payload_len));
            Ok(())
        })?;
        while let Some(t) = s.poll_transmit(now) {
            check.sender_sent(s, &t)?;
            fwd.push((t.header, t.payload_len));
        }
        while let Some(t) = r.poll_transmit(now) {
            prop_assert_eq!(t.meta.kind, PacketKind::Control, "a receiver sends feedback, never data");
            check.receiver_sent(r, &t)?;
            back.push((t.header, t.payload_len));
        }
        while let Some(e) = s.poll_event() {
            check.sender_event(e)?;
        }
        while let Some(e) = r.poll_event() {
            check.receiver_event(e)?;
        }
        for bag in [&mut fwd, &mut back] {
            if bag.len() > MAX_IN_FLIGHT {
                bag.drain(..bag.len() - MAX_IN_FLIGHT);
            }
        }
        check.after_step(s, r)?;
    }
    Ok(())
}

/// Whether an endpoint counts the datagrams it rejects in `EndpointStats::malformed_datagrams`
/// (most do; a few senders leave the count to their driver).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rejections {
    Counted,
    NotCounted,
}

/// Hands `e` a datagram of random `bytes` (plus `extra` virtual payload bytes): it may accept
/// or reject it but must not panic; an acceptance is never counted as malformed, a rejection
/// is counted exactly once if `rejections` says the endpoint counts them, else not at all.
pub(crate) fn feed_garbage<E: Endpoint + ?Sized>(
    e: &mut E,
    now: Instant,
    bytes: &[u8],
    extra: u32,
    rejections: Rejections,
) -> Result<(), TestCaseError> {
    let before = e.stats().malformed_datagrams;
    let accepted = receive(e, now, bytes, extra).is_ok();
    let counted = e.stats().malformed_datagrams - before;
    let expected = u64::from(!accepted && rejections == Rejections::Counted);
    prop_assert_eq!(counted, expected, "accepted {}, counted {} as malformed", accepted, counted);
    Ok(())
}

/// Random datagram contents: up to 64 header bytes and a virtual payload.
pub(crate) fn garbage() -> impl Strategy<Value = (Vec<u8>, u32)> {
    (proptest::collection::vec(any::<u8>(), 0..64), 0u32..2000)
}

// ---------------------------------------------------------------------------------------------
// The fan-out: one sender and several receivers, for multicast protocols

/// Where a datagram in a [`Fanout`] is going.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum FanoutHop {
    ToReceiver(usize),
    ToSender(usize),
}

/// A datagram in a [`Fanout`]: arrival, send order, where to, header bytes and length, payload.
type FanoutDatagram = (Instant, u64, FanoutHop, [u8; crate::endpoint::MAX_HEADER_BYTES], u8, u32);

/// A sender `s` and receivers `rs`, receiver i being the sender's `PeerId(i)` and `one_way[i]`
/// away in both directions, with no bandwidth limit. A datagram to a group reaches every
/// receiver that joined it (through `poll_membership`, at once) and `lose(i, seq)` does not
/// drop (called for data packets only, with the data sequence number); one to a peer reaches
/// that receiver; feedback reaches the sender, naming its receiver.
///
/// Like [`Pipe`], the loop checks that every peer's datagram is accepted and no timer asks
/// for a time already past.
pub(crate) struct Fanout<S, R> {
    pub(crate) s: S,
    pub(crate) rs: Vec<R>,
    pub(crate) now: Instant,
    one_way: Vec<Duration>,
    lose: Box<dyn Fn(usize, u64) -> bool>,
    joined: Vec<Vec<crate::endpoint::GroupId>>,
    queue: BinaryHeap<std::cmp::Reverse<FanoutDatagram>>,
    sent: u64,
    /// The sender's events, with the time they were collected.
    pub(crate) events: Vec<(Instant, Event)>,
}

impl<S: Endpoint, R: Endpoint> Fanout<S, R> {
    pub(crate) fn new(s: S, rs: Vec<R>, one_way: &[Duration], lose: impl Fn(usize, u64) -> bool + 'static) -> Self {
        assert_eq!(rs.len(), one_way.len(), "one delay per receiver");
        let n = rs.len();
        Fanout {
            s,
            rs,
            now: Instant::ZERO,
            one_way: one_way.to_vec(),
            lose: Box::new(lose),
            joined: vec![vec![]; n],
            queue: BinaryHeap::new(),
            sent: 0,
            events: vec![],
        }
    }

    fn push(&mut self, hop: FanoutHop, delay: Duration, t: &Transmit) {
        let mut h = [0; crate::endpoint::MAX_HEADER_BYTES];
        h[..t.header.len()].copy_from_slice(t.header.as_slice());
        self.sent += 1;
        self.queue.push(std::cmp::Reverse((self.now + delay, self.sent, hop, h, t.header.len() as u8, t.payload_len)));
    }

    fn flush(&mut self) {
        use crate::endpoint::{Destination, Membership};
        for (i, r) in self.rs.iter_mut().enumerate() {
            while let Some(m) = r.poll_membership() {
                match m {
                    Membership::Join(g) if !self.joined[i].contains(&g) => self.joined[i].push(g),
                    Membership::Join(_) => {}
                    Membership::Leave(g) => self.joined[i].retain(|&x| x != g),
                }
            }
        }
        while let Some(t) = self.s.poll_transmit(self.now) {
            let to: Vec<usize> = match t.to {
                Destination::Peer(p) => vec![p.0 as usize],
                Destination::Group(g) => (0..self.rs.len()).filter(|&i| self.joined[i].contains(&g)).collect(),
            };
            for i in to {
                if t.meta.kind == PacketKind::Data && (self.lose)(i, t.meta.seq) {
                    continue;
                }
                self.push(FanoutHop::ToReceiver(i), self.one_way[i], &t);
            }
        }
        for i in 0..self.rs.len() {
            while let Some(t) = self.rs[i].poll_transmit(self.now) {
                assert_eq!(t.to, Destination::PEER, "a receiver sends to its sender");
                self.push(FanoutHop::ToSender(i), self.one_way[i], &t);
            }
        }
        while let Some(e) = self.s.poll_event() {
            self.events.push((self.now, e));
        }
    }

    /// Runs the loop until `end` (the clock then reads `end`).
    pub(crate) fn run_until(&mut self, end: Instant) {
        for _ in 0..50_000_000u64 {
            self.flush();
            let timers = std::iter::once(self.s.poll_timeout()).chain(self.rs.iter().map(|r| r.poll_timeout()));
            let mut next = self.queue.peek().map(|p| p.0 .0);
            for t in timers.flatten() {
                assert!(t >= self.now, "timer {t} is in the past of {}", self.now);
                next = Some(next.map_or(t, |n| n.min(t)));
            }
            match next {
                Some(t) if t <= end => self.now = t,
                _ => {
                    self.now = end;
                    return;
                }
            }
            while self.queue.peek().is_some_and(|p| p.0 .0 <= self.now) {
                let std::cmp::Reverse((_, _, hop, h, len, payload)) = self.queue.pop().expect("peeked");
                let bytes = &h[..len as usize];
                match hop {
                    FanoutHop::ToReceiver(i) => {
                        let d = Datagram { from: PeerId::PEER, bytes, virtual_payload: payload };
                        self.rs[i].handle_datagram(self.now, d).expect("a receiver rejected the sender's datagram");
                    }
                    FanoutHop::ToSender(i) => {
                        let d = Datagram { from: PeerId(i as u32), bytes, virtual_payload: payload };
                        self.s.handle_datagram(self.now, d).expect("the sender rejected a receiver's datagram");
                    }
                }
                self.flush();
            }
            if self.s.poll_timeout().is_some_and(|t| t <= self.now) {
                self.s.handle_timeout(self.now);
            }
            for r in &mut self.rs {
                if r.poll_timeout().is_some_and(|t| t <= self.now) {
                    r.handle_timeout(self.now);
                }
            }
        }
        panic!("event loop did not reach {end}");
    }
}
