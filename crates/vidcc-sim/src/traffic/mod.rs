//! Traffic sources that are not protocols of their own.

pub mod pareto;
