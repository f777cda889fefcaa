//! `make bench` figures for vidcc-net (benches/README.md): the pacing error of a 10 Mbit/s,
//! 1,000-byte stream on loopback (actual minus scheduled departure, p50/p99), the CPU share of
//! that sender's thread, the machine's timer floor beside it (how late a thread that sleeps until a
//! deadline wakes, and what spinning the last stretch costs), and the relay's forwarding rate on
//! one thread.
//! `cargo run --release -p vidcc-net --example bench_net`

use std::net::UdpSocket;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use vidcc_core::proto::registry::{defaults, FlowContext, ReceiverSpec};
use vidcc_core::proto::Application;
use vidcc_core::queue::Limit;
use vidcc_core::{rng::RngStreams, DataRate, DataSize, Duration, Instant};
use vidcc_net::clock::Clock;
use vidcc_net::envelope::DataInfo;
use vidcc_net::link::{DirectionSpec, Link, LinkOptions};
use vidcc_net::{socket::Socket, Driver, Observer};

struct Departures {
    clock: Clock,
    /// (sequence number, the driver's `now` for this transmit, the clock right after `sendto`).
    at: Vec<(u64, Instant, Instant)>,
}
impl Observer for Departures {
    fn on_data_sent(&mut self, now: Instant, info: &DataInfo, _bytes: usize) {
        self.at.push((info.seq, now, self.clock.now()));
    }
}

fn thread_cpu_ns() -> u64 {
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage fills the struct we own.
    unsafe { libc::getrusage(libc::RUSAGE_THREAD, &mut u) };
    let t = |v: libc::timeval| v.tv_sec as u64 * 1_000_000_000 + v.tv_usec as u64 * 1000;
    t(u.ru_utime) + t(u.ru_stime)
}

fn pct(v: &mut [i64], p: f64) -> i64 {
    v.sort_unstable();
    v[((v.len() - 1) as f64 * p).round() as usize]
}

fn pacing(secs: u64, realtime: bool, spin_margin_us: Option<u64>) {
    let rate = 10_000_000u64;
    let mut cfg = serde_json::to_value(defaults("udp-cbr").unwrap()).unwrap();
    cfg["rate_bps"] = rate.into();
    let protocol: vidcc_core::proto::registry::ProtocolConfig = serde_json::from_value(cfg).unwrap();
    let ctx = FlowContext {
        app: Application::Bulk,
        packet_size: DataSize::from_bytes(1000),
        start: Instant::ZERO,
        stop: None,
        receivers: 1,
        members: &[ReceiverSpec::default()],
        rng: &|n| RngStreams::new(1).stream(n),
    };
    let flow = protocol.build(ctx).unwrap();
    let sink = UdpSocket::bind("127.0.0.1:0").unwrap();
    let sink_addr = sink.local_addr().unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let stop2 = Arc::clone(&stop);
    let drain = std::thread::spawn(move || {
        sink.set_read_timeout(Some(std::time::Duration::from_millis(50))).unwrap();
        let mut buf = [0u8; 2048];
        let mut n = 0u64;
        while !stop2.load(Ordering::Relaxed) {
            if sink.recv_from(&mut buf).is_ok() {
                n += 1;
            }
        }
        n
    });
    vidcc_net::clock::tighten_timer_slack();
    let policy = if realtime {
        match vidcc_net::clock::request_realtime(10) {
            Ok(()) => "SCHED_FIFO 10 (vidcc-net send --realtime)".to_string(),
            Err(e) => {
                println!("pacing with real-time scheduling: not permitted here ({e})");
                return;
            }
        }
    } else {
        "the default policy".to_string()
    };
    let mut socket = Socket::bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let policy = match spin_margin_us {
        Some(m) => {
            socket.set_spin_margin(Duration::from_micros(m));
            format!("{policy}, --spin-margin {m}us")
        }
        None => format!("{policy}, spin margin {}us (default)", vidcc_net::clock::SPIN_MARGIN.as_nanos() / 1000),
    };
    let mut d = Driver::new(socket, sink_addr, 1, flow.sender);
    let mut obs = Departures { clock: d.clock, at: Vec::new() };
    let end = Instant::ZERO + Duration::from_secs(secs);
    let cpu0 = thread_cpu_ns();
    while d.clock.now() < end {
        d.step(&mut obs, Duration::from_millis(20)).unwrap();
    }
    let cpu = thread_cpu_ns() - cpu0;
    stop.store(true, Ordering::Relaxed);
    let received = drain.join().unwrap();
    let interval = DataRate::from_bps(rate).transmission_time(DataSize::from_bytes(1000)).as_nanos() as i64;
    let mut err: Vec<i64> = obs.at.iter().map(|(k, _, t)| t.as_nanos() as i64 - *k as i64 * interval).collect();
    // The two parts of the error: the wake-up (the driver's `now` for the transmit, against the
    // schedule) and the send itself (`sendto` on loopback, which delivers to the sink inline).
    let mut wake: Vec<i64> = obs.at.iter().map(|(k, n, _)| n.as_nanos() as i64 - *k as i64 * interval).collect();
    let mut send: Vec<i64> = obs.at.iter().map(|(_, n, t)| t.as_nanos() as i64 - n.as_nanos() as i64).collect();
    let n = err.len();
    let us = |v: &mut [i64], p: f64| pct(v, p) as f64 / 1e3;
    println!(
        "pacing, 10 Mbit/s of 1000 B on loopback, {secs} s, {policy}: {n} packets ({received} received), \
         departure error p50 {:.1} us, p90 {:.1} us, p99 {:.1} us, max {:.1} us",
        us(&mut err, 0.5),
        us(&mut err, 0.9),
        us(&mut err, 0.99),
        us(&mut err, 1.0)
    );
    println!(
        "  of which wake-up p50 {:.1} us, p99 {:.1} us; send p50 {:.1} us, p99 {:.1} us",
        us(&mut wake, 0.5),
        us(&mut wake, 0.99),
        us(&mut send, 0.5),
        us(&mut send, 0.99)
    );
    println!("sender CPU: {:.1} % of one core (its thread, user + system)", cpu as f64 / (secs as f64 * 1e9) * 100.0);
}

/// The machine's own floor under any user-space pacing: a thread that sleeps in `ppoll` (timer
/// slack 1 µs, as the driver does) until `margin` before a deadline every 800 µs, then spins to
/// it. Per margin: how late the thread is at the deadline (p50/p99, what the pacing error cannot
/// beat) and its CPU share. With margin 0 it is the kernel's and hypervisor's wake-up latency
/// alone; a margin above that latency's p99 removes the tail at the CPU cost of the spin.
fn timer_floor(margins_us: &[u64]) {
    vidcc_net::clock::tighten_timer_slack();
    let clock = Clock::new();
    let period = 800_000i64;
    for &m in margins_us {
        let mut late = Vec::with_capacity(2500);
        let mut deadline = clock.now().as_nanos() as i64 + period;
        let cpu0 = thread_cpu_ns();
        let t0 = clock.now();
        for _ in 0..2500 {
            let sleep = deadline - m as i64 * 1000 - clock.now().as_nanos() as i64;
            if sleep > 0 {
                let ts = libc::timespec { tv_sec: (sleep / 1_000_000_000) as _, tv_nsec: (sleep % 1_000_000_000) as _ };
                // SAFETY: no descriptors, a valid timespec, no signal mask.
                unsafe { libc::ppoll(std::ptr::null_mut(), 0, &ts, std::ptr::null()) };
            }
            while (clock.now().as_nanos() as i64) < deadline {
                std::hint::spin_loop();
            }
            late.push(clock.now().as_nanos() as i64 - deadline);
            deadline += period;
        }
        let wall = clock.now().saturating_since(t0).as_nanos() as f64;
        let cpu = (thread_cpu_ns() - cpu0) as f64 / wall * 100.0;
        println!(
            "  sleep until {m} us before each deadline (800 us apart), then spin: late p50 {:.1} us, p99 {:.1} us, \
             max {:.1} us; CPU {cpu:.1} % of one core",
            pct(&mut late, 0.5) as f64 / 1e3,
            pct(&mut late, 0.99) as f64 / 1e3,
            pct(&mut late, 1.0) as f64 / 1e3
        );
    }
}

fn relay(count: u64, batching: bool) {
    let sink = UdpSocket::bind("127.0.0.1:0").unwrap();
    let sink_addr = sink.local_addr().unwrap();
    let spec = DirectionSpec {
        bandwidth: DataRate::from_bps(100_000_000_000),
        delay: Duration::ZERO,
        limit: Limit::Packets(1_000_000),
        red: false,
        loss: None,
    };
    let s = Socket::bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let listen = s.local_addr().unwrap();
    let mut link = Link::on(
        s,
        &LinkOptions {
            listen,
            to: sink_addr,
            forward: spec,
            reverse: spec,
            seed: 1,
            routes: Vec::new(),
            protocol_sizes: false,
        },
    )
    .unwrap();
    let batching = link.set_recv_batching(batching);
    let stop = Arc::new(AtomicBool::new(false));
    let stop2 = Arc::clone(&stop);
    let (cpu_tx, cpu_rx) = std::sync::mpsc::channel();
    let relay = std::thread::spawn(move || {
        let c0 = thread_cpu_ns();
        let stats = link.run(&stop2, None).unwrap();
        cpu_tx.send(thread_cpu_ns() - c0).unwrap();
        stats
    });
    let blaster = UdpSocket::bind("127.0.0.1:0").unwrap();
    let payload = [0u8; 100];
    let t0 = std::time::Instant::now();
    for i in 0..count {
        let _ = blaster.send_to(&payload, listen);
        if i % 64 == 63 {
            std::thread::yield_now();
        }
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    stop.store(true, Ordering::Relaxed);
    let stats = relay.join().unwrap();
    let cpu = cpu_rx.recv().unwrap();
    let wall = t0.elapsed().as_secs_f64();
    println!(
        "relay ({}): {} of {count} datagrams (100 B) received, {} forwarded; {:.0} packets/s per second of relay CPU, {:.0} \
         packets/s over the wall clock (the sender shares the machine)",
        if batching { "recvmmsg batches" } else { "one recvfrom per datagram" },
        stats.forward.arrived,
        stats.forward.forwarded,
        stats.forward.forwarded as f64 / (cpu as f64 / 1e9),
        stats.forward.forwarded as f64 / wall
    );
    drop(sink);
}

fn main() {
    // Figures depend on what else the machine runs: say how loaded it was.
    if let Ok(l) = std::fs::read_to_string("/proc/loadavg") {
        println!("load average: {}", l.split_whitespace().take(3).collect::<Vec<_>>().join(" "));
    }
    if std::env::args().any(|a| a == "--relay-only") {
        for _ in 0..2 {
            relay(300_000, false);
            relay(300_000, true);
        }
        return;
    }
    // The default policy, then (its own thread) SCHED_FIFO where permitted: the difference is
    // the scheduler's share of the tail.
    pacing(5, false, None);
    std::thread::spawn(|| pacing(5, true, None)).join().unwrap();
    // A margin above this machine's wake-up latency (the timer floor below): precision for CPU.
    pacing(5, false, Some(120));
    // What this machine allows any sleeping pacer, measured beside it (vidcc's SPIN_MARGIN is 40 us).
    println!("timer floor of this machine (no sockets):");
    timer_floor(&[0, 40, 100, 200, 400]);
    if let Ok(l) = std::fs::read_to_string("/proc/loadavg") {
        println!("load average: {}", l.split_whitespace().take(3).collect::<Vec<_>>().join(" "));
    }
    if std::env::args().any(|a| a == "--pacing-only") {
        return;
    }
    relay(300_000, false);
    relay(300_000, true);
}
