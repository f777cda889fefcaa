//! [`RtcpUdpConfig`]: the `rtcp-udp` baseline's parameters. The paper gives only the concept
//! (docs/papers/dvrc.md §1.3: reports "periodically and also whenever it detects congestion"
//! \[P\]); every number here is the DVRC paper page's default \[D\] or RFC 3550's \[X\].

use serde::{Deserialize, Serialize};

/// How the application picks the layer count K from a Receiver Report. The paper says only that
/// RTCP/UDP "is tested with the specific layered adaptation scheme" of DVRC (§4.1), whose layer
/// count for a bandwidth B is K = max{j : c_j ≤ B} (§3.3); docs/protocols/rtcp-udp.md "Adaptation".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Adaptation {
    /// \[D\] One layer per report: K − 1 on fraction_lost > 0, K + 1 on fraction_lost = 0.
    #[default]
    Step,
    /// \[I\] (alternative) Every report: K = max(1, max{j : c_j ≤ B}), B the receiving rate the
    /// receiver measured over the last report interval (carried in the RR's extension).
    Rate,
    /// \[I\] (alternative) A report with fraction_lost > 0: K = min(K, max(1, max{j : c_j ≤ B}));
    /// one without loss: K + 1, as [`Adaptation::Step`].
    RateOnLoss,
}

impl Adaptation {
    /// Whether the rule reads the receiving rate, so that the receiver must report it.
    pub fn needs_rate(self) -> bool {
        self != Adaptation::Step
    }
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct RtcpUdpConfig {
    /// \[D\] Interval of the periodic Receiver Reports: 1 s.
    pub report_interval_ns: u64,
    /// \[D\] Also send an RR at once when a sequence gap is detected, at most one per RTT: true.
    pub immediate_reports: bool,
    /// \[D\] Interval of the sender's Sender Reports (they give LSR/DLSR and carry the RTT): 1 s.
    pub sender_report_interval_ns: u64,
    /// \[D\] RTT the receiver assumes for spacing immediate RRs before an SR told it: 100 ms.
    pub rtt_fallback_ns: u64,
    /// \[D\] Layers sent at start: 1.
    pub initial_layers: u8,
    /// \[X\] RTP timestamp clock (RFC 3551 §5: 90 kHz for video).
    pub clock_rate_hz: u32,
    /// \[D\] The application's layer rule: [`Adaptation::Step`].
    pub adaptation: Adaptation,
}

impl Default for RtcpUdpConfig {
    fn default() -> Self {
        RtcpUdpConfig {
            report_interval_ns: 1_000_000_000,
            immediate_reports: true,
            sender_report_interval_ns: 1_000_000_000,
            rtt_fallback_ns: 100_000_000,
            initial_layers: 1,
            clock_rate_hz: 90_000,
            adaptation: Adaptation::Step,
        }
    }
}

impl RtcpUdpConfig {
    /// Checks every field; the error names the field.
    pub fn validate(&self) -> Result<(), String> {
        if self.report_interval_ns == 0 {
            return Err("rtcp-udp: report_interval_ns must be positive".into());
        }
        if self.sender_report_interval_ns == 0 {
            return Err("rtcp-udp: sender_report_interval_ns must be positive".into());
        }
        if self.rtt_fallback_ns == 0 {
            return Err("rtcp-udp: rtt_fallback_ns must be positive".into());
        }
        if self.initial_layers == 0 {
            return Err("rtcp-udp: initial_layers must be at least 1".into());
        }
        if self.clock_rate_hz == 0 {
            return Err("rtcp-udp: clock_rate_hz must be positive".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_validation() {
        let c = RtcpUdpConfig::default();
        assert!(c.validate().is_ok());
        assert_eq!((c.report_interval_ns, c.initial_layers, c.clock_rate_hz), (1_000_000_000, 1, 90_000));
        for (f, field) in [
            (&(|c: &mut RtcpUdpConfig| c.report_interval_ns = 0) as &dyn Fn(&mut RtcpUdpConfig), "report_interval_ns"),
            (&|c: &mut RtcpUdpConfig| c.sender_report_interval_ns = 0, "sender_report_interval_ns"),
            (&|c: &mut RtcpUdpConfig| c.rtt_fallback_ns = 0, "rtt_fallback_ns"),
            (&|c: &mut RtcpUdpConfig| c.initial_layers = 0, "initial_layers"),
            (&|c: &mut RtcpUdpConfig| c.clock_rate_hz = 0, "clock_rate_hz"),
        ] {
            let mut c = RtcpUdpConfig::default();
            f(&mut c);
            assert!(c.validate().unwrap_err().contains(field));
        }
    }
}
