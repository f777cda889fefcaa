//! vidcc-core: sans-IO protocol state machines, wire formats, estimators and media models for
//! congestion-controlled video. Nothing here reads a clock, owns a socket, spawns a thread or
//! draws random numbers of its own: drivers pass time (and, where a protocol needs it,
//! a seeded RNG) in.
//!
//! The router queues (`queue/`) and link loss models (`loss/`) live here, not in the simulator,
//! because two drivers apply them: the simulator's links and `vidcc-net`'s emulated bottleneck
//! (`vidcc link`), which must drop exactly as a simulated link would.

pub mod endpoint;
pub mod estimate;
pub mod loss;
pub mod media;
pub mod proto;
pub mod queue;
pub mod rng;
pub mod table;
pub mod time;
pub mod units;
pub mod wire;

pub use endpoint::{
    Datagram, Destination, Endpoint, EndpointPair, EndpointStats, Event, FlowEndpoints, GroupId, Membership,
    PacketKind, PacketMeta, PeerId, Transmit,
};
pub use time::{Duration, Instant};
pub use units::{parse_duration, parse_rate, parse_size, DataRate, DataSize, UnitError};
