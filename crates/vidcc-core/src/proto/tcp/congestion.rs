//! The points where the TCP variants differ ([`CongestionControl`]) and what they are told: the
//! window they change ([`Window`]), each acceptable ACK ([`AckSample`]), what a partial ACK does
//! ([`PartialAck`]) and what follows a fast retransmission ([`AfterFastRetransmit`]). The shared
//! state machine that calls them is [`super::sender::TcpSender`].

use crate::{Duration, Instant};

/// Congestion window state in segments (fractional, like ns-2's `cwnd_`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Window {
    pub cwnd: f64,
    pub ssthresh: f64,
}

/// What one acceptable ACK tells a [`CongestionControl`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AckSample {
    pub now: Instant,
    /// Segments newly covered by the cumulative ACK; 0 for a duplicate ACK.
    pub newly_acked: u64,
    /// now − echoed timestamp, for ACKs that cover new data (RFC 7323 §4.1: duplicates give
    /// no sample). Unambiguous even after a retransmission: the echo names the copy that arrived.
    pub rtt: Option<Duration>,
}

/// What a new ACK below `recover` does during fast recovery.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartialAck {
    /// Reno (RFC 5681 §3.2 step 6): deflate and leave recovery on the first new ACK.
    ExitRecovery,
    /// NewReno (RFC 6582 §3.2 step 5): retransmit the next hole and stay in recovery.
    RetransmitAndStay,
}

/// What follows a fast retransmission.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AfterFastRetransmit {
    /// Reno and its descendants (RFC 5681 §3.2): retransmit the hole ahead of the window and
    /// inflate the window by the duplicate ACKs until recovery ends.
    FastRecovery,
    /// Tahoe (ns-2 `tahoe_action`): go back to the hole and slow-start from the cwnd the hook
    /// set, as after a timeout but with no backoff.
    SlowStart,
    /// SACK (RFC 6675, [`super::sack`]): retransmit the hole, then send what NextSeg names
    /// while cwnd − pipe ≥ 1, pipe computed from the SACK scoreboard.
    SackRecovery,
}

/// The points where the TCP variants differ. The sender clamps the window to
/// [1, window_limit] after each hook.
pub trait CongestionControl: Send + 'static {
    /// Every acceptable ACK (new or duplicate), before the sender reacts to it.
    fn on_ack(&mut self, _ack: &AckSample) {}
    /// Third duplicate ACK: set ssthresh and cwnd for fast recovery. `w.cwnd` is the window to
    /// reduce: the congestion window without fast-recovery inflation (ns-2 `windowd()`, in
    /// which `dupwnd_` is 0 at that point), never above the window limit.
    fn on_fast_retransmit(&mut self, w: &mut Window);
    /// Retransmission timeout: set ssthresh and cwnd. `w.cwnd` is again the window without the
    /// inflation (ns-2's Reno zeroes `dupwnd_` before `slowdown()`), as NewReno's partial ACKs
    /// left it: never `snd_nxt − snd_una`, which new data sent during a long recovery can push
    /// to several windows.
    fn on_timeout(&mut self, w: &mut Window);
    /// Reaction to a partial ACK during fast recovery.
    fn partial_ack(&self) -> PartialAck;
    /// Fast recovery (the default) or Tahoe's slow start after a fast retransmission.
    fn after_fast_retransmit(&self) -> AfterFastRetransmit {
        AfterFastRetransmit::FastRecovery
    }
    /// Congestion-avoidance growth of cwnd per new ACK, in segments: 1/cwnd for TCP (one
    /// segment per RTT, RFC 5681 §3.1); GAIMD grows by α/cwnd.
    fn congestion_avoidance_increase(&self, cwnd: f64) -> f64 {
        1.0 / cwnd
    }
}
