//! vidcc-net: the real-network driver. The one crate of vidcc that reads the wall clock or owns
//! sockets; it runs the very same sans-IO endpoints the simulator runs, built through
//! `vidcc_core::proto::registry`, over UDP.
//!
//! - [`clock`]: the wall clock on vidcc's integer time, precise waits;
//! - [`socket`]: the UDP socket (socket2), sleeping and busy-waiting receives, batches;
//! - [`envelope`]: the driver's framing (session, data packets' meta and send time);
//! - [`auth`]: optional HMAC-SHA256 of every envelope, keys per direction from a pre-shared key;
//! - [`guard`]: the window data envelopes' sequence and frame numbers are judged against;
//! - [`breaker`]: RFC 8083's report-based circuit breakers and the receiver report they read;
//! - [`driver`]: the endpoint loop, validation and counters, the rate cap;
//! - [`fuzzing`]: the fuzz targets' entry points (sender, receiver, relay) and their invariants;
//! - [`payload`]: real payload bytes (a prepared clip's encoded frames) for data packets;
//! - [`session`]: the offer/accept handshake, sender and receiver runs;
//! - [`record`]: the receiver's tables (the simulator's `flows`, `flow_summary`,
//!   `flow_samples`, `packets`, `frames`, `video_summary`);
//! - [`link`]: the emulated bottleneck relay (`vidcc link`), applying vidcc-core's queues and
//!   loss models in wall-clock time.

pub mod auth;
pub mod breaker;
pub mod clock;
pub mod driver;
pub mod envelope;
pub mod fuzzing;
pub mod guard;
pub mod link;
pub mod payload;
pub mod record;
pub mod session;
pub mod socket;

pub use driver::{Counters, Driver, NoObserver, Notice, Observer};
