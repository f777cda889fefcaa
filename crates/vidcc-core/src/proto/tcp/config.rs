//! [`TcpConfig`]: the ns-2 one-way TCP agent settings shared by every window-based sender built on
//! [`super::sender::TcpSender`] (Reno, NewReno, Westwood+ and GAIMD).

use serde::{Deserialize, Serialize};

/// ns-2 one-way TCP agent settings (docs/papers/dvrc.md §1.3: ns-2 defaults of the papers' era).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TcpConfig {
    /// Maximum congestion window in bytes (64 KB in every paper).
    pub max_window_bytes: u64,
    /// Initial congestion window in segments.
    pub initial_window: u32,
    pub min_rto_ns: u64,
    pub initial_rto_ns: u64,
    pub delayed_ack: bool,
    /// Limited transmit (RFC 3042, RFC 5681 §3.2; ns-2 `singledup_ 1`): one new segment on each of
    /// the first two duplicate ACKs.
    #[serde(default = "limited_transmit_default")]
    pub limited_transmit: bool,
    /// Bytes of application data to send, then stop (`None`: FTP, always backlogged).
    #[serde(default)]
    pub transfer_bytes: Option<u64>,
}

impl Default for TcpConfig {
    fn default() -> Self {
        TcpConfig {
            max_window_bytes: 64_000,
            initial_window: 2,
            min_rto_ns: 200_000_000,
            initial_rto_ns: 1_000_000_000,
            delayed_ack: false,
            limited_transmit: true,
            transfer_bytes: None,
        }
    }
}

fn limited_transmit_default() -> bool {
    TcpConfig::default().limited_transmit
}
