//! Multi-rate video: cumulative layers, simulcast streams, and rate-adaptive trace sets.
//!
//! **Layered** ([`LayerRates`], [`LayeredSource`]; docs/papers/dvrc.md §1.1.7 and §2.1–2.2,
//! docs/papers/ssvp.md §1.2, docs/papers/sramt.md SRAMT-LE): k cumulative layers, layer 0 the base
//! (the papers' "layer 1"), per-layer rates l_i, cumulative rates c_j = Σ_{i≤j} l_i. Default \[D\]
//! (docs/papers/dvrc.md §2.2): cumulative 128, 256, 512, 768, 1024 kbit/s. Each frame is split
//! across all k layers in proportion to the layer's share of the total (docs/papers/dvrc.md §2.1
//! \[D\]): enhancement layer i ≥ 1 gets `round(size · l_i / c_k)` bytes (half up, exact integer
//! arithmetic) and the base layer gets the rest, so a frame's layer sizes **sum exactly to the
//! frame size** and the base layer absorbs the rounding (at most (k−1)/2 bytes). In frames too
//! small for that (a few bytes per layer), enhancement layers take their share in layer order only
//! while bytes are left, so no layer is ever negative.
//! The splitter does not rescale frames: configure the source at `c_k` (e.g. with
//! [`TesModel::mpeg4_for_rate`](super::tes::TesModel::mpeg4_for_rate)) or use
//! [`LayeredSource::scaled`], which wraps it in a [`ScaledSource`].
//! [`LayerRates::layers_within`] is DVRC's K = max(1, max{j : c_j ≤ R}) (docs/papers/dvrc.md §1.1.7, A8).
//!
//! **Simulcast** ([`SimulcastSource`]; docs/papers/sramt.md SRAMT-S): n independent streams, each a
//! complete encoding. Each stream is its own source (independent randomness, e.g. one TES source
//! per stream) scaled to its rate: frame sizes are multiplied by `rate_j / source mean rate`
//! (rounded half up), so each stream's long-run mean is its rate while its frame-size process
//! keeps its shape (CV, correlation, I:P:B ratios). SRAMT retunes stream rates inside their
//! bands: [`SimulcastSource::set_rate`] changes the scale from the next frame on.
//!
//! **Rate-adaptive** ([`RateAdaptiveSet`], [`RateAdaptiveSource`]; docs/papers/asmp-tfmcc.md §2,
//! Evalvid-RA): one trace per quantizer q of the same clip (q = 2 best quality, highest rate; q =
//! 31 worst). At each GOP start (display frames `g·N .. g·N+N`), the source picks the **lowest
//! quantizer** whose bytes over that upcoming GOP fit in `target × GOP duration`
//! (docs/papers/asmp-tfmcc.md AMB-13 \[C\]: the per-GOP sizes are known from the q-traces); the
//! alternative criterion [`RaCriterion::LongRunMean`] compares each trace's long-run mean rate
//! instead. If no quantizer fits, the one with the fewest bytes under the criterion is used (in
//! practice q = 31). Lower q is taken as higher quality, so a non-monotone rate table
//! (docs/papers/asmp-tfmcc.md AMB-12: Q27, Q29) does not matter: the rule only asks "fits or not".
//! Traces are looped like [`TraceSource`]s and must all have the same number of frames.
//!
//! [`TraceSource`]: super::trace::TraceSource

use super::frame::{Frame, FrameType};
use super::gop::GopPattern;
use super::source::{frame_interval_for_fps, FrameClock, FrameSource, SourceError};
use super::trace::{FrameOrder, Trace};
use crate::time::{Duration, Instant};
use crate::units::DataRate;

/// Most layers (or simulcast streams) a stream may have: `MediaTag::layer` is a `u8`, and a
/// fixed array keeps per-frame splitting allocation-free.
pub const MAX_LAYERS: usize = 16;

/// Per-layer and cumulative rates of a layered stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayerRates {
    per_layer: Vec<DataRate>,
    cumulative: Vec<DataRate>,
}

impl LayerRates {
    /// From the rate of each layer, base first. Every rate must be positive.
    pub fn from_per_layer(rates: Vec<DataRate>) -> Result<Self, SourceError> {
        if rates.is_empty() || rates.len() > MAX_LAYERS {
            return Err(SourceError(format!("layer count must be 1..={MAX_LAYERS}, got {}", rates.len())));
        }
        if let Some(i) = rates.iter().position(|r| r.as_bps() == 0) {
            return Err(SourceError(format!("layer {i} has a zero rate")));
        }
        let mut acc = 0u64;
        let cumulative = rates
            .iter()
            .map(|r| {
                acc = acc.saturating_add(r.as_bps());
                DataRate::from_bps(acc)
            })
            .collect();
        Ok(LayerRates { per_layer: rates, cumulative })
    }

    /// From cumulative rates c_1 < c_2 < ... < c_k.
    pub fn from_cumulative(cumulative: Vec<DataRate>) -> Result<Self, SourceError> {
        let mut prev = DataRate::ZERO;
        let mut per = Vec::with_capacity(cumulative.len());
        for (i, &c) in cumulative.iter().enumerate() {
            if c <= prev {
                return Err(SourceError(format!(
                    "cumulative layer rates must increase strictly: layer {i} has {c} after {prev}"
                )));
            }
            per.push(DataRate::from_bps(c.as_bps() - prev.as_bps()));
            prev = c;
        }
        Self::from_per_layer(per)
    }

    /// DVRC default \[D\] (docs/papers/dvrc.md §2.2): cumulative 128, 256, 512, 768, 1024 kbit/s.
    pub fn dvrc_default() -> Self {
        Self::from_cumulative([128, 256, 512, 768, 1024].map(DataRate::from_kbps).to_vec()).expect("valid")
    }

    pub fn count(&self) -> usize {
        self.per_layer.len()
    }
    /// Rate l_i of layer `i` (0 = base).
    pub fn layer(&self, i: usize) -> DataRate {
        self.per_layer[i]
    }
    /// Cumulative rate of layers `0..=i`.
    pub fn cumulative(&self, i: usize) -> DataRate {
        self.cumulative[i]
    }
    pub fn per_layer(&self) -> &[DataRate] {
        &self.per_layer
    }
    /// Full-quality rate c_k.
    pub fn total(&self) -> DataRate {
        *self.cumulative.last().expect("at least one layer")
    }
    /// Number of layers K = max(1, max{j : c_j ≤ rate}) (DVRC, docs/papers/dvrc.md §1.1.7 A8: the
    /// base layer is always sent).
    pub fn layers_within(&self, rate: DataRate) -> usize {
        self.cumulative.iter().take_while(|&&c| c <= rate).count().max(1)
    }

    /// Splits a frame of `size` bytes across the layers (see module doc).
    pub fn split(&self, size: u32) -> LayerSizes {
        let total = u128::from(self.total().as_bps());
        let mut sizes = [0u32; MAX_LAYERS];
        let mut left = size;
        for (slot, rate) in sizes.iter_mut().zip(&self.per_layer).skip(1) {
            let l = u128::from(rate.as_bps());
            // round(size · l_i / c_k), half up.
            let share = ((2 * u128::from(size) * l + total) / (2 * total)) as u32;
            *slot = share.min(left);
            left -= *slot;
        }
        sizes[0] = left;
        LayerSizes { sizes, count: self.count() as u8 }
    }
}

/// A frame's bytes per layer (base first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LayerSizes {
    sizes: [u32; MAX_LAYERS],
    count: u8,
}

impl LayerSizes {
    pub fn as_slice(&self) -> &[u32] {
        &self.sizes[..usize::from(self.count)]
    }
    pub fn get(&self, layer: usize) -> u32 {
        self.as_slice()[layer]
    }
    pub fn len(&self) -> usize {
        usize::from(self.count)
    }
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
    /// Bytes of layers `0..k` (what a receiver subscribed to k layers gets).
    pub fn cumulative(&self, k: usize) -> u64 {
        self.as_slice()[..k].iter().map(|&s| u64::from(s)).sum()
    }
}

/// A source whose frame sizes are scaled to a target mean rate.
#[derive(Clone, Debug)]
pub struct ScaledSource<S> {
    inner: S,
    target_bps: u64,
    source_bps: u64,
}

impl<S: FrameSource> ScaledSource<S> {
    pub fn new(inner: S, target: DataRate) -> Result<Self, SourceError> {
        let source_bps = inner.mean_rate().as_bps();
        if source_bps == 0 {
            return Err(SourceError("cannot scale a source whose mean rate is zero".into()));
        }
        Ok(ScaledSource { inner, target_bps: target.as_bps(), source_bps })
    }
    /// New target rate, from the next frame on.
    pub fn set_target(&mut self, target: DataRate) {
        self.target_bps = target.as_bps();
    }
    pub fn inner(&self) -> &S {
        &self.inner
    }
}

impl<S: FrameSource> FrameSource for ScaledSource<S> {
    #[inline]
    fn next_frame(&mut self) -> Frame {
        let mut f = self.inner.next_frame();
        let (t, s) = (u128::from(self.target_bps), u128::from(self.source_bps));
        f.size_bytes = ((2 * u128::from(f.size_bytes) * t + s) / (2 * s)).min(u128::from(u32::MAX)) as u32;
        f
    }
    fn frame_interval(&self) -> Duration {
        self.inner.frame_interval()
    }
    fn mean_rate(&self) -> DataRate {
        DataRate::from_bps(self.target_bps)
    }
}

/// A frame and its per-layer sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LayeredFrame {
    pub frame: Frame,
    pub layers: LayerSizes,
}

/// Splits every frame of a source across cumulative layers.
#[derive(Clone, Debug)]
pub struct LayeredSource<S> {
    source: S,
    rates: LayerRates,
}

impl<S: FrameSource> LayeredSource<S> {
    /// The source is used as is (configure it at `rates.total()`).
    pub fn new(source: S, rates: LayerRates) -> Self {
        LayeredSource { source, rates }
    }
    pub fn rates(&self) -> &LayerRates {
        &self.rates
    }
    pub fn next_layered(&mut self) -> LayeredFrame {
        let frame = self.source.next_frame();
        LayeredFrame { frame, layers: self.rates.split(frame.size_bytes) }
    }
    pub fn source(&self) -> &S {
        &self.source
    }
}

impl<S: FrameSource> LayeredSource<ScaledSource<S>> {
    /// The source scaled so that its mean rate is the full-quality rate c_k.
    pub fn scaled(source: S, rates: LayerRates) -> Result<Self, SourceError> {
        let total = rates.total();
        Ok(LayeredSource { source: ScaledSource::new(source, total)?, rates })
    }
}

/// n independent streams at different rates (simulcast).
pub struct SimulcastSource {
    streams: Vec<ScaledSource<Box<dyn FrameSource + Send>>>,
    last: Vec<Frame>,
}

impl SimulcastSource {
    /// One `(source, rate)` per stream, lowest first by convention; all sources must have the
    /// same frame interval.
    pub fn new(streams: Vec<(Box<dyn FrameSource + Send>, DataRate)>) -> Result<Self, SourceError> {
        if streams.is_empty() || streams.len() > MAX_LAYERS {
            return Err(SourceError(format!("simulcast stream count must be 1..={MAX_LAYERS}, got {}", streams.len())));
        }
        let interval = streams[0].0.frame_interval();
        let mut out = Vec::with_capacity(streams.len());
        for (j, (src, rate)) in streams.into_iter().enumerate() {
            if src.frame_interval() != interval {
                return Err(SourceError(format!(
                    "simulcast stream {j} has frame interval {} but stream 0 has {interval}",
                    src.frame_interval()
                )));
            }
            if rate.as_bps() == 0 {
                return Err(SourceError(format!("simulcast stream {j} has a zero rate")));
            }
            out.push(ScaledSource::new(src, rate).map_err(|e| SourceError(format!("simulcast stream {j}: {e}")))?);
        }
        let n = out.len();
        Ok(SimulcastSource { streams: out, last: Vec::with_capacity(n) })
    }
    pub fn count(&self) -> usize {
        self.streams.len()
    }
    /// The common frame interval of the streams.
    pub fn frame_interval(&self) -> Duration {
        self.streams[0].frame_interval()
    }
    pub fn rate(&self, stream: usize) -> DataRate {
        self.streams[stream].mean_rate()
    }
    /// Retunes one stream's rate (SRAMT-S), from its next frame on.
    pub fn set_rate(&mut self, stream: usize, rate: DataRate) {
        self.streams[stream].set_target(rate);
    }
    /// Mutable access to one stream as a source of its own.
    pub fn stream_mut(&mut self, stream: usize) -> &mut dyn FrameSource {
        &mut self.streams[stream]
    }
    /// The next frame of every stream (index = stream), same display index for all.
    pub fn next_frames(&mut self) -> &[Frame] {
        self.last.clear();
        self.last.extend(self.streams.iter_mut().map(|s| s.next_frame()));
        &self.last
    }
}

/// How a rate-adaptive set decides whether a quantizer fits the target rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RaCriterion {
    /// Bytes of the upcoming GOP ≤ target × GOP duration (default; docs/papers/asmp-tfmcc.md AMB-13 \[C\]).
    #[default]
    UpcomingGop,
    /// The trace's long-run mean rate ≤ target.
    LongRunMean,
}

/// One frame-size trace per quantizer of the same clip (Evalvid-RA).
#[derive(Clone, Debug)]
pub struct RateAdaptiveSet {
    quantizers: Vec<u8>,
    /// Per trace, (type, size) in display order.
    frames: Vec<Vec<(FrameType, u32)>>,
    /// Per trace, prefix sums of sizes (len + 1 entries).
    prefix: Vec<Vec<u64>>,
    gop_len: u64,
    interval: Duration,
    criterion: RaCriterion,
}

impl RateAdaptiveSet {
    /// `traces`: `(quantizer, trace)` pairs in any order (sorted by quantizer here); `order` is
    /// the order the traces list frames in (Evalvid traces: decode order).
    pub fn new(traces: Vec<(u8, Trace)>, gop: &GopPattern, fps: f64, order: FrameOrder) -> Result<Self, SourceError> {
        let interval = frame_interval_for_fps(fps)?;
        let mut traces = traces;
        traces.sort_by_key(|(q, _)| *q);
        if traces.is_empty() {
            return Err(SourceError("rate-adaptive set needs at least one trace".into()));
        }
        let len = traces[0].1.len();
        for w in traces.windows(2) {
            if w[0].0 == w[1].0 {
                return Err(SourceError(format!("quantizer {} appears twice", w[0].0)));
            }
        }
        let mut set = RateAdaptiveSet {
            quantizers: Vec::with_capacity(traces.len()),
            frames: Vec::with_capacity(traces.len()),
            prefix: Vec::with_capacity(traces.len()),
            gop_len: gop.len() as u64,
            interval,
            criterion: RaCriterion::default(),
        };
        for (q, t) in &traces {
            if t.is_empty() || t.len() != len {
                return Err(SourceError(format!(
                    "trace for quantizer {q} has {} frames, expected {len} (all traces must cover the same clip)",
                    t.len()
                )));
            }
            let disp: Vec<(FrameType, u32)> =
                t.display_permutation(order).into_iter().map(|i| (t.frames[i].0, t.frames[i].1)).collect();
            let mut prefix = Vec::with_capacity(len + 1);
            let mut acc = 0u64;
            prefix.push(0);
            for f in &disp {
                acc += u64::from(f.1);
                prefix.push(acc);
            }
            set.quantizers.push(*q);
            set.frames.push(disp);
            set.prefix.push(prefix);
        }
        Ok(set)
    }

    pub fn with_criterion(mut self, criterion: RaCriterion) -> Self {
        self.criterion = criterion;
        self
    }
    /// Quantizers, ascending (best quality first); `choose` returns an index into this.
    pub fn quantizers(&self) -> &[u8] {
        &self.quantizers
    }
    /// Frames per trace.
    pub fn trace_len(&self) -> usize {
        self.frames[0].len()
    }
    pub fn frame_interval(&self) -> Duration {
        self.interval
    }
    /// Duration of one GOP.
    pub fn gop_duration(&self) -> Duration {
        self.interval * self.gop_len
    }
    /// Long-run mean rate of trace `idx`.
    pub fn mean_rate(&self, idx: usize) -> DataRate {
        super::source::rate_of(self.prefix[idx][self.trace_len()] as f64 / self.trace_len() as f64, self.interval)
    }

    /// Bytes of `count` display frames of trace `idx` from frame `first` (looping).
    fn bytes(&self, idx: usize, first: u64, count: u64) -> u64 {
        let len = self.trace_len() as u64;
        let p = &self.prefix[idx];
        let total = p[len as usize];
        let start = (first % len) as usize;
        let (loops, rest) = (count / len, (count % len) as usize);
        let tail = if start + rest <= len as usize {
            p[start + rest] - p[start]
        } else {
            (total - p[start]) + p[start + rest - len as usize]
        };
        loops * total + tail
    }

    /// Bytes of GOP `gop_index` (display frames `g·N .. g·N+N`) in trace `idx`.
    pub fn gop_bytes(&self, idx: usize, gop_index: u64) -> u64 {
        self.bytes(idx, gop_index * self.gop_len, self.gop_len)
    }

    /// Index (into [`quantizers`](Self::quantizers)) of the trace to send for GOP `gop_index`
    /// under a target rate.
    pub fn choose(&self, gop_index: u64, target: DataRate) -> usize {
        let len = self.trace_len();
        let frames = match self.criterion {
            RaCriterion::UpcomingGop => self.gop_len,
            RaCriterion::LongRunMean => len as u64,
        };
        let bytes_of = |i: usize| match self.criterion {
            RaCriterion::UpcomingGop => self.gop_bytes(i, gop_index),
            RaCriterion::LongRunMean => self.prefix[i][len],
        };
        // Fits when bits·1e9 ≤ rate·frames·interval_ns (exact integers).
        let budget = u128::from(target.as_bps()) * u128::from(frames) * u128::from(self.interval.as_nanos());
        let mut smallest = 0;
        let mut smallest_bytes = u64::MAX;
        for i in 0..self.quantizers.len() {
            let b = bytes_of(i);
            if u128::from(b) * 8 * 1_000_000_000 <= budget {
                return i;
            }
            if b < smallest_bytes {
                (smallest, smallest_bytes) = (i, b);
            }
        }
        smallest
    }

    /// Type and size of display frame `n` (looping) in trace `idx`.
    pub fn frame(&self, idx: usize, n: u64) -> (FrameType, u32) {
        self.frames[idx][(n % self.trace_len() as u64) as usize]
    }
}

/// Plays a [`RateAdaptiveSet`], switching quantizer at GOP starts to follow a target rate.
#[derive(Clone, Debug)]
pub struct RateAdaptiveSource {
    set: RateAdaptiveSet,
    clock: FrameClock,
    target: DataRate,
    current: usize,
}

impl RateAdaptiveSource {
    pub fn new(set: RateAdaptiveSet, target: DataRate) -> Self {
        let clock = FrameClock::new(set.interval);
        RateAdaptiveSource { set, clock, target, current: 0 }
    }
    pub fn with_start(mut self, start: Instant) -> Self {
        self.clock.start = start;
        self
    }
    /// New target; applied at the next GOP start.
    pub fn set_target_rate(&mut self, target: DataRate) {
        self.target = target;
    }
    pub fn target_rate(&self) -> DataRate {
        self.target
    }
    /// Index (into the set's quantizers, ascending) of the most recently returned frame's trace.
    pub fn current_index(&self) -> usize {
        self.current
    }
    /// Quantizer of the most recently returned frame (before the first frame: the best one).
    pub fn current_quantizer(&self) -> u8 {
        self.set.quantizers[self.current]
    }
    pub fn set(&self) -> &RateAdaptiveSet {
        &self.set
    }
}

impl FrameSource for RateAdaptiveSource {
    fn next_frame(&mut self) -> Frame {
        let (id, ready_at) = self.clock.tick();
        let n = u64::from(id);
        if n % self.set.gop_len == 0 {
            self.current = self.set.choose(n / self.set.gop_len, self.target);
        }
        let (frame_type, size_bytes) = self.set.frame(self.current, n);
        Frame { id, frame_type, size_bytes, ready_at }
    }
    fn frame_interval(&self) -> Duration {
        self.set.interval
    }
    /// Long-run mean of the trace in use.
    fn mean_rate(&self) -> DataRate {
        self.set.mean_rate(self.current)
    }
}

#[cfg(test)]
mod tests {
    use super::super::source::{CbrSource, SplitMix64};
    use super::super::tes::{TesModel, TesSource};
    use super::*;
    use FrameType::*;

    fn kbps(k: u64) -> DataRate {
        DataRate::from_kbps(k)
    }

    #[test]
    fn dvrc_layers_and_subscription_level() {
        let r = LayerRates::dvrc_default();
        assert_eq!(r.count(), 5);
        assert_eq!(r.per_layer(), &[kbps(128), kbps(128), kbps(256), kbps(256), kbps(256)]);
        assert_eq!(r.cumulative(2), kbps(512));
        assert_eq!(r.total(), kbps(1024));
        assert_eq!(r.layers_within(kbps(50)), 1);
        assert_eq!(r.layers_within(kbps(256)), 2);
        assert_eq!(r.layers_within(kbps(767)), 3);
        assert_eq!(r.layers_within(kbps(5000)), 5);
        assert_eq!(LayerRates::from_per_layer(r.per_layer().to_vec()).unwrap(), r);
        assert!(LayerRates::from_cumulative(vec![kbps(128), kbps(128)]).unwrap_err().0.contains("strictly"));
        assert!(LayerRates::from_per_layer(vec![]).is_err());
        assert!(LayerRates::from_per_layer(vec![kbps(1), DataRate::ZERO]).unwrap_err().0.contains("layer 1"));
    }

    #[test]
    fn split_sums_exactly_and_follows_the_shares() {
        let r = LayerRates::dvrc_default();
        // 1024 bytes: shares 1/8, 1/8, 1/4, 1/4, 1/4 exactly.
        assert_eq!(r.split(1024).as_slice(), &[128, 128, 256, 256, 256]);
        // 1000 bytes: 125, 125, 250, 250, 250.
        assert_eq!(r.split(1000).as_slice(), &[125, 125, 250, 250, 250]);
        // 1001: enhancement 125.1→125, 250.2→250 ×3; base takes the remainder 126.
        assert_eq!(r.split(1001).as_slice(), &[126, 125, 250, 250, 250]);
        // 1006: 125.75→126, 251.5→252 (half up) ×3 → base 1006 − 882 = 124.
        assert_eq!(r.split(1006).as_slice(), &[124, 126, 252, 252, 252]);
        assert_eq!(r.split(0).as_slice(), &[0; 5]);
        assert_eq!(r.split(2).as_slice(), &[0, 0, 1, 1, 0]);
        for size in (0..5000).chain([u32::MAX - 1, u32::MAX]) {
            let s = r.split(size);
            assert_eq!(s.cumulative(5), u64::from(size), "{size}");
            for i in 1..5 {
                let exact = f64::from(size) * r.layer(i).as_bps_f64() / r.total().as_bps_f64();
                assert!((f64::from(s.get(i)) - exact).abs() <= 0.5 + 1e-9 || size < 16, "{size} layer {i}");
            }
        }
    }

    #[test]
    fn layered_tes_source_has_the_layer_rates() {
        let gop = GopPattern::parse("IBBPBBPBBPBB").unwrap();
        let tes = TesSource::new(gop, 25.0, TesModel::MPEG4_CIF_1MBPS, Box::new(SplitMix64(9))).unwrap();
        let mut s = LayeredSource::scaled(tes, LayerRates::dvrc_default()).unwrap();
        let frames = 25 * 2000;
        let mut per = [0u64; 5];
        for n in 0..frames {
            let lf = s.next_layered();
            assert_eq!(lf.frame.id, n);
            assert_eq!(lf.layers.cumulative(5), u64::from(lf.frame.size_bytes));
            for (i, b) in lf.layers.as_slice().iter().enumerate() {
                per[i] += u64::from(*b);
            }
        }
        for (i, &b) in per.iter().enumerate() {
            let rate = b as f64 * 8.0 / 2000.0;
            let want = s.rates().layer(i).as_bps_f64();
            assert!((rate / want - 1.0).abs() < 0.03, "layer {i}: {rate} vs {want}");
        }
    }

    #[test]
    fn simulcast_streams_have_their_rates() {
        let gop = GopPattern::parse("IBBPBBPBBPBB").unwrap();
        let mk = |seed| -> Box<dyn FrameSource + Send> {
            Box::new(TesSource::new(gop.clone(), 25.0, TesModel::MPEG4_CIF_1MBPS, Box::new(SplitMix64(seed))).unwrap())
        };
        let rates = [kbps(200), kbps(600), kbps(1000)];
        let mut s = SimulcastSource::new(vec![(mk(1), rates[0]), (mk(2), rates[1]), (mk(3), rates[2])]).unwrap();
        assert_eq!(s.count(), 3);
        let secs = 2000;
        let mut bytes = [0u64; 3];
        let mut differ = false;
        for n in 0..25 * secs {
            let fr = s.next_frames();
            assert!(fr.iter().all(|f| f.id == n));
            for (j, f) in fr.iter().enumerate() {
                bytes[j] += u64::from(f.size_bytes);
            }
            // Independent sources: stream 2 is not just stream 0 scaled by 5.
            differ |= (f64::from(fr[2].size_bytes) / f64::from(fr[0].size_bytes.max(1)) - 5.0).abs() > 0.5;
        }
        assert!(differ);
        for j in 0..3 {
            let rate = bytes[j] as f64 * 8.0 / secs as f64;
            assert!((rate / rates[j].as_bps_f64() - 1.0).abs() < 0.03, "stream {j}: {rate}");
            assert_eq!(s.rate(j), rates[j]);
        }
        // Retuning: CBR 1000 B at 25 fps (200 kbit/s) scaled to 100 kbit/s gives 500 B frames.
        let cbr = |size| -> Box<dyn FrameSource + Send> { Box::new(CbrSource::new(size, 25.0).unwrap()) };
        let mut c = SimulcastSource::new(vec![(cbr(1000), kbps(100)), (cbr(1000), kbps(400))]).unwrap();
        assert_eq!(c.next_frames().iter().map(|f| f.size_bytes).collect::<Vec<_>>(), vec![500, 2000]);
        c.set_rate(0, kbps(300));
        assert_eq!(c.next_frames()[0].size_bytes, 1500);
        assert_eq!(c.stream_mut(1).next_frame().size_bytes, 2000);
        let slow: Box<dyn FrameSource + Send> = Box::new(CbrSource::new(1000, 30.0).unwrap());
        assert!(SimulcastSource::new(vec![(cbr(1000), kbps(1)), (slow, kbps(1))])
            .err()
            .unwrap()
            .0
            .contains("interval"));
    }

    /// A 24-frame trace in display order (GOP IBPB, 6 GOPs) whose GOP g has size scale `k[g]`.
    fn trace(scale: u32, gop_scale: [u32; 6]) -> Trace {
        let mut frames = Vec::new();
        for g in gop_scale {
            for t in [I, B, P, B] {
                let base = match t {
                    I => 400,
                    P => 200,
                    B => 100,
                };
                frames.push((t, base * scale * g / 10, None));
            }
        }
        Trace { frames }
    }

    #[test]
    fn rate_adaptive_choice_at_gop_boundaries() {
        let gop = GopPattern::parse("IBPB").unwrap();
        // GOP bytes at q2 = 800·3·g/10, q8 = 800·2·g/10, q31 = 800·g/10; GOP duration 4 × 40 ms.
        let g = [10, 10, 20, 5, 10, 10];
        let set = RateAdaptiveSet::new(
            vec![(31, trace(1, g)), (2, trace(3, g)), (8, trace(2, g))],
            &gop,
            25.0,
            FrameOrder::Display,
        )
        .unwrap();
        assert_eq!(set.quantizers(), &[2, 8, 31]);
        assert_eq!(set.gop_bytes(0, 0), 2400);
        assert_eq!(set.gop_bytes(0, 2), 4800);
        assert_eq!(set.gop_bytes(0, 8), 4800); // the trace loops: GOP 8 is GOP 2 again
                                               // A window that wraps around the end of the trace: last 3 frames + first 2.
        assert_eq!(set.bytes(0, 21, 5), (300 + 600 + 300) + (1200 + 300));
        assert_eq!(set.bytes(0, 45, 24 * 2 + 5), 2 * 15600 + set.bytes(0, 21, 5));
        // 2400 B per 160 ms = 120 kbit/s exactly fits q2 in GOP 0.
        assert_eq!(set.choose(0, kbps(120)), 0);
        assert_eq!(set.choose(0, DataRate::from_bps(119_999)), 1);
        // GOP 2 is twice as big: q2 4800 B and q8 3200 B exceed the 2400 B budget, q31 1600 B fits.
        assert_eq!(set.gop_bytes(1, 2), 3200);
        assert_eq!(set.choose(2, kbps(120)), 2);
        assert_eq!(set.choose(3, kbps(70)), 0); // small GOP 3 (1200 B = 60 kbit/s) fits q2
        assert_eq!(set.choose(0, kbps(1)), 2); // nothing fits: fewest bytes (q31)
        let mean = set.clone().with_criterion(RaCriterion::LongRunMean);
        // Long-run mean of q2: 800·3·(65/10)/6 B per 160 ms = 2600 B / 0.16 s = 130 kbit/s.
        assert_eq!(mean.mean_rate(0), kbps(130));
        assert_eq!(mean.choose(2, kbps(130)), 0);
        assert_eq!(mean.choose(3, kbps(129)), 1);

        // The source switches only at GOP starts.
        let mut src = RateAdaptiveSource::new(set, kbps(120));
        let mut used = Vec::new();
        for n in 0..24u32 {
            if n == 6 {
                src.set_target_rate(kbps(60)); // mid-GOP: takes effect at frame 8
            }
            let f = src.next_frame();
            assert_eq!(f.frame_type, [I, B, P, B][n as usize % 4]);
            used.push(src.current_quantizer());
        }
        let per_gop: Vec<u8> = used
            .chunks(4)
            .map(|c| {
                assert!(c.iter().all(|&q| q == c[0]), "switched inside a GOP: {c:?}");
                c[0]
            })
            .collect();
        // GOPs 0, 1 at 120 kbit/s (2400 B budget): q2 fits. From GOP 2 at 60 kbit/s (1200 B):
        // GOP 2 (×2) nothing fits → fewest bytes, q31; GOP 3 (×½) q2 = 1200 B fits; GOPs 4, 5: q8
        // needs 1600 B → q31.
        assert_eq!(per_gop, vec![2, 2, 31, 2, 31, 31]);
    }

    #[test]
    fn rate_adaptive_validation_and_decode_order() {
        let gop = GopPattern::parse("IBPB").unwrap();
        let g = [10; 6];
        assert!(RateAdaptiveSet::new(vec![], &gop, 25.0, FrameOrder::Display).is_err());
        let short = Trace { frames: vec![(I, 1, None)] };
        let e = RateAdaptiveSet::new(vec![(2, trace(1, g)), (5, short)], &gop, 25.0, FrameOrder::Display);
        assert!(e.unwrap_err().0.contains("quantizer 5 has 1 frames"));
        let e = RateAdaptiveSet::new(vec![(2, trace(1, g)), (2, trace(1, g))], &gop, 25.0, FrameOrder::Display);
        assert!(e.unwrap_err().0.contains("twice"));
        // A decode-order trace (I P B ...) is reordered to display order.
        let dec = Trace { frames: vec![(I, 40, None), (P, 20, None), (B, 10, None), (I, 41, None), (B, 11, None)] };
        let set =
            RateAdaptiveSet::new(vec![(4, dec)], &GopPattern::parse("IBP").unwrap(), 25.0, FrameOrder::Decode).unwrap();
        let shown: Vec<(FrameType, u32)> = (0..5).map(|n| set.frame(0, n)).collect();
        assert_eq!(shown, vec![(I, 40), (B, 10), (P, 20), (B, 11), (I, 41)]);
    }
}
