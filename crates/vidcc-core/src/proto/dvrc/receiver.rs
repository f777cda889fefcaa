//! The DVRC receiver: congestion detection (docs/papers/dvrc.md §1.1.4), the AIAMD law of paper Eq.
//! (11) with history-based loss classification (§1.1.5–1.1.6), the DTO timer (§1.1.3, A2/A3), the
//! layer choice K (§1.1.7) and one control packet per data packet (§1.1.1).
//!
//! [`Aiamd`] is the control law on bare state (rate R, epoch history R̄ and D̄, the RTT round),
//! driven with explicit time by [`DvrcReceiver`] and by the unit tests.

use std::collections::VecDeque;

use super::config::{AlphaUnit, Compare, DvrcConfig};
use crate::endpoint::{Datagram, Destination, Endpoint, EndpointStats, Event, PacketMeta, Transmit};
use crate::estimate::ewma::Ewma;
use crate::estimate::loss_detect::{Arrival, GapDetector};
use crate::estimate::rate_meter::RateMeter;
use crate::media::layers::LayerRates;
use crate::time::{Duration, Instant};
use crate::units::{DataRate, DataSize};
use crate::wire::dvrc::{DvrcControl, DvrcData, DATA_HEADER_BYTES};
use crate::wire::WireError;

/// The outcome of one loss event (a gap or a DTO expiry).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decision {
    /// Multiplicative decrease (loss judged congestive); `false`: additive decrease (random).
    pub congestion: bool,
    /// The rate Eq. (11)'s condition compared (𝓜 or R(t−1), per [`Compare`]).
    pub compared: f64,
    /// R̄ − n·D̄ before this epoch was folded in; `None` without history.
    pub threshold: Option<f64>,
    pub before: DataRate,
    pub after: DataRate,
}

/// AIAMD (paper Eq. 11) with the epoch history of §1.1.6, on bare state.
#[derive(Clone, Debug)]
pub struct Aiamd {
    alpha_i: f64,
    alpha_d: f64,
    beta_d: f64,
    n: f64,
    unit: AlphaUnit,
    compare: Compare,
    ad_guard: bool,
    /// 8·s: one packet, in bits.
    packet_bits: f64,
    floor: DataRate,
    cap: DataRate,
    rate: DataRate,
    rbar: Ewma,
    dbar: Ewma,
    last_decrease: Option<Instant>,
    round_start: Option<Instant>,
    loss_in_round: bool,
    decisions: u64,
    congestion_decisions: u64,
}

impl Aiamd {
    /// R(t_0) = c_1 \[P\]; R is kept in [min_rate_factor·c_1, max_rate_factor·c_k] \[D\].
    pub fn new(cfg: &DvrcConfig, rates: &LayerRates, packet_size: DataSize) -> Self {
        let floor =
            DataRate::from_bps_f64(rates.cumulative(0).as_bps_f64() * cfg.min_rate_factor).max(DataRate::from_bps(1));
        let cap = DataRate::from_bps_f64(rates.total().as_bps_f64() * cfg.max_rate_factor).max(floor);
        Aiamd {
            alpha_i: cfg.alpha_i,
            alpha_d: cfg.alpha_d,
            beta_d: cfg.beta_d,
            n: cfg.n,
            unit: cfg.alpha_unit,
            compare: cfg.compare,
            ad_guard: cfg.ad_guard,
            packet_bits: packet_size.as_bits() as f64,
            floor,
            cap,
            rate: rates.cumulative(0).clamp(floor, cap),
            rbar: Ewma::new(cfg.rbar_gain),
            dbar: Ewma::new(cfg.dbar_gain),
            last_decrease: None,
            round_start: None,
            loss_in_round: false,
            decisions: 0,
            congestion_decisions: 0,
        }
    }

    /// The current rate R.
    pub fn rate(&self) -> DataRate {
        self.rate
    }
    pub fn floor(&self) -> DataRate {
        self.floor
    }
    pub fn cap(&self) -> DataRate {
        self.cap
    }
    /// R̄ and D̄ (`None` before the first loss event).
    pub fn history(&self) -> Option<(f64, f64)> {
        Some((self.rbar.value()?, self.dbar.value()?))
    }
    /// The classification threshold R̄ − n·D̄.
    pub fn threshold(&self) -> Option<f64> {
        self.history().map(|(r, d)| r - self.n * d)
    }
    /// (all decisions, multiplicative ones).
    pub fn decision_counts(&self) -> (u64, u64) {
        (self.decisions, self.congestion_decisions)
    }

    /// α as a rate step (docs/papers/dvrc.md A5): α·8·s/RTT, or α·8·s per second.
    fn step(&self, alpha: f64, rtt: Duration) -> f64 {
        match self.unit {
            AlphaUnit::PacketsPerRtt => alpha * self.packet_bits / rtt.as_secs_f64().max(1e-9),
            AlphaUnit::PacketsPerSecond => alpha * self.packet_bits,
        }
    }

    fn clamp(&self, bps: f64) -> DataRate {
        DataRate::from_bps_f64(bps).clamp(self.floor, self.cap)
    }

    /// A data packet arrived: at a round boundary (one RTT since the round began, A6), increase
    /// if the round saw no loss event. Returns whether R changed.
    pub fn on_packet(&mut self, now: Instant, rtt: Duration) -> bool {
        let start = *self.round_start.get_or_insert(now);
        if now.saturating_since(start) < rtt {
            return false;
        }
        let before = self.rate;
        if !self.loss_in_round {
            // Eq. (11), y(t) = 0: R(t) = R(t−1) + α_I
            self.rate = self.clamp(self.rate.as_bps_f64() + self.step(self.alpha_i, rtt));
        }
        self.round_start = Some(now);
        self.loss_in_round = false;
        self.rate != before
    }

    /// Whether a gap at `now` belongs to the loss event of the last decrease (docs/papers/dvrc.md
    /// §1.1.4 \[D\]: gaps within one EstimatedRTT of a decrease are the same event).
    pub fn same_event(&self, now: Instant, rtt: Duration) -> bool {
        self.last_decrease.is_some_and(|t| now.saturating_since(t) < rtt)
    }

    /// A loss event detected by a sequence gap, with the receiving rate 𝓜 measured now.
    /// Returns `None` if the gap is part of the previous event.
    pub fn on_loss(&mut self, now: Instant, rtt: Duration, measured: DataRate) -> Option<Decision> {
        if self.same_event(now, rtt) {
            return None;
        }
        Some(self.decide(now, rtt, measured.as_bps_f64(), false))
    }

    /// A DTO expiry: one congestion event with 𝓜 = 0 and a forced multiplicative decrease
    /// (docs/papers/dvrc.md §1.1.6 \[D\], pseudo-code §1.1.8).
    pub fn on_dto(&mut self, now: Instant, rtt: Duration) -> Decision {
        self.decide(now, rtt, 0.0, true)
    }

    fn decide(&mut self, now: Instant, rtt: Duration, measured: f64, force_md: bool) -> Decision {
        let before = self.rate;
        let r_prev = before.as_bps_f64();
        let compared = match self.compare {
            Compare::Measured => measured,
            Compare::RPrev => r_prev,
        };
        let threshold = self.threshold();
        // Eq. (11): multiplicative decrease when the compared rate is below R̄ − n·D̄; with no
        // history (first epoch) or on a DTO expiry, always multiplicative (§1.1.6 [D]).
        let congestion = force_md || threshold.is_none_or(|th| compared < th);
        self.rate = if congestion {
            // R(t) = β_D·R(t−1)
            self.clamp(self.beta_d * r_prev)
        } else {
            // R(t) = R(t−1) + α_D   (α_D < 0), optionally never below β_D·R(t−1)
            let ad = r_prev + self.step(self.alpha_d, rtt);
            self.clamp(if self.ad_guard { ad.max(self.beta_d * r_prev) } else { ad })
        };
        // End of epoch e: 𝓡_e = 𝓜 folded in *after* the comparison (§1.1.6 [D]).
        // D̄ ← (1−g_D)·D̄ + g_D·|𝓡_e − R̄|, then R̄ ← (1−g_R)·R̄ + g_R·𝓡_e; first epoch: R̄ = 𝓡_1, D̄ = 𝓡_1/2.
        match self.rbar.value() {
            None => {
                self.dbar.update(measured / 2.0);
            }
            Some(rbar) => {
                self.dbar.update((measured - rbar).abs());
            }
        }
        self.rbar.update(measured);
        self.last_decrease = Some(now);
        self.loss_in_round = true;
        self.round_start = Some(now);
        self.decisions += 1;
        self.congestion_decisions += congestion as u64;
        Decision { congestion, compared, threshold, before, after: self.rate }
    }
}

/// The DVRC receiver endpoint.
pub struct DvrcReceiver {
    rates: LayerRates,
    packet_size: DataSize,
    rtt_fallback: Duration,
    rate_window_min: Duration,
    dto_guard: bool,
    dto_min: Duration,
    law: Aiamd,
    gap: GapDetector,
    meter: RateMeter,
    /// RTT and DTO from the latest data header.
    rtt: Duration,
    dto: Duration,
    dto_deadline: Option<Instant>,
    layers: u8,
    /// Latest instant seen: a driver going back in time cannot move the state backwards.
    now: Instant,
    controls: VecDeque<DvrcControl>,
    events: VecDeque<Event>,
    stats: EndpointStats,
}

impl DvrcReceiver {
    pub fn new(cfg: &DvrcConfig, rates: LayerRates, packet_size: DataSize) -> Self {
        let law = Aiamd::new(cfg, &rates, packet_size);
        let layers = rates.layers_within(law.rate()) as u8;
        let rtt_fallback = Duration::from_nanos(cfg.rtt_fallback_ns);
        let rate_window_min = Duration::from_nanos(cfg.rate_window_min_ns);
        DvrcReceiver {
            packet_size,
            rtt_fallback,
            rate_window_min,
            dto_guard: cfg.dto_guard,
            dto_min: Duration::from_nanos(cfg.dto_min_ns),
            law,
            gap: GapDetector::new(),
            meter: RateMeter::new(rtt_fallback.max(rate_window_min)),
            rtt: rtt_fallback,
            dto: crate::estimate::rtt::PaperEwma::INITIAL_DTO,
            dto_deadline: None,
            layers,
            now: Instant::ZERO,
            controls: VecDeque::with_capacity(64),
            events: VecDeque::new(),
            stats: EndpointStats::default(),
            rates,
        }
    }

    pub fn law(&self) -> &Aiamd {
        &self.law
    }
    /// The layer count K the receiver asks for.
    pub fn layers(&self) -> u8 {
        self.layers
    }
    /// The measured receiving rate 𝓜 now.
    pub fn measured_rate(&self) -> DataRate {
        self.meter.rate(self.now)
    }
    pub fn dto_deadline(&self) -> Option<Instant> {
        self.dto_deadline
    }

    /// DTO_eff = max(DTO, 2·8s/R, dto_min) with the A3 guard \[D\], DTO alone without it.
    pub fn effective_dto(&self) -> Duration {
        if !self.dto_guard {
            return self.dto;
        }
        let two_packets = self.law.rate().transmission_time(self.packet_size) * 2;
        self.dto.max(two_packets).max(self.dto_min)
    }

    fn apply(&mut self, d: Decision, timeout: bool) {
        self.events.push_back(Event::LossEvent);
        if timeout {
            self.events.push_back(Event::Timeout);
        } else {
            self.events.push_back(Event::LossClassified { congestion: d.congestion });
        }
        if d.after != d.before {
            self.events.push_back(Event::RateChanged { rate: d.after });
        }
        self.update_layers();
    }

    /// Step (3) of the loop (§1.1.7): K = max(1, max{j : c_j ≤ R}).
    fn update_layers(&mut self) {
        self.layers = self.rates.layers_within(self.law.rate()) as u8;
    }
}

impl Endpoint for DvrcReceiver {
    fn handle_datagram(&mut self, now: Instant, d: Datagram<'_>) -> Result<(), WireError> {
        let h = match DvrcData::parse(d.bytes) {
            Ok(h) if h.length as usize == d.wire_size() => h,
            Ok(_) => {
                self.stats.malformed_datagrams += 1;
                return Err(WireError::Inconsistent("length field disagrees with the datagram size"));
            }
            Err(e) => {
                self.stats.malformed_datagrams += 1;
                return Err(e);
            }
        };
        self.now = self.now.max(now);
        let now = self.now;
        // The sender's EstimatedRTT and DTO (A2), or the fallback before it has a sample.
        self.rtt = if h.rtt_est_ns == 0 { self.rtt_fallback } else { Duration::from_nanos(h.rtt_est_ns) };
        self.dto = Duration::from_nanos(h.dto_ns);
        self.meter.set_window(self.rtt.max(self.rate_window_min));
        let arrival = self.gap.on_packet(h.seq);
        if arrival != Arrival::Duplicate {
            let payload = (h.length as usize - DATA_HEADER_BYTES) as u64;
            self.stats.app_packets_delivered += 1;
            self.stats.app_bytes_delivered += payload;
        }
        self.meter.on_bytes(now, d.wire_size() as u64);
        // §1.1.4: any packet above the next expected one is a congestion signal.
        if let Arrival::Gap { .. } = arrival {
            let measured = self.meter.rate(now);
            if let Some(decision) = self.law.on_loss(now, self.rtt, measured) {
                self.apply(decision, false);
            }
        }
        if self.law.on_packet(now, self.rtt) {
            self.events.push_back(Event::RateChanged { rate: self.law.rate() });
            self.update_layers();
        }
        self.dto_deadline = Some(now + self.effective_dto());
        self.controls.push_back(DvrcControl {
            layers: self.layers,
            ack_seq: h.seq,
            ts_echo_ns: h.timestamp_ns,
            rate_bps: self.law.rate().as_bps(),
            recv_rate_bps: self.meter.rate(now).as_bps(),
        });
        Ok(())
    }

    fn handle_timeout(&mut self, now: Instant) {
        self.now = self.now.max(now);
        let Some(deadline) = self.dto_deadline else { return };
        if self.now < deadline {
            return;
        }
        // No data for a whole DTO: a congestion event; the timer restarts (§1.1.4).
        let decision = self.law.on_dto(self.now, self.rtt);
        self.apply(decision, true);
        self.dto_deadline = Some(self.now + self.effective_dto());
    }

    fn poll_transmit(&mut self, _now: Instant) -> Option<Transmit> {
        let c = self.controls.pop_front()?;
        Some(Transmit { to: Destination::PEER, header: c.emit(), payload_len: 0, meta: PacketMeta::control() })
    }

    fn poll_timeout(&self) -> Option<Instant> {
        self.dto_deadline
    }

    fn poll_event(&mut self) -> Option<Event> {
        self.events.pop_front()
    }

    fn stats(&self) -> EndpointStats {
        self.stats
    }
}
