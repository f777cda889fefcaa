//! The resolved simulation configuration: what `vidcc-py` hands the simulator after the Python
//! scenario schema has validated a TOML file and converted every quantity to base units
//! (nanoseconds, bit/s, bytes). Field names carry their unit suffix.
//!
//! This is the simulator's API, not the user's file format (that is `docs/scenarios.md`): it is
//! strict (`deny_unknown_fields`) and explicit, with few defaults.

use serde::Deserialize;

/// The TCP agents live in `vidcc_core::proto::tcp` (their window machinery is shared with GAIMD);
/// re-exported here so the resolved configuration keeps its shape.
pub use vidcc_core::proto::tcp::TcpConfig;

/// A flow's video and its protocol are built by vidcc-core (any driver builds them the same way);
/// re-exported here so the resolved configuration keeps its shape.
pub use vidcc_core::media::config::{PlayoutConfigSpec, TraceFormatSpec, VideoConfig, VideoModel};
pub use vidcc_core::proto::registry::ProtocolConfig;
/// The UDP kinds' configurations, for building a `ProtocolConfig` by hand.
pub use vidcc_core::proto::udp::{CbrConfig, ParetoConfig, VideoConfig as UdpVideoConfig};

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimConfig {
    pub duration_ns: u64,
    /// Statistics (summaries) ignore everything before this instant.
    pub warmup_ns: u64,
    pub seed: u64,
    /// Per-flow throughput / delay sampling interval.
    pub sample_interval_ns: u64,
    /// Queue-length sampling interval for monitored links.
    pub queue_sample_interval_ns: u64,
    /// Record one row per data packet (send time, arrival or drop). Off by default: big.
    #[serde(default)]
    pub packet_log: bool,
    pub topology: TopologyConfig,
    pub flows: Vec<FlowConfig>,
}

/// A value that is either fixed or drawn uniformly per instance from `[min, max]`
/// (integer base units, inclusive), from the topology's random stream.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(untagged)]
pub enum Spread {
    Fixed(u64),
    Uniform { min: u64, max: u64 },
}

#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum TopologyConfig {
    /// N sender nodes → access links → router L → bottleneck → router R → access links → N
    /// receivers. One pair per flow instance, in the order of `flows` (and `count`).
    Dumbbell {
        bottleneck: LinkConfig,
        /// Sender-side access links (L side).
        source_access: AccessConfig,
        /// Receiver-side access links (R side).
        sink_access: AccessConfig,
    },
    /// Routers R0 … R_hops joined by `hops` identical links (the parking lot / multi-hop chain).
    /// End-to-end flows attach at R0 and R_hops; per-hop flows get their own access nodes at
    /// R_i and R_{i+1} for every hop i.
    Chain { hops: u32, link: LinkConfig, source_access: AccessConfig, sink_access: AccessConfig },
    /// Explicit nodes and links.
    Graph { nodes: Vec<String>, links: Vec<GraphLink> },
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinkConfig {
    pub bandwidth_bps: u64,
    pub delay_ns: u64,
    pub queue: QueueConfig,
    /// Loss on the forward direction (left→right, or `a`→`b` in a graph).
    #[serde(default)]
    pub loss: Option<LossConfig>,
    /// Loss on the reverse direction.
    #[serde(default)]
    pub reverse_loss: Option<LossConfig>,
    /// Link-level retransmission: a lost transmission is repeated at once instead of dropped.
    #[serde(default)]
    pub arq: Option<ArqConfig>,
    /// Sample this link's queues (both directions).
    #[serde(default)]
    pub monitor: bool,
}

/// Link-level ARQ (docs/papers/qos-aimd.md's wireless hop, §2.2): each transmission attempt of a
/// packet occupies the link for one packet time ("slot") and meets the link's loss model (its
/// channel, advanced once per attempt); a failed attempt is repeated in the next slot, until
/// success (`persistent`) or `attempts` tries (`limited`, then the packet is lost). `optimal` is
/// persistent with a pause after each failed attempt (Zhang & Wasserman 2002, QoS-AIMD ref. [24]):
/// `slots` silent slots, or when `slots` is absent as many as [`crate::loss::optimal_pause`]
/// derives from the channel and `threshold`.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum ArqConfig {
    Persistent,
    Limited { attempts: u32 },
    Optimal { threshold: f64, slots: Option<u32> },
}

/// Access links, one per flow instance: bandwidth and delay may be spread per instance.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AccessConfig {
    pub bandwidth_bps: Spread,
    pub delay_ns: Spread,
    pub queue: QueueConfig,
    /// Loss on the forward direction: left to right, as on every other link (source side:
    /// edge → core; sink side: core → edge).
    #[serde(default)]
    pub loss: Option<LossConfig>,
    /// Loss on the reverse direction (right to left).
    #[serde(default)]
    pub reverse_loss: Option<LossConfig>,
    #[serde(default)]
    pub arq: Option<ArqConfig>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GraphLink {
    pub a: String,
    pub b: String,
    pub link: LinkConfig,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum QueueLimit {
    Packets(u64),
    Bytes(u64),
    /// Bandwidth × mean two-way propagation delay of the flows crossing the link, in packets of
    /// the largest data packet size among them, at least 10 packets (docs/papers/dvrc.md §2.4).
    Bdp,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum QueueConfig {
    #[serde(rename = "droptail")]
    DropTail { limit: QueueLimit },
    /// Floyd–Jacobson RED, gentle by default. Thresholds in packets (or bytes if `bytes`).
    Red {
        limit: QueueLimit,
        min_thresh: f64,
        max_thresh: f64,
        /// EWMA weight of the average queue.
        weight: f64,
        max_p: f64,
        gentle: bool,
        /// Count the queue in bytes rather than packets (ns-2 `bytes_`).
        bytes: bool,
        /// Packet size used to age the average across idle periods (ns-2 `mean_pktsize_`).
        mean_packet_bytes: u32,
        /// Spread early drops uniformly (ns-2 `wait_`).
        wait: bool,
    },
    /// Deficit Round Robin fair queueing (ns-2 `Queue/DRR`): per-flow buckets served round
    /// robin, `quantum` bytes of credit per turn, drops from the longest bucket.
    Drr { limit: QueueLimit, quantum: u32, buckets: u32, mask: bool },
    /// Stochastic Fairness Queueing (ns-2 `Queue/SFQ`): per-flow buckets served one packet per
    /// turn; `limit` in packets (or "bdp").
    Sfq { limit: QueueLimit, buckets: u32 },
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum LossConfig {
    /// Each packet lost independently with probability `p`.
    Bernoulli { p: f64 },
    /// Two-state Markov chain advanced per packet: Good→Bad with probability `p`, Bad→Good
    /// with `r`; a packet is lost with `loss_good` / `loss_bad` in the state it finds.
    GilbertElliott { p: f64, r: f64, loss_good: f64, loss_bad: f64 },
    /// docs/papers/dvrc.md A11: P(loss | previous delivered) = `p`, P(loss | previous lost) = `q`.
    CorrelatedBernoulli { p: f64, q: f64 },
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlowConfig {
    /// Name shown in tables (defaults to the protocol name on the Python side).
    pub label: String,
    pub protocol: ProtocolConfig,
    pub count: u32,
    /// Bytes on the wire of a full data packet, header included.
    pub packet_size_bytes: u32,
    pub start_ns: Spread,
    #[serde(default)]
    pub stop_ns: Option<u64>,
    pub placement: Placement,
    /// Random delay, uniform in [0, send_jitter_ns], between the sender emitting a data packet
    /// and the packet entering the network, keeping the sender's packets in order (ns-2
    /// `Agent/TCP overhead_`). Breaks DropTail phase effects between flows of identical RTT
    /// (Floyd & Jacobson 1992); 0 (the ns-2 default) turns it off. Packets the protocol marks
    /// urgent (TCP fast and partial-ACK retransmissions, which ns-2 sends outside `overhead_`)
    /// are not delayed.
    #[serde(default)]
    pub send_jitter_ns: u64,
    /// The flow's application is video (protocols that carry media: `udp`).
    #[serde(default)]
    pub video: Option<VideoConfig>,
    /// A multicast flow's receivers and group membership latencies (`None`: a unicast flow,
    /// whose one receiver is its placement's destination).
    #[serde(default)]
    pub multicast: Option<MulticastConfig>,
}

/// The receivers of a multicast flow (every instance of the flow has them all) and how long the
/// network takes to carry out a receiver's join or leave.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MulticastConfig {
    pub receivers: Vec<ReceiverConfig>,
    /// From a receiver's join request to the graft of its branch (packets reach it after).
    #[serde(default)]
    pub join_latency_ns: u64,
    /// From a receiver's leave request to the prune of its branch: until then the branch keeps
    /// carrying the group (the receiver's host no longer hands its packets up).
    #[serde(default)]
    pub leave_latency_ns: u64,
}

/// One receiver of a multicast flow.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReceiverConfig {
    /// Graph: the node it sits on (behind a private access link if the flow has `sink_access`).
    /// Dumbbell and chain: none (each receiver has its own access link at the far router).
    #[serde(default)]
    pub node: Option<String>,
    /// When it starts (joins); default: the flow instance's start.
    #[serde(default)]
    pub start_ns: Option<u64>,
    /// When it stops (leaves); default: never (the flow's stop ends the sender instead).
    #[serde(default)]
    pub stop_ns: Option<u64>,
    /// Which of the sender's groups it subscribes to (empty: the protocol decides).
    #[serde(default)]
    pub groups: Vec<u32>,
}

/// Where a flow's instances attach.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Placement {
    /// Dumbbell or chain end-to-end: each instance gets its own pair of access nodes.
    /// `reverse` sends from the right side to the left.
    EndToEnd { reverse: bool },
    /// Chain only: `count` instances on every hop.
    PerHop { reverse: bool },
    /// Graph only: between two named nodes. With `source_access` (`sink_access`), each instance
    /// gets a private edge node joined to `src` (`dst`) by its own access link, drawn per
    /// instance: `loss` on such a link is the direction away from the core on the sink side and
    /// towards it on the source side, i.e. the direction the flow's data travels.
    Nodes {
        src: String,
        dst: String,
        #[serde(default)]
        source_access: Option<Box<AccessConfig>>,
        #[serde(default)]
        sink_access: Option<Box<AccessConfig>>,
    },
    /// Graph only, multicast flows: the sender on `src`; each receiver names its node
    /// ([`ReceiverConfig::node`]). Access links as for [`Placement::Nodes`], one per receiver on
    /// the sink side.
    Tree {
        src: String,
        #[serde(default)]
        source_access: Option<Box<AccessConfig>>,
        #[serde(default)]
        sink_access: Option<Box<AccessConfig>>,
    },
}
