//! Shared estimators, written once and used by every protocol that needs them.

pub mod ewma;
pub mod jitter;
pub mod loss_detect;
pub mod loss_events;
pub mod loss_intervals;
pub mod rate_meter;
pub mod rtcp_interval;
pub mod rtp_reception;
pub mod rtt;
pub mod tcp_model;
