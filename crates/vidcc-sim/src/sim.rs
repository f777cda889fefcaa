//! The simulation driver: moves packets between sans-IO endpoints over links, queues and loss
//! models, in integer time, and records columnar metrics.
//!
//! Per packet-hop the cost is one heap event when the link is idle (arrival at the far end after
//! serialisation + propagation) and two when it is busy (plus the end of serialisation that
//! starts the next packet). Packets live in an arena and move by index; payloads are lengths.
//! Nothing protocol-specific lives here: every flow is an `EndpointPair`.

use crate::config::{ArqConfig, FlowConfig, LossConfig, ProtocolConfig, QueueConfig, QueueLimit, SimConfig};
use crate::metrics::{jain, worst_case_fairness, Column, Moments, Table};
use crate::queue::{Enqueue, Limit, Queue, QueuedPacket};
use crate::rng::{RngStreams, SimRng};
use crate::routing::Routes;
use crate::scheduler::Scheduler;
use crate::topology::{self, config_error, ConfigError, LinkId, Network, NodeId};
use crate::video::{VideoRecorder, VideoTables};
use rand::Rng;
use vidcc_core::endpoint::HeaderBuf;
use vidcc_core::estimate::jitter::Rfc3550Jitter;
use vidcc_core::proto::udp::{UdpConfig, UdpReceiver, UdpVideoSender};
use vidcc_core::proto::Application;
use vidcc_core::{
    DataRate, DataSize, Datagram, Duration, Endpoint, EndpointPair, Event, Instant, PacketKind, PacketMeta, PeerId,
};

type PacketId = u32;

#[derive(Clone, Copy, Debug)]
enum Ev {
    /// A packet reaches the far end of a link.
    Arrive {
        link: LinkId,
        pkt: PacketId,
    },
    /// A link finished serialising; it may start the next queued packet.
    TxDone {
        link: LinkId,
    },
    /// An endpoint's requested wake-up.
    Timer {
        ep: u32,
    },
    FlowSample,
    QueueSample,
    /// A flow's measurement window opens (end of warm-up or its start, whichever is later).
    MeasureStart {
        flow: u32,
    },
    /// A jittered data packet leaves its sender's node.
    Inject {
        pkt: PacketId,
    },
}

struct Packet {
    flow: u32,
    to_receiver: bool,
    dst: NodeId,
    size: u32,
    payload_len: u32,
    header: HeaderBuf,
    meta: PacketMeta,
    sent_at: Instant,
    /// Row in the packet log, if it is on.
    log_row: u32,
    /// Row in the flow's video record, for media packets of video flows.
    media_row: u32,
}

struct LinkState {
    to: NodeId,
    bandwidth: DataRate,
    delay: Duration,
    queue: Box<dyn Queue>,
    loss: Option<Box<dyn crate::loss::LossModel>>,
    /// Most transmission attempts per packet (1: no link-level ARQ).
    max_attempts: u32,
    busy_until: Instant,
    tx_pending: bool,
    limit: Limit,
    counts_as_bottleneck: bool,
    delivered: u64,
    dropped_queue: u64,
    dropped_loss: u64,
    retransmissions: u64,
}

/// A "persistent" ARQ retries until success; a channel that never recovers (a bad state with
/// certain loss and no way out) would hang the run, so it gives up after this many attempts and
/// the packet counts as lost.
const PERSISTENT_ARQ_ATTEMPTS: u32 = 1 << 16;

#[derive(Default)]
struct FlowMetrics {
    // Over the measurement window.
    sent: u64,
    delivered: u64,
    dropped_queue: u64,
    dropped_loss: u64,
    delivered_bytes: u64,
    delay_sum_ns: u128,
    jitter_sum_ns: f64,
    app_bytes_at_start: u64,
    throughput_moments: Moments,
    // Over the current sample interval.
    i_bytes: u64,
    i_delivered: u64,
    i_dropped: u64,
    i_delay_sum_ns: u128,
    last_app_bytes: u64,
    jitter: Rfc3550Jitter,
}

struct FlowState {
    src: NodeId,
    dst: NodeId,
    measure_from: Instant,
    measure_to: Instant,
    fair_share_bps: f64,
    path_rtt: Duration,
    /// Send jitter (zero: none) with its random stream and the last injection instant, so
    /// that jittered packets still leave in order.
    send_jitter: Duration,
    jitter_rng: Option<SimRng>,
    last_inject: Instant,
    m: FlowMetrics,
    video: Option<VideoRecorder>,
}

#[derive(Default)]
struct Columns {
    s_t: Vec<u64>,
    s_flow: Vec<u64>,
    s_thr: Vec<f64>,
    s_good: Vec<f64>,
    s_delay: Vec<f64>,
    s_jitter: Vec<f64>,
    s_deliv: Vec<u64>,
    s_drop: Vec<u64>,
    q_t: Vec<u64>,
    q_link: Vec<u64>,
    q_pkts: Vec<u64>,
    q_bytes: Vec<u64>,
    q_avg: Vec<f64>,
    e_t: Vec<u64>,
    e_flow: Vec<u64>,
    e_side: Vec<String>,
    e_kind: Vec<String>,
    e_value: Vec<f64>,
    p_flow: Vec<u64>,
    p_seq: Vec<u64>,
    p_size: Vec<u64>,
    p_sent: Vec<u64>,
    p_arrival: Vec<i64>,
    p_fate: Vec<&'static str>,
}

/// Counters describing the run itself.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunStats {
    pub events: u64,
    /// Packets (data and control) handed to endpoints.
    pub packets_delivered: u64,
    /// Packets that crossed a monitored link in its forward direction (a dumbbell's bottleneck).
    pub bottleneck_packets: u64,
}

pub struct SimOutput {
    pub tables: Vec<Table>,
    pub stats: RunStats,
}

impl SimOutput {
    pub fn table(&self, name: &str) -> &Table {
        self.tables.iter().find(|t| t.name == name).unwrap_or_else(|| panic!("no table {name}"))
    }
}

pub struct Simulation {
    config: SimConfig,
    net: Network,
    routes: Routes,
    links: Vec<LinkState>,
    flows: Vec<FlowState>,
    /// `endpoints[2k]` is flow k's sender, `endpoints[2k + 1]` its receiver.
    endpoints: Vec<Box<dyn Endpoint + Send>>,
    timer_at: Vec<Option<Instant>>,
    packets: Vec<Packet>,
    free: Vec<PacketId>,
    sched: Scheduler<Ev>,
    cols: Columns,
    stats: RunStats,
    end: Instant,
    monitored: Vec<LinkId>,
}

fn protocol_name(p: &ProtocolConfig) -> &'static str {
    match p {
        ProtocolConfig::TcpReno(_) => "tcp-reno",
        ProtocolConfig::TcpNewReno(_) => "tcp-newreno",
        ProtocolConfig::TcpWestwoodPlus(_) => "tcp-westwood-plus",
        ProtocolConfig::UdpCbr { .. } => "udp-cbr",
        ProtocolConfig::UdpPareto { .. } => "udp-pareto",
        ProtocolConfig::Udp { .. } => "udp",
        ProtocolConfig::Dvrc(_) => "dvrc",
        ProtocolConfig::RtcpUdp(_) => "rtcp-udp",
        ProtocolConfig::QosAimd(_) => "qos-aimd",
        ProtocolConfig::Ssvp(_) => "ssvp",
        ProtocolConfig::SsvpLayered(_) => "ssvp-layered",
        ProtocolConfig::Tfrc(_) => "tfrc",
        ProtocolConfig::Gaimd(_) => "gaimd",
    }
}

fn build_pair(f: &FlowConfig, start: Instant, rng: &dyn Fn(&str) -> SimRng) -> Result<EndpointPair, String> {
    let stop = f.stop_ns.map(Instant::from_nanos);
    let udp = |rate_bps: u64| UdpConfig {
        rate: DataRate::from_bps(rate_bps),
        packet_size: DataSize::from_bytes(f.packet_size_bytes as u64),
        start,
        stop,
    };
    use vidcc_core::proto::tcp::{self, TcpVariant};
    let size = DataSize::from_bytes(f.packet_size_bytes as u64);
    // The flow's application: its video if it has a video table, else bulk data.
    let app = || -> Result<Application, String> {
        Ok(match &f.video {
            Some(v) => Application::Video(crate::video::build_stream(v, start, &|| rng("video"))?),
            None => Application::Bulk,
        })
    };
    Ok(match &f.protocol {
        ProtocolConfig::TcpReno(c) => tcp::pair(TcpVariant::Reno, c, f.packet_size_bytes, start, stop),
        ProtocolConfig::TcpNewReno(c) => tcp::pair(TcpVariant::NewReno, c, f.packet_size_bytes, start, stop),
        ProtocolConfig::TcpWestwoodPlus(c) => tcp::pair(TcpVariant::WestwoodPlus, c, f.packet_size_bytes, start, stop),
        ProtocolConfig::UdpCbr { rate_bps } => vidcc_core::proto::udp::pair(&udp(*rate_bps)),
        ProtocolConfig::UdpPareto { rate_bps, on_mean_ns, off_mean_ns, shape } => EndpointPair {
            sender: Box::new(crate::traffic::pareto::ParetoOnOff::new(
                udp(*rate_bps),
                Duration::from_nanos(*on_mean_ns),
                Duration::from_nanos(*off_mean_ns),
                *shape,
                rng("traffic"),
            )),
            receiver: Box::new(UdpReceiver::new()),
        },
        ProtocolConfig::Dvrc(c) => vidcc_core::proto::dvrc::pair(c, app()?, size, start, stop)?,
        ProtocolConfig::RtcpUdp(c) => vidcc_core::proto::rtcp_udp::pair(c, app()?, size, start, stop)?,
        ProtocolConfig::QosAimd(c) => vidcc_core::proto::qos_aimd::pair(c, app()?, size, start, stop)?,
        ProtocolConfig::Ssvp(c) => vidcc_core::proto::ssvp::pair(c, app()?, size, start, stop)?,
        ProtocolConfig::SsvpLayered(c) => vidcc_core::proto::ssvp::layered_pair(c, app()?, size, start, stop)?,
        ProtocolConfig::Tfrc(c) => vidcc_core::proto::tfrc::pair(c, app()?, size, start, stop)?,
        ProtocolConfig::Gaimd(c) => vidcc_core::proto::gaimd::pair(c, app()?, size, start, stop)?,
        ProtocolConfig::Udp { layers_sent } => {
            let Application::Video(stream) = app()? else {
                return Err("protocol \"udp\" carries video: the flow needs a video table".into());
            };
            EndpointPair {
                sender: Box::new(UdpVideoSender::new(stream, size, *layers_sent, stop)),
                receiver: Box::new(UdpReceiver::new()),
            }
        } // Protocols of vidcc-core take the flow's application (bulk data or its video) and add
          // one arm here: `ProtocolConfig::X(c) => vidcc_core::proto::x::pair(c, app()?, size, start, stop)?`.
    })
}

fn build_queue(q: &QueueConfig, limit: Limit, bandwidth: DataRate, rng: SimRng) -> Result<Box<dyn Queue>, String> {
    use crate::queue::red::{Red, RedParams};
    Ok(match q {
        QueueConfig::DropTail { .. } => Box::new(crate::queue::drop_tail::DropTail::new(limit)),
        QueueConfig::Red { .. } => {
            let params = RedParams::from_config(q).expect("a RED config");
            Box::new(Red::new(limit, params, bandwidth, rng).map_err(|e| e.to_string())?)
        }
    })
}

fn build_loss(l: &LossConfig, rng: SimRng) -> Result<Box<dyn crate::loss::LossModel>, String> {
    use crate::loss::{bernoulli::Bernoulli, gilbert_elliott::GilbertElliott};
    let model: Box<dyn crate::loss::LossModel> = match *l {
        LossConfig::Bernoulli { p } => Box::new(Bernoulli::new(p, rng).map_err(|e| e.to_string())?),
        LossConfig::GilbertElliott { p, r, loss_good, loss_bad } => {
            Box::new(GilbertElliott::new(p, r, loss_good, loss_bad, rng).map_err(|e| e.to_string())?)
        }
        LossConfig::CorrelatedBernoulli { p, q } => {
            Box::new(GilbertElliott::correlated_bernoulli(p, q, rng).map_err(|e| e.to_string())?)
        }
    };
    Ok(model)
}

impl Simulation {
    pub fn new(config: SimConfig) -> Result<Self, ConfigError> {
        if config.duration_ns == 0 {
            return Err(config_error("scenario.duration", "must be positive"));
        }
        if config.warmup_ns >= config.duration_ns {
            return Err(config_error("scenario.warmup", "must be shorter than scenario.duration"));
        }
        if config.sample_interval_ns == 0 || config.queue_sample_interval_ns == 0 {
            return Err(config_error("scenario.sample_interval", "must be positive"));
        }
        for (g, f) in config.flows.iter().enumerate() {
            if f.packet_size_bytes < 64 {
                return Err(config_error(
                    format!("flows[{g}].packet_size"),
                    "must be at least 64 B (room for the protocol's header)",
                ));
            }
        }
        let streams = RngStreams::new(config.seed);
        let net = topology::build(&config, &streams)?;
        if let Some(l) = net.links.iter().find(|l| l.bandwidth == DataRate::ZERO) {
            return Err(config_error(format!("link {}", l.name), "bandwidth must be positive"));
        }
        let routes = Routes::build(net.nodes.len(), &net.links, net.flows.iter().flat_map(|f| [f.src, f.dst]));

        // Paths, fair shares, and who crosses each link (for "bdp" queue limits).
        let mut data_paths = Vec::with_capacity(net.flows.len());
        let mut crossing: Vec<Vec<u32>> = vec![Vec::new(); net.links.len()];
        let mut data_crossing = vec![0u32; net.links.len()];
        let mut flow_rtts = Vec::with_capacity(net.flows.len());
        for (k, fi) in net.flows.iter().enumerate() {
            let unreachable = |a: NodeId, b: NodeId| {
                config_error(
                    format!("flows[{}]", fi.group),
                    format!(
                        "no route from {:?} to {:?} (nodes are not connected)",
                        net.nodes[a as usize], net.nodes[b as usize]
                    ),
                )
            };
            let fwd = routes.path(&net.links, fi.src, fi.dst).ok_or_else(|| unreachable(fi.src, fi.dst))?;
            let rev = routes.path(&net.links, fi.dst, fi.src).ok_or_else(|| unreachable(fi.dst, fi.src))?;
            let rtt = fwd.iter().chain(&rev).map(|&l| net.links[l as usize].delay).fold(Duration::ZERO, |a, b| a + b);
            for &l in fwd.iter().chain(&rev) {
                crossing[l as usize].push(k as u32);
            }
            for &l in &fwd {
                data_crossing[l as usize] += 1;
            }
            flow_rtts.push(rtt);
            data_paths.push(fwd);
        }

        let streams_for = |name: String| streams.stream(&name);
        let mut links = Vec::with_capacity(net.links.len());
        for (i, spec) in net.links.iter().enumerate() {
            let qlimit = match &spec.queue {
                QueueConfig::DropTail { limit } | QueueConfig::Red { limit, .. } => *limit,
            };
            let limit = match qlimit {
                QueueLimit::Packets(n) => Limit::Packets(n),
                QueueLimit::Bytes(n) => Limit::Bytes(n),
                QueueLimit::Bdp => {
                    let users = &crossing[i];
                    let (rtt_sum, max_pkt) = users.iter().fold((0u128, 0u64), |(s, m), &k| {
                        let f = &config.flows[net.flows[k as usize].group as usize];
                        (s + flow_rtts[k as usize].as_nanos() as u128, m.max(f.packet_size_bytes as u64))
                    });
                    let packets = if users.is_empty() || max_pkt == 0 {
                        10
                    } else {
                        let mean_rtt = Duration::from_nanos((rtt_sum / users.len() as u128) as u64);
                        let bdp = spec.bandwidth.size_in(mean_rtt).as_bytes();
                        bdp.div_ceil(max_pkt).max(10)
                    };
                    Limit::Packets(packets)
                }
            };
            let queue = build_queue(&spec.queue, limit, spec.bandwidth, streams_for(format!("queue/{}", spec.name)))
                .map_err(|e| config_error(format!("link {} queue", spec.name), e))?;
            let loss = match &spec.loss {
                Some(l) => Some(
                    build_loss(l, streams_for(format!("loss/{}", spec.name)))
                        .map_err(|e| config_error(format!("link {} loss", spec.name), e))?,
                ),
                None => None,
            };
            links.push(LinkState {
                to: spec.to,
                bandwidth: spec.bandwidth,
                delay: spec.delay,
                queue,
                loss,
                busy_until: Instant::ZERO,
                tx_pending: false,
                limit,
                max_attempts: match spec.arq {
                    None => 1,
                    Some(ArqConfig::Persistent) => PERSISTENT_ARQ_ATTEMPTS,
                    Some(ArqConfig::Limited { attempts }) => attempts.max(1),
                },
                retransmissions: 0,
                counts_as_bottleneck: spec.monitored && spec.forward,
                delivered: 0,
                dropped_queue: 0,
                dropped_loss: 0,
            });
        }

        let end = Instant::from_nanos(config.duration_ns);
        let warmup = Instant::from_nanos(config.warmup_ns);
        let mut flows = Vec::with_capacity(net.flows.len());
        let mut endpoints: Vec<Box<dyn Endpoint + Send>> = Vec::with_capacity(2 * net.flows.len());
        for (k, fi) in net.flows.iter().enumerate() {
            let f = &config.flows[fi.group as usize];
            let fair = data_paths[k]
                .iter()
                .map(|&l| net.links[l as usize].bandwidth.as_bps_f64() / data_crossing[l as usize] as f64)
                .fold(f64::INFINITY, f64::min);
            let pair = build_pair(f, fi.start, &|what| streams_for(format!("{what}/flow{k}")))
                .map_err(|e| config_error(format!("flows[{}]", fi.group), e))?;
            endpoints.push(pair.sender);
            endpoints.push(pair.receiver);
            let stop = f.stop_ns.map_or(end, |s| Instant::from_nanos(s).min(end));
            flows.push(FlowState {
                src: fi.src,
                dst: fi.dst,
                measure_from: warmup.max(fi.start),
                measure_to: stop,
                fair_share_bps: fair,
                path_rtt: flow_rtts[k],
                send_jitter: Duration::from_nanos(f.send_jitter_ns),
                jitter_rng: (f.send_jitter_ns > 0).then(|| streams_for(format!("jitter/flow{k}"))),
                last_inject: Instant::ZERO,
                video: f.video.clone().map(VideoRecorder::new),
                m: FlowMetrics::default(),
            });
        }
        let monitored = net.links.iter().enumerate().filter(|(_, l)| l.monitored).map(|(i, _)| i as LinkId).collect();
        let n_ep = endpoints.len();
        Ok(Simulation {
            config,
            net,
            routes,
            links,
            flows,
            endpoints,
            timer_at: vec![None; n_ep],
            packets: Vec::with_capacity(4096),
            free: Vec::new(),
            sched: Scheduler::new(),
            cols: Columns::default(),
            stats: RunStats::default(),
            end,
            monitored,
        })
    }

    pub fn network(&self) -> &Network {
        &self.net
    }

    /// Runs to the configured duration. `progress` receives the fraction of simulated time done,
    /// about every 1 %, and returns `false` to stop the run (Ctrl-C), which then yields
    /// [`SimError::Interrupted`].
    pub fn run(mut self, progress: &mut dyn FnMut(f64) -> bool) -> Result<SimOutput, SimError> {
        let sample = Duration::from_nanos(self.config.sample_interval_ns);
        let qsample = Duration::from_nanos(self.config.queue_sample_interval_ns);
        self.sched.schedule(Instant::ZERO + sample, Ev::FlowSample);
        if !self.monitored.is_empty() {
            self.sched.schedule(Instant::ZERO + qsample, Ev::QueueSample);
        }
        for k in 0..self.flows.len() {
            self.sched.schedule(self.flows[k].measure_from, Ev::MeasureStart { flow: k as u32 });
        }
        for ep in 0..self.endpoints.len() {
            self.service(ep, Instant::ZERO);
        }
        let step = (self.end.as_nanos() / 100).max(1);
        let mut next_progress = step;
        while let Some((now, ev)) = self.sched.pop_until(self.end) {
            match ev {
                Ev::Arrive { link, pkt } => self.arrive(link, pkt, now),
                Ev::TxDone { link } => self.tx_done(link, now),
                Ev::Timer { ep } => {
                    let ep = ep as usize;
                    if self.timer_at[ep] == Some(now) {
                        self.timer_at[ep] = None;
                    }
                    if self.endpoints[ep].poll_timeout().is_some_and(|t| t <= now) {
                        self.endpoints[ep].handle_timeout(now);
                    }
                    self.service(ep, now);
                }
                Ev::FlowSample => {
                    self.sample_flows(now, sample);
                    self.sched.schedule(now + sample, Ev::FlowSample);
                    if now.as_nanos() >= next_progress {
                        if !progress(now.as_nanos() as f64 / self.end.as_nanos() as f64) {
                            return Err(SimError::Interrupted);
                        }
                        next_progress = now.as_nanos() + step;
                    }
                }
                Ev::QueueSample => {
                    self.sample_queues(now);
                    self.sched.schedule(now + qsample, Ev::QueueSample);
                }
                Ev::Inject { pkt } => {
                    let p = &self.packets[pkt as usize];
                    let node = self.flows[p.flow as usize].src;
                    let link = self.routes.next_link(node, p.dst).expect("routes checked at construction");
                    self.enqueue(link, pkt, now);
                }
                Ev::MeasureStart { flow } => {
                    let f = &mut self.flows[flow as usize];
                    f.m.app_bytes_at_start = self.endpoints[2 * flow as usize + 1].stats().app_bytes_delivered;
                }
            }
        }
        progress(1.0);
        self.stats.events = self.sched.processed();
        Ok(self.finish())
    }

    /// Drains an endpoint's transmissions and events and re-arms its timer.
    fn service(&mut self, ep: usize, now: Instant) {
        while let Some(t) = self.endpoints[ep].poll_transmit(now) {
            self.send(ep, t, now);
        }
        while let Some(e) = self.endpoints[ep].poll_event() {
            self.record_event(ep, e, now);
        }
        if let Some(t) = self.endpoints[ep].poll_timeout() {
            if self.timer_at[ep].is_none_or(|s| t < s) {
                self.timer_at[ep] = Some(t.max(now));
                self.sched.schedule(t, Ev::Timer { ep: ep as u32 });
            }
        }
    }

    fn record_event(&mut self, ep: usize, e: Event, now: Instant) {
        let (kind, value) = match e {
            Event::RateChanged { rate } => ("rate", rate.as_bps_f64()),
            Event::WindowChanged { cwnd } => ("window", cwnd.as_bytes() as f64),
            Event::LossEvent => ("loss_event", 1.0),
            Event::Timeout => ("timeout", 1.0),
            Event::LayersChanged { layers } => ("layers", layers as f64),
            Event::LossClassified { congestion } => ("loss_class", if congestion { 1.0 } else { 0.0 }),
        };
        let c = &mut self.cols;
        c.e_t.push(now.as_nanos());
        c.e_flow.push((ep / 2) as u64);
        c.e_side.push(if ep.is_multiple_of(2) { "sender" } else { "receiver" }.into());
        c.e_kind.push(kind.into());
        c.e_value.push(value);
    }

    fn send(&mut self, ep: usize, t: vidcc_core::Transmit, now: Instant) {
        let flow = ep / 2;
        let from_sender = ep.is_multiple_of(2);
        let f = &mut self.flows[flow];
        let (node, dst) = if from_sender { (f.src, f.dst) } else { (f.dst, f.src) };
        let size = t.wire_size().as_bytes() as u32;
        let is_data = from_sender && t.meta.kind == PacketKind::Data;
        let mut log_row = u32::MAX;
        let mut media_row = u32::MAX;
        if is_data {
            if let Some(v) = &mut f.video {
                if t.meta.media.is_media() {
                    media_row = v.on_sent(t.meta.media, size, now);
                }
            }
            if now >= f.measure_from && now < f.measure_to {
                f.m.sent += 1;
            }
            if self.config.packet_log {
                let c = &mut self.cols;
                log_row = c.p_flow.len() as u32;
                c.p_flow.push(flow as u64);
                c.p_seq.push(t.meta.seq);
                c.p_size.push(size as u64);
                c.p_sent.push(now.as_nanos());
                c.p_arrival.push(-1);
                c.p_fate.push("in_flight");
            }
        }
        let pkt = Packet {
            flow: flow as u32,
            to_receiver: from_sender,
            dst,
            size,
            payload_len: t.payload_len,
            header: t.header,
            meta: t.meta,
            sent_at: now,
            log_row,
            media_row,
        };
        let id = match self.free.pop() {
            Some(id) => {
                self.packets[id as usize] = pkt;
                id
            }
            None => {
                self.packets.push(pkt);
                (self.packets.len() - 1) as PacketId
            }
        };
        if is_data {
            let f = &mut self.flows[flow];
            if let Some(rng) = &mut f.jitter_rng {
                let delay = Duration::from_nanos(rng.gen_range(0..=f.send_jitter.as_nanos()));
                f.last_inject = (now + delay).max(f.last_inject);
                self.sched.schedule(f.last_inject, Ev::Inject { pkt: id });
                return;
            }
        }
        let link = self.routes.next_link(node, dst).expect("routes checked at construction");
        self.enqueue(link, id, now);
    }

    fn enqueue(&mut self, link: LinkId, pkt: PacketId, now: Instant) {
        let size = self.packets[pkt as usize].size;
        let l = &mut self.links[link as usize];
        match l.queue.enqueue(now, QueuedPacket { id: pkt, size_bytes: size }) {
            Enqueue::Dropped => {
                l.dropped_queue += 1;
                self.drop_packet(pkt, "queue", now);
            }
            Enqueue::Accepted => {
                if !l.tx_pending {
                    if l.busy_until <= now {
                        let p = l.queue.dequeue(now).expect("just enqueued");
                        self.start_tx(link, p.id, now);
                    } else {
                        l.tx_pending = true;
                        let at = l.busy_until;
                        self.sched.schedule(at, Ev::TxDone { link });
                    }
                }
            }
        }
    }

    fn start_tx(&mut self, link: LinkId, pkt: PacketId, now: Instant) {
        let size = DataSize::from_bytes(self.packets[pkt as usize].size as u64);
        let l = &mut self.links[link as usize];
        let tx = l.bandwidth.transmission_time(size);
        // Each attempt occupies the link for one packet time and meets the loss model; with
        // link-level ARQ a failed attempt is repeated at once (QoS-AIMD digest §2.2).
        let mut attempts = 1;
        let mut lost = false;
        if let Some(m) = l.loss.as_mut() {
            while m.should_drop() {
                if attempts == l.max_attempts {
                    lost = true;
                    break;
                }
                attempts += 1;
            }
        }
        l.retransmissions += (attempts - 1) as u64;
        let busy = tx * attempts as u64;
        l.busy_until = now + busy;
        if lost {
            l.dropped_loss += 1;
            self.drop_packet(pkt, "loss", now);
        } else {
            let at = now + busy + l.delay;
            self.sched.schedule(at, Ev::Arrive { link, pkt });
        }
    }

    fn tx_done(&mut self, link: LinkId, now: Instant) {
        let l = &mut self.links[link as usize];
        l.tx_pending = false;
        if let Some(p) = l.queue.dequeue(now) {
            self.start_tx(link, p.id, now);
            let l = &mut self.links[link as usize];
            if l.queue.len_packets() > 0 {
                l.tx_pending = true;
                let at = l.busy_until;
                self.sched.schedule(at, Ev::TxDone { link });
            }
        }
    }

    fn arrive(&mut self, link: LinkId, pkt: PacketId, now: Instant) {
        let l = &mut self.links[link as usize];
        l.delivered += 1;
        if l.counts_as_bottleneck {
            self.stats.bottleneck_packets += 1;
        }
        let node = l.to;
        let dst = self.packets[pkt as usize].dst;
        if node == dst {
            self.deliver(pkt, now);
        } else {
            let next = self.routes.next_link(node, dst).expect("routes checked at construction");
            self.enqueue(next, pkt, now);
        }
    }

    fn deliver(&mut self, pkt: PacketId, now: Instant) {
        self.free.push(pkt);
        self.stats.packets_delivered += 1;
        let p = &self.packets[pkt as usize];
        let (flow, header, virtual_payload) = (p.flow as usize, p.header, p.payload_len);
        let ep = 2 * flow + p.to_receiver as usize;
        if p.to_receiver && p.meta.kind == PacketKind::Data {
            let (size, sent_at, log_row, media_row) = (p.size as u64, p.sent_at, p.log_row, p.media_row);
            let f = &mut self.flows[flow];
            if let Some(v) = &mut f.video {
                if media_row != u32::MAX {
                    v.on_arrival(media_row, now);
                }
            }
            let delay = now.saturating_since(sent_at).as_nanos();
            f.m.jitter.on_packet(sent_at, now);
            f.m.i_bytes += size;
            f.m.i_delivered += 1;
            f.m.i_delay_sum_ns += delay as u128;
            if now >= f.measure_from && now <= f.measure_to {
                f.m.delivered += 1;
                f.m.delivered_bytes += size;
                f.m.delay_sum_ns += delay as u128;
                f.m.jitter_sum_ns += f.m.jitter.jitter().as_nanos() as f64;
            }
            if log_row != u32::MAX {
                self.cols.p_arrival[log_row as usize] = now.as_nanos() as i64;
                self.cols.p_fate[log_row as usize] = "delivered";
            }
        }
        let d = Datagram { from: PeerId::PEER, bytes: header.as_slice(), virtual_payload };
        // A malformed datagram is counted by the endpoint (stats().malformed_datagrams).
        let _ = self.endpoints[ep].handle_datagram(now, d);
        self.service(ep, now);
    }

    fn drop_packet(&mut self, pkt: PacketId, why: &'static str, now: Instant) {
        self.free.push(pkt);
        let p = &self.packets[pkt as usize];
        if p.to_receiver && p.meta.kind == PacketKind::Data {
            let (log_row, media_row) = (p.log_row, p.media_row);
            let f = &mut self.flows[p.flow as usize];
            if let Some(v) = &mut f.video {
                if media_row != u32::MAX {
                    v.on_dropped(media_row);
                }
            }
            f.m.i_dropped += 1;
            if now >= f.measure_from && now < f.measure_to {
                if why == "queue" {
                    f.m.dropped_queue += 1;
                } else {
                    f.m.dropped_loss += 1;
                }
            }
            if log_row != u32::MAX {
                self.cols.p_fate[log_row as usize] = why;
            }
        }
    }

    fn sample_flows(&mut self, now: Instant, interval: Duration) {
        let secs = interval.as_secs_f64();
        for (k, f) in self.flows.iter_mut().enumerate() {
            let app = self.endpoints[2 * k + 1].stats().app_bytes_delivered;
            let m = &mut f.m;
            let thr = m.i_bytes as f64 * 8.0 / secs;
            let c = &mut self.cols;
            c.s_t.push(now.as_nanos());
            c.s_flow.push(k as u64);
            c.s_thr.push(thr);
            c.s_good.push(app.saturating_sub(m.last_app_bytes) as f64 * 8.0 / secs);
            c.s_delay.push(if m.i_delivered == 0 { f64::NAN } else { m.i_delay_sum_ns as f64 / m.i_delivered as f64 });
            c.s_jitter.push(m.jitter.jitter().as_nanos() as f64);
            c.s_deliv.push(m.i_delivered);
            c.s_drop.push(m.i_dropped);
            if now.saturating_since(f.measure_from) >= interval && now <= f.measure_to {
                m.throughput_moments.push(thr);
            }
            m.last_app_bytes = app;
            m.i_bytes = 0;
            m.i_delivered = 0;
            m.i_dropped = 0;
            m.i_delay_sum_ns = 0;
        }
    }

    fn sample_queues(&mut self, now: Instant) {
        for &li in &self.monitored {
            let l = &self.links[li as usize];
            let c = &mut self.cols;
            c.q_t.push(now.as_nanos());
            c.q_link.push(li as u64);
            c.q_pkts.push(l.queue.len_packets() as u64);
            c.q_bytes.push(l.queue.len_bytes());
            c.q_avg.push(l.queue.average().unwrap_or(f64::NAN));
        }
    }

    fn finish(self) -> SimOutput {
        let n = self.flows.len();
        let labels: Vec<String> =
            self.net.flows.iter().map(|fi| self.config.flows[fi.group as usize].label.clone()).collect();
        let mut thr = Vec::with_capacity(n);
        let mut good = Vec::with_capacity(n);
        let mut norm = Vec::with_capacity(n);
        let mut cov = Vec::with_capacity(n);
        let mut drop_rate = Vec::with_capacity(n);
        for (k, f) in self.flows.iter().enumerate() {
            let window = f.measure_to.saturating_since(f.measure_from).as_secs_f64();
            let m = &f.m;
            let app = self.endpoints[2 * k + 1].stats().app_bytes_delivered;
            let t = if window > 0.0 { m.delivered_bytes as f64 * 8.0 / window } else { f64::NAN };
            thr.push(t);
            good.push(if window > 0.0 {
                app.saturating_sub(m.app_bytes_at_start) as f64 * 8.0 / window
            } else {
                f64::NAN
            });
            norm.push(t / f.fair_share_bps);
            cov.push(m.throughput_moments.cov());
            let dropped = m.dropped_queue + m.dropped_loss;
            drop_rate.push(if m.sent == 0 { f64::NAN } else { dropped as f64 / m.sent as f64 });
        }
        let fm = |g: &dyn Fn(&FlowMetrics) -> u64| Column::U64(self.flows.iter().map(|f| g(&f.m)).collect());
        let mean_or_nan = |sum: f64, count: u64| if count == 0 { f64::NAN } else { sum / count as f64 };
        let flows = Table::new("flows")
            .col("flow", Column::U64((0..n as u64).collect()))
            .col("group", Column::U64(self.net.flows.iter().map(|f| f.group as u64).collect()))
            .col("instance", Column::U64(self.net.flows.iter().map(|f| f.instance as u64).collect()))
            .col("label", Column::Str(labels.clone()))
            .col(
                "protocol",
                Column::Str(
                    self.net
                        .flows
                        .iter()
                        .map(|f| protocol_name(&self.config.flows[f.group as usize].protocol).to_string())
                        .collect(),
                ),
            )
            .col("src", Column::Str(self.flows.iter().map(|f| self.net.nodes[f.src as usize].clone()).collect()))
            .col("dst", Column::Str(self.flows.iter().map(|f| self.net.nodes[f.dst as usize].clone()).collect()))
            .col("start_ns", Column::U64(self.net.flows.iter().map(|f| f.start.as_nanos()).collect()))
            .col("fair_share_bps", Column::F64(self.flows.iter().map(|f| f.fair_share_bps).collect()))
            .col("path_rtt_ns", Column::U64(self.flows.iter().map(|f| f.path_rtt.as_nanos()).collect()));
        let flow_summary = Table::new("flow_summary")
            .col("flow", Column::U64((0..n as u64).collect()))
            .col("sent_packets", fm(&|m| m.sent))
            .col("delivered_packets", fm(&|m| m.delivered))
            .col("dropped_queue", fm(&|m| m.dropped_queue))
            .col("dropped_loss", fm(&|m| m.dropped_loss))
            .col("delivered_bytes", fm(&|m| m.delivered_bytes))
            .col("throughput_bps", Column::F64(thr.clone()))
            .col("goodput_bps", Column::F64(good.clone()))
            .col("cov", Column::F64(cov.clone()))
            .col(
                "mean_delay_ns",
                Column::F64(self.flows.iter().map(|f| mean_or_nan(f.m.delay_sum_ns as f64, f.m.delivered)).collect()),
            )
            .col(
                "jitter_ns",
                Column::F64(self.flows.iter().map(|f| mean_or_nan(f.m.jitter_sum_ns, f.m.delivered)).collect()),
            )
            .col("drop_rate", Column::F64(drop_rate))
            .col("normalized_throughput", Column::F64(norm.clone()));

        // Aggregates: all flows, then each label in order of first appearance.
        let mut groups: Vec<(String, Vec<usize>)> = vec![("all".into(), (0..n).collect())];
        for (k, l) in labels.iter().enumerate() {
            match groups[1..].iter_mut().find(|(g, _)| g == l) {
                Some((_, v)) => v.push(k),
                None => groups.push((l.clone(), vec![k])),
            }
        }
        let mut a = (
            Vec::new(),
            Vec::new(),
            Vec::new(),
            Vec::new(),
            Vec::new(),
            Vec::new(),
            Vec::new(),
            Vec::new(),
            Vec::new(),
            Vec::new(),
        );
        for (label, members) in &groups {
            let x: Vec<f64> = members.iter().map(|&k| thr[k]).filter(|v| v.is_finite()).collect();
            let sent: u64 = members.iter().map(|&k| self.flows[k].m.sent).sum();
            let dropped: u64 =
                members.iter().map(|&k| self.flows[k].m.dropped_queue + self.flows[k].m.dropped_loss).sum();
            let finite_mean = |v: Vec<f64>| {
                let v: Vec<f64> = v.into_iter().filter(|x| x.is_finite()).collect();
                if v.is_empty() {
                    f64::NAN
                } else {
                    v.iter().sum::<f64>() / v.len() as f64
                }
            };
            a.0.push(label.clone());
            a.1.push(members.len() as u64);
            a.2.push(x.iter().sum::<f64>());
            a.3.push(finite_mean(x.clone()));
            a.4.push(members.iter().map(|&k| good[k]).filter(|v| v.is_finite()).sum::<f64>());
            a.5.push(jain(&x));
            a.6.push(worst_case_fairness(&x));
            a.7.push(finite_mean(members.iter().map(|&k| norm[k]).collect()));
            a.8.push(if sent == 0 { f64::NAN } else { dropped as f64 / sent as f64 });
            a.9.push(finite_mean(members.iter().map(|&k| cov[k]).collect()));
        }
        let aggregate = Table::new("aggregate")
            .col("label", Column::Str(a.0))
            .col("flows", Column::U64(a.1))
            .col("throughput_bps_sum", Column::F64(a.2))
            .col("throughput_bps_mean", Column::F64(a.3))
            .col("goodput_bps_sum", Column::F64(a.4))
            .col("jain", Column::F64(a.5))
            .col("worst_case_fairness", Column::F64(a.6))
            .col("normalized_throughput_mean", Column::F64(a.7))
            .col("drop_rate", Column::F64(a.8))
            .col("cov_mean", Column::F64(a.9));

        let c = self.cols;
        let flow_samples = Table::new("flow_samples")
            .col("t_ns", Column::U64(c.s_t))
            .col("flow", Column::U64(c.s_flow))
            .col("throughput_bps", Column::F64(c.s_thr))
            .col("goodput_bps", Column::F64(c.s_good))
            .col("delay_ns", Column::F64(c.s_delay))
            .col("jitter_ns", Column::F64(c.s_jitter))
            .col("delivered_packets", Column::U64(c.s_deliv))
            .col("dropped_packets", Column::U64(c.s_drop));
        let queue_samples = Table::new("queue_samples")
            .col("t_ns", Column::U64(c.q_t))
            .col("link", Column::U64(c.q_link))
            .col("packets", Column::U64(c.q_pkts))
            .col("bytes", Column::U64(c.q_bytes))
            .col("average", Column::F64(c.q_avg));
        let specs = &self.net.links;
        let links = Table::new("links")
            .col("link", Column::U64((0..specs.len() as u64).collect()))
            .col("name", Column::Str(specs.iter().map(|l| l.name.clone()).collect()))
            .col("src", Column::Str(specs.iter().map(|l| self.net.nodes[l.from as usize].clone()).collect()))
            .col("dst", Column::Str(specs.iter().map(|l| self.net.nodes[l.to as usize].clone()).collect()))
            .col("bandwidth_bps", Column::U64(specs.iter().map(|l| l.bandwidth.as_bps()).collect()))
            .col("delay_ns", Column::U64(specs.iter().map(|l| l.delay.as_nanos()).collect()))
            .col(
                "queue_limit_packets",
                Column::U64(self.links.iter().map(|l| if let Limit::Packets(n) = l.limit { n } else { 0 }).collect()),
            )
            .col(
                "queue_limit_bytes",
                Column::U64(self.links.iter().map(|l| if let Limit::Bytes(n) = l.limit { n } else { 0 }).collect()),
            )
            .col("monitored", Column::Bool(specs.iter().map(|l| l.monitored).collect()))
            .col("delivered_packets", Column::U64(self.links.iter().map(|l| l.delivered).collect()))
            .col("dropped_queue", Column::U64(self.links.iter().map(|l| l.dropped_queue).collect()))
            .col("dropped_loss", Column::U64(self.links.iter().map(|l| l.dropped_loss).collect()))
            .col("retransmissions", Column::U64(self.links.iter().map(|l| l.retransmissions).collect()));
        let events = Table::new("events")
            .col("t_ns", Column::U64(c.e_t))
            .col("flow", Column::U64(c.e_flow))
            .col("side", Column::Str(c.e_side))
            .col("kind", Column::Str(c.e_kind))
            .col("value", Column::F64(c.e_value));
        let mut video = VideoTables::default();
        for (k, f) in self.flows.iter().enumerate() {
            if let Some(v) = &f.video {
                let (rows, metrics) = v.evaluate(f.measure_from, f.measure_to, self.end);
                video.add(k as u64, v.is_simulcast(), rows, metrics);
            }
        }
        let mut tables = vec![flows, flow_summary, aggregate, flow_samples, queue_samples, links, events];
        if !video.is_empty() {
            tables.extend(video.into_tables());
        }
        if self.config.packet_log {
            tables.push(
                Table::new("packets")
                    .col("flow", Column::U64(c.p_flow))
                    .col("seq", Column::U64(c.p_seq))
                    .col("size_bytes", Column::U64(c.p_size))
                    .col("sent_ns", Column::U64(c.p_sent))
                    .col("arrival_ns", Column::I64(c.p_arrival))
                    .col("fate", Column::Str(c.p_fate.into_iter().map(String::from).collect())),
            );
        }
        SimOutput { tables, stats: self.stats }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum SimError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error("interrupted")]
    Interrupted,
}

/// Parses a resolved configuration (JSON) and runs it.
pub fn run_json(json: &str, progress: &mut dyn FnMut(f64) -> bool) -> Result<SimOutput, SimError> {
    let config: SimConfig = serde_json::from_str(json).map_err(|e| config_error("config", e.to_string()))?;
    Simulation::new(config)?.run(progress)
}

/// Runs without progress reporting.
pub fn run_config(config: SimConfig) -> Result<SimOutput, SimError> {
    Simulation::new(config)?.run(&mut |_| true)
}
