//! TCP Reno congestion control (RFC 5681 §3; ns-2 `Agent/TCP/Reno`, tcp-reno.cc), the papers'
//! FTP cross traffic.
//!
//! On the third duplicate ACK: ssthresh = max(FlightSize/2, 2) (RFC 5681 Eq. 4), retransmit the
//! first unacknowledged segment, cwnd = ssthresh and inflate the usable window by 3 plus one
//! per further duplicate ACK (the inflation lives in the shared sender as ns-2's `dupwnd_`).
//! The **first new ACK ends fast recovery**, whether or not it covers everything outstanding
//! when the loss was detected: the inflation is dropped, cwnd = ssthresh (then ns-2's usual
//! per-ACK increase for that ACK). A second loss in the same window therefore usually ends in
//! a timeout, the "coarse timeouts" the DVRC paper observes for Reno.
//!
//! On a retransmission timeout: ssthresh = max(FlightSize/2, 2), cwnd = 1 (RFC 5681 Eq. 4 and
//! §3.1; ns-2 `slowdown(CLOSE_SSTHRESH_HALF | CLOSE_CWND_RESTART)`).
//!
//! Parameters: none of its own (see [`super::sender`] for the shared ones).
//! Deviations: ns-2 halves min(cwnd, window_) rather than FlightSize (identical for a full
//! window); see [`super::sender`] for the rest.

use super::sender::{CongestionControl, PartialAck, Window};

/// Reno's reaction to loss, shared by NewReno and by Westwood+ outside its loss hooks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reno;

impl Reno {
    /// RFC 5681 Eq. (4): ssthresh = max(FlightSize / 2, 2 segments), in whole segments as ns-2
    /// (`int(window() / 2)`).
    pub fn ssthresh_after_loss(flight: u64) -> f64 {
        (flight / 2).max(2) as f64
    }
}

impl CongestionControl for Reno {
    fn on_fast_retransmit(&mut self, w: &mut Window, flight: u64) {
        w.ssthresh = Self::ssthresh_after_loss(flight);
        w.cwnd = w.ssthresh;
    }

    fn on_timeout(&mut self, w: &mut Window, flight: u64) {
        w.ssthresh = Self::ssthresh_after_loss(flight);
        w.cwnd = 1.0;
    }

    fn partial_ack(&self) -> PartialAck {
        PartialAck::ExitRecovery
    }
}
