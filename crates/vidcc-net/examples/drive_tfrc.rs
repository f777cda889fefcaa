//! Drive a TFRC controller from your own program: the sans-IO endpoints from vidcc-core's
//! registry, vidcc-net's driver for the sockets and the clock. `cargo run --example drive_tfrc`
use vidcc_core::proto::registry::{defaults, FlowContext, ReceiverSpec};
use vidcc_core::proto::Application;
use vidcc_core::{rng::RngStreams, DataSize, Duration, Event, Instant};
use vidcc_net::{socket::Socket, Driver, NoObserver, Observer};

struct ShowRate; // your application hears the controller's decisions here
impl Observer for ShowRate {
    fn on_event(&mut self, now: Instant, e: Event) {
        println!("{:>6.3} s  {e:?}", now.as_secs_f64()); // RateChanged { rate }, LossEvent, ...
    }
}

/// Streams bulk data with TFRC over loopback for `secs`; returns the bytes the receiver got.
pub fn run(secs: u64) -> u64 {
    let ctx = FlowContext {
        app: Application::Bulk,
        packet_size: DataSize::from_bytes(1000),
        start: Instant::ZERO,
        stop: None,
        receivers: 1,
        members: &[ReceiverSpec::default()], // one receiver, from start to end
        rng: &|name| RngStreams::new(1).stream(name), // seeded streams, as in the simulator
    };
    let flow = defaults("tfrc").unwrap().build(ctx).unwrap();
    let bind = || Socket::bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let (a, b) = (bind(), bind());
    let (a_addr, b_addr) = (a.local_addr().unwrap(), b.local_addr().unwrap());
    let mut rx = Driver::new(b, a_addr, 1, flow.receivers.into_iter().next().unwrap()); // session id 1
    let (end, tick) = (Instant::ZERO + Duration::from_secs(secs), Duration::from_millis(20));
    let receiver = std::thread::spawn(move || {
        while rx.clock.now() < end + tick * 10 {
            rx.step(&mut NoObserver, tick).unwrap();
        }
        rx.endpoint().stats().app_bytes_delivered
    });
    let mut tx = Driver::new(a, b_addr, 1, flow.sender);
    while tx.clock.now() < end {
        tx.step(&mut ShowRate, tick).unwrap();
    }
    receiver.join().unwrap()
}

pub fn main() {
    println!("received {} bytes", run(2));
}
