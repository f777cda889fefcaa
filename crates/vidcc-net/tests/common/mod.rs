//! Shared by the integration tests: a TFRC offer and a fake receiver that lies in its feedback.

use std::net::UdpSocket;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use vidcc_core::proto::registry::defaults;
use vidcc_core::wire::tfrc::{TfrcFeedback, TfrcHeader};
use vidcc_net::auth::Key;
use vidcc_net::envelope::{self, Kind};
use vidcc_net::session::Offer;

pub fn tfrc_offer(secs: u64) -> Offer {
    Offer {
        protocol: defaults("tfrc").unwrap(),
        video: None,
        packet_size_bytes: 1000,
        seed: 1,
        flow_index: 0,
        duration_ns: secs * 1_000_000_000,
        stop_ns: None,
        sample_interval_ns: 100_000_000,
        label: String::new(),
        extra: serde_json::Value::Null,
    }
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
