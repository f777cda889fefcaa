//! vidcc-sim: a deterministic packet-level discrete-event simulator that drives vidcc-core
//! endpoints over links, queues and loss models.
//!
//! - [`build`]: from the resolved configuration ([`config`]) to links, routes and endpoints;
//! - [`engine`]: the event loop and the endpoints' driver;
//! - [`forward`]: links, queues, loss models, link-level ARQ and hop-by-hop forwarding;
//! - [`record`]: the recorders, one per family of tables;
//! - [`packet`], [`scheduler`], [`topology`], [`routing`], [`queue`], [`loss`], [`metrics`].

pub mod build;
pub mod config;
pub mod engine;
pub mod forward;
pub mod loss;
pub mod metrics;
pub mod multicast;
pub mod packet;
pub mod queue;
pub mod record;
/// The seeded streams live in vidcc-core (protocols built by any driver draw from them).
pub use vidcc_core::rng;
pub mod routing;
pub mod scheduler;
pub mod topology;

pub use engine::{run_config, run_json, RunStats, SimError, SimOutput, Simulation};
