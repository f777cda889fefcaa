//! [`IrfmConfig`]: every IRFM parameter with its default and source tag (`docs/protocols/irfm.md`).
//! IRFM's paper (Jiang, Zegura & Ammar, NOSSDAV 1999) is not among the project's sources; the
//! the SRAMT paper page gives its rules (docs/papers/sramt.md §2.5, \[X\]) and no values: the
//! numbers are ours \[R\], the session range SRAMT-S's, for the comparison of Fig. 19 (C34).

use serde::{Deserialize, Serialize};

use crate::proto::simulcast::{wire::Scheme, CoreConfig};
use crate::time::Duration;

/// IRFM sends exactly two streams \[P\] (low- and high-capability receivers).
pub const STREAMS: usize = 2;

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct IrfmConfig {
    /// `[min, max]` of both stream rates, bit/s \[R\]: SRAMT-S's session range 50–1000 kbit/s.
    pub rate_range_bps: [u64; 2],
    /// The two streams' rates before any report, bit/s \[R\].
    pub initial_rates_bps: Vec<u64>,
    /// Stream (0 low, 1 high) receivers start on when the scenario names none \[R\]: 0.
    pub initial_group: u8,
    /// The feedback / control round \[R\] 2 s.
    pub round_ns: u64,
    /// K: reports per stream per round the escalating poll aims at \[R\] 10.
    pub reports_per_round: u32,
    /// The sender keeps a receiver's newest isolated rate for this many rounds \[R\] 5.
    pub memory_rounds: u32,
    /// Most isolated rates the rate choice considers (the newest) \[R\] 64.
    pub max_samples: u32,
    /// RTT a receiver assumes before the sender echoes its own \[R\] 100 ms.
    pub initial_rtt_ns: u64,
    /// NDUPACK of the loss history \[X\] RFC 5348 §5.1: 3.
    pub ndupack: u32,
    /// s of the TCP equation in bytes; 0 = the flow's packet size.
    pub equation_packet_bytes: u32,
    /// Adjust the echoed RTT by one-way-delay changes between echoes (TFMCC, RFC 4654 §4.3.3)
    /// \[R\]: true. False: the raw echo of the round's SR/RR exchange (the first version).
    pub owd_rtt: bool,
}

impl Default for IrfmConfig {
    fn default() -> Self {
        IrfmConfig {
            rate_range_bps: [50_000, 1_000_000],
            initial_rates_bps: vec![100_000, 500_000],
            initial_group: 0,
            round_ns: 2_000_000_000,
            reports_per_round: 10,
            memory_rounds: 5,
            max_samples: 64,
            initial_rtt_ns: 100_000_000,
            ndupack: 3,
            equation_packet_bytes: 0,
            owd_rtt: true,
        }
    }
}

impl IrfmConfig {
    /// Checks every parameter; the error names the key.
    pub fn validate(&self) -> Result<(), String> {
        let [lo, hi] = self.rate_range_bps;
        if lo == 0 || lo > hi || hi > u64::from(u32::MAX) {
            return Err(format!("rate_range_bps: need 0 < min <= max <= {} bit/s, got [{lo}, {hi}]", u32::MAX));
        }
        if self.initial_rates_bps.len() != STREAMS {
            return Err(format!("initial_rates_bps: IRFM has two streams, got {} rates", self.initial_rates_bps.len()));
        }
        if self.initial_group as usize >= STREAMS {
            return Err(format!("initial_group: stream 0 or 1, got {}", self.initial_group));
        }
        if self.memory_rounds == 0 {
            return Err("memory_rounds: at least 1".into());
        }
        if self.max_samples == 0 {
            return Err("max_samples: at least 1".into());
        }
        if self.ndupack == 0 {
            return Err("ndupack: at least 1".into());
        }
        self.core().validate()
    }

    pub fn range(&self) -> [f64; 2] {
        [self.rate_range_bps[0] as f64, self.rate_range_bps[1] as f64]
    }

    pub fn core(&self) -> CoreConfig {
        let [lo, hi] = self.range();
        CoreConfig {
            scheme: Scheme::Irfm,
            initial_rates_bps: self.initial_rates_bps.iter().map(|&r| (r as f64).clamp(lo, hi)).collect(),
            round: Duration::from_nanos(self.round_ns),
            reports_per_round: self.reports_per_round,
            initial_rtt: Duration::from_nanos(self.initial_rtt_ns),
            owd_rtt: self.owd_rtt,
        }
    }
}
