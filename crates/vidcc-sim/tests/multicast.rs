//! Multicast forwarding: copies at branch points, pruned branches, join and leave latencies,
//! independent branches, receivers' reports to the group, and a 10,000-receiver group.
//!
//! The flows are `udp-multicast` (constant-rate groups, no feedback), so every packet count
//! below follows from the schedule: 1000-byte packets at 800 kbit/s are one per 10 ms per group.

mod common;

use common::*;
use vidcc_core::proto::udp_multicast::UdpMulticastConfig;
use vidcc_sim::config::*;
use vidcc_sim::{run_config, SimOutput};

/// 10 Mbit/s, 1 ms, a queue that never overflows at these rates.
fn glink(a: &str, b: &str) -> GraphLink {
    let mut l = link(10_000_000, MS, droptail(QueueLimit::Packets(1000)));
    l.monitor = false;
    GraphLink { a: a.into(), b: b.into(), link: l }
}

/// S — R1; R1 — A, R1 — D, R1 — R2; R2 — B, R2 — C, R2 — E.
fn tree_topology() -> TopologyConfig {
    let nodes = ["S", "R1", "R2", "A", "B", "C", "D", "E"].map(String::from).to_vec();
    let links = vec![
        glink("S", "R1"),
        glink("R1", "A"),
        glink("R1", "D"),
        glink("R1", "R2"),
        glink("R2", "B"),
        glink("R2", "C"),
        glink("R2", "E"),
    ];
    TopologyConfig::Graph { nodes, links }
}

fn receiver(node: &str, start_ms: u64, stop_ms: Option<u64>, groups: &[u32]) -> ReceiverConfig {
    ReceiverConfig {
        node: Some(node.into()),
        start_ns: Some(start_ms * MS),
        stop_ns: stop_ms.map(|s| s * MS),
        groups: groups.to_vec(),
    }
}

/// A `udp-multicast` flow from S: `groups` groups of 800 kbit/s from 100 ms to 1100 ms.
fn mcast_flow(groups: u32, receivers: Vec<ReceiverConfig>, join_ms: u64, leave_ms: u64) -> FlowConfig {
    let mut f = flow(ProtocolConfig::UdpMulticast(UdpMulticastConfig { rate_bps: 800_000, groups }), 1);
    f.label = "mcast".into();
    f.start_ns = Spread::Fixed(100 * MS);
    f.stop_ns = Some(1100 * MS);
    f.placement = Placement::Tree { src: "S".into(), source_access: None, sink_access: None };
    f.multicast = Some(MulticastConfig { receivers, join_latency_ns: join_ms * MS, leave_latency_ns: leave_ms * MS });
    f
}

fn run(topology: TopologyConfig, flows: Vec<FlowConfig>) -> SimOutput {
    let mut cfg = sim_config(topology, flows, 2);
    cfg.warmup_ns = 0;
    run_config(cfg).expect("runs")
}

/// Packets delivered over the link named `name` ("R1->A").
fn link_packets(out: &SimOutput, name: &str) -> u64 {
    let names = strings(out, "links", "name");
    let i = names.iter().position(|n| n == name).unwrap_or_else(|| panic!("no link {name}"));
    out.table("links").u64s("delivered_packets")[i]
}

fn summary(out: &SimOutput, col: &str) -> Vec<u64> {
    out.table("flow_summary").u64s(col).to_vec()
}

#[test]
fn a_packet_is_copied_once_per_branch_with_members_and_never_down_one_without() {
    // Group 0 to A, B, C; group 1 to C, D; nobody on E.
    let receivers = vec![
        receiver("A", 0, None, &[0]),
        receiver("B", 0, None, &[0]),
        receiver("C", 0, None, &[0, 1]),
        receiver("D", 0, None, &[1]),
    ];
    let out = run(tree_topology(), vec![mcast_flow(2, receivers, 0, 0)]);
    // 100 packets per group (100 ms .. 1090 ms).
    let expected = [
        ("S->R1", 200), // one copy per group
        ("R1->A", 100),
        ("R1->D", 100),  // group 1 only
        ("R1->R2", 200), // group 0 once for B and C together, group 1 for C
        ("R2->B", 100),
        ("R2->C", 200),
        ("R2->E", 0), // no member: never a copy
        ("R1->S", 0),
        ("A->R1", 0),
    ];
    for (name, n) in expected {
        assert_eq!(link_packets(&out, name), n, "link {name}");
    }
    assert_eq!(summary(&out, "receiver"), [0, 1, 2, 3]);
    assert_eq!(summary(&out, "sent_packets"), [100, 100, 200, 100]);
    assert_eq!(summary(&out, "delivered_packets"), [100, 100, 200, 100]);
    assert_eq!(strings(&out, "flows", "dst"), ["A", "B", "C", "D"]);
    // Aggregates: all, the label, the flow's group of receivers.
    assert_eq!(strings(&out, "aggregate", "label"), ["all", "mcast", "mcast/flow0"]);
    assert_eq!(out.table("aggregate").u64s("flows"), [4, 4, 4]);
    // Endpoint deliveries: one per receiver-packet.
    assert_eq!(out.stats.packets_delivered, 500);
}

#[test]
fn a_join_grafts_after_exactly_its_latency_and_a_leave_prunes_after_exactly_its_own() {
    // A asks to join at 300 ms (grafted at 350 ms) and to leave at 700 ms (pruned at 730 ms).
    let receivers = vec![receiver("A", 300, Some(700), &[0]), receiver("B", 0, None, &[0])];
    let out = run(tree_topology(), vec![mcast_flow(1, receivers, 50, 30)]);
    let kinds = |k: &str| events(&out, 0, "receiver", k).iter().map(|e| e.0).collect::<Vec<_>>();
    assert_eq!(kinds("join"), [0, 300 * MS]);
    assert_eq!(kinds("graft"), [50 * MS, 350 * MS]);
    assert_eq!(kinds("leave"), [700 * MS]);
    assert_eq!(kinds("prune"), [730 * MS]);
    // The branch to A carries the packets sent from the graft to the prune: 350 .. 720 ms.
    assert_eq!(link_packets(&out, "R1->A"), 38);
    // A's host stops taking them at its leave: it counts and gets those sent 350 .. 690 ms.
    let sent = summary(&out, "sent_packets");
    let delivered = summary(&out, "delivered_packets");
    assert_eq!((sent[0], delivered[0]), (35, 35));
    assert_eq!((sent[1], delivered[1]), (100, 100));
}

#[test]
fn losses_on_one_branch_leave_the_others_whole_and_a_shared_loss_hits_everyone_below() {
    let mut topo = tree_topology();
    let TopologyConfig::Graph { links, .. } = &mut topo else { unreachable!() };
    links[1].link.loss = Some(LossConfig::Bernoulli { p: 0.3 }); // R1 -> A
    let receivers = vec![receiver("A", 0, None, &[0]), receiver("B", 0, None, &[0]), receiver("C", 0, None, &[0])];
    let out = run(topo.clone(), vec![mcast_flow(1, receivers.clone(), 0, 0)]);
    let lost = summary(&out, "dropped_loss");
    let delivered = summary(&out, "delivered_packets");
    assert!(lost[0] > 10, "A loses about 30 of 100: {lost:?}");
    assert_eq!(lost[0] + delivered[0], 100);
    assert_eq!((lost[1], delivered[1]), (0, 100));
    assert_eq!((lost[2], delivered[2]), (0, 100));

    // Loss on R1 -> R2: B and C lose the same packets, A none.
    let TopologyConfig::Graph { links, .. } = &mut topo else { unreachable!() };
    links[1].link.loss = None;
    links[3].link.loss = Some(LossConfig::Bernoulli { p: 0.3 });
    let out = run(topo, vec![mcast_flow(1, receivers, 0, 0)]);
    let lost = summary(&out, "dropped_loss");
    assert_eq!(lost[0], 0);
    assert!(lost[1] > 10 && lost[1] == lost[2], "{lost:?}");
    assert_eq!(link_packets(&out, "R2->B") + lost[1], 100);
}

#[test]
fn a_dumbbell_multicast_flow_gives_each_receiver_its_own_access_link() {
    let mut f = flow(ProtocolConfig::UdpMulticast(UdpMulticastConfig { rate_bps: 800_000, groups: 1 }), 1);
    f.start_ns = Spread::Fixed(100 * MS);
    f.stop_ns = Some(1100 * MS);
    f.multicast = Some(MulticastConfig {
        receivers: vec![ReceiverConfig::default(), ReceiverConfig { start_ns: Some(0), ..Default::default() }],
        join_latency_ns: 0,
        leave_latency_ns: 0,
    });
    let mut cfg = dumbbell(10_000_000, MS, droptail(QueueLimit::Packets(100)), vec![f], 2);
    cfg.warmup_ns = 0;
    let out = run_config(cfg).expect("runs");
    assert_eq!(strings(&out, "flows", "dst"), ["b0.0", "b0.1"]);
    // One copy over the bottleneck; receiver 0 joins at the flow's start (100 ms), when the first
    // packet leaves: its join is carried out before the packet reaches R.
    assert_eq!(link_packets(&out, "L->R"), 100);
    // Receiver 0 starts with the flow: at one instant receivers act before senders, so it is a
    // member when the first packet leaves, and that packet counts for it (it once did not).
    assert_eq!(summary(&out, "sent_packets"), [100, 100]);
    assert_eq!(summary(&out, "delivered_packets"), [100, 100]);
}

#[test]
fn ten_thousand_receivers_behind_a_two_level_tree_run() {
    // S — R — M0..M99, 100 receivers behind each M on private access links.
    let mut nodes = vec!["S".to_string(), "R".to_string()];
    let mut links = vec![glink("S", "R")];
    for m in 0..100 {
        nodes.push(format!("M{m}"));
        links.push(glink("R", &format!("M{m}")));
    }
    let receivers: Vec<ReceiverConfig> = (0..10_000)
        .map(|i| ReceiverConfig { node: Some(format!("M{}", i / 100)), start_ns: Some(0), ..Default::default() })
        .collect();
    let mut f = mcast_flow(1, receivers, 0, 0);
    f.stop_ns = Some(200 * MS); // 10 packets: 100 .. 190 ms
    f.placement =
        Placement::Tree { src: "S".into(), source_access: None, sink_access: Some(Box::new(access(10_000_000, MS))) };
    let mut cfg = sim_config(TopologyConfig::Graph { nodes, links }, vec![f], 1);
    cfg.warmup_ns = 0;
    cfg.sample_interval_ns = 500 * MS;
    let out = run_config(cfg).expect("runs");
    let delivered = summary(&out, "delivered_packets");
    assert_eq!(delivered.len(), 10_000);
    assert!(delivered.iter().all(|&d| d == 10), "every receiver gets the 10 packets");
    assert_eq!(link_packets(&out, "S->R"), 10);
    assert_eq!(link_packets(&out, "R->M42"), 10);
    assert_eq!(out.stats.packets_delivered, 100_000);
}

#[test]
fn multicast_setups_the_simulator_cannot_run_are_named() {
    let receivers = vec![receiver("S", 0, None, &[])];
    let err = vidcc_sim::Simulation::new(sim_config(tree_topology(), vec![mcast_flow(1, receivers, 0, 0)], 3))
        .err()
        .expect("a receiver on the sender's node is refused");
    assert!(err.to_string().contains("flows[0]") && err.to_string().contains("sender's node"), "{err}");

    let mut f = mcast_flow(1, vec![receiver("A", 0, None, &[])], 0, 0);
    f.protocol = newreno();
    let err = vidcc_sim::Simulation::new(sim_config(tree_topology(), vec![f], 3)).err().expect("unicast refused");
    assert!(err.to_string().contains("unicast protocol"), "{err}");

    let mut f = mcast_flow(1, vec![receiver("A", 0, None, &[])], 0, 0);
    f.multicast = None;
    let err = vidcc_sim::Simulation::new(sim_config(tree_topology(), vec![f], 3)).err().expect("no receivers");
    assert!(err.to_string().contains("multicast protocol"), "{err}");
}

mod reports {
    //! Receivers' reports to the group: the sender hears each by its `PeerId`, every other member
    //! hears it as `PeerId::GROUP_MEMBER`, the reporter does not hear its own.

    use super::*;
    use std::sync::{Arc, Mutex};
    use vidcc_core::endpoint::HeaderBuf;
    use vidcc_core::wire::WireError;
    use vidcc_core::{
        Datagram, Destination, Duration, Endpoint, EndpointStats, FlowEndpoints, GroupId, Instant, Membership,
        PacketMeta, PeerId, Transmit,
    };

    type Heard = Arc<Mutex<Vec<(usize, PeerId)>>>;

    /// Five data packets to group 0, 10 ms apart from 100 ms.
    struct Sender {
        next: Instant,
        sent: u64,
        heard: Heard,
    }

    impl Endpoint for Sender {
        fn handle_datagram(&mut self, _now: Instant, d: Datagram<'_>) -> Result<(), WireError> {
            self.heard.lock().unwrap().push((usize::MAX, d.from));
            Ok(())
        }
        fn handle_timeout(&mut self, _now: Instant) {}
        fn poll_transmit(&mut self, now: Instant) -> Option<Transmit> {
            (self.sent < 5 && now >= self.next).then(|| {
                self.sent += 1;
                self.next = now + Duration::from_millis(10);
                let header = HeaderBuf::from_slice(&[0; 16]);
                Transmit {
                    to: Destination::Group(GroupId(0)),
                    header,
                    payload_len: 984,
                    meta: PacketMeta::data(self.sent),
                }
            })
        }
        fn poll_timeout(&self) -> Option<Instant> {
            (self.sent < 5).then_some(self.next)
        }
        fn stats(&self) -> EndpointStats {
            EndpointStats::default()
        }
    }

    /// Joins group 0 at once; reports to the group after its first data packet.
    struct Receiver {
        me: usize,
        joined: bool,
        report: bool,
        reported: bool,
        heard: Heard,
    }

    impl Endpoint for Receiver {
        fn handle_datagram(&mut self, _now: Instant, d: Datagram<'_>) -> Result<(), WireError> {
            self.heard.lock().unwrap().push((self.me, d.from));
            if d.from == PeerId::PEER && !self.reported {
                self.report = true;
            }
            Ok(())
        }
        fn handle_timeout(&mut self, _now: Instant) {}
        fn poll_transmit(&mut self, _now: Instant) -> Option<Transmit> {
            (self.report && !self.reported).then(|| {
                self.reported = true;
                let header = HeaderBuf::from_slice(&[self.me as u8; 8]);
                Transmit { to: Destination::Group(GroupId(0)), header, payload_len: 0, meta: PacketMeta::control() }
            })
        }
        fn poll_timeout(&self) -> Option<Instant> {
            None
        }
        fn poll_membership(&mut self) -> Option<Membership> {
            (!self.joined).then(|| {
                self.joined = true;
                Membership::Join(GroupId(0))
            })
        }
        fn stats(&self) -> EndpointStats {
            EndpointStats::default()
        }
    }

    #[test]
    fn a_report_to_the_group_reaches_the_sender_and_every_other_member() {
        let heard: Heard = Arc::default();
        let receivers = vec![receiver("A", 0, None, &[]), receiver("B", 0, None, &[]), receiver("C", 0, None, &[])];
        let mut cfg = sim_config(tree_topology(), vec![mcast_flow(1, receivers, 0, 0)], 3);
        cfg.warmup_ns = 0;
        let h = heard.clone();
        let make = move |_: &FlowConfig, ctx: vidcc_core::proto::FlowContext<'_>| -> Result<FlowEndpoints, String> {
            let receivers = (0..ctx.receivers as usize)
                .map(|me| {
                    let r = Receiver { me, joined: false, report: false, reported: false, heard: h.clone() };
                    Box::new(r) as Box<dyn Endpoint + Send>
                })
                .collect();
            let sender = Sender { next: Instant::ZERO + Duration::from_millis(100), sent: 0, heard: h.clone() };
            Ok(FlowEndpoints { sender: Box::new(sender), receivers })
        };
        vidcc_sim::Simulation::with_factory(cfg, &make).expect("builds").run(&mut |_| true).expect("runs");
        let heard = heard.lock().unwrap();
        let count = |who: usize, from: PeerId| heard.iter().filter(|&&h| h == (who, from)).count();
        for r in 0..3 {
            assert_eq!(count(usize::MAX, PeerId(r as u32)), 1, "the sender hears receiver {r}'s report");
            assert_eq!(count(r, PeerId::PEER), 5, "receiver {r} gets the 5 data packets");
            assert_eq!(count(r, PeerId::GROUP_MEMBER), 2, "receiver {r} hears the two other reports only");
        }
    }
}

#[test]
fn layered_video_over_groups_gives_each_receiver_the_frames_of_its_own_layers() {
    // Three cumulative layers, a group each: A takes the base layer, B all three.
    let receivers = vec![receiver("A", 0, None, &[0]), receiver("B", 0, None, &[])];
    let mut f = mcast_flow(1, receivers, 0, 0);
    f.video = Some(tes_video(1_000_000, vec![256_000, 512_000, 1_000_000]));
    let out = run(tree_topology(), vec![f]);
    let frames = out.table("frames");
    let (rx, sent, decodable) = (frames.u64s("receiver"), frames.u64s("layers_sent"), frames.u64s("layers_decodable"));
    let of = |r: u64, col: &[u64]| -> Vec<u64> { (0..rx.len()).filter(|&i| rx[i] == r).map(|i| col[i]).collect() };
    let (a, b) = (of(0, sent), of(1, sent));
    assert!(a.len() >= 20 && a.len() == b.len(), "a frame row per receiver per frame: {} and {}", a.len(), b.len());
    assert!(a.iter().all(|&l| l == 1), "A is sent the base layer only: {a:?}");
    assert!(b.iter().all(|&l| l == 3), "B is sent all three: {b:?}");
    assert_eq!(of(1, decodable), b, "nothing lost on the way");
    let v = out.table("video_summary");
    assert_eq!(v.u64s("receiver"), [0, 1]);
    let bytes = summary(&out, "delivered_bytes");
    assert!(bytes[1] > 3 * bytes[0], "B gets about four times A's bytes: {bytes:?}");
}

#[test]
fn a_scenario_too_big_for_memory_is_a_clear_error() {
    // Four billion flow instances, each with 10,000 receivers: far beyond any machine.
    let receivers = (0..10_000).map(|_| ReceiverConfig::default()).collect();
    let mut f = flow(ProtocolConfig::UdpMulticast(UdpMulticastConfig::default()), u32::MAX);
    f.multicast = Some(MulticastConfig { receivers, join_latency_ns: 0, leave_latency_ns: 0 });
    let err = vidcc_sim::Simulation::new(dumbbell(10_000_000, MS, droptail(QueueLimit::Bdp), vec![f], 3))
        .err()
        .expect("refused");
    assert!(err.to_string().contains("do not fit in this machine's memory"), "{err}");
}
