//! SIGTERM and SIGINT end every process while it is under attack, with its tables or report
//! written: the `vidcc-net` binary as a sender fed absurd feedback by a fake receiver, and as a
//! relay and a receiver carrying a second sender's stream while random datagrams flood both.
//! How long each took to end is printed (the one-second bound is measured, not asserted: the
//! test machine's load is not the code's); a process that does not end within 10 s fails.

mod common;

use std::net::{SocketAddr, UdpSocket};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use rand::Rng;

const BIN: &str = env!("CARGO_BIN_EXE_vidcc-net");

fn free_port() -> SocketAddr {
    UdpSocket::bind("127.0.0.1:0").unwrap().local_addr().unwrap()
}

fn spawn(args: &[&str]) -> Child {
    Command::new(BIN).args(args).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap()
}

fn json(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

/// Signals `child` and waits (at most 10 s) for it to end; returns how long it took.
fn stop(name: &str, child: &mut Child, sig: i32) -> Duration {
    let t0 = Instant::now();
    assert_eq!(unsafe { libc::kill(child.id() as i32, sig) }, 0);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let took = t0.elapsed();
            let mut err = String::new();
            std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).unwrap();
            assert!(status.success(), "{name} exited with {status}: {err}");
            return took;
        }
        if t0.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            panic!("{name} did not end within 10 s of signal {sig}");
        }
        thread::sleep(Duration::from_millis(5));
    }
}

/// The two runs one after the other: each picks free ports by binding and releasing them,
/// which another run in parallel could pick too.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn signal_run(sig: i32) {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = std::env::temp_dir().join(format!("vidcc-signals-{}-{sig}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = |n: &str| -> PathBuf { dir.join(n) };
    std::fs::write(p("offer.json"), serde_json::to_string(&common::tfrc_offer(60)).unwrap()).unwrap();
    let cfg = p("offer.json").display().to_string();

    // The sender under forged feedback.
    let fake = UdpSocket::bind("127.0.0.1:0").unwrap();
    let fake_addr = fake.local_addr().unwrap().to_string();
    let done = Arc::new(AtomicBool::new(false));
    let d2 = Arc::clone(&done);
    let liar = thread::spawn(move || common::liar(fake, None, false, d2));
    let report = p("report.json").display().to_string();
    let mut sender = spawn(&["send", "--config", &cfg, "--to", &fake_addr, "--report", &report]);

    // A stream through a relay to a receiver, both flooded.
    let rx = free_port();
    let relay = free_port();
    let (rx_s, relay_s) = (rx.to_string(), relay.to_string());
    let out = p("receiver.json").display().to_string();
    let stats = p("link.json").display().to_string();
    let mut receiver = spawn(&["recv", "--listen", &rx_s, "--out", &out, "--idle", "30s"]);
    let mut link = spawn(&[
        "link",
        "--listen",
        &relay_s,
        "--to",
        &rx_s,
        "--bandwidth",
        "2Mbps",
        "--delay",
        "5ms",
        "--queue",
        "50",
        "--stats",
        &stats,
    ]);
    thread::sleep(Duration::from_millis(300));
    let report2 = p("report2.json").display().to_string();
    let mut streamer = spawn(&["send", "--config", &cfg, "--to", &relay_s, "--report", &report2]);
    // The relay's client is the first address that sends to it: the flood starts once the
    // stream has.
    thread::sleep(Duration::from_millis(700));
    let flood_done = Arc::new(AtomicBool::new(false));
    let f2 = Arc::clone(&flood_done);
    let flood = thread::spawn(move || {
        let s = UdpSocket::bind("127.0.0.1:0").unwrap();
        let mut rng = vidcc_core::rng::RngStreams::new(9).stream("flood");
        let mut n = 0u64;
        while !f2.load(Ordering::Relaxed) {
            let len = rng.gen_range(1..200);
            let b: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
            let _ = s.send_to(&b, if n.is_multiple_of(2) { rx } else { relay });
            n += 1;
            if n.is_multiple_of(200) {
                thread::sleep(Duration::from_millis(1));
            }
        }
        n
    });
    thread::sleep(Duration::from_millis(1500));

    let took = [
        ("sender under forged feedback", stop("sender", &mut sender, sig)),
        ("receiver", stop("receiver", &mut receiver, sig)),
        ("relay", stop("relay", &mut link, sig)),
        ("streaming sender", stop("streaming sender", &mut streamer, sig)),
    ];
    flood_done.store(true, Ordering::Relaxed);
    done.store(true, Ordering::Relaxed);
    let flooded = flood.join().unwrap();
    let seen = liar.join().unwrap();
    println!("signal {sig}: {took:?}; flood {flooded} datagrams; liar {seen:?}");

    let r = json(Path::new(&report));
    assert_eq!(r["stopped_early"], true, "{r}");
    assert!(r["counters"]["rate_capped"].as_u64().unwrap() > 0, "the forged feedback pushed: {r}");
    assert!(seen.feedbacks > 0);
    let recv = json(Path::new(&out));
    assert_eq!(recv["ended_by"], "signal");
    assert!(recv["tables"]["flow_summary"]["delivered_packets"]["values"][0].as_u64().unwrap() > 0, "{recv}");
    assert!(recv["counters"]["malformed_envelope"].as_u64().unwrap() > 0, "the flood reached the receiver");
    assert!(json(Path::new(&stats))["forward"]["forwarded"].as_u64().unwrap() > 0);
    assert_eq!(json(Path::new(&report2))["stopped_early"], true);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sigterm_ends_every_process_under_attack_with_its_tables_written() {
    signal_run(libc::SIGTERM);
}

#[test]
fn sigint_ends_every_process_under_attack_with_its_tables_written() {
    signal_run(libc::SIGINT);
}
