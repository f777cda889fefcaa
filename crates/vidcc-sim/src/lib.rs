//! vidcc-sim: a deterministic packet-level discrete-event simulator that drives vidcc-core
//! endpoints over links, queues and loss models.

pub mod config;
pub mod loss;
pub mod queue;
pub mod rng;
pub mod tcp;
pub mod traffic;
