//! The protocol registry: every protocol's name, configuration and constructor, in one list that
//! every driver (the simulator, the UDP runtime) and the Python schema share.
//!
//! One line of [`protocols!`] per protocol generates:
//! - a variant of [`ProtocolConfig`], the serde-tagged enum of the resolved configuration
//!   (`{"kind": "tfrc", ...fields of TfrcConfig}`);
//! - its name ([`ProtocolConfig::name`], [`PROTOCOLS`]);
//! - its construction ([`ProtocolConfig::build`]): every protocol has the one factory signature
//!   `fn(&Config, FlowContext) -> Result<FlowEndpoints, String>` (a unicast protocol's
//!   `pair(config, application, packet_size, start, stop)` becomes one through [`unicast`]);
//! - its default configuration as the resolved form ([`defaults`]) and the bytes of its data
//!   header ([`header_bytes`]), which the Python schema reads instead of copying.
//!
//! Adding a protocol: its folder under `proto/` (declared in `proto/mod.rs`) with a factory of
//! that signature (or a unicast `pair`), and one line below.

use crate::endpoint::{EndpointPair, FlowEndpoints};
use crate::proto::Application;
use crate::rng::SimRng;
use crate::{DataSize, Instant};
use serde::{Deserialize, Serialize};

/// What a driver hands a protocol's constructor for one flow.
pub struct FlowContext<'a> {
    /// What the sender carries: bulk data, or the flow's video (built by
    /// [`crate::media::config::build_stream`]).
    pub app: Application,
    /// Bytes on the wire of a full data packet, header included.
    pub packet_size: DataSize,
    pub start: Instant,
    pub stop: Option<Instant>,
    /// How many receivers the flow has (1 for unicast); `members.len()`.
    pub receivers: u32,
    /// Each receiver's own schedule and subscription, `members[i]` being `PeerId(i)` (one entry
    /// for a unicast flow: the flow's start and stop, no groups).
    pub members: &'a [ReceiverSpec],
    /// The seeded random stream of one named component of this flow (`"traffic"`, `"video"`):
    /// the same name always gives the same stream, whatever else the flow or the run contains.
    pub rng: &'a dyn Fn(&str) -> SimRng,
}

/// One receiver of a flow, as the scenario places it: when it starts (a multicast receiver joins
/// its groups then; a late joiner starts after the flow), when it stops (leaves), and which of the
/// sender's groups it is told to subscribe to (empty: the protocol decides, e.g. all of them or by
/// its own adaptation). Protocols that adapt their subscription may ignore `groups`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReceiverSpec {
    pub start: Instant,
    pub stop: Option<Instant>,
    pub groups: Vec<crate::endpoint::GroupId>,
}

/// A unicast protocol's constructor: `pair(config, application, packet_size, start, stop)`.
pub type PairFn<C> = fn(&C, Application, DataSize, Instant, Option<Instant>) -> Result<EndpointPair, String>;

/// The registry's factory of a unicast protocol from its `pair` constructor.
pub fn unicast<C>(pair: PairFn<C>) -> impl Fn(&C, FlowContext<'_>) -> Result<FlowEndpoints, String> {
    move |config, ctx| pair(config, ctx.app, ctx.packet_size, ctx.start, ctx.stop).map(FlowEndpoints::from)
}

/// How many receivers a protocol's flow may have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// Exactly one receiver.
    Unicast,
    /// One sender, any number of receivers.
    Multicast,
}

macro_rules! protocols {
    ($(
        $(#[$doc:meta])*
        $name:literal => $variant:ident($config:ty), build: $build:expr, header: $header:expr, reach: $reach:ident;
    )*) => {
        /// A flow's protocol and its parameters: the resolved (base-unit) configuration, tagged
        /// by `kind` with the protocol's name.
        #[derive(Clone, Debug, Deserialize, Serialize)]
        #[serde(tag = "kind", deny_unknown_fields)]
        pub enum ProtocolConfig {
            $(
                $(#[$doc])*
                #[serde(rename = $name)]
                $variant($config),
            )*
        }

        /// Every protocol's name, in registry order.
        pub const PROTOCOLS: &[&str] = &[$($name),*];

        impl ProtocolConfig {
            pub fn name(&self) -> &'static str {
                match self {
                    $(ProtocolConfig::$variant(_) => $name,)*
                }
            }

            pub fn reach(&self) -> Reach {
                match self {
                    $(ProtocolConfig::$variant(_) => Reach::$reach,)*
                }
            }

            /// The flow's endpoints: its sender and `ctx.receivers` receivers. Errors name the
            /// problem (a missing video table, a packet too small for the header).
            pub fn build(&self, ctx: FlowContext<'_>) -> Result<FlowEndpoints, String> {
                if self.reach() == Reach::Unicast && ctx.receivers != 1 {
                    return Err(format!(
                        "protocol {:?} is unicast: a flow has exactly one receiver, got {}",
                        self.name(),
                        ctx.receivers
                    ));
                }
                if ctx.members.len() != ctx.receivers as usize {
                    return Err(format!(
                        "{} receivers but {} receiver specifications (a driver bug)",
                        ctx.receivers,
                        ctx.members.len()
                    ));
                }
                match self {
                    $(ProtocolConfig::$variant(c) => ($build)(c, ctx),)*
                }
            }
        }

        /// The default configuration of protocol `name` (`None`: no such protocol).
        pub fn defaults(name: &str) -> Option<ProtocolConfig> {
            match name {
                $($name => Some(ProtocolConfig::$variant(<$config>::default())),)*
                _ => None,
            }
        }

        /// Bytes of protocol `name`'s data header (`None`: no such protocol).
        pub fn header_bytes(name: &str) -> Option<usize> {
            match name {
                $($name => Some($header),)*
                _ => None,
            }
        }
    };
}

// Every protocol module of `proto` (so that adding one needs no line here but its own).
use super::*;

protocols! {
    "tcp-tahoe" => TcpTahoe(tcp::TcpConfig), build: tcp::build_tahoe, header: tcp::HEADER_BYTES, reach: Unicast;
    "tcp-sack" => TcpSack(tcp::TcpConfig), build: tcp::build_sack, header: tcp::HEADER_BYTES, reach: Unicast;
    "tcp-reno" => TcpReno(tcp::TcpConfig), build: tcp::build_reno, header: tcp::HEADER_BYTES, reach: Unicast;
    "tcp-newreno" => TcpNewReno(tcp::TcpConfig), build: tcp::build_newreno, header: tcp::HEADER_BYTES, reach: Unicast;
    "tcp-westwood-plus" => TcpWestwoodPlus(tcp::TcpConfig),
        build: tcp::build_westwood_plus, header: tcp::HEADER_BYTES, reach: Unicast;
    "udp-cbr" => UdpCbr(udp::CbrConfig), build: udp::build_cbr, header: crate::wire::udp::HEADER_BYTES, reach: Unicast;
    /// ns-2 `Application/Traffic/Pareto`: bursts at `rate_bps` with Pareto-distributed on and
    /// off periods of the given means.
    "udp-pareto" => UdpPareto(udp::ParetoConfig),
        build: udp::build_pareto, header: crate::wire::udp::HEADER_BYTES, reach: Unicast;
    /// Unresponsive UDP carrying the flow's `video`: every frame sent when ready.
    "udp" => Udp(udp::VideoConfig), build: udp::build_video, header: crate::wire::udp::HEADER_BYTES, reach: Unicast;
    /// DVRC: receiver-driven AIAMD with layered video.
    "dvrc" => Dvrc(dvrc::DvrcConfig), build: unicast(dvrc::pair), header: crate::wire::dvrc::DATA_HEADER_BYTES, reach: Unicast;
    /// RTP/UDP layered video adapted from RTCP receiver reports.
    "rtcp-udp" => RtcpUdp(rtcp_udp::RtcpUdpConfig),
        build: unicast(rtcp_udp::pair), header: crate::wire::rtcp_udp::RTP_HEADER_BYTES, reach: Unicast;
    "qos-aimd" => QosAimd(qos_aimd::QosAimdConfig),
        build: unicast(qos_aimd::pair), header: crate::wire::qos_aimd::DATA_HEADER_BYTES, reach: Unicast;
    /// SSVP: inter-packet-gap AIMD carrying bulk data or video.
    "ssvp" => Ssvp(ssvp::SsvpConfig), build: unicast(ssvp::pair), header: crate::wire::ssvp::HEADER_BYTES, reach: Unicast;
    /// SSVP with the receiver-buffered layered adaptation (layered video).
    "ssvp-layered" => SsvpLayered(ssvp::SsvpLayeredConfig),
        build: unicast(ssvp::layered_pair), header: crate::wire::ssvp::HEADER_BYTES, reach: Unicast;
    /// TFRC, RFC 5348, carrying bulk data or full-quality video.
    "tfrc" => Tfrc(tfrc::TfrcConfig), build: unicast(tfrc::pair), header: crate::wire::tfrc::DATA_BYTES, reach: Unicast;
    /// TFMCC, RFC 4654: single-rate multicast following the current limiting receiver.
    "tfmcc" => Tfmcc(tfmcc::TfmccConfig), build: tfmcc::build, header: tfmcc::HEADER_BYTES, reach: Multicast;
    "dsg" => Dsg(dsg::DsgConfig), build: dsg::build, header: dsg::HEADER_BYTES, reach: Multicast;
    "irfm" => Irfm(irfm::IrfmConfig), build: irfm::build, header: irfm::HEADER_BYTES, reach: Multicast;
    /// SRAMT with simulcast streams: per-stream rates from the receivers' reports, epoch changes.
    "sramt-s" => SramtS(sramt::SramtSConfig), build: sramt::build_s, header: sramt::wire::DATA_HEADER_BYTES, reach: Multicast;
    /// SRAMT with cumulative layers.
    "sramt-le" => SramtLe(sramt::SramtLeConfig), build: sramt::build_le, header: sramt::wire::DATA_HEADER_BYTES, reach: Multicast;
    /// GAIMD(α, β) on the TCP agents' window machinery, bulk data.
    "gaimd" => Gaimd(gaimd::GaimdConfig), build: unicast(gaimd::pair), header: tcp::HEADER_BYTES, reach: Unicast;
    /// Unresponsive multicast: constant-rate groups or the flow's video, a layer or stream per
    /// group; receivers join their groups at their start and leave at their stop.
    "udp-multicast" => UdpMulticast(udp_multicast::UdpMulticastConfig),
        build: udp_multicast::build, header: crate::wire::udp::HEADER_BYTES, reach: Multicast;
    /// RLC: receiver-driven cumulative layers doubling in rate, joins at synchronisation points.
    "rlc" => Rlc(rlc::RlcConfig), build: rlc::build, header: rlc::HEADER_BYTES, reach: Multicast;
    /// MLDA: receivers compute LDA+ TCP-friendly rates and pick cumulative layers; the sender re-sizes the layers.
    "mlda" => Mlda(mlda::MldaConfig), build: mlda::build, header: mlda::HEADER_BYTES, reach: Multicast;
    /// ASMP: single-rate multicast over RTP/RTCP, the sender following the slowest receiver.
    "asmp" => Asmp(asmp::AsmpConfig), build: asmp::build, header: crate::wire::asmp::DATA_HEADER_BYTES, reach: Multicast;
    /// PLM: packet-pair receiver-driven cumulative layered multicast (needs fair-queueing routers).
    "plm" => Plm(plm::PlmConfig), build: plm::build, header: plm::HEADER_BYTES, reach: Multicast;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_protocol_has_defaults_a_header_and_a_unique_name() {
        for (i, name) in PROTOCOLS.iter().enumerate() {
            let d = defaults(name).unwrap_or_else(|| panic!("no defaults for {name}"));
            assert_eq!(d.name(), *name);
            assert!(header_bytes(name).is_some_and(|h| h > 0 && h <= crate::endpoint::MAX_HEADER_BYTES));
            assert!(!PROTOCOLS[..i].contains(name), "{name} listed twice");
        }
        assert!(defaults("no-such-protocol").is_none());
        assert!(header_bytes("no-such-protocol").is_none());
    }

    fn context(receivers: u32) -> FlowContext<'static> {
        let members: &'static [ReceiverSpec] = Box::leak(vec![ReceiverSpec::default(); receivers as usize].into());
        FlowContext {
            members,
            app: Application::Bulk,
            packet_size: DataSize::from_bytes(1000),
            start: Instant::ZERO,
            stop: None,
            receivers,
            rng: &|name| crate::rng::RngStreams::new(1).stream(name),
        }
    }

    #[test]
    fn unicast_protocols_refuse_several_receivers() {
        let tcp = defaults("tcp-newreno").expect("registered");
        assert_eq!(tcp.build(context(1)).expect("builds").receivers.len(), 1);
        let err = tcp.build(context(3)).err().expect("three receivers refused");
        assert!(err.contains("unicast") && err.contains('3'), "{err}");
    }

    #[test]
    fn video_protocols_name_the_missing_video_table() {
        let err = defaults("udp").expect("registered").build(context(1)).err().expect("udp needs video");
        assert!(err.contains("video"), "{err}");
    }
}
