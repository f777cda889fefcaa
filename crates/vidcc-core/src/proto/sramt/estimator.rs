//! The receiver's estimators (docs/papers/sramt.md §1.2–1.4): the TCP model of Eq. 1, the 8-tap
//! weighted moving average of Eq. 10, per-group loss sampling from RTP sequence numbers, and the
//! one-way-delay RTT of Eqs. 12–16 recalibrated by the sender's echo.

use super::config::RttScaling;
use crate::time::{Duration, Instant};

/// Eq. 10's weights, newest sample first \[P\].
pub const WEIGHTS: [f64; 8] = [1.0, 1.0, 1.0, 1.0, 0.8, 0.6, 0.4, 0.2];

/// Eq. 1 with D = 1 and t_out = 4·RTT \[P\]: the TCP-friendly rate in **bytes/s** for packets of
/// `packet_bytes`, loss rate `l` and round-trip time `rtt_s`. Infinite for `l <= 0` (the model is
/// defined for l > 0 only; callers use Eq. 3/8 then) or a zero RTT.
pub fn tcp_rate(packet_bytes: f64, l: f64, rtt_s: f64) -> f64 {
    if l.is_nan() || l <= 0.0 || rtt_s.is_nan() || rtt_s <= 0.0 {
        return f64::INFINITY;
    }
    let l = l.min(1.0);
    let den = rtt_s * (2.0 * l / 3.0).sqrt()
        + 4.0 * rtt_s * (3.0 * (3.0 * l / 8.0).sqrt()).min(1.0) * l * (1.0 + 32.0 * l * l);
    packet_bytes / den
}

/// The 8-tap weighted moving average of Eq. 10 over the newest samples. Before eight samples exist
/// it averages the available ones with the first weights, renormalised \[R\].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Wma8 {
    /// Ring of samples; `head` is where the next one goes.
    samples: [f64; 8],
    head: usize,
    len: usize,
}

impl Wma8 {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn push(&mut self, sample: f64) {
        self.samples[self.head] = sample;
        self.head = (self.head + 1) % 8;
        self.len = (self.len + 1).min(8);
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Σ w_j s^(j) / Σ w_j, s^(0) the newest; `None` before the first sample.
    pub fn value(&self) -> Option<f64> {
        if self.len == 0 {
            return None;
        }
        let (mut num, mut den) = (0.0, 0.0);
        for (j, w) in WEIGHTS.iter().enumerate().take(self.len) {
            let s = self.samples[(self.head + 8 - 1 - j) % 8];
            num += w * s;
            den += w;
        }
        Some(num / den)
    }
}

/// One group's RTP loss accounting (§1.3 step 1): every `T_loss` the sample is
/// lost / expected over the packets expected since the previous sample, with expected from the
/// highest extended sequence number (RFC 3550 A.3 style) \[R\] A-03. A sample interval in which
/// nothing arrived gives no sample (there is nothing to compare against).
#[derive(Clone, Debug, Default)]
pub struct LossSampler {
    /// Highest extended sequence number seen, and its 16-bit form.
    highest: Option<i64>,
    /// Highest at the previous sample (`None`: the first packet starts the count).
    base: Option<i64>,
    received: u64,
    /// First extended sequence number and packets received in all, for RTCP's cumulative count.
    first: Option<i64>,
    total_received: u64,
    pub filter: Wma8,
}

impl LossSampler {
    /// (highest extended sequence number, cumulative packets lost) as RTCP reports them.
    pub fn totals(&self) -> (i64, i64) {
        match (self.first, self.highest) {
            (Some(f), Some(h)) => (h, (h - f + 1 - self.total_received as i64).max(0)),
            _ => (0, 0),
        }
    }

    /// A data packet with RTP sequence number `seq` arrived.
    pub fn on_packet(&mut self, seq: u16) {
        let ext = match self.highest {
            None => {
                // The count starts one before the first packet: that packet is expected.
                self.base = Some(i64::from(seq) - 1);
                i64::from(seq)
            }
            Some(h) => h + i64::from(seq.wrapping_sub(h as u16) as i16),
        };
        self.highest = Some(self.highest.map_or(ext, |h| h.max(ext)));
        self.first = Some(self.first.map_or(ext, |f| f.min(ext)));
        self.received += 1;
        self.total_received += 1;
    }

    /// Closes a sample interval: pushes lost/expected into the filter and returns it.
    pub fn sample(&mut self) -> Option<f64> {
        let (h, b) = (self.highest?, self.base?);
        let expected = h - b;
        if expected <= 0 || self.received == 0 {
            return None;
        }
        let lost = (expected - self.received as i64).max(0);
        let s = lost as f64 / expected as f64;
        self.filter.push(s);
        self.base = Some(h);
        self.received = 0;
        Some(s)
    }

    /// The smoothed loss rate l_{i,l} (0 before any sample).
    pub fn loss(&self) -> f64 {
        self.filter.value().unwrap_or(0.0)
    }
}

/// The one-way-delay RTT estimate of one group (§1.4 steps 4–7).
#[derive(Clone, Debug)]
pub struct OwdRtt {
    scaling: RttScaling,
    /// The calibration a of Eq. 14 (multiplicative), and for the additive ablation the echoed
    /// RTT with the OWD it was calibrated at.
    a: f64,
    calibrated: Option<(f64, f64)>,
    /// OWD of the newest packet, seconds (it may be negative with a clock offset).
    last_owd: Option<f64>,
    last_sample: Option<f64>,
    pub filter: Wma8,
}

/// Microseconds of `now` as the 32-bit RTP timestamp of the SRAMT header (wraps every 71 min).
pub fn timestamp_us(now: Instant) -> u32 {
    (now.as_nanos() / 1000) as u32
}

impl OwdRtt {
    pub fn new(scaling: RttScaling, a0: f64) -> Self {
        OwdRtt { scaling, a: a0, calibrated: None, last_owd: None, last_sample: None, filter: Wma8::new() }
    }

    /// Eq. 12: T_oneway = T_receiver − T_timestamp, from 32-bit microsecond clocks (a difference
    /// modulo 2^32, read as signed: a clock offset makes it any value, Eq. 14's `a` absorbs it).
    pub fn one_way_delay_s(arrival: Instant, send_timestamp_us: u32) -> f64 {
        f64::from(timestamp_us(arrival).wrapping_sub(send_timestamp_us) as i32) * 1e-6
    }

    /// Eq. 16 \[I\] A-12: `a = RTT_echo / T_oneway − 1` from the newest OWD (the packet that
    /// carried the echo when it is called right after [`OwdRtt::on_packet`]'s OWD is set). A
    /// non-positive OWD or RTT keeps the old `a` \[R\].
    pub fn calibrate(&mut self, rtt: Duration) {
        let r = rtt.as_secs_f64();
        match self.last_owd {
            Some(owd) if owd > 0.0 && r > 0.0 && (r / owd).is_finite() => {
                self.a = r / owd - 1.0;
                self.calibrated = Some((r, owd));
            }
            _ => {}
        }
    }

    /// Records a packet's OWD without producing a sample (so that a calibration can use it).
    pub fn observe(&mut self, owd_s: f64) {
        self.last_owd = Some(owd_s);
    }

    /// Eq. 14 on the newest OWD: pushes the raw sample t_RTT^{e-l} into the filter. Non-positive
    /// samples (a clock offset before the first calibration) are skipped.
    pub fn sample(&mut self) -> Option<f64> {
        let owd = self.last_owd?;
        let s = match (self.scaling, self.calibrated) {
            (RttScaling::Additive, Some((rtt, owd_cal))) => rtt + 2.0 * (owd - owd_cal),
            _ => (1.0 + self.a) * owd,
        };
        if !(s.is_finite() && s > 0.0) {
            return None;
        }
        self.last_sample = Some(s);
        self.filter.push(s);
        Some(s)
    }

    pub fn a(&self) -> f64 {
        self.a
    }
    pub fn last_owd(&self) -> Option<f64> {
        self.last_owd
    }
    pub fn last_sample(&self) -> Option<f64> {
        self.last_sample
    }
    /// The smoothed t_RTT^{e-l}, seconds.
    pub fn rtt(&self) -> Option<f64> {
        self.filter.value()
    }
}
