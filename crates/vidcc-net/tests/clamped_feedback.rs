//! Feedback that cannot be true is clamped and counted, and the count reaches the report JSON:
//! `vidcc-net send` (the binary) streams TFRC over loopback to a fake receiver that answers
//! every data packet with X_recv = 2^62 bit/s and p = 0; its report's `clamped_feedback`
//! counts those answers. The same sender with a real receiver has at most one clamped: the
//! receiver's first answer, a few microseconds after the first packet arrived, reports that one
//! packet over those microseconds as its X_recv (hundreds of Mbit/s), which the sender, having
//! sent one packet, rightly cannot believe (docs/protocols/tfrc.md, "Implausible feedback").

mod common;

use std::net::UdpSocket;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;

use vidcc_core::Duration;
use vidcc_net::session::{run_receiver, RecvOptions, Security};

const BIN: &str = env!("CARGO_BIN_EXE_vidcc-net");

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("vidcc-clamped-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs `vidcc-net send` of a 2 s TFRC offer to `to`; returns its report.
fn send(dir: &Path, to: &str) -> serde_json::Value {
    let cfg = dir.join("offer.json");
    std::fs::write(&cfg, serde_json::to_string(&common::tfrc_offer(2)).unwrap()).unwrap();
    let report = dir.join("report.json");
    let out = Command::new(BIN)
        .args(["send", "--config", &cfg.display().to_string(), "--to", to])
        .args(["--report", &report.display().to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert!(out.status.success(), "send: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap()
}

#[test]
fn forged_feedback_is_counted_as_clamped_in_the_report() {
    let d = dir("forged");
    let fake = UdpSocket::bind("127.0.0.1:0").unwrap();
    let to = fake.local_addr().unwrap().to_string();
    let done = Arc::new(AtomicBool::new(false));
    let d2 = Arc::clone(&done);
    let liar = thread::spawn(move || common::liar(fake, None, false, d2));
    let r = send(&d, &to);
    done.store(true, Ordering::Relaxed);
    let seen = liar.join().unwrap();
    let c = &r["counters"];
    let clamped = c["clamped_feedback"].as_u64().unwrap_or_else(|| panic!("no clamped_feedback: {r}"));
    let control = c["control_in"].as_u64().unwrap();
    println!("liar {seen:?}; clamped {clamped}, control_in {control}");
    assert!(seen.feedbacks > 10, "the liar answered: {seen:?}");
    // Every forged answer the sender accepted was clamped (X_recv can never stand for 2^62
    // bit/s of what it sent); the last few may have arrived after it stopped reading.
    assert!(clamped > 10 && clamped == control, "{c}");
    assert!(clamped <= seen.feedbacks);
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn honest_feedback_is_not_clamped() {
    let d = dir("honest");
    let rx = common::local();
    let to = rx.local_addr().unwrap().to_string();
    let receiver = thread::spawn(move || {
        let opts = RecvOptions {
            security: Security { key: None },
            idle: Duration::from_secs(2),
            wait_for_offer: Some(Duration::from_secs(20)),
            log: None,
            max_state_bytes: None,
            report_interval: None,
        };
        run_receiver(rx, opts, &AtomicBool::new(false)).unwrap().expect("a session")
    });
    let r = send(&d, &to);
    let recv = receiver.join().unwrap();
    let c = &r["counters"];
    assert!(c["control_in"].as_u64().unwrap() > 10 && recv.counters.data_in > 10, "{c}");
    assert!(c["clamped_feedback"].as_u64().unwrap_or_else(|| panic!("no clamped_feedback: {c}")) <= 1, "{c}");
    std::fs::remove_dir_all(&d).unwrap();
}
