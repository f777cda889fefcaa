//! `ParetoOnOff`: on/off UDP traffic with Pareto-distributed bursts and idle periods, as ns-2
//! `Application/Traffic/Pareto` (`tools/pareto.cc`, `POO_Traffic`) over `Agent/UDP`.
//!
//! Used by DVRC's reverse-traffic topology (docs/papers/dvrc.md §2.4: 10 flows, 250 B packets,
//! peaks 64–256 kbit/s). Aggregating many such sources gives long-range-dependent traffic.
//!
//! Semantics (ns-2 `POO_Traffic::next_interval`), with τ = packet_size·8/rate the packet
//! interval at the peak rate:
//! - a burst is a whole number of packets, B = max(1, ⌊X + 0.5⌋) with X Pareto of mean
//!   on_mean/τ (ns-2 `burstlen_ = ontime_/interval_`), sent τ apart by a wrapped [`UdpSender`];
//! - after the last packet of a burst, the next burst's first packet leaves τ + I later, with I
//!   Pareto of mean off_mean: the "on" period is B·τ, the idle period I;
//! - the source starts like ns-2's, with an idle period: the first packet leaves at
//!   start + τ + I₁;
//! - B is drawn before I at each burst boundary (ns-2's order);
//! - Pareto(mean, shape): scale = mean·(shape−1)/shape, sample = scale / U^(1/shape) with U
//!   uniform on (0, 1] (ns-2 `RNG::pareto`).
//!
//! Parameters: the `UdpConfig` (peak `rate`, `packet_size`, `start`, `stop`), `on_mean`
//! (ns-2 `burst_time_`, default 0.5 s there), `off_mean` (`idle_time_`, 0.5 s), `shape`
//! (`shape_`, 1.5). Panics on shape ≤ 1 (infinite mean) or a zero rate, like `UdpSender::new`
//! on a bad packet size: the scenario schema rejects those first.
//!
//! Deviations: time is integer nanoseconds (idle periods are rounded to the nearest ns, packet
//! times follow `UdpSender`'s exact schedule `burst_start + n·τ` with τ rounded up to whole ns);
//! ns-2 keeps doubles. `stop` ends the flow at the `UdpSender`'s stop instant.

use crate::endpoint::EndpointStats;
use crate::proto::udp::{UdpConfig, UdpSender};
use crate::rng::SimRng;
use crate::wire::WireError;
use crate::{Datagram, Duration, Endpoint, Instant, Transmit};
use rand::Rng;

pub struct ParetoOnOff {
    udp: UdpSender,
    interval: Duration,
    stop: Option<Instant>,
    /// Pareto scales: of the burst length in packets, and of the idle period in seconds.
    burst_scale: f64,
    idle_scale_s: f64,
    inv_shape: f64,
    rng: SimRng,
    on: bool,
    /// First packet of the current burst (on) or of the next one (off).
    burst_start: Instant,
    /// Packets in the current (on) or next (off) burst.
    burst_len: u64,
    sent_in_burst: u64,
    bursts_started: u64,
}

impl ParetoOnOff {
    pub fn new(udp: UdpConfig, on_mean: Duration, off_mean: Duration, shape: f64, rng: SimRng) -> Self {
        assert!(shape > 1.0, "Pareto shape must exceed 1 (finite mean), got {shape}");
        let (start, stop) = (udp.start, udp.stop);
        let mut sender = UdpSender::new(udp);
        let interval = sender.interval();
        assert!(interval != Duration::MAX, "Pareto on/off source with a zero peak rate");
        sender.set_active(start, false);
        let factor = (shape - 1.0) / shape;
        let mean_burst_packets = on_mean.as_nanos() as f64 / interval.as_nanos() as f64;
        let mut s = ParetoOnOff {
            udp: sender,
            interval,
            stop,
            burst_scale: mean_burst_packets * factor,
            idle_scale_s: off_mean.as_secs_f64() * factor,
            inv_shape: 1.0 / shape,
            rng,
            on: false,
            burst_start: start,
            burst_len: 0,
            sent_in_burst: 0,
            bursts_started: 0,
        };
        s.schedule_next_burst(start);
        s
    }

    /// scale / U^(1/shape), U uniform on (0, 1].
    fn pareto(&mut self, scale: f64) -> f64 {
        // gen::<f64>() is on [0, 1); 1 − it is on (0, 1], so the sample is finite.
        let u = 1.0 - self.rng.gen::<f64>();
        scale / u.powf(self.inv_shape)
    }

    /// Draws the next burst (length, then idle period) at a burst boundary: `after` is the
    /// previous burst's last packet (or the start instant).
    fn schedule_next_burst(&mut self, after: Instant) {
        // ⌊X + 0.5⌋, at least one packet (ns-2 `int(... + .5)`); `as` saturates huge draws.
        self.burst_len = ((self.pareto(self.burst_scale) + 0.5) as u64).max(1);
        let idle = Duration::from_secs_f64(self.pareto(self.idle_scale_s));
        self.burst_start = after + self.interval + idle;
    }

    fn start_burst_if_due(&mut self, now: Instant) {
        if !self.on && now >= self.burst_start && !self.stopped_at(self.burst_start) {
            // Scheduled from the planned instant, not `now`: a late driver catches up on the
            // burst's packets instead of shifting it.
            self.udp.set_active(self.burst_start, true);
            self.on = true;
            self.sent_in_burst = 0;
            self.bursts_started += 1;
        }
    }

    fn stopped_at(&self, t: Instant) -> bool {
        self.stop.is_some_and(|stop| t >= stop)
    }

    pub fn is_on(&self) -> bool {
        self.on
    }

    /// τ: spacing of packets within a burst.
    pub fn interval(&self) -> Duration {
        self.interval
    }

    pub fn packets_sent(&self) -> u64 {
        self.udp.packets_sent()
    }

    pub fn bursts_started(&self) -> u64 {
        self.bursts_started
    }
}

impl Endpoint for ParetoOnOff {
    fn handle_datagram(&mut self, now: Instant, datagram: Datagram<'_>) -> Result<(), WireError> {
        self.udp.handle_datagram(now, datagram)
    }

    fn handle_timeout(&mut self, now: Instant) {
        self.start_burst_if_due(now);
        self.udp.handle_timeout(now);
    }

    fn poll_transmit(&mut self, now: Instant) -> Option<Transmit> {
        // Also here, so a driver that polls without the timeout loses nothing.
        self.start_burst_if_due(now);
        if !self.on {
            return None;
        }
        let t = self.udp.poll_transmit(now)?;
        self.sent_in_burst += 1;
        if self.sent_in_burst >= self.burst_len {
            let last = self.burst_start + self.interval * (self.burst_len - 1);
            self.udp.set_active(last, false);
            self.on = false;
            self.schedule_next_burst(last);
        }
        Some(t)
    }

    fn poll_timeout(&self) -> Option<Instant> {
        if self.on {
            self.udp.poll_timeout()
        } else if self.stopped_at(self.burst_start) {
            None
        } else {
            Some(self.burst_start)
        }
    }

    fn stats(&self) -> EndpointStats {
        self.udp.stats()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::RngStreams;
    use crate::wire::udp::UdpData;
    use crate::{DataRate, DataSize};

    /// DVRC's fastest reverse-traffic source: 250 B at 256 kbit/s (τ = 7.8125 ms), ns-2 defaults
    /// burst_time 0.5 s, idle_time 0.5 s, shape 1.5.
    fn dvrc_source(seed: u64) -> ParetoOnOff {
        let mut cfg = UdpConfig::new(DataRate::from_kbps(256));
        cfg.packet_size = DataSize::from_bytes(250);
        ParetoOnOff::new(
            cfg,
            Duration::from_millis(500),
            Duration::from_millis(500),
            1.5,
            RngStreams::new(seed).stream("traffic/pareto"),
        )
    }

    /// Drives `src` exactly on its deadlines up to `horizon`; returns each packet's send time
    /// (ns), asserting that time never goes backwards and packets leave when they are due.
    fn drive_exact(src: &mut ParetoOnOff, horizon: Instant) -> Vec<u64> {
        let mut now = Instant::ZERO;
        let mut sent = Vec::new();
        while let Some(t) = src.poll_timeout() {
            assert!(t >= now, "deadline {t} before now {now}");
            if t > horizon {
                break;
            }
            now = t;
            src.handle_timeout(now);
            while let Some(tx) = src.poll_transmit(now) {
                let due = UdpData::parse(tx.header.as_slice()).unwrap().send_time_ns;
                assert_eq!(due, now.as_nanos(), "an exact driver sends every packet on time");
                assert_eq!(tx.wire_size(), DataSize::from_bytes(250));
                sent.push(due);
            }
        }
        sent
    }

    /// Splits send times into bursts: packets exactly τ apart belong together (an idle period
    /// is always > 0, since the Pareto sample is ≥ its scale).
    fn bursts(sent: &[u64], tau_ns: u64) -> (Vec<u64>, Vec<u64>) {
        let (mut lens, mut idles, mut len) = (Vec::new(), Vec::new(), 1);
        for w in sent.windows(2) {
            let gap = w[1] - w[0];
            assert!(gap >= tau_ns);
            if gap == tau_ns {
                len += 1;
            } else {
                lens.push(len);
                idles.push(gap - tau_ns);
                len = 1;
            }
        }
        (lens, idles)
    }

    /// E[B] for B = max(1, ⌊X + 0.5⌋), X Pareto(scale xm, shape a): E[B] = Σ_{k≥1} P(B ≥ k)
    /// = 1 + Σ_{k≥2} min(1, (xm/(k − 0.5))^a). The tail beyond K is the midpoint-rule integral
    /// ∫_K^∞ xm^a x^(−a) dx = xm^a K^(1−a)/(a − 1).
    fn expected_burst_packets(xm: f64, a: f64) -> f64 {
        const K: u64 = 1_000_000;
        let head: f64 = (2..=K).map(|k| (xm / (k as f64 - 0.5)).powf(a).min(1.0)).sum();
        1.0 + head + xm.powf(a) * (K as f64).powf(1.0 - a) / (a - 1.0)
    }

    #[test]
    fn long_run_rate_and_burst_statistics_match_ns2_semantics() {
        let mut src = dvrc_source(11);
        let tau = src.interval();
        assert_eq!(tau, Duration::from_nanos(7_812_500));
        let horizon = Instant::from_nanos(20_000 * 1_000_000_000);
        let sent = drive_exact(&mut src, horizon);

        // Bursts are whole packets: mean on_mean/τ = 64 packets, Pareto scale 64/3 = 21.33.
        // Rounding to the nearest packet (and the floor of 1, never reached here as X ≥ 21.3)
        // moves the mean only slightly: E[B] = 64.0 to within the rounding bias.
        let xm = 64.0 / 3.0;
        let e_b = expected_burst_packets(xm, 1.5);
        // One cycle is B·τ on (B packets τ apart, plus the τ before the next burst's idle
        // period) and I off, so the long-run rate is
        //   peak · E[B]·τ / (E[B]·τ + E[I]) ≈ 256 kbit/s · 0.5/(0.5 + 0.5) = 128 kbit/s.
        let on_s = e_b * tau.as_secs_f64();
        let expected_bps = 256_000.0 * on_s / (on_s + 0.5);
        let measured_bps = sent.len() as f64 * 250.0 * 8.0 / horizon.as_secs_f64();

        let (lens, idles) = bursts(&sent, tau.as_nanos());
        let mean_len = lens.iter().sum::<u64>() as f64 / lens.len() as f64;
        let mean_idle_s = idles.iter().sum::<u64>() as f64 / idles.len() as f64 * 1e-9;
        let ccdf = |v: &[u64], x: u64| v.iter().filter(|&&l| l >= x).count() as f64 / v.len() as f64;
        // P(B ≥ k) = (xm/(k − 0.5))^1.5; P(I ≥ x) = (x_m/x)^1.5 with x_m = 0.5/3 s.
        let b32 = (xm / 31.5f64).powf(1.5);
        let b128 = (xm / 127.5f64).powf(1.5);
        let i05 = (0.5f64 / 3.0 / 0.5).powf(1.5);
        println!(
            "pareto: {} bursts, rate {measured_bps:.0}/{expected_bps:.0} bit/s, E[B] {mean_len:.2}/{e_b:.2}, \
             E[I] {mean_idle_s:.4}/0.5 s, P(B>=32) {:.4}/{b32:.4}, P(B>=128) {:.4}/{b128:.4}, P(I>=0.5s) {:.4}/{i05:.4}",
            lens.len(),
            ccdf(&lens, 32),
            ccdf(&lens, 128),
            ccdf(&idles, 500_000_000),
        );
        assert!((e_b / 64.0 - 1.0).abs() < 0.01, "E[B] = {e_b}");
        assert!((measured_bps / expected_bps - 1.0).abs() < 0.05, "rate {measured_bps} vs {expected_bps}");
        assert_eq!(lens.len() as u64 + 1, src.bursts_started()); // the last burst is still open
                                                                 // Means of shape-1.5 Pareto samples converge slowly (infinite variance): 5 %. The
                                                                 // distribution's body is tight: 3 % and 10 % on the tail probabilities.
        assert!((mean_len / e_b - 1.0).abs() < 0.05, "mean burst {mean_len} vs {e_b}");
        assert!((mean_idle_s / 0.5 - 1.0).abs() < 0.05, "mean idle {mean_idle_s}");
        assert!((ccdf(&lens, 32) / b32 - 1.0).abs() < 0.03);
        assert!((ccdf(&lens, 128) / b128 - 1.0).abs() < 0.10);
        assert!((ccdf(&idles, 500_000_000) / i05 - 1.0).abs() < 0.05);
        assert_eq!(*lens.iter().min().unwrap(), 21); // ⌊21.33 + 0.5⌋: the Pareto minimum
    }

    #[test]
    fn starts_with_an_idle_period_and_stops_at_stop() {
        let mut cfg = UdpConfig::new(DataRate::from_kbps(64));
        cfg.packet_size = DataSize::from_bytes(250);
        cfg.start = Instant::from_nanos(2_000_000_000);
        cfg.stop = Some(Instant::from_nanos(60_000_000_000));
        let mut src = ParetoOnOff::new(
            cfg,
            Duration::from_millis(500),
            Duration::from_millis(500),
            1.5,
            RngStreams::new(3).stream("traffic/pareto"),
        );
        let tau = src.interval(); // 31.25 ms
        let first = src.poll_timeout().unwrap();
        // start + τ + I₁ with I₁ ≥ the idle scale 0.5/3 s.
        assert!(first >= Instant::from_nanos(2_000_000_000) + tau + Duration::from_nanos(166_666_666));
        assert!(!src.is_on());
        let sent = drive_exact(&mut src, Instant::MAX);
        assert_eq!(sent[0], first.as_nanos());
        assert!(*sent.last().unwrap() < 60_000_000_000);
        assert_eq!(src.poll_timeout(), None);
    }

    #[test]
    fn a_late_driver_sends_the_same_packets() {
        // Waking every 100 ms (ignoring poll_timeout) must yield the same schedule as the exact
        // driver: bursts start at their planned instant and overdue packets are caught up.
        let horizon = Instant::from_nanos(300_000_000_000);
        let exact = drive_exact(&mut dvrc_source(5), horizon);
        let mut src = dvrc_source(5);
        let mut late = Vec::new();
        let mut now = Instant::ZERO;
        while now <= horizon {
            src.handle_timeout(now);
            while let Some(tx) = src.poll_transmit(now) {
                let due = UdpData::parse(tx.header.as_slice()).unwrap().send_time_ns;
                assert!(due <= now.as_nanos());
                late.push(due);
            }
            now += Duration::from_millis(100);
        }
        let n = exact.iter().take_while(|&&t| t + 100_000_000 <= horizon.as_nanos()).count();
        assert!(n > 10_000);
        assert_eq!(late[..n], exact[..n]);
    }
}
