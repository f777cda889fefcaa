//! Link loss models, attachable to one direction of a link: `bernoulli.rs`,
//! `gilbert_elliott.rs` (which also provides the DVRC digest's "correlated Bernoulli").
//!
//! A model is asked once per packet that finishes crossing the link, in order, and owns its own
//! random stream, so its decisions depend only on the seed and the packet sequence.

pub mod bernoulli;
pub mod gilbert_elliott;

pub trait LossModel: Send {
    /// Decides the fate of the next packet crossing the link.
    fn should_drop(&mut self) -> bool;
}
