//! vidcc-sim: a deterministic packet-level discrete-event simulator that drives vidcc-core
//! endpoints over links, queues and loss models.

pub mod config;
pub mod loss;
pub mod metrics;
pub mod queue;
pub mod rng;
pub mod routing;
pub mod scheduler;
pub mod sim;
pub mod topology;
pub mod traffic;
pub mod video;

pub use sim::{run_config, run_json, RunStats, SimError, SimOutput, Simulation};
