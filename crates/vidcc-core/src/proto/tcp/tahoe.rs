//! TCP Tahoe (4.3BSD-Tahoe, Jacobson 1988; ns-2 `Agent/TCP`, tcp.cc): slow start, congestion
//! avoidance and fast retransmit, **no fast recovery**. The SRAMT paper's competing TCP.
//!
//! With W the congestion window without inflation (Tahoe has none), capped by the window limit:
//! - third duplicate ACK: ssthresh = max(⌊W/2⌋, 2), cwnd = 1, and the sender goes back to the
//!   first unacknowledged segment and slow-starts from there (ns-2 `tahoe_action`:
//!   `slowdown(CLOSE_SSTHRESH_HALF|CLOSE_CWND_ONE)` then `reset_rtx_timer(0,0)`, which restarts
//!   the timer without backoff and rewinds `t_seqno_` to the hole). Further duplicate ACKs do
//!   nothing; a new fast retransmit needs an ACK beyond `recover` (ns-2 `bugfix_`);
//! - retransmission timeout: as Reno (ssthresh = max(⌊W/2⌋, 2), cwnd = 1, backoff, go-back-N).
//!
//! Parameters: none of its own (the shared ones of [`super::sender`]). Deviations from ns-2:
//! those of the shared sender (initial RTO 1 s; limited transmit as ns-2's `singledup_ 1`). The hole goes out through
//! the window like any go-back-N copy, so `send_jitter` applies to it, as ns-2's `overhead_`
//! applies to `send_much()`.

use super::reno::Reno;
use super::sender::{AfterFastRetransmit, CongestionControl, PartialAck, Window};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tahoe;

impl CongestionControl for Tahoe {
    fn on_fast_retransmit(&mut self, w: &mut Window) {
        w.ssthresh = Reno::ssthresh_after_loss(w.cwnd);
        w.cwnd = 1.0;
    }

    fn on_timeout(&mut self, w: &mut Window) {
        Reno.on_timeout(w);
    }

    /// Never asked: Tahoe has no fast recovery to leave.
    fn partial_ack(&self) -> PartialAck {
        PartialAck::ExitRecovery
    }

    fn after_fast_retransmit(&self) -> AfterFastRetransmit {
        AfterFastRetransmit::SlowStart
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::endpoint::{Endpoint, Event};
    use crate::proto::tcp::tests::ack;
    use crate::proto::tcp::{NewReno, TcpConfig, TcpReceiver, TcpSender};
    use crate::proto::testing::*;
    use crate::units::DataSize;
    use crate::{Duration, Instant};

    fn sender() -> TcpSender<Tahoe> {
        TcpSender::new(Tahoe, &TcpConfig::default(), 1000, Instant::ZERO, None)
    }

    /// Segments 0..=9 with cwnd 10 in congestion avoidance, segment 1 lost: the ACK of 0
    /// releases 10, then the duplicates for 2..=10 arrive.
    #[test]
    fn three_duplicates_send_the_window_to_one_and_slow_start_resumes_from_the_hole() {
        let mut s = sender();
        s.set_window(10.0, 5.0);
        assert_eq!(sent_seqs(&mut s, ms(0)).len(), 10);
        ack(&mut s, ms(100), 1, ms(0));
        assert_eq!(sent_seqs(&mut s, ms(100)), vec![(10, false)]);
        let rto = s.rto();
        for _ in 0..3 {
            ack(&mut s, ms(101), 1, ms(1));
        }
        // W = 10.1 → ssthresh 5, cwnd 1, no inflation, no recovery state.
        assert_eq!((s.ssthresh(), s.cwnd(), s.usable_window()), (5.0, 1.0, 1));
        assert!(!s.in_recovery());
        assert_eq!(events(&mut s), vec![Event::LossEvent, Event::WindowChanged { cwnd: DataSize::from_bytes(1000) }]);
        // Go-back-N from the hole through the window of one: a retransmission, not urgent (ns-2
        // sends it through send_much, where overhead_ applies).
        let t = s.poll_transmit(ms(101)).unwrap();
        assert_eq!((t.meta.seq, t.meta.retransmit, t.meta.urgent), (1, true, false));
        assert_eq!(s.poll_transmit(ms(101)).map(|t| t.meta.seq), None);
        // The timer restarted without backoff (ns-2 reset_rtx_timer(0,0)).
        assert_eq!(s.rto(), rto);
        assert_eq!(s.poll_timeout(), Some(ms(101) + rto));
        // Further duplicates (for 5..=10) neither inflate nor retransmit again.
        for _ in 0..6 {
            ack(&mut s, ms(102), 1, ms(2));
        }
        assert_eq!(sent_seqs(&mut s, ms(102)), vec![]);
        assert_eq!(s.counters().fast_retransmits, 1);
        // The retransmitted 1 fills the gap: ACK 11. Slow start from 1 (below ssthresh 5): cwnd 2,
        // and the sender continues at 11 — no resending of 2..=10, which the ACK covers.
        ack(&mut s, ms(201), 11, ms(101));
        assert_eq!(s.cwnd(), 2.0);
        assert_eq!(sent_seqs(&mut s, ms(201)), vec![(11, false), (12, false)]);
    }

    /// Slow start after a fast retransmission costs Tahoe about log2(W/2) round trips at every
    /// loss that NewReno rides through at half its window: over the same pipe with the same
    /// single losses, Tahoe delivers less.
    #[test]
    fn delivers_less_than_newreno_over_the_same_losses() {
        let drops: Vec<u64> = (1..20).map(|k| 500 * k).collect();
        let rtt = Duration::from_millis(100);
        let mut tahoe = Pipe::new(sender(), TcpReceiver::new(false, 64), rtt).drop_first(&drops);
        tahoe.run_until(ms(60_000));
        let nr = TcpSender::new(NewReno, &TcpConfig::default(), 1000, Instant::ZERO, None);
        let mut newreno = Pipe::new(nr, TcpReceiver::new(false, 64), rtt).drop_first(&drops);
        newreno.run_until(ms(60_000));
        let (t, n) = (tahoe.r.rcv_nxt(), newreno.r.rcv_nxt());
        eprintln!("tahoe {t} segments, newreno {n}; fast retransmits {:?}", tahoe.s.counters());
        assert_eq!(tahoe.s.counters().timeouts, 0, "single losses: fast retransmit, no timeout");
        assert!(tahoe.s.counters().fast_retransmits >= 10);
        assert!(t < n, "tahoe {t} vs newreno {n}");
    }
}
