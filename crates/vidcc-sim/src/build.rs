//! Building a run from its resolved configuration: checks what the schema cannot, lays out the
//! network and its routes, sizes the queues, builds each link's queue and loss model, and each
//! flow's endpoints through the protocol registry of vidcc-core.
//!
//! Every flow instance has one sender and its receivers; endpoints are numbered flow by flow,
//! the sender first, so that the order in which the engine first services them (and with it the
//! order of simultaneous events) does not depend on anything but the configuration.

use std::collections::VecDeque;
use vidcc_core::media::config::build_stream;
use vidcc_core::proto::registry::{FlowContext, Reach, ReceiverSpec};
use vidcc_core::proto::Application;
use vidcc_core::rng::{RngStreams, SimRng};
use vidcc_core::{DataRate, DataSize, Duration, Endpoint, FlowEndpoints, GroupId, Instant};

use crate::config::{ArqConfig, LossConfig, QueueConfig, QueueLimit, SimConfig};
use crate::forward::{Fabric, LinkState, PERSISTENT_ARQ_ATTEMPTS};
use crate::queue::{Limit, Queue};
use crate::record::ReceiverInfo;
use crate::routing::Routes;
use crate::topology::{self, config_error, ConfigError, LinkId, Network, NodeId};

/// One endpoint of the run.
pub struct EndpointSlot {
    pub endpoint: Box<dyn Endpoint + Send>,
    pub flow: u32,
    pub side: crate::record::Side,
    pub node: NodeId,
    /// The instant of the timer event pending for this endpoint, if any.
    pub timer_at: Option<Instant>,
}

/// One flow instance: where its endpoints are, and how its sender's data enters the network.
pub struct FlowState {
    pub sender: u32,
    /// Its receivers are endpoints `sender + 1 ..= sender + receivers`, rows `first_row ..`.
    pub receivers: u32,
    pub first_row: u32,
    pub src: NodeId,
    /// Send jitter (zero: none) with its random stream and the last injection instant, so that
    /// jittered packets still leave in order.
    pub send_jitter: Duration,
    pub jitter_rng: Option<SimRng>,
    pub last_inject: Instant,
    pub measure_from: Instant,
    /// A multicast flow: its receivers' measurement windows are their own, and their joins and
    /// leaves take these latencies.
    pub multicast: bool,
    pub join_latency: Duration,
    pub leave_latency: Duration,
}

/// Everything a run starts from.
pub struct Built {
    pub net: Network,
    pub fabric: Fabric,
    pub flows: Vec<FlowState>,
    pub endpoints: Vec<EndpointSlot>,
    pub receivers: Vec<ReceiverInfo>,
    /// Endpoint of each receiver row.
    pub receiver_endpoints: Vec<u32>,
    /// Each multicast receiver row's path from its sender (the branch its joins graft; empty for
    /// unicast rows).
    pub data_paths: Vec<Vec<LinkId>>,
    pub monitored: Vec<LinkId>,
    pub end: Instant,
}

fn check(config: &SimConfig) -> Result<(), ConfigError> {
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
        match (&f.multicast, f.protocol.reach()) {
            (Some(_), Reach::Unicast) => {
                return Err(config_error(
                    format!("flows[{g}].receivers"),
                    format!("{:?} is a unicast protocol: a flow has exactly one receiver", f.protocol.name()),
                ))
            }
            (None, Reach::Multicast) => {
                return Err(config_error(
                    format!("flows[{g}]"),
                    format!("{:?} is a multicast protocol: the flow lists its receivers", f.protocol.name()),
                ))
            }
            (Some(m), _) => {
                if m.receivers.is_empty() {
                    return Err(config_error(format!("flows[{g}].receivers"), "a multicast flow needs a receiver"));
                }
                let graph = matches!(config.topology, crate::config::TopologyConfig::Graph { .. });
                for (j, r) in m.receivers.iter().enumerate() {
                    if !graph && r.node.is_some() {
                        return Err(config_error(
                            format!("flows[{g}].receivers[{j}].node"),
                            "receivers are placed on nodes in a graph only (dumbbell and chain receivers get their own access links)",
                        ));
                    }
                    if let (Some(a), Some(b)) = (r.start_ns, r.stop_ns) {
                        if b <= a {
                            return Err(config_error(
                                format!("flows[{g}].receivers[{j}].stop"),
                                "must be after its start",
                            ));
                        }
                    }
                }
            }
            (None, Reach::Unicast) => {}
        }
    }
    Ok(())
}

fn build_queue(q: &QueueConfig, limit: Limit, bandwidth: DataRate, rng: SimRng) -> Result<Box<dyn Queue>, String> {
    use crate::queue::red::{Red, RedParams};
    Ok(match q {
        QueueConfig::DropTail { .. } => Box::new(crate::queue::drop_tail::DropTail::new(limit)),
        &QueueConfig::Red {
            min_thresh,
            max_thresh,
            weight,
            max_p,
            gentle,
            bytes,
            mean_packet_bytes,
            wait,
            limit: _,
        } => {
            let params = RedParams { min_thresh, max_thresh, weight, max_p, gentle, bytes, mean_packet_bytes, wait };
            Box::new(Red::new(limit, params, bandwidth, rng).map_err(|e| e.to_string())?)
        }
        &QueueConfig::Drr { quantum, buckets, mask, limit: _ } => {
            let params = crate::queue::drr::DrrParams { quantum, buckets, mask };
            Box::new(crate::queue::drr::Drr::new(limit, params)?)
        }
        &QueueConfig::Sfq { buckets, limit: _ } => {
            let Limit::Packets(n) = limit else {
                return Err("sfq counts its limit in packets (ns-2 maxqueue_): give a number of packets".into());
            };
            Box::new(crate::queue::sfq::Sfq::new(
                u32::try_from(n).map_err(|_| format!("limit {n} packets is too large"))?,
                buckets,
            )?)
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

/// Per receiver (all flows' receivers in order): its data path and two-way propagation delay;
/// per flow instance and link, who crosses it.
struct Paths {
    data: Vec<Vec<LinkId>>,
    rtt: Vec<Duration>,
    /// Per flow instance: the mean two-way delay of its receivers (for "bdp" queue limits).
    flow_rtt: Vec<Duration>,
    /// Flow instances whose data or feedback crosses each link (for "bdp" queue limits).
    crossing: Vec<Vec<u32>>,
    /// How many flow instances' data crosses each link (for fair shares).
    data_crossing: Vec<u32>,
}

fn paths(net: &Network, routes: &Routes) -> Result<Paths, ConfigError> {
    let receivers: usize = net.flows.iter().map(|f| f.receivers.len()).sum();
    let mut p = Paths {
        data: Vec::with_capacity(receivers),
        rtt: Vec::with_capacity(receivers),
        flow_rtt: Vec::with_capacity(net.flows.len()),
        crossing: vec![Vec::new(); net.links.len()],
        data_crossing: vec![0; net.links.len()],
    };
    // The last flow instance (plus one) counted on each link's data crossing.
    let mut data_seen = vec![0u32; net.links.len()];
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
        let mut rtt_sum = 0u128;
        for r in &fi.receivers {
            let fwd = routes.path(&net.links, fi.src, r.node).ok_or_else(|| unreachable(fi.src, r.node))?;
            let rev = routes.path(&net.links, r.node, fi.src).ok_or_else(|| unreachable(r.node, fi.src))?;
            let rtt = fwd.iter().chain(&rev).map(|&l| net.links[l as usize].delay).fold(Duration::ZERO, |a, b| a + b);
            // A multicast flow crosses a link of its tree once, however many receivers are behind it.
            for &l in fwd.iter().chain(&rev) {
                if p.crossing[l as usize].last() != Some(&(k as u32)) {
                    p.crossing[l as usize].push(k as u32);
                }
            }
            for &l in &fwd {
                if data_seen[l as usize] != k as u32 + 1 {
                    data_seen[l as usize] = k as u32 + 1;
                    p.data_crossing[l as usize] += 1;
                }
            }
            rtt_sum += rtt.as_nanos() as u128;
            p.rtt.push(rtt);
            p.data.push(fwd);
        }
        p.flow_rtt.push(Duration::from_nanos((rtt_sum / fi.receivers.len() as u128) as u64));
    }
    Ok(p)
}

/// The queue limit of link `i`: as configured, or "bdp": bandwidth × mean RTT of the flows
/// crossing it, in their largest packets, at least 10.
fn queue_limit(config: &SimConfig, net: &Network, paths: &Paths, i: usize, limit: QueueLimit) -> Limit {
    match limit {
        QueueLimit::Packets(n) => Limit::Packets(n),
        QueueLimit::Bytes(n) => Limit::Bytes(n),
        QueueLimit::Bdp => {
            let users = &paths.crossing[i];
            let (rtt_sum, max_pkt) = users.iter().fold((0u128, 0u64), |(s, m), &k| {
                let f = &config.flows[net.flows[k as usize].group as usize];
                (s + paths.flow_rtt[k as usize].as_nanos() as u128, m.max(f.packet_size_bytes as u64))
            });
            let packets = if users.is_empty() || max_pkt == 0 {
                10
            } else {
                let mean_rtt = Duration::from_nanos((rtt_sum / users.len() as u128) as u64);
                let bdp = net.links[i].bandwidth.size_in(mean_rtt).as_bytes();
                bdp.div_ceil(max_pkt).max(10)
            };
            Limit::Packets(packets)
        }
    }
}

fn build_links(
    config: &SimConfig,
    net: &Network,
    paths: &Paths,
    streams: &RngStreams,
) -> Result<Vec<LinkState>, ConfigError> {
    let mut links = Vec::with_capacity(net.links.len());
    for (i, spec) in net.links.iter().enumerate() {
        let configured = match &spec.queue {
            QueueConfig::DropTail { limit }
            | QueueConfig::Red { limit, .. }
            | QueueConfig::Drr { limit, .. }
            | QueueConfig::Sfq { limit, .. } => *limit,
        };
        let limit = queue_limit(config, net, paths, i, configured);
        let queue = build_queue(&spec.queue, limit, spec.bandwidth, streams.stream(&format!("queue/{}", spec.name)))
            .map_err(|e| config_error(format!("link {} queue", spec.name), e))?;
        let loss = match &spec.loss {
            Some(l) => Some(
                build_loss(l, streams.stream(&format!("loss/{}", spec.name)))
                    .map_err(|e| config_error(format!("link {} loss", spec.name), e))?,
            ),
            None => None,
        };
        let pause_slots = match (spec.arq, &loss) {
            (Some(ArqConfig::Optimal { slots: Some(k), .. }), _) => k,
            (Some(ArqConfig::Optimal { threshold, slots: None }), Some(m)) => {
                if !(0.0..=1.0).contains(&threshold) {
                    return Err(config_error(
                        format!("link {} arq", spec.name),
                        format!("threshold {threshold} is not a probability in [0, 1]"),
                    ));
                }
                crate::loss::optimal_pause(m.as_ref(), threshold)
            }
            _ => 0,
        };
        links.push(LinkState {
            to: spec.to,
            bandwidth: spec.bandwidth,
            delay: spec.delay,
            queue,
            loss,
            busy_until: Instant::ZERO,
            tx_pending: false,
            in_flight: VecDeque::new(),
            last_tx: (0, spec.bandwidth.transmission_time(vidcc_core::DataSize::ZERO)),
            limit,
            max_attempts: match spec.arq {
                None => 1,
                Some(ArqConfig::Persistent | ArqConfig::Optimal { .. }) => PERSISTENT_ARQ_ATTEMPTS,
                Some(ArqConfig::Limited { attempts }) => attempts.max(1),
            },
            pause_slots,
            retransmissions: 0,
            counts_as_bottleneck: spec.monitored && spec.forward,
            delivered: 0,
            dropped_queue: 0,
            dropped_loss: 0,
        });
    }
    Ok(links)
}

/// Builds a flow's endpoints from its configuration and context.
pub type FlowFactory<'a> = &'a dyn Fn(&crate::config::FlowConfig, FlowContext<'_>) -> Result<FlowEndpoints, String>;

/// Builds the run, every flow through the protocol registry.
pub fn build(config: &SimConfig) -> Result<Built, ConfigError> {
    build_with(config, &|f, ctx| f.protocol.build(ctx))
}

/// Builds the run with `make` constructing each flow's endpoints (tests drive hand-made endpoints
/// through it). A multicast flow must get exactly its listed receivers; a unicast flow has as
/// many receivers as `make` returns, all at the flow instance's destination node.
pub fn build_with(config: &SimConfig, make: FlowFactory<'_>) -> Result<Built, ConfigError> {
    check(config)?;
    let streams = RngStreams::new(config.seed);
    let net = topology::build(config, &streams)?;
    if let Some(l) = net.links.iter().find(|l| l.bandwidth == DataRate::ZERO) {
        return Err(config_error(format!("link {}", l.name), "bandwidth must be positive"));
    }
    let destinations = net.flows.iter().flat_map(|f| std::iter::once(f.src).chain(f.receivers.iter().map(|r| r.node)));
    let routes = Routes::build(net.nodes.len(), &net.links, destinations).map_err(|e| {
        config_error("topology", format!("routing tables need {} bytes more than this machine can allocate", e.bytes))
    })?;
    let paths = paths(&net, &routes)?;
    let links = build_links(config, &net, &paths, &streams)?;

    let end = Instant::from_nanos(config.duration_ns);
    let warmup = Instant::from_nanos(config.warmup_ns);
    let rows: usize = net.flows.iter().map(|f| f.receivers.len()).sum();
    let mut flows = Vec::with_capacity(net.flows.len());
    let mut endpoints = Vec::new();
    endpoints
        .try_reserve_exact(net.flows.len() + rows)
        .map_err(|_| config_error("flows", format!("{} endpoints do not fit in memory", net.flows.len() + rows)))?;
    let mut receivers = Vec::with_capacity(rows);
    let mut receiver_endpoints = Vec::with_capacity(rows);
    let mut data_paths = Vec::with_capacity(rows);
    let mut path_row = 0usize;
    for (k, fi) in net.flows.iter().enumerate() {
        let f = &config.flows[fi.group as usize];
        let here = || format!("flows[{}]", fi.group);
        let fair_share = |row: usize| {
            paths.data[row]
                .iter()
                .map(|&l| net.links[l as usize].bandwidth.as_bps_f64() / paths.data_crossing[l as usize] as f64)
                .fold(f64::INFINITY, f64::min)
        };
        let rng = |what: &str| streams.stream(&format!("{what}/flow{k}"));
        let app = match &f.video {
            Some(v) => {
                Application::Video(build_stream(v, fi.start, &|| rng("video")).map_err(|e| config_error(here(), e))?)
            }
            None => Application::Bulk,
        };
        let stop = f.stop_ns.map(Instant::from_nanos);
        let members: Vec<ReceiverSpec> = fi
            .receivers
            .iter()
            .map(|r| ReceiverSpec {
                start: r.start,
                stop: r.stop,
                groups: r.groups.iter().map(|&g| GroupId(g)).collect(),
            })
            .collect();
        let ctx = FlowContext {
            app,
            packet_size: DataSize::from_bytes(f.packet_size_bytes as u64),
            start: fi.start,
            stop,
            receivers: members.len() as u32,
            members: &members,
            rng: &rng,
        };
        let built = make(f, ctx).map_err(|e| config_error(here(), e))?;
        if fi.multicast && built.receivers.len() != fi.receivers.len() {
            return Err(config_error(
                here(),
                format!("the protocol built {} receivers for {} listed", built.receivers.len(), fi.receivers.len()),
            ));
        }
        let flow_measure_from = warmup.max(fi.start);
        let sender = endpoints.len() as u32;
        endpoints.push(EndpointSlot {
            endpoint: built.sender,
            flow: k as u32,
            side: crate::record::Side::Sender,
            node: fi.src,
            timer_at: None,
        });
        let m = f.multicast.as_ref();
        flows.push(FlowState {
            sender,
            receivers: built.receivers.len() as u32,
            first_row: receivers.len() as u32,
            src: fi.src,
            send_jitter: Duration::from_nanos(f.send_jitter_ns),
            jitter_rng: (f.send_jitter_ns > 0).then(|| rng("jitter")),
            last_inject: Instant::ZERO,
            measure_from: flow_measure_from,
            multicast: fi.multicast,
            join_latency: Duration::from_nanos(m.map_or(0, |m| m.join_latency_ns)),
            leave_latency: Duration::from_nanos(m.map_or(0, |m| m.leave_latency_ns)),
        });
        for (index, endpoint) in built.receivers.into_iter().enumerate() {
            // A test factory may give a unicast flow several receivers: all at its destination.
            let place = fi.receivers.get(index).unwrap_or(&fi.receivers[0]);
            let row = path_row + index.min(fi.receivers.len() - 1);
            receiver_endpoints.push(endpoints.len() as u32);
            endpoints.push(EndpointSlot {
                endpoint,
                flow: k as u32,
                side: crate::record::Side::Receiver(index as u32),
                node: place.node,
                timer_at: None,
            });
            let stops = [place.stop, stop].into_iter().flatten().min();
            receivers.push(ReceiverInfo {
                flow: k as u32,
                index: index as u32,
                node: place.node,
                measure_from: warmup.max(place.start),
                measure_to: stops.map_or(end, |s| s.min(end)),
                fair_share_bps: fair_share(row),
                path_rtt: paths.rtt[row],
            });
            data_paths.push(if fi.multicast { paths.data[row].clone() } else { Vec::new() });
        }
        path_row += fi.receivers.len();
    }
    let monitored = net.links.iter().enumerate().filter(|(_, l)| l.monitored).map(|(i, _)| i as LinkId).collect();
    Ok(Built {
        fabric: Fabric { links, routes, bottleneck_packets: 0, pushed_out: Vec::new() },
        net,
        flows,
        endpoints,
        receivers,
        receiver_endpoints,
        data_paths,
        monitored,
        end,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn builds_red_and_droptail_from_the_resolved_config() {
        let red: QueueConfig = serde_json::from_str(
            r#"{"kind": "red", "limit": {"packets": 50}, "min_thresh": 5, "max_thresh": 15, "weight": 0.002,
                "max_p": 0.1, "gentle": true, "bytes": false, "mean_packet_bytes": 500, "wait": true}"#,
        )
        .unwrap();
        let q = build_queue(&red, Limit::Packets(50), DataRate::from_mbps(10), SimRng::seed_from_u64(1)).unwrap();
        assert_eq!(q.average(), Some(0.0), "a RED queue has an average");
        let bad: QueueConfig = serde_json::from_str(
            r#"{"kind": "red", "limit": {"packets": 50}, "min_thresh": 20, "max_thresh": 15, "weight": 0.002,
                "max_p": 0.1, "gentle": true, "bytes": false, "mean_packet_bytes": 500, "wait": true}"#,
        )
        .unwrap();
        let err = build_queue(&bad, Limit::Packets(50), DataRate::from_mbps(10), SimRng::seed_from_u64(1)).err();
        assert!(err.is_some_and(|e| e.contains("thresh")), "min above max refused");
        let dt: QueueConfig = serde_json::from_str(r#"{"kind": "droptail", "limit": "bdp"}"#).unwrap();
        let q = build_queue(&dt, Limit::Packets(3), DataRate::from_mbps(10), SimRng::seed_from_u64(1)).unwrap();
        assert_eq!(q.average(), None);
    }
}
