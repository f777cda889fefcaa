//! Shared by the integration tests: a loopback socket, offers, a CBR video, and a fake receiver
//! that lies in its feedback.
#![allow(dead_code)] // each test crate uses some of these

use std::net::UdpSocket;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use vidcc_core::media::config::VideoConfig;
use vidcc_core::proto::registry::{defaults, ProtocolConfig};
use vidcc_core::wire::tfrc::{TfrcFeedback, TfrcHeader};
use vidcc_net::auth::Key;
use vidcc_net::envelope::{self, Kind};
use vidcc_net::session::Offer;
use vidcc_net::socket::Socket;

/// A socket on an ephemeral loopback port.
pub fn local() -> Socket {
    Socket::bind("127.0.0.1:0".parse().unwrap()).unwrap()
}

/// An offer of `protocol` carrying `video` (or bulk data) in 1000-byte packets for `secs`.
pub fn offer(protocol: ProtocolConfig, video: Option<VideoConfig>, seed: u64, secs: u64) -> Offer {
    Offer {
        protocol,
        video,
        packet_size_bytes: 1000,
        seed,
        flow_index: 0,
        duration_ns: secs * 1_000_000_000,
        stop_ns: None,
        sample_interval_ns: 100_000_000,
        label: String::new(),
        extra: serde_json::Value::Null,
    }
}

/// A CBR video of `rate_bps` in `layers` (none: one layer), 25 frames/s, played out
/// `playout_delay_ns` after the first arrival.
pub fn cbr_video(rate_bps: u64, layers: &[u64], playout_delay_ns: u64) -> VideoConfig {
    serde_json::from_value(serde_json::json!({
        "model": {"kind": "cbr", "rate_bps": rate_bps}, "fps": 25.0, "gop": "IBBPBBPBBPBB",
        "layers_bps": layers, "playout": {"kind": "first-arrival", "delay_ns": playout_delay_ns},
        "delayed_threshold_ns": 75_000_000u64,
    }))
    .unwrap()
}

pub fn tfrc_offer(secs: u64) -> Offer {
    offer(defaults("tfrc").unwrap(), None, 1, secs)
}

/// What the liar saw: data bytes, and the first and last data send times (sender's clock).
#[derive(Debug, Default)]
pub struct Seen {
    pub data_bytes: u64,
    pub first_sent_ns: u64,
    pub last_sent_ns: u64,
    pub feedbacks: u64,
}

/// A fake receiver: accepts the session (sealing its Accept when it has the key) and answers
/// every TFRC data packet with absurd feedback, in a Control envelope or a Data envelope.
pub fn liar(sock: UdpSocket, key: Option<Key>, in_data: bool, done: Arc<AtomicBool>) -> Seen {
    sock.set_read_timeout(Some(std::time::Duration::from_millis(100))).unwrap();
    let mut auth = key.map(|k| vidcc_net::auth::Auth::new(k, vidcc_net::auth::Role::Receiver));
    let mut buf = vec![0u8; 65_536];
    let mut out = Vec::new();
    let mut seen = Seen::default();
    while !done.load(Ordering::Relaxed) {
        let Ok((n, from)) = sock.recv_from(&mut buf) else { continue };
        let Ok(e) = envelope::parse(&buf[..n]) else { continue };
        match e.kind {
            Kind::Offer => {
                envelope::write_prefix(&mut out, Kind::Accept, e.session);
                if let Some(a) = &mut auth {
                    a.seal(&mut out);
                }
                sock.send_to(&out, from).unwrap();
            }
            Kind::Data => {
                let info = e.data.unwrap();
                seen.data_bytes += n as u64;
                if seen.first_sent_ns == 0 {
                    seen.first_sent_ns = info.sent_unix_ns;
                }
                seen.last_sent_ns = seen.last_sent_ns.max(info.sent_unix_ns);
                if let Ok(TfrcHeader::Data(d)) = TfrcHeader::parse(e.body) {
                    let fb = TfrcFeedback {
                        echo_seq: d.seq,
                        timestamp_echo_ns: d.timestamp_ns,
                        t_delay_us: 0,
                        x_recv_bps: 1 << 62,
                        p_ppb: 0,
                    };
                    if in_data {
                        envelope::write_data_prefix(&mut out, e.session, &info);
                    } else {
                        envelope::write_prefix(&mut out, Kind::Control, e.session);
                    }
                    out.extend_from_slice(fb.emit().as_slice());
                    let _ = sock.send_to(&out, from);
                    seen.feedbacks += 1;
                }
            }
            _ => {}
        }
    }
    seen
}
