//! The sans-IO endpoint contract (DESIGN.md, "The core contract").
//!
//! Every protocol is a pair of state machines that never read a clock and never touch a socket.
//! A driver (the simulator, the UDP runtime, a unit test) feeds them datagrams and timeouts with
//! an explicit `now`, and drains what they want to send:
//!
//! ```text
//!   loop {
//!       on datagram:  ep.handle_datagram(now, datagram)   // errors are counted and dropped
//!       on deadline:  ep.handle_timeout(now)              // deadline = ep.poll_timeout()
//!       while let Some(t) = ep.poll_transmit(now) { send(t) }
//!       while let Some(e) = ep.poll_event() { record(e) }
//!       while let Some(m) = ep.poll_membership() { join_or_leave(m) }   // multicast receivers
//!       while let Some(r) = ep.poll_media() { judge(r) }   // video senders, once enabled
//!   }
//! ```
//!
//! A flow is one sender and one or more receivers ([`FlowEndpoints`]). A transmit names its
//! [`Destination`]: a peer (a receiver's only peer is its sender; the sender tells receivers
//! apart by [`PeerId`]) or one of the flow's multicast groups; a received datagram names the
//! peer it came from. Unicast protocols only ever use [`Destination::PEER`] and [`PeerId::PEER`].
//!
//! A datagram is header bytes that are really encoded and parsed, plus a payload that may be
//! virtual: the simulator never materialises payload bytes, it only carries their length.

use crate::media::report::MediaReport;
use crate::time::{Duration, Instant};
use crate::units::{DataRate, DataSize};
use crate::wire::WireError;

/// Identifies the remote endpoint a datagram came from or goes to. A flow is one sender and one
/// or more receivers: a receiver's only peer is the sender ([`PeerId::PEER`]); the sender tells
/// its receivers apart by their ids, `PeerId(0)` … `PeerId(n − 1)` in the order the driver built
/// them. A unicast flow has one receiver, so both ends only ever use [`PeerId::PEER`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PeerId(pub u32);

impl PeerId {
    /// The one peer of a unicast endpoint (and a receiver's sender).
    pub const PEER: PeerId = PeerId(0);
    /// At a receiver: a datagram that another receiver of the flow sent to a group this one is
    /// in (a report multicast to the group, RTCP-style); its bytes say who sent it.
    pub const GROUP_MEMBER: PeerId = PeerId(u32::MAX);
}

/// A multicast group of a flow: one per cumulative layer or simulcast stream, numbered by the
/// protocol from 0. Drivers map a flow's groups to their own addresses or distribution trees.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GroupId(pub u32);

/// Where a datagram goes: one peer, or every current member of one of the flow's groups.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Destination {
    Peer(PeerId),
    Group(GroupId),
}

impl Destination {
    /// The one peer of a unicast endpoint.
    pub const PEER: Destination = Destination::Peer(PeerId::PEER);
}

/// A receiver's request to start or stop getting a group's datagrams (IGMP-like): drained by the
/// driver with [`Endpoint::poll_membership`], which carries out the join or leave with whatever
/// latency its network has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Membership {
    Join(GroupId),
    Leave(GroupId),
}

/// Largest header any vidcc wire format emits. Headers live inline (no allocation per packet).
pub const MAX_HEADER_BYTES: usize = 64;

/// Encoded header bytes, stored inline.
#[derive(Clone, Copy)]
pub struct HeaderBuf {
    len: u8,
    bytes: [u8; MAX_HEADER_BYTES],
}

impl HeaderBuf {
    pub const fn new() -> Self {
        HeaderBuf { len: 0, bytes: [0; MAX_HEADER_BYTES] }
    }
    /// Copies `b` in. Panics if longer than [`MAX_HEADER_BYTES`]: that is a bug in an emitter,
    /// never something a peer can cause.
    pub fn from_slice(b: &[u8]) -> Self {
        let mut h = HeaderBuf::new();
        h.bytes[..b.len()].copy_from_slice(b);
        h.len = b.len() as u8;
        h
    }
    pub fn as_slice(&self) -> &[u8] {
        &self.bytes[..self.len as usize]
    }
    pub fn len(&self) -> usize {
        self.len as usize
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Mutable access to a fresh buffer of `len` bytes, for emitters that write in place.
    pub fn writer(len: usize) -> Self {
        assert!(len <= MAX_HEADER_BYTES, "header of {len} bytes exceeds MAX_HEADER_BYTES");
        HeaderBuf { len: len as u8, bytes: [0; MAX_HEADER_BYTES] }
    }
    pub fn bytes_mut(&mut self) -> &mut [u8] {
        &mut self.bytes[..self.len as usize]
    }
}

impl Default for HeaderBuf {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for HeaderBuf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "HeaderBuf({:02x?})", self.as_slice())
    }
}

/// What a packet carries, for accounting by drivers. Wire bytes stay the protocol's business;
/// this is how a driver knows which packets are the flow's data (throughput, drops, delay).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PacketKind {
    /// Application data travelling sender → receiver.
    #[default]
    Data,
    /// Feedback, acknowledgements, reports: anything that is not application data.
    Control,
}

/// Driver-visible facts about a packet (never read back by the protocol from the network).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PacketMeta {
    pub kind: PacketKind,
    /// Data sequence number in the flow's own numbering (for per-packet logs).
    pub seq: u64,
    /// True for a retransmitted copy (TCP), so drivers can tell goodput from throughput.
    pub retransmit: bool,
    /// The driver must not hold this packet back with the flow's send jitter: a TCP fast or
    /// partial-ACK retransmission, which ns-2 outputs at once (`output()`), outside the
    /// randomised delayed send of `overhead_` (`send_much`, tcp.cc).
    pub urgent: bool,
    /// Which frame, layer and fragment a media packet carries (`MediaTag::NONE` otherwise).
    pub media: crate::media::MediaTag,
}

impl PacketMeta {
    /// A data packet with no media tag.
    pub fn data(seq: u64) -> Self {
        PacketMeta {
            kind: PacketKind::Data,
            seq,
            retransmit: false,
            urgent: false,
            media: crate::media::MediaTag::NONE,
        }
    }
    /// A control packet (feedback, ACK).
    pub fn control() -> Self {
        PacketMeta {
            kind: PacketKind::Control,
            seq: 0,
            retransmit: false,
            urgent: false,
            media: crate::media::MediaTag::NONE,
        }
    }
}

impl Default for PacketMeta {
    fn default() -> Self {
        PacketMeta::data(0)
    }
}

/// A datagram an endpoint wants sent.
#[derive(Clone, Copy, Debug)]
pub struct Transmit {
    pub to: Destination,
    pub header: HeaderBuf,
    /// Payload bytes after the header. Virtual in simulation; filled by the application on a
    /// real socket.
    pub payload_len: u32,
    pub meta: PacketMeta,
}

impl Transmit {
    /// Bytes on the wire: what links serialise and queues count.
    pub fn wire_size(&self) -> DataSize {
        DataSize::from_bytes(self.header.len() as u64 + self.payload_len as u64)
    }
}

/// A received datagram: `bytes` are the bytes the driver has (the whole datagram on a socket,
/// the header alone in simulation); `virtual_payload` counts payload bytes that were never
/// materialised. Its wire size is `bytes.len() + virtual_payload`.
#[derive(Clone, Copy, Debug)]
pub struct Datagram<'a> {
    pub from: PeerId,
    pub bytes: &'a [u8],
    pub virtual_payload: u32,
}

impl Datagram<'_> {
    pub fn wire_size(&self) -> usize {
        self.bytes.len() + self.virtual_payload as usize
    }
}

/// News an endpoint reports to its driver: rare, state-level changes (never one per packet).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Event {
    /// The controller's allowed sending rate changed.
    RateChanged { rate: DataRate },
    /// A window-based controller's congestion window changed (bytes).
    WindowChanged { cwnd: DataSize },
    /// A loss event was detected (one per congestion signal, not per lost packet).
    LossEvent,
    /// A retransmission timeout (or a protocol's no-feedback timeout) fired.
    Timeout,
    /// The number of video layers (or the simulcast stream) in use changed.
    LayersChanged { layers: u8 },
    /// A loss event was classified (DVRC's AIAMD): `congestion` = true for a multiplicative
    /// decrease (congestive loss), false for an additive decrease (random loss).
    LossClassified { congestion: bool },
    /// A reliable in-order receiver (TCP) has handed every data packet of sequence number below
    /// `up_to` (`PacketMeta::seq`) to its application: the instant a video frame carried by such
    /// a flow becomes usable (head-of-line blocking included).
    Delivered { up_to: u64 },
    /// A multicast sender's rate of one of its groups (layer or simulcast stream) changed.
    GroupRateChanged { group: u8, rate: DataRate },
    /// A receiver's round-trip-time estimate, each time it uses one (e.g. SRAMT's one-way-delay
    /// RTT, once per RTT).
    RttEstimated { rtt: Duration },
    /// A multicast sender heard feedback (a report) from its receiver `peer` (`PeerId(peer)`).
    FeedbackReceived { peer: u32 },
}

/// Counters a driver can read at any time (used for goodput: application bytes, not wire bytes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EndpointStats {
    /// Application payload bytes handed up in order and without duplicates (receivers).
    pub app_bytes_delivered: u64,
    pub app_packets_delivered: u64,
    /// Datagrams rejected by the wire parser.
    pub malformed_datagrams: u64,
    /// Feedback datagrams (senders) with a claim that cannot be true, clamped or refused by
    /// [`crate::proto::plausible`]; the refused ones are among `malformed_datagrams` too.
    pub clamped_feedback: u64,
}

/// One side of a protocol. See the module docs for the driving loop.
pub trait Endpoint {
    /// Feeds a received datagram. A malformed one is an error for the driver to count; the
    /// endpoint's state is unchanged by it.
    fn handle_datagram(&mut self, now: Instant, datagram: Datagram<'_>) -> Result<(), WireError>;
    /// Called at (or after) the instant last returned by [`Endpoint::poll_timeout`].
    fn handle_timeout(&mut self, now: Instant);
    /// Next datagram to send at `now`, if any.
    fn poll_transmit(&mut self, now: Instant) -> Option<Transmit>;
    /// When the endpoint next wants [`Endpoint::handle_timeout`]; `None` if idle.
    fn poll_timeout(&self) -> Option<Instant>;
    /// Drains one pending event.
    fn poll_event(&mut self) -> Option<Event> {
        None
    }
    /// Drains one pending group join or leave (receivers of multicast protocols).
    fn poll_membership(&mut self) -> Option<Membership> {
        None
    }
    /// Asks a video sender to keep [`MediaReport`]s (what its application produced, what its
    /// buffer dropped: `media/report.rs`) for [`Endpoint::poll_media`]. Off by default, so a
    /// driver that does not judge production keeps nothing; other endpoints ignore it.
    fn enable_media_reports(&mut self) {}
    /// Drains one media report (video senders, once enabled).
    fn poll_media(&mut self) -> Option<MediaReport> {
        None
    }
    fn stats(&self) -> EndpointStats;
}

/// Both ends of a unicast flow, as built by a unicast protocol's constructor.
pub struct EndpointPair {
    pub sender: Box<dyn Endpoint + Send>,
    pub receiver: Box<dyn Endpoint + Send>,
}

/// Every endpoint of a flow: its sender and its receivers, `receivers[i]` being the sender's
/// `PeerId(i)`. What the protocol registry builds and drivers run.
pub struct FlowEndpoints {
    pub sender: Box<dyn Endpoint + Send>,
    pub receivers: Vec<Box<dyn Endpoint + Send>>,
}

impl From<EndpointPair> for FlowEndpoints {
    fn from(pair: EndpointPair) -> Self {
        FlowEndpoints { sender: pair.sender, receivers: vec![pair.receiver] }
    }
}

/// Spacing between packets of `size` at `rate` (zero rate: never).
pub fn packet_interval(rate: DataRate, size: DataSize) -> Duration {
    rate.transmission_time(size)
}
