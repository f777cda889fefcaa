//! TCP NewReno (RFC 6582; ns-2 `Agent/TCP/Newreno`, tcp-newreno.cc): Reno whose fast recovery
//! survives several losses in one window.
//!
//! Entering fast recovery is Reno's (ssthresh = max(⌊W/2⌋, 2), cwnd = W/2 with W the window
//! without inflation, inflate by 3), and the shared sender records `recover` = the highest
//! segment sent so far. Then (RFC 6582 §3.2, as ns-2 2.35's defaults run it):
//! - a **partial ACK** (new data acknowledged, but not `recover`) retransmits the first
//!   unacknowledged segment at once, deflates the window by the amount acknowledged and adds
//!   one segment back, and **stays in fast recovery**. The deflation comes out of the inflation
//!   first and then out of cwnd itself (ns-2 `partial_window_deflation_ 1`), so that cwnd, and
//!   what a later timeout halves, shrinks as a long recovery drains the window. Only the first
//!   partial ACK restarts the retransmission timer (the "Impatient" variant of §4; ns-2
//!   `newreno_changes1_ 1`, the 2.35 default in ns-default.tcl, whatever the C++ constructor
//!   initialises);
//! - a **full ACK** (covering `recover`) ends recovery: the inflation is dropped and cwnd keeps
//!   its (possibly deflated) value, then the usual per-ACK increase (ns-2
//!   `exit_recovery_fix_ 0`; cwnd is ssthresh or W/2 unless partial ACKs deflated it);
//! - duplicate ACKs that do not cover more than `recover` never start a new fast retransmit
//!   (step 2), which also keeps go-back-N copies after a timeout from halving cwnd again.
//!
//! Parameters: none of its own. Deviations from ns-2: no RFC 6582 §4.2 ACK/timestamp
//! heuristics (ns-2 has them off too); ns-2's `send_much(…, maxburst 2)` on duplicate ACKs in
//! recovery is not reproduced (one duplicate opens one segment, so it rarely binds). Limited
//! transmit (`singledup_ 1`) is the shared sender's, see [`super::sender`].

use super::reno::Reno;
use super::sender::{CongestionControl, PartialAck, Window};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NewReno;

impl CongestionControl for NewReno {
    fn on_fast_retransmit(&mut self, w: &mut Window) {
        Reno.on_fast_retransmit(w);
    }

    fn on_timeout(&mut self, w: &mut Window) {
        Reno.on_timeout(w);
    }

    fn partial_ack(&self) -> PartialAck {
        PartialAck::RetransmitAndStay
    }
}
