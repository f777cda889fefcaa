//! `udp`: an unresponsive constant-bit-rate media flow over UDP.
//!
//! The baseline every paper uses for "no congestion control" (DVRC Fig. 11b, SSVP's UDP flows,
//! ns-2 `Application/Traffic/CBR` over `Agent/UDP`). The sender emits one packet of
//! `packet_size` bytes on the wire every `packet_size / rate`, from `start` until `stop`,
//! whatever happens to them. The receiver only counts; it sends nothing back.
//!
//! Parameters: `rate` (required), `packet_size` (wire bytes, header included; default 1000 B),
//! `start` (default 0), `stop` (default never).
//!
//! Deviations: none; ns-2 CBR's optional random jitter (`random_`) is not modelled (off by
//! default in ns-2 too).

mod config;
mod pareto;
mod receiver;
mod sender;
#[cfg(test)]
mod tests;
mod video_sender;

pub use config::{CbrConfig, ParetoConfig, UdpConfig, VideoConfig};
pub use pareto::ParetoOnOff;
pub use receiver::UdpReceiver;
pub use sender::UdpSender;
pub use video_sender::UdpVideoSender;

use crate::endpoint::{EndpointPair, FlowEndpoints};
use crate::proto::registry::FlowContext;
use crate::proto::Application;
use crate::{DataRate, Duration};

pub fn pair(config: &UdpConfig) -> EndpointPair {
    EndpointPair { sender: Box::new(UdpSender::new(config.clone())), receiver: Box::new(UdpReceiver::new()) }
}

fn udp_config(rate_bps: u64, ctx: &FlowContext<'_>) -> UdpConfig {
    UdpConfig { rate: DataRate::from_bps(rate_bps), packet_size: ctx.packet_size, start: ctx.start, stop: ctx.stop }
}

/// The registry's constructor of `udp-cbr`.
pub fn build_cbr(config: &CbrConfig, ctx: FlowContext<'_>) -> Result<FlowEndpoints, String> {
    Ok(pair(&udp_config(config.rate_bps, &ctx)).into())
}

/// The registry's constructor of `udp-pareto`: its on/off draws come from the flow's
/// `"traffic"` stream.
pub fn build_pareto(config: &ParetoConfig, ctx: FlowContext<'_>) -> Result<FlowEndpoints, String> {
    let sender = ParetoOnOff::new(
        udp_config(config.rate_bps, &ctx),
        Duration::from_nanos(config.on_mean_ns),
        Duration::from_nanos(config.off_mean_ns),
        config.shape,
        (ctx.rng)("traffic"),
    );
    Ok(FlowEndpoints { sender: Box::new(sender), receivers: vec![Box::new(UdpReceiver::new())] })
}

/// The registry's constructor of `udp` (video over unresponsive UDP).
pub fn build_video(config: &VideoConfig, ctx: FlowContext<'_>) -> Result<FlowEndpoints, String> {
    let Application::Video(stream) = ctx.app else {
        return Err("protocol \"udp\" carries video: the flow needs a video table".into());
    };
    let sender = UdpVideoSender::new(stream, ctx.packet_size, config.layers_sent, ctx.stop);
    Ok(FlowEndpoints { sender: Box::new(sender), receivers: vec![Box::new(UdpReceiver::new())] })
}
