//! The relay's batched path (recvmmsg receives, GSO sends of bursts of departures): every
//! datagram still arrives once, whole, in order, and separately — the burst is cut back into the
//! datagrams it was made of, whatever their sizes. A fast link with no delay makes every
//! departure of a wake-up due at once, which is when departures are coalesced.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;

use vidcc_core::queue::Limit;
use vidcc_core::{DataRate, Duration};
use vidcc_net::link::{DirectionSpec, Link, LinkOptions};
use vidcc_net::socket::Socket;

fn datagram(seq: u32) -> Vec<u8> {
    // Runs of equal sizes (coalescible) broken by odd ones (a shorter last segment, a longer
    // next datagram that must start a new send).
    let size = match seq % 10 {
        7 => 57,
        9 => 1400,
        _ => 200,
    };
    let mut d = vec![(seq % 251) as u8; size];
    d[..4].copy_from_slice(&seq.to_be_bytes());
    d
}

#[test]
fn batched_relaying_delivers_every_datagram_whole_and_in_order() {
    let mut sink = Socket::bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let sink_addr = sink.local_addr().unwrap();
    let spec = DirectionSpec {
        bandwidth: DataRate::from_bps(100_000_000_000),
        delay: Duration::ZERO,
        limit: Limit::Packets(1_000_000),
        red: false,
        loss: None,
    };
    let s = Socket::bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let relay_addr = s.local_addr().unwrap();
    let opts = LinkOptions {
        listen: relay_addr,
        to: sink_addr,
        forward: spec,
        reverse: spec,
        seed: 1,
        routes: Vec::new(),
        protocol_sizes: false,
    };
    let mut link = Link::on(s, &opts).unwrap();
    assert!(link.set_recv_batching(true), "recvmmsg/GSO batching is available on Linux");
    let stop = Arc::new(AtomicBool::new(false));
    let stop2 = Arc::clone(&stop);
    let relay = thread::spawn(move || link.run(&stop2, None).unwrap());

    const N: u32 = 20_000;
    let reader = thread::spawn(move || {
        let mut got = Vec::new();
        let mut idle = std::time::Instant::now();
        while idle.elapsed() < std::time::Duration::from_secs(3) {
            match sink.try_recv().unwrap() {
                Some((b, _)) => {
                    got.push(b.to_vec());
                    idle = std::time::Instant::now();
                }
                None => thread::sleep(std::time::Duration::from_micros(200)),
            }
        }
        got
    });
    let blaster = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    for seq in 0..N {
        blaster.send_to(&datagram(seq), relay_addr).unwrap();
        if seq % 256 == 255 {
            // Bursts, not a flood the relay's socket buffer could not hold on a loaded machine.
            thread::sleep(std::time::Duration::from_millis(2));
        }
    }
    let got = reader.join().unwrap();
    stop.store(true, Ordering::Relaxed);
    let stats = relay.join().unwrap();
    assert_eq!(stats.forward.dropped_queue + stats.forward.dropped_loss, 0);
    assert_eq!(stats.forward.forwarded, stats.forward.arrived);
    assert!(stats.coalesced_sends > 0, "no burst was sent as one: the batched path was not exercised");
    // Whatever reached the relay reached the sink, as it was sent, once and in order.
    assert_eq!(got.len() as u64, stats.forward.forwarded, "sink got {} datagrams", got.len());
    assert!(got.len() as u32 > N / 2, "only {} of {N} datagrams reached the relay", got.len());
    let mut last = None;
    for d in &got {
        let seq = u32::from_be_bytes(d[..4].try_into().unwrap());
        assert_eq!(d, &datagram(seq), "datagram {seq} changed on the way");
        assert!(last.is_none_or(|l| seq > l), "datagram {seq} after {last:?}");
        last = Some(seq);
    }
}
