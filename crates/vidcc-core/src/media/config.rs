//! A flow's video, as a scenario describes it ([`VideoConfig`]: model, frame rate, GOP, layers or
//! simulcast streams, playout), and [`build_stream`], which turns it into the [`VideoStream`] a
//! protocol's sender draws frames from. Every driver builds a flow's video here, so a simulated
//! and a real run of the same scenario send the same frames.

use crate::media::gop::GopPattern;
use crate::media::layers::{
    LayerRates, LayeredSource, RaCriterion, RateAdaptiveSet, RateAdaptiveSource, SimulcastSource,
};
use crate::media::source::{CbrSource, UniformSource};
use crate::media::stream::{BoxedSource, SendOrder, StreamSource, VideoStream};
use crate::media::tes::{TesModel, TesSource};
use crate::media::trace::{FrameOrder, Trace, TraceFormat, TraceSource};
use crate::rng::SimRng;
use crate::{DataRate, Instant};
use rand::Rng;
use serde::{Deserialize, Serialize};

/// A video source and how its receiver plays it out (docs/video.md).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct VideoConfig {
    pub model: VideoModel,
    pub fps: f64,
    /// GOP pattern in display order, e.g. `IBBPBBPBBPBB`.
    pub gop: String,
    /// Cumulative layer rates (layered video); empty: one layer.
    #[serde(default)]
    pub layers_bps: Vec<u64>,
    /// Simulcast stream rates; empty: not simulcast. Exclusive with `layers_bps`.
    #[serde(default)]
    pub streams_bps: Vec<u64>,
    pub playout: PlayoutConfigSpec,
    /// Inter-arrival gap above which a received packet is "delayed" (docs/papers/dvrc.md §4: 75 ms).
    pub delayed_threshold_ns: u64,
    /// Send frames in display order instead of decode order (media/stream.rs).
    #[serde(default)]
    pub display_order: bool,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(tag = "kind", deny_unknown_fields)]
pub enum VideoModel {
    /// TES frame sizes per frame type (Matrawy et al. MPEG-4 model), scaled to `rate_bps`.
    #[serde(rename = "tes-mpeg4")]
    TesMpeg4 { rate_bps: u64 },
    /// A frame-size trace, given as its text (`source` names the file for messages).
    #[serde(rename = "trace")]
    Trace { text: String, format: TraceFormatSpec, source: String },
    /// Every frame the same size.
    #[serde(rename = "cbr")]
    Cbr { rate_bps: u64 },
    /// A rate-adaptive set (Evalvid-RA): one trace per quantizer of the same clip; the sender's
    /// rate picks the trace at each GOP start (`media/layers.rs`). Traces in the scenario's order
    /// (a frame's `encoding` is its trace's index here).
    #[serde(rename = "rate-adaptive")]
    RateAdaptive {
        traces: Vec<RaTraceSpec>,
        format: TraceFormatSpec,
        #[serde(default)]
        criterion: RaCriterionSpec,
    },
}

/// One trace of a rate-adaptive set: its quantizer and text (`source` names the file).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RaTraceSpec {
    pub quantizer: u8,
    pub text: String,
    pub source: String,
}

/// Whether a quantizer "fits" the target rate (`RaCriterion`).
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum RaCriterionSpec {
    /// The upcoming GOP's bytes fit in target × GOP duration (docs/papers/asmp-tfmcc.md AMB-13 [C]).
    #[default]
    UpcomingGop,
    /// The trace's long-run mean rate is at most the target.
    LongRunMean,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum TraceFormatSpec {
    Evalvid,
    Plain,
}

/// When a frame must be complete to be shown.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum PlayoutConfigSpec {
    /// Playout starts `delay_ns` after the first packet arrives (Evalvid's playout buffer).
    FirstArrival { delay_ns: u64 },
    /// Frame n is due `delay_ns` after it was ready at the sender (a per-frame deadline).
    ReadyTime { delay_ns: u64 },
    /// Frame n is due `delay_ns` after its first packet left the sender (ASMP §6.5's D_pb,
    /// "relative to the frame transmission time"); a frame never sent: as `ReadyTime`.
    SendTime { delay_ns: u64 },
}

/// The simulator's seeded stream as the uniform source TES needs.
struct RngUniform(SimRng);

impl UniformSource for RngUniform {
    fn next_f64(&mut self) -> f64 {
        self.0.gen::<f64>()
    }
}

pub fn trace_format(f: TraceFormatSpec) -> TraceFormat {
    match f {
        TraceFormatSpec::Evalvid => TraceFormat::Evalvid,
        TraceFormatSpec::Plain => TraceFormat::Plain,
    }
}

/// Builds the stream a video flow's sender draws from. `rng` is called once per source, with the
/// same stream for every simulcast stream so that they code the same content.
pub fn build_stream(v: &VideoConfig, start: Instant, rng: &dyn Fn() -> SimRng) -> Result<VideoStream, String> {
    let gop = GopPattern::parse(&v.gop).map_err(|e| format!("gop: {e}"))?;
    let fps = v.fps;
    let order = if v.display_order { SendOrder::Display } else { SendOrder::Decode };
    let wrap = |s: StreamSource| VideoStream::new(s, order);
    if let VideoModel::RateAdaptive { traces, format, criterion } = &v.model {
        if !v.layers_bps.is_empty() || !v.streams_bps.is_empty() {
            return Err("a rate-adaptive set is neither layered nor simulcast (drop layers/streams)".into());
        }
        return Ok(wrap(rate_adaptive(traces, *format, *criterion, &gop, fps, start)?));
    }
    let trace = match &v.model {
        VideoModel::Trace { text, format, source } => {
            Some(Trace::parse(text, trace_format(*format)).map_err(|e| format!("trace {source}: {e}"))?)
        }
        _ => None,
    };
    let source = |rate: DataRate| -> Result<BoxedSource, String> {
        Ok(match &v.model {
            VideoModel::TesMpeg4 { .. } => {
                let models = TesModel::mpeg4_for_rate(&gop, fps, rate).map_err(|e| e.to_string())?;
                Box::new(
                    TesSource::new(gop.clone(), fps, models, Box::new(RngUniform(rng())))
                        .map_err(|e| e.to_string())?
                        .with_start(start),
                )
            }
            VideoModel::Cbr { .. } => {
                Box::new(CbrSource::for_rate(rate, fps).map_err(|e| e.to_string())?.with_start(start))
            }
            VideoModel::RateAdaptive { .. } => unreachable!("handled above"),
            VideoModel::Trace { format, .. } => {
                let order = FrameOrder::of_format(trace_format(*format));
                let t = trace.as_ref().expect("parsed above");
                Box::new(TraceSource::new(t, fps, order).map_err(|e| e.to_string())?.with_start(start))
            }
        })
    };
    let model_rate = match &v.model {
        VideoModel::TesMpeg4 { rate_bps } | VideoModel::Cbr { rate_bps } => DataRate::from_bps(*rate_bps),
        VideoModel::Trace { .. } | VideoModel::RateAdaptive { .. } => DataRate::ZERO,
    };
    if !v.layers_bps.is_empty() && !v.streams_bps.is_empty() {
        return Err("layers and streams exclude each other".into());
    }
    if !v.layers_bps.is_empty() {
        let rates = LayerRates::from_cumulative(v.layers_bps.iter().map(|&b| DataRate::from_bps(b)).collect())
            .map_err(|e| format!("layers: {e}"))?;
        // Models with a rate are scaled to the full-quality rate; a trace keeps its own sizes and
        // is split in the layers' proportions.
        return Ok(wrap(match v.model {
            VideoModel::Trace { .. } => StreamSource::Layered(LayeredSource::new(source(model_rate)?, rates)),
            _ => StreamSource::LayeredScaled(
                LayeredSource::scaled(source(rates.total())?, rates).map_err(|e| format!("layers: {e}"))?,
            ),
        }));
    }
    if !v.streams_bps.is_empty() {
        let streams = v
            .streams_bps
            .iter()
            .map(|&b| Ok((source(DataRate::from_bps(b))?, DataRate::from_bps(b))))
            .collect::<Result<Vec<_>, String>>()?;
        return Ok(wrap(StreamSource::Simulcast(SimulcastSource::new(streams).map_err(|e| format!("streams: {e}"))?)));
    }
    Ok(wrap(StreamSource::Single(source(model_rate)?)))
}

/// The rate-adaptive source of a set of traces. Its target starts at "unbounded" (the best
/// quality): a protocol that steers it sets the target before its first frame is drawn
/// (`media::paced::PacedVideo`); one that does not sends the best quality throughout.
fn rate_adaptive(
    traces: &[RaTraceSpec],
    format: TraceFormatSpec,
    criterion: RaCriterionSpec,
    gop: &GopPattern,
    fps: f64,
    start: Instant,
) -> Result<StreamSource, String> {
    if traces.is_empty() || traces.len() > usize::from(u8::MAX) {
        return Err(format!("traces: a rate-adaptive set needs 1 to 255 traces, got {}", traces.len()));
    }
    let parsed = traces
        .iter()
        .map(|t| {
            Trace::parse(&t.text, trace_format(format))
                .map(|tr| (t.quantizer, tr))
                .map_err(|e| format!("traces: {}: {e}", t.source))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let order = FrameOrder::of_format(trace_format(format));
    let set = RateAdaptiveSet::new(parsed, gop, fps, order).map_err(|e| format!("traces: {e}"))?.with_criterion(
        match criterion {
            RaCriterionSpec::UpcomingGop => RaCriterion::UpcomingGop,
            RaCriterionSpec::LongRunMean => RaCriterion::LongRunMean,
        },
    );
    // The set sorts by quantizer; map its indices back to the scenario's list.
    let encodings = set
        .quantizers()
        .iter()
        .map(|q| traces.iter().position(|t| t.quantizer == *q).expect("every quantizer comes from the list") as u8)
        .collect();
    let source = RateAdaptiveSource::new(set, DataRate::from_bps(u64::MAX)).with_start(start);
    Ok(StreamSource::RateAdaptive { source: Box::new(source), encodings })
}
