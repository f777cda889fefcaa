//! [`QosAimdConfig`]: every parameter of a QoS-AIMD flow, defaulting to the paper's values
//! (`docs/papers/qos-aimd.md`) or, where the paper is silent ([U]), to the choice recorded
//! next to each field and in `docs/protocols/qos-aimd.md`.

use serde::{Deserialize, Serialize};

use crate::wire::qos_aimd::{ACK_FIXED_BYTES, MAX_SACKVEC_BITS};

/// What "halve the ssthresh" on a timeout starts from (docs/papers/qos-aimd.md §3.3, §7 item 8 [U]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TimeoutSsthresh {
    /// [P] as written: ssthresh ← ssthresh/2 (cwnd/2 while ssthresh is still unbounded), at
    /// least 2 packets.
    #[default]
    HalveSsthresh,
    /// TCP's rule (RFC 5681 eq. 4): ssthresh ← max(outstanding/2, 2).
    HalfFlight,
}

/// What "the number of currently outstanding packets" that β multiplies on a loss (event E)
/// counts (the paper does not define it; docs/papers/qos-aimd.md §3.4 defers the bookkeeping to RFC 3517).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReductionBase {
    /// [I] TCP's FlightSize (RFC 5681 §2 and §3.2 step 2): the packets sent and not yet passed
    /// by W_head (next_seq − W_head, packets acked above the hole included, as SACKed data is in
    /// TCP), less those sent by the window inflation of event D before the loss was declared
    /// (RFC 5681: data sent by limited transmit is not counted). For a window-limited sender
    /// this is ⌊cwnd⌋.
    #[default]
    Flight,
    /// SACK's `pipe` (RFC 3517 §4): packets sent and neither acked nor declared lost, the newly
    /// lost ones included.
    Pipe,
    /// β × cwnd: the paper's first wording, "cwnd is reduced by a factor of β", and CCID2's
    /// halving of cwnd.
    Cwnd,
}

/// Which RTT the packet spacing rtt/W uses (docs/papers/qos-aimd.md §3.5, §7 item 8 [U]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Pacing {
    /// [D] The smoothed RTT of RFC 6298.
    #[default]
    Srtt,
    /// The smallest RTT sample seen.
    MinRtt,
    /// No spacing: packets leave as soon as the window allows.
    Off,
}

/// Which packets the spacing rtt/W holds back (docs/protocols/qos-aimd.md "Spacing").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SpacingScope {
    /// [P §II-B] Only packets the window lets out together: "the inter-packet spacing is set to
    /// be no less than rtt/W when the sender is allowed to send more than one packet at certain
    /// time". After a packet that leaves the window full, the next one (released by a later
    /// ack) goes when released.
    #[default]
    WindowBursts,
    /// Every data packet at least rtt/W after the previous one, the single packet an ack
    /// releases included (vidcc's reading until 2026-11-27).
    EveryPacket,
}

/// Parameters of a QoS-AIMD flow (sender and receiver share one config).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct QosAimdConfig {
    /// β: multiplicative decrease, cwnd ← β × outstanding [P §V: 0.875].
    pub beta: f64,
    /// α: packets added per RTT in congestion avoidance. `None` [P eq. (10)]: 3(1 − β)/(1 + β)
    /// (0.2 for β = 0.875). A value that breaks eq. (10) is allowed but not TCP-friendly.
    pub alpha: Option<f64>,
    /// rwnd: the receiver buffer advertised in every ack, packets (≤ 65 535). The paper sets it
    /// to W_max from the cross-layer selection (`model::select`); default 64 [D].
    pub rwnd_packets: u32,
    /// IW: cwnd at start, after a timeout and after an idle period [D: 1, from event A of
    /// Fig. 1, "if cwnd is one the new cwnd is still one"].
    pub initial_window_packets: u32,
    /// Initial ssthresh; `None` = unbounded [U → D, ns-2 style].
    pub initial_ssthresh_packets: Option<u32>,
    /// |sackvec| in bits (≤ 432) [U → D: 16].
    pub sackvec_bits: u16,
    /// Packets per ack, 1..=1 + |sackvec| [P: one ack per packet in the analysis].
    pub ack_ratio: u32,
    /// With `ack_ratio` > 1, the longest an ack waits for more packets [D: 100 ms, ns-2's
    /// delayed-ack interval].
    pub ack_delay_ns: u64,
    /// Wire size of an ack, header included (padding after the vector) [D: 40 B, ns-2's ack].
    pub ack_size_bytes: u32,
    /// Packets with higher sequence numbers acked before a missing one is lost [P: 3].
    pub dupthresh: u32,
    /// RTO before the first RTT sample [X RFC 6298 §2.1: 1 s].
    pub initial_rto_ns: u64,
    /// Lower bound of the RTO [X RFC 6298 §2.4: 1 s, as DCCP CCID2 via TCP].
    pub min_rto_ns: u64,
    /// Upper bound of the (backed-off) RTO [X RFC 6298 §2.5: 60 s].
    pub max_rto_ns: u64,
    /// Timer granularity G in RTO = SRTT + max(G, 4·RTTVAR) [P §III-A: "coarse-grained timers
    /// with a granularity of 500 ms"].
    pub rto_granularity_ns: u64,
    pub reduction_base: ReductionBase,
    pub timeout_ssthresh: TimeoutSsthresh,
    pub pacing: Pacing,
    pub spacing_scope: SpacingScope,
    /// Restart from IW after an idle period of one RTO [P "being idle for a while"; X RFC 5681
    /// §4.1 for how long].
    pub idle_restart: bool,
    /// Video: a queued packet is dropped at the sender this long after its frame was ready [D,
    /// `media::sender_buffer` default 1 s].
    pub buffer_max_age_ns: u64,
    /// Video: most packets queued at the sender [D: 1000].
    pub buffer_max_packets: u32,
}

impl Default for QosAimdConfig {
    fn default() -> Self {
        QosAimdConfig {
            beta: 0.875,
            alpha: None,
            rwnd_packets: 64,
            initial_window_packets: 1,
            initial_ssthresh_packets: None,
            sackvec_bits: 16,
            ack_ratio: 1,
            ack_delay_ns: 100_000_000,
            ack_size_bytes: 40,
            dupthresh: 3,
            initial_rto_ns: 1_000_000_000,
            min_rto_ns: 1_000_000_000,
            max_rto_ns: 60_000_000_000,
            rto_granularity_ns: 500_000_000,
            reduction_base: ReductionBase::Flight,
            timeout_ssthresh: TimeoutSsthresh::HalveSsthresh,
            pacing: Pacing::Srtt,
            spacing_scope: SpacingScope::WindowBursts,
            idle_restart: true,
            buffer_max_age_ns: 1_000_000_000,
            buffer_max_packets: 1000,
        }
    }
}

impl QosAimdConfig {
    /// α in use: the configured one, or eq. (10) from β.
    pub fn alpha(&self) -> f64 {
        self.alpha.unwrap_or_else(|| super::model::alpha_for_beta(self.beta))
    }

    /// Header bytes of an ack with this config's vector.
    pub fn ack_header_bytes(&self) -> u32 {
        (ACK_FIXED_BYTES + (self.sackvec_bits as usize).div_ceil(8)) as u32
    }

    /// Checks every field; the error names the field and what was expected.
    pub fn validate(&self) -> Result<(), String> {
        if !(self.beta.is_finite() && self.beta > 0.0 && self.beta < 1.0) {
            return Err(format!("beta must be in (0, 1), got {}", self.beta));
        }
        if let Some(a) = self.alpha {
            if !(a.is_finite() && a > 0.0) {
                return Err(format!("alpha must be a positive number, got {a}"));
            }
        }
        if !(1..=u16::MAX as u32).contains(&self.rwnd_packets) {
            return Err(format!("rwnd_packets must be in 1..=65535, got {}", self.rwnd_packets));
        }
        if self.initial_window_packets == 0 {
            return Err("initial_window_packets must be at least 1".into());
        }
        if self.initial_ssthresh_packets == Some(0) {
            return Err("initial_ssthresh_packets must be at least 1".into());
        }
        if self.sackvec_bits > MAX_SACKVEC_BITS {
            return Err(format!("sackvec_bits must be at most {MAX_SACKVEC_BITS}, got {}", self.sackvec_bits));
        }
        let max_ratio = 1 + self.sackvec_bits as u32;
        if !(1..=max_ratio).contains(&self.ack_ratio) {
            return Err(format!(
                "ack_ratio must be in 1..={max_ratio} (1 + sackvec_bits: an ack reports at most that many \
                 packets), got {}",
                self.ack_ratio
            ));
        }
        if self.ack_ratio > 1 && self.ack_delay_ns == 0 {
            return Err("ack_delay_ns must be positive when ack_ratio > 1".into());
        }
        if self.ack_size_bytes < self.ack_header_bytes() {
            return Err(format!(
                "ack_size_bytes must be at least the ack header ({} B with sackvec_bits = {}), got {}",
                self.ack_header_bytes(),
                self.sackvec_bits,
                self.ack_size_bytes
            ));
        }
        if self.dupthresh == 0 {
            return Err("dupthresh must be at least 1".into());
        }
        if self.initial_rto_ns == 0 {
            return Err("initial_rto_ns must be positive".into());
        }
        if self.min_rto_ns == 0 {
            return Err("min_rto_ns must be positive".into());
        }
        if self.max_rto_ns < self.min_rto_ns {
            return Err(format!("max_rto_ns ({}) must be at least min_rto_ns ({})", self.max_rto_ns, self.min_rto_ns));
        }
        if self.buffer_max_age_ns == 0 {
            return Err("buffer_max_age_ns must be positive".into());
        }
        if self.buffer_max_packets == 0 {
            return Err("buffer_max_packets must be at least 1".into());
        }
        Ok(())
    }
}
