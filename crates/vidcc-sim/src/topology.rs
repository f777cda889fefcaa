//! Topology builders: the dumbbell, the multi-hop chain (parking lot) and an explicit graph.
//!
//! A builder turns a [`TopologyConfig`] and the flow list into a [`Network`]: named nodes,
//! directed links (every physical link is two of them, each with its own queue and loss model)
//! and one [`FlowInstance`] per flow instance with its two end nodes. Dumbbell and chain flows
//! get a private pair of edge nodes joined to the core by their own access links, as in the
//! papers' ns-2 scripts; graph flows attach to named nodes.
//!
//! Per-instance spreads (access bandwidth/delay, start time) are drawn from the `topology` and
//! `flows/start` random streams in a fixed order: flow entry, then instance.

use crate::config::{
    AccessConfig, ArqConfig, FlowConfig, LinkConfig, LossConfig, Placement, QueueConfig, SimConfig, Spread,
    TopologyConfig,
};
use crate::rng::{RngStreams, SimRng};
use rand::Rng;
use vidcc_core::{DataRate, Duration, Instant};

pub type NodeId = u32;
pub type LinkId = u32;

/// A directed link as built (before queues and loss models are instantiated).
#[derive(Clone, Debug)]
pub struct LinkSpec {
    pub name: String,
    pub from: NodeId,
    pub to: NodeId,
    pub bandwidth: DataRate,
    pub delay: Duration,
    pub queue: QueueConfig,
    pub loss: Option<LossConfig>,
    pub arq: Option<ArqConfig>,
    pub monitored: bool,
    /// The configured direction (a→b, left→right, away from the core), as opposed to its twin.
    pub forward: bool,
}

#[derive(Clone, Debug)]
pub struct FlowInstance {
    /// Index of the `[[flows]]` entry.
    pub group: u32,
    /// Index within the entry's `count`.
    pub instance: u32,
    /// For per-hop chain flows, the hop; otherwise 0.
    pub hop: u32,
    pub src: NodeId,
    /// The (first) receiver's node.
    pub dst: NodeId,
    pub start: Instant,
    /// Every receiver (a unicast flow's one receiver is `dst`, from the flow's start to its stop).
    pub receivers: Vec<ReceiverPlace>,
    /// A multicast flow (its receivers listed in the scenario), as opposed to a unicast one.
    pub multicast: bool,
}

/// Where a receiver sits and when it runs.
#[derive(Clone, Debug)]
pub struct ReceiverPlace {
    pub node: NodeId,
    pub start: Instant,
    pub stop: Option<Instant>,
    pub groups: Vec<u32>,
}

#[derive(Clone, Debug, Default)]
pub struct Network {
    pub nodes: Vec<String>,
    pub links: Vec<LinkSpec>,
    pub flows: Vec<FlowInstance>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {message}")]
pub struct ConfigError {
    pub path: String,
    pub message: String,
}

pub(crate) fn config_error(path: impl Into<String>, message: impl Into<String>) -> ConfigError {
    ConfigError { path: path.into(), message: message.into() }
}

impl Network {
    fn node(&mut self, name: String) -> NodeId {
        self.nodes.push(name);
        (self.nodes.len() - 1) as NodeId
    }

    /// Adds both directions of a physical link `a`—`b`.
    fn duplex(&mut self, a: NodeId, b: NodeId, d: Duplex<'_>) {
        for (from, to, loss, forward) in [(a, b, d.loss_ab, true), (b, a, d.loss_ba, false)] {
            let name = format!("{}->{}", self.nodes[from as usize], self.nodes[to as usize]);
            self.links.push(LinkSpec {
                name,
                from,
                to,
                bandwidth: d.bandwidth,
                delay: d.delay,
                queue: d.queue.clone(),
                loss,
                arq: d.arq,
                monitored: d.monitored,
                forward,
            });
        }
    }

    fn link_from_config(&mut self, a: NodeId, b: NodeId, c: &LinkConfig, monitored: bool) {
        let d = Duplex {
            bandwidth: DataRate::from_bps(c.bandwidth_bps),
            delay: Duration::from_nanos(c.delay_ns),
            queue: &c.queue,
            loss_ab: c.loss,
            loss_ba: c.reverse_loss,
            arq: c.arq,
            monitored,
        };
        self.duplex(a, b, d);
    }

    /// An access link from `left` to `right` (edge → core on the source side, core → edge on
    /// the sink side), so that `loss` is the left-to-right direction as on every other link.
    fn access(&mut self, left: NodeId, right: NodeId, c: &AccessConfig, rng: &mut SimRng) {
        let d = Duplex {
            bandwidth: DataRate::from_bps(draw(&c.bandwidth_bps, rng)),
            delay: Duration::from_nanos(draw(&c.delay_ns, rng)),
            queue: &c.queue,
            loss_ab: c.loss,
            loss_ba: c.reverse_loss,
            arq: c.arq,
            monitored: false,
        };
        self.duplex(left, right, d);
    }
}

/// What the two directions of a physical link share, and each direction's loss.
struct Duplex<'a> {
    bandwidth: DataRate,
    delay: Duration,
    queue: &'a QueueConfig,
    loss_ab: Option<LossConfig>,
    loss_ba: Option<LossConfig>,
    arq: Option<ArqConfig>,
    monitored: bool,
}

fn draw(s: &Spread, rng: &mut SimRng) -> u64 {
    match *s {
        Spread::Fixed(v) => v,
        Spread::Uniform { min, max } if min >= max => min,
        Spread::Uniform { min, max } => rng.gen_range(min..=max),
    }
}

/// Gives every instance of every flow its own pair of edge nodes on a line of routers (a dumbbell
/// is the one-hop line L–R): end-to-end instances attach at the two ends, per-hop instances
/// (chains only) at both routers of every hop. The source side's access link is `a_k → router`,
/// the sink side's `router → b_k`, so that "forward" is left to right on every link.
fn attach_edge_pairs(
    net: &mut Network,
    routers: &[NodeId],
    config: &SimConfig,
    source_access: &AccessConfig,
    sink_access: &AccessConfig,
    rng: &mut SimRng,
    add_flow: &mut impl FnMut(&mut Network, usize, u32, u32, NodeId, Vec<NodeId>, &FlowConfig),
) -> Result<(), ConfigError> {
    let hops = routers.len() - 1;
    let is_chain = !matches!(config.topology, TopologyConfig::Dumbbell { .. });
    let mut k = 0;
    for (g, f) in config.flows.iter().enumerate() {
        let (reverse, spans): (bool, Vec<(u32, NodeId, NodeId)>) = match &f.placement {
            Placement::EndToEnd { reverse } => (*reverse, vec![(0, routers[0], routers[hops])]),
            Placement::PerHop { reverse } if is_chain => {
                (*reverse, (0..hops).map(|h| (h as u32, routers[h], routers[h + 1])).collect())
            }
            _ => {
                let msg = if is_chain {
                    "a chain flow runs end-to-end or per-hop (named src/dst nodes need a graph)"
                } else {
                    "a dumbbell flow runs end to end (per-hop and named nodes need a chain or a graph)"
                };
                return Err(config_error(format!("flows[{g}]"), msg));
            }
        };
        if let Some(m) = &f.multicast {
            if spans.len() != 1 {
                return Err(config_error(format!("flows[{g}]"), "a multicast flow runs end to end (not per hop)"));
            }
            let (_, left, right) = spans[0];
            let n = m.receivers.len();
            for i in 0..f.count {
                // The sender's edge node on its side, a private edge node per receiver on the other,
                // access links left side first, each oriented left to right.
                let (lefts, rights) = if reverse { (n, 1) } else { (1, n) };
                let name = |side: char, j: usize, many: bool| {
                    if many {
                        format!("{side}{k}.{j}")
                    } else {
                        format!("{side}{k}")
                    }
                };
                let l: Vec<NodeId> = (0..lefts).map(|j| net.node(name('a', j, lefts > 1 || reverse))).collect();
                let r: Vec<NodeId> = (0..rights).map(|j| net.node(name('b', j, rights > 1 || !reverse))).collect();
                for &a in &l {
                    net.access(a, left, source_access, rng);
                }
                for &b in &r {
                    net.access(right, b, sink_access, rng);
                }
                let (src, dsts) = if reverse { (r[0], l) } else { (l[0], r) };
                add_flow(net, g, i, 0, src, dsts, f);
                k += 1;
            }
            continue;
        }
        for (hop, left, right) in spans {
            for i in 0..f.count {
                let a = net.node(format!("a{k}"));
                let b = net.node(format!("b{k}"));
                net.access(a, left, source_access, rng);
                net.access(right, b, sink_access, rng);
                let (src, dst) = if reverse { (b, a) } else { (a, b) };
                add_flow(net, g, i, hop, src, vec![dst], f);
                k += 1;
            }
        }
    }
    Ok(())
}

/// Reserves room for every flow instance and its end hosts up front, so that a scenario too big
/// for the machine is a clear error here rather than an abort halfway through.
fn reserve(net: &mut Network, config: &SimConfig) -> Result<(), ConfigError> {
    let hops = match &config.topology {
        TopologyConfig::Chain { hops, .. } => *hops as u64,
        _ => 1,
    };
    let (mut instances, mut hosts) = (0u64, 0u64);
    for f in &config.flows {
        let per = if matches!(f.placement, Placement::PerHop { .. }) { hops } else { 1 };
        let receivers = f.multicast.as_ref().map_or(1, |m| m.receivers.len() as u64);
        instances = instances.saturating_add((f.count as u64).saturating_mul(per));
        hosts = hosts.saturating_add((f.count as u64).saturating_mul(per).saturating_mul(1 + receivers));
    }
    let too_big = |what: &str, n: u64| {
        config_error("flows", format!("{n} {what} do not fit in this machine's memory (the scenario is too big)"))
    };
    let fits = |n: u64| usize::try_from(n).ok();
    let n = fits(instances).ok_or_else(|| too_big("flow instances", instances))?;
    net.flows.try_reserve_exact(n).map_err(|_| too_big("flow instances", instances))?;
    let h = fits(hosts).ok_or_else(|| too_big("end hosts", hosts))?;
    net.nodes.try_reserve(h).map_err(|_| too_big("end hosts", hosts))?;
    let l = fits(hosts.saturating_mul(2)).ok_or_else(|| too_big("access links", hosts.saturating_mul(2)))?;
    net.links.try_reserve(l).map_err(|_| too_big("access links", hosts.saturating_mul(2)))?;
    Ok(())
}

/// A graph flow's source node, its receivers' nodes (each with the key naming it), and its
/// access links.
#[allow(clippy::type_complexity)]
fn graph_placement(
    g: usize,
    f: &FlowConfig,
) -> Result<(&str, Vec<(String, &str)>, Option<&AccessConfig>, Option<&AccessConfig>), ConfigError> {
    match (&f.placement, &f.multicast) {
        (Placement::Nodes { src, dst, source_access, sink_access }, None) => {
            Ok((src, vec![(format!("flows[{g}].dst"), dst.as_str())], source_access.as_deref(), sink_access.as_deref()))
        }
        (Placement::Tree { src, source_access, sink_access }, Some(m)) => {
            let mut dsts = Vec::with_capacity(m.receivers.len());
            for (j, r) in m.receivers.iter().enumerate() {
                let key = format!("flows[{g}].receivers[{j}].node");
                let node = r.node.as_deref().ok_or_else(|| config_error(&key, "a graph receiver names its node"))?;
                dsts.push((key, node));
            }
            if dsts.is_empty() {
                return Err(config_error(format!("flows[{g}].receivers"), "a multicast flow needs a receiver"));
            }
            Ok((src, dsts, source_access.as_deref(), sink_access.as_deref()))
        }
        (Placement::Tree { .. }, None) => {
            Err(config_error(format!("flows[{g}]"), "a unicast graph flow names its src and dst nodes"))
        }
        (_, Some(_)) => Err(config_error(format!("flows[{g}]"), "a multicast graph flow names its src and receivers")),
        _ => Err(config_error(format!("flows[{g}]"), "a graph flow names its src and dst nodes")),
    }
}

pub fn build(config: &SimConfig, streams: &RngStreams) -> Result<Network, ConfigError> {
    let mut rng = streams.stream("topology");
    let mut start_rng = streams.stream("flows/start");
    let mut net = Network::default();
    reserve(&mut net, config)?;
    let mut add_flow =
        |net: &mut Network, g: usize, i: u32, hop: u32, src: NodeId, dsts: Vec<NodeId>, f: &FlowConfig| {
            let start = Instant::from_nanos(draw(&f.start_ns, &mut start_rng));
            let stop = f.stop_ns.map(Instant::from_nanos);
            let receivers = match &f.multicast {
                None => dsts.iter().map(|&node| ReceiverPlace { node, start, stop, groups: Vec::new() }).collect(),
                Some(m) => dsts
                    .iter()
                    .zip(&m.receivers)
                    .map(|(&node, r)| ReceiverPlace {
                        node,
                        start: r.start_ns.map_or(start, Instant::from_nanos),
                        stop: r.stop_ns.map(Instant::from_nanos),
                        groups: r.groups.clone(),
                    })
                    .collect(),
            };
            let dst = dsts[0];
            net.flows.push(FlowInstance {
                group: g as u32,
                instance: i,
                hop,
                src,
                dst,
                start,
                receivers,
                multicast: f.multicast.is_some(),
            });
        };
    match &config.topology {
        TopologyConfig::Dumbbell { bottleneck, source_access, sink_access } => {
            let routers = [net.node("L".into()), net.node("R".into())];
            net.link_from_config(routers[0], routers[1], bottleneck, true);
            attach_edge_pairs(&mut net, &routers, config, source_access, sink_access, &mut rng, &mut add_flow)?;
        }
        TopologyConfig::Chain { hops, link, source_access, sink_access } => {
            if *hops == 0 {
                return Err(config_error("topology.hops", "a chain needs at least one hop"));
            }
            let routers: Vec<NodeId> = (0..=*hops).map(|h| net.node(format!("r{h}"))).collect();
            for h in 0..*hops as usize {
                net.link_from_config(routers[h], routers[h + 1], link, true);
            }
            attach_edge_pairs(&mut net, &routers, config, source_access, sink_access, &mut rng, &mut add_flow)?;
        }
        TopologyConfig::Graph { nodes, links } => {
            for (i, n) in nodes.iter().enumerate() {
                if nodes[..i].contains(n) {
                    return Err(config_error(format!("topology.nodes[{i}]"), format!("duplicate node {n:?}")));
                }
                net.node(n.clone());
            }
            let find = |name: &str| nodes.iter().position(|n| n == name).map(|i| i as NodeId);
            for (i, l) in links.iter().enumerate() {
                let a = find(&l.a)
                    .ok_or_else(|| config_error(format!("topology.links[{i}].a"), format!("unknown node {:?}", l.a)))?;
                let b = find(&l.b)
                    .ok_or_else(|| config_error(format!("topology.links[{i}].b"), format!("unknown node {:?}", l.b)))?;
                if a == b {
                    return Err(config_error(format!("topology.links[{i}]"), "a link must join two different nodes"));
                }
                net.link_from_config(a, b, &l.link, l.link.monitor);
            }
            let mut k = 0;
            for (g, f) in config.flows.iter().enumerate() {
                let (src, dst_names, source_access, sink_access) = graph_placement(g, f)?;
                let s = find(src)
                    .ok_or_else(|| config_error(format!("flows[{g}].src"), format!("unknown node {src:?}")))?;
                let mut ds = Vec::with_capacity(dst_names.len());
                for (j, (key, name)) in dst_names.iter().enumerate() {
                    let d = find(name).ok_or_else(|| config_error(key.clone(), format!("unknown node {name:?}")))?;
                    if d == s {
                        let what = if f.multicast.is_some() {
                            format!("receiver {j} is on the sender's node {name:?}")
                        } else {
                            "src and dst are the same node".to_string()
                        };
                        return Err(config_error(format!("flows[{g}]"), what));
                    }
                    ds.push(d);
                }
                for i in 0..f.count {
                    // Private edge nodes, when asked for: data runs edge → src … dst → edge, so the
                    // access links are oriented that way and `loss` hits the data direction.
                    let src_node = match source_access {
                        Some(a) => {
                            let e = net.node(format!("a{k}"));
                            net.access(e, s, a, &mut rng);
                            e
                        }
                        None => s,
                    };
                    let mut dst_nodes = Vec::with_capacity(ds.len());
                    for (j, &d) in ds.iter().enumerate() {
                        dst_nodes.push(match sink_access {
                            Some(a) => {
                                let name = if f.multicast.is_some() { format!("b{k}.{j}") } else { format!("b{k}") };
                                let e = net.node(name);
                                net.access(d, e, a, &mut rng);
                                e
                            }
                            None => d,
                        });
                    }
                    add_flow(&mut net, g, i, 0, src_node, dst_nodes, f);
                    k += 1;
                }
            }
        }
    }
    Ok(net)
}
