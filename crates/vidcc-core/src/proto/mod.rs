//! Protocols: one folder each, a sans-IO `Sender`/`Receiver` pair with its configuration.

pub mod udp;
