//! A flow with several receivers: the engine routes a sender's transmits by their `PeerId`,
//! tells the sender which receiver each reply came from, and the per-receiver tables hold a row
//! per receiver. No multicast protocol exists yet, so the flow's endpoints come from a factory
//! (`Simulation::with_factory`) instead of the protocol registry.

mod common;

use common::*;
use std::sync::{Arc, Mutex};
use vidcc_core::endpoint::HeaderBuf;
use vidcc_core::wire::WireError;
use vidcc_core::{
    Datagram, Destination, Duration, Endpoint, EndpointStats, FlowEndpoints, Instant, PacketMeta, PeerId, Transmit,
};
use vidcc_sim::config::*;
use vidcc_sim::metrics::Column;
use vidcc_sim::Simulation;

const PAYLOAD: u32 = 992;
const INTERVAL: Duration = Duration::from_millis(10);

/// Sends one data packet every 10 ms, to its receivers in turn; records who each reply came from.
struct RoundRobinSender {
    receivers: u32,
    next_at: Instant,
    seq: u64,
    replies_from: Arc<Mutex<Vec<PeerId>>>,
}

impl Endpoint for RoundRobinSender {
    fn handle_datagram(&mut self, _now: Instant, d: Datagram<'_>) -> Result<(), WireError> {
        self.replies_from.lock().unwrap().push(d.from);
        Ok(())
    }
    fn handle_timeout(&mut self, _now: Instant) {}
    fn poll_transmit(&mut self, now: Instant) -> Option<Transmit> {
        if now < self.next_at {
            return None;
        }
        let to = Destination::Peer(PeerId((self.seq % self.receivers as u64) as u32));
        let t = Transmit {
            to,
            header: HeaderBuf::from_slice(&self.seq.to_be_bytes()),
            payload_len: PAYLOAD,
            meta: PacketMeta::data(self.seq),
        };
        self.seq += 1;
        self.next_at = now + INTERVAL;
        Some(t)
    }
    fn poll_timeout(&self) -> Option<Instant> {
        Some(self.next_at)
    }
    fn stats(&self) -> EndpointStats {
        EndpointStats::default()
    }
}

/// Counts what arrives and answers each packet to its sender.
#[derive(Default)]
struct EchoReceiver {
    stats: EndpointStats,
    replies: u32,
}

impl Endpoint for EchoReceiver {
    fn handle_datagram(&mut self, _now: Instant, d: Datagram<'_>) -> Result<(), WireError> {
        assert_eq!(d.from, PeerId::PEER, "a receiver's only peer is its sender");
        self.stats.app_packets_delivered += 1;
        self.stats.app_bytes_delivered += d.virtual_payload as u64;
        self.replies += 1;
        Ok(())
    }
    fn handle_timeout(&mut self, _now: Instant) {}
    fn poll_transmit(&mut self, _now: Instant) -> Option<Transmit> {
        (self.replies > 0).then(|| {
            self.replies -= 1;
            Transmit {
                to: Destination::PEER,
                header: HeaderBuf::from_slice(&[1; 8]),
                payload_len: 32,
                meta: PacketMeta::control(),
            }
        })
    }
    fn poll_timeout(&self) -> Option<Instant> {
        None
    }
    fn stats(&self) -> EndpointStats {
        self.stats
    }
}

fn u64s(out: &vidcc_sim::SimOutput, table: &str, col: &str) -> Vec<u64> {
    match out.table(table).get(col) {
        Some(Column::U64(v)) => v.clone(),
        _ => panic!("no u64 column {col} in {table}"),
    }
}

#[test]
fn a_flow_of_three_receivers_has_a_row_and_its_own_packets_per_receiver() {
    let replies_from = Arc::new(Mutex::new(Vec::new()));
    let mut cfg = dumbbell(10_000_000, 20 * MS, droptail(QueueLimit::Packets(50)), vec![flow(newreno(), 1)], 2);
    cfg.warmup_ns = 0;
    let seen = replies_from.clone();
    let make = move |_: &FlowConfig, _ctx: vidcc_core::proto::FlowContext<'_>| -> Result<FlowEndpoints, String> {
        let receivers: Vec<Box<dyn Endpoint + Send>> =
            (0..3).map(|_| Box::new(EchoReceiver::default()) as Box<dyn Endpoint + Send>).collect();
        let sender = RoundRobinSender { receivers: 3, next_at: Instant::ZERO, seq: 0, replies_from: seen.clone() };
        Ok(FlowEndpoints { sender: Box::new(sender), receivers })
    };
    let out = Simulation::with_factory(cfg, &make).expect("builds").run(&mut |_| true).expect("runs");

    assert_eq!(u64s(&out, "flows", "flow"), [0, 0, 0]);
    assert_eq!(u64s(&out, "flows", "receiver"), [0, 1, 2]);
    assert_eq!(u64s(&out, "flow_summary", "receiver"), [0, 1, 2]);
    // 200 packets in 2 s, to receivers 0, 1, 2 in turn: 67, 67, 66 sent; all but the last few
    // (still in flight at the end) delivered, each to the receiver it was sent to.
    let sent = u64s(&out, "flow_summary", "sent_packets");
    assert_eq!(sent, [67, 67, 66]);
    let delivered = u64s(&out, "flow_summary", "delivered_packets");
    for (s, d) in sent.iter().zip(&delivered) {
        assert!(*d <= *s && *d + 3 >= *s, "sent {sent:?}, delivered {delivered:?}");
    }
    // Goodput counts each receiver's own endpoint.
    let Some(Column::F64(goodput)) = out.table("flow_summary").get("goodput_bps") else { panic!("no goodput") };
    assert!(goodput.iter().all(|&g| g > 0.0), "{goodput:?}");
    // The sender heard back from every receiver, as many times as each received.
    let from = replies_from.lock().unwrap();
    for r in 0..3u32 {
        let n = from.iter().filter(|p| **p == PeerId(r)).count() as u64;
        assert!(n + 2 >= delivered[r as usize] && n <= delivered[r as usize], "receiver {r}: {n} replies");
    }
    let samples = u64s(&out, "flow_samples", "receiver");
    assert_eq!(samples.iter().filter(|&&r| r == 2).count() * 3, samples.len());
}

#[test]
fn a_transmit_to_a_receiver_the_flow_lacks_names_the_flow() {
    let mut cfg = dumbbell(10_000_000, 20 * MS, droptail(QueueLimit::Packets(50)), vec![flow(newreno(), 1)], 1);
    cfg.warmup_ns = 0;
    let make = |_: &FlowConfig, _ctx: vidcc_core::proto::FlowContext<'_>| -> Result<FlowEndpoints, String> {
        // The sender believes in two receivers; the flow has one.
        let sender =
            RoundRobinSender { receivers: 2, next_at: Instant::ZERO, seq: 0, replies_from: Default::default() };
        Ok(FlowEndpoints { sender: Box::new(sender), receivers: vec![Box::new(EchoReceiver::default())] })
    };
    let sim = Simulation::with_factory(cfg, &make).expect("builds");
    let Err(panic) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| sim.run(&mut |_| true).is_ok())) else {
        panic!("a transmit to PeerId(1) of a one-receiver flow is a protocol bug, and must stop the run");
    };
    let message = panic.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(message.contains("flow 0") && message.contains("PeerId(1)"), "{message}");
}
