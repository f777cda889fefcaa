//! TCP NewReno (RFC 6582; ns-2 `Agent/TCP/Newreno`, tcp-newreno.cc): Reno whose fast recovery
//! survives several losses in one window.
//!
//! Entering fast recovery is Reno's (ssthresh = max(FlightSize/2, 2), cwnd = ssthresh, inflate
//! by 3), and the shared sender records `recover` = the highest segment sent so far. Then
//! (RFC 6582 §3.2):
//! - a **partial ACK** (new data acknowledged, but not `recover`) retransmits the first
//!   unacknowledged segment at once, deflates the inflation by the amount acknowledged and adds
//!   one segment back, and **stays in fast recovery**; only the first partial ACK restarts the
//!   retransmission timer (the "Impatient" variant of §4);
//! - a **full ACK** (covering `recover`) ends recovery with cwnd = ssthresh (step 3, second
//!   option; ns-2 `exit_recovery_fix_ 0`);
//! - duplicate ACKs that do not cover more than `recover` never start a new fast retransmit
//!   (step 2), which also keeps go-back-N copies after a timeout from halving cwnd again.
//!
//! Parameters: none of its own. Deviations from ns-2: ns-2's default (`newreno_changes1_ 0`)
//! restarts the timer on every partial ACK ("Slow-but-Steady"); RFC 6582 recommends Impatient,
//! used here. No RFC 6582 §4.2 ACK/timestamp heuristics.

use super::reno::Reno;
use super::sender::{CongestionControl, PartialAck, Window};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NewReno;

impl CongestionControl for NewReno {
    fn on_fast_retransmit(&mut self, w: &mut Window, flight: u64) {
        Reno.on_fast_retransmit(w, flight);
    }

    fn on_timeout(&mut self, w: &mut Window, flight: u64) {
        Reno.on_timeout(w, flight);
    }

    fn partial_ack(&self) -> PartialAck {
        PartialAck::RetransmitAndStay
    }
}
