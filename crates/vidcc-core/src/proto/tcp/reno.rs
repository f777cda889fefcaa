//! TCP Reno congestion control (RFC 5681 §3; ns-2 `Agent/TCP/Reno`, tcp-reno.cc), the papers'
//! FTP cross traffic.
//!
//! Let W be the congestion window without fast-recovery inflation, capped by the window limit
//! (ns-2 `windowd()` = min(cwnd_, window_) at the moment it reduces, `dupwnd_` being 0 then).
//!
//! On the third duplicate ACK: ssthresh = max(⌊W/2⌋, 2), cwnd = W/2 (ns-2
//! `slowdown(CLOSE_SSTHRESH_HALF | CLOSE_CWND_HALF)` with its default `precisionReduce_ 1`:
//! `ssthresh_ = int(windowd()/2)`, `cwnd_ = windowd()/2`), retransmit the first
//! unacknowledged segment and inflate the usable window by 3 plus one per further duplicate ACK
//! (the inflation lives in the shared sender as ns-2's `dupwnd_`). The **first new ACK ends
//! fast recovery**, whether or not it covers everything outstanding when the loss was
//! detected: the inflation is dropped (then ns-2's usual per-ACK increase for that ACK). A
//! second loss in the same window therefore usually ends in a timeout, the "coarse timeouts"
//! the DVRC paper observes for Reno.
//!
//! On a retransmission timeout: ssthresh = max(⌊W/2⌋, 2), cwnd = 1 (ns-2
//! `slowdown(CLOSE_SSTHRESH_HALF | CLOSE_CWND_RESTART)`, `wnd_restart_` 1).
//!
//! Parameters: none of its own (see [`super::sender`] for the shared ones).
//! Deviations: RFC 5681 Eq. (4) halves FlightSize (snd_nxt − snd_una); ns-2, which the papers
//! ran, halves W, and so does this agent. The two differ whenever the window is not full, and
//! badly after a NewReno recovery that sent new data for several RTTs (FlightSize then spans
//! several windows: halving it sent slow start far past what the path holds, the cause of the
//! timeout cycles of issue 13). See [`super::sender`] for the rest.

use super::sender::{CongestionControl, PartialAck, Window};

/// Reno's reaction to loss, shared by NewReno and by Westwood+ outside its loss hooks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reno;

impl Reno {
    /// ns-2 `ssthresh_ = int(windowd() / 2)`, at least 2 segments: W = the congestion window
    /// without inflation, in segments.
    pub fn ssthresh_after_loss(window: f64) -> f64 {
        (window / 2.0).floor().max(2.0)
    }
}

impl CongestionControl for Reno {
    fn on_fast_retransmit(&mut self, w: &mut Window) {
        let window = w.cwnd;
        w.ssthresh = Self::ssthresh_after_loss(window);
        w.cwnd = window / 2.0;
    }

    fn on_timeout(&mut self, w: &mut Window) {
        w.ssthresh = Self::ssthresh_after_loss(w.cwnd);
        w.cwnd = 1.0;
    }

    fn partial_ack(&self) -> PartialAck {
        PartialAck::ExitRecovery
    }
}
