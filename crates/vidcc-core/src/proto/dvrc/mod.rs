//! `dvrc`: Dynamic Video Rate Control, receiver-driven AIAMD rate control for layered video
//! (Papadimitriou, Tsaoussidis, Mamatas, JSS 81(12), 2008; `docs/papers/dvrc.md` §1.1,
//! normative pseudo-code §1.1.8; docs/protocols/dvrc.md).
//!
//! **Roles** (§1.1.1 \[P\]). The [`DvrcReceiver`] detects congestion, computes the rate R with
//! AIAMD, converts it into a layer count K and returns K in one control packet per data packet.
//! The [`DvrcSender`] sends layers 1..K of its video and measures the RTT.
//!
//! **Rules**, with the paper's equations:
//! - RTT, Eq. (2): EstimatedRTT ← γ·EstimatedRTT + (1−γ)·SampleRTT; Eq. (3): DTO = EstimatedRTT +
//!   δ·Deviation; Eq. (4) in the `dto_mode` form (A1). Computed at the sender with
//!   [`crate::estimate::rtt::PaperEwma`] and carried in every data header (A2); the receiver runs
//!   the timer with the A3 guard DTO_eff = max(DTO, 2·8s/R, 0.2 s) \[D\].
//! - Congestion signal (§1.1.4 \[P\]): any sequence gap (reordering counts as loss, no dupthresh)
//!   or a DTO without data. Gaps within one EstimatedRTT of a decrease are the same event \[D\].
//! - Eq. (11): R ← R + α_I per RTT round without loss; on a loss event R ← R + α_D if the
//!   compared rate (`compare`, A7: the measured receiving rate 𝓜 by default) is ≥ R̄ − n·D̄,
//!   else R ← β_D·R. α = ±1 packet per RTT as a rate (A4, A5). The first loss event and every DTO
//!   expiry are multiplicative \[D\].
//! - Epoch history (§1.1.6 \[D\]): at each loss event, after the comparison, D̄ ← 0.75·D̄ +
//!   0.25·|𝓜 − R̄|, R̄ ← 0.875·R̄ + 0.125·𝓜 (first: R̄ = 𝓜, D̄ = 𝓜/2). 𝓜 = bytes received in a
//!   sliding window of max(EstimatedRTT, 100 ms).
//! - Layers (§1.1.7): R starts at c_1 (K = 1); K = max(1, max{j : c_j ≤ R}); R stays within
//!   [c_1, c_k] \[D\]; the sender applies K at the next frame.
//!
//! **Parameters**: [`DvrcConfig`] (γ 0.9, δ 4, ε 0.25, α_I +1, α_D −1, β_D 0.5, n 1.5 \[P\], and docs/papers/dvrc.md's
//! \[I\]/\[D\] choices with their alternatives).
//!
//! **Deviations**: the layer-rate vector r_k, which the paper's sender advertises once at
//! connection start, is handed to the receiver when the pair is built (no advertisement packet);
//! the header layout is ours (the paper's Fig. 1 is lost) and adds the sender's DTO next to
//! EstimatedRTT so that the receiver can run Eq. (3) with the sender's Deviation; control
//! packets also carry R and 𝓜 (used only by the optional pacing and for observability);
//! priority dropping is not implemented (disabled in every experiment \[P\]).

mod config;
mod receiver;
mod sender;
#[cfg(test)]
mod tests;

pub use config::{AlphaUnit, Compare, DtoModeConfig, DvrcConfig};
pub use receiver::{Aiamd, Decision, DvrcReceiver};
pub use sender::DvrcSender;

use crate::endpoint::EndpointPair;
use crate::media::layers::LayerRates;
use crate::media::stream::{PartKind, VideoStream};
use crate::proto::Application;
use crate::time::Instant;
use crate::units::DataSize;
use crate::wire::dvrc::DATA_HEADER_BYTES;

/// The layer rates of a layered stream; an error for anything else.
pub(crate) fn layered_rates(stream: &VideoStream, protocol: &str) -> Result<LayerRates, String> {
    match (stream.kind(), stream.layer_rates()) {
        (PartKind::Layers, Some(rates)) => Ok(rates.clone()),
        (PartKind::Streams, _) => Err(format!(
            "protocol \"{protocol}\" adapts layered video, not simulcast streams: use `layers` instead of `streams`"
        )),
        (PartKind::Layers, None) => Err(format!(
            "protocol \"{protocol}\" adapts layered video: the flow's video needs `layers` (cumulative layer rates)"
        )),
    }
}

/// A DVRC sender and receiver for a layered video. `packet_size` is the wire size of a full data
/// packet (header included); `start` is when the video's first frame is ready (the stream was
/// built with it); no frame is sent from `stop` on.
pub fn pair(
    config: &DvrcConfig,
    app: Application,
    packet_size: DataSize,
    _start: Instant,
    stop: Option<Instant>,
) -> Result<EndpointPair, String> {
    config.validate()?;
    let Application::Video(stream) = app else {
        return Err("protocol \"dvrc\" carries layered video: the flow needs a video table with `layers`".into());
    };
    let rates = layered_rates(&stream, "dvrc")?;
    let size = packet_size.as_bytes();
    if size <= DATA_HEADER_BYTES as u64 || size > u16::MAX as u64 {
        return Err(format!(
            "protocol \"dvrc\": packet size must be {}..={} bytes (a {DATA_HEADER_BYTES}-byte header), got {size}",
            DATA_HEADER_BYTES + 1,
            u16::MAX
        ));
    }
    let receiver = DvrcReceiver::new(config, rates.clone(), packet_size);
    let sender = DvrcSender::new(config, stream, rates, packet_size, stop);
    Ok(EndpointPair { sender: Box::new(sender), receiver: Box::new(receiver) })
}
