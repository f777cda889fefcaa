//! SRAMT's wire formats (`wire.rs`): the data header and the RTCP packets against their byte
//! vectors, their rejection of misfits, round trips, and parsers and endpoints under garbage.

use proptest::prelude::*;

use super::super::config::SramtConfig;
use super::super::wire::{
    sender_report, DataHeader, ReceiverReport, ToReceiver, DATA_HEADER_BYTES, MAX_GROUPS, RR_APP_BYTES, SR_BYTES,
};
use super::super::SramtReceiver;
use super::{data, emit, report, secs, sender};
use crate::endpoint::Endpoint;
use crate::proto::testing::*;
use crate::rng::RngStreams;
use crate::time::Instant;
use crate::wire::rtcp::{ReportBlock, SenderInfo};
use crate::wire::WireError;

#[test]
fn data_header_matches_its_byte_vector_and_round_trips() {
    let h = DataHeader {
        seq: 0x0102,
        timestamp_us: 0x0304_0506,
        echo: Some((9, 0x0a0b)),
        heard: Some((2, 0x0c0d)),
        epoch_index: 7,
        ..data(1, 0, true)
    };
    let b = emit(&h);
    let want: Vec<u8> = [
        &[0x90, 96, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x53, 0x52, 0x41, 0x4d][..],
        &[0x53, 0x52, 0x00, 0x0a],
        &[1, 3, 0x07, 2],
        &[0x00, 0x4c, 0x4b, 0x40, 0, 0, 0, 7, 0, 0, 0, 2],
        &[0, 0, 0, 9, 0, 0, 0x0a, 0x0b, 0, 0, 0x0c, 0x0d],
        &[0x00, 0x00, 0xc3, 0x50, 0x00, 0x03, 0x0d, 0x40, 0x00, 0x09, 0x27, 0xc0],
    ]
    .concat();
    assert_eq!(b, want);
    assert_eq!(b.len(), DATA_HEADER_BYTES);
    assert_eq!(DataHeader::parse(&b), Ok(h));
    // A socket's datagram: the payload follows the header.
    let mut with_payload = b.clone();
    with_payload.extend([0xee; 10]);
    assert_eq!(DataHeader::parse(&with_payload), Ok(h));
}

#[test]
fn data_header_rejects_bad_fields() {
    let good = emit(&data(0, 0, false));
    let bad = |i: usize, v: u8| {
        let mut b = good.clone();
        b[i] = v;
        DataHeader::parse(&b)
    };
    assert_eq!(bad(0, 0x50), Err(WireError::BadVersion(1)));
    assert!(matches!(bad(0, 0x80), Err(WireError::Inconsistent(_))), "no extension bit");
    assert_eq!(bad(1, 97), Err(WireError::UnknownType(97)));
    assert!(matches!(bad(15, 9), Err(WireError::Inconsistent(_))), "length does not fit n");
    assert!(matches!(bad(16, 3), Err(WireError::Inconsistent(_))), "group beyond n");
    assert!(matches!(bad(17, 7), Err(WireError::Inconsistent(_))), "n beyond 5");
    assert!(matches!(bad(18, 8), Err(WireError::Inconsistent(_))), "unknown flag");
    assert!(bad(43, 0).is_ok(), "a zero byte where zero is expected");
    let mut zero_rate = good.clone();
    zero_rate[44..48].copy_from_slice(&[0; 4]);
    assert!(matches!(DataHeader::parse(&zero_rate), Err(WireError::Inconsistent(_))));
    assert!(matches!(DataHeader::parse(&good[..good.len() - 1]), Err(WireError::Truncated { .. })));
}

#[test]
fn rtcp_packets_match_their_byte_vectors_and_reject_misfits() {
    let info = SenderInfo { ntp: 0x0000_0002_8000_0000, rtp_timestamp: 3, packet_count: 4, octet_count: 5 };
    let b = sender_report(1, info).as_slice().to_vec();
    assert_eq!(b.len(), SR_BYTES);
    assert_eq!(&b[..4], &[0x80, 200, 0, 6]);
    assert_eq!(&b[8..16], &[0, 0, 0, 2, 0x80, 0, 0, 0]);
    assert_eq!(ToReceiver::parse(&b, b.len()), Ok(ToReceiver::Sr(1, info)));
    assert!(matches!(ToReceiver::parse(&b, b.len() + 1), Err(WireError::Inconsistent(_))), "SR with payload");
    let mut bad = b.clone();
    bad[3] = 7;
    assert!(ToReceiver::parse(&bad, bad.len()).is_err(), "length field");
    let mut bad = b.clone();
    bad[0] = 0x81;
    assert!(ToReceiver::parse(&bad, bad.len()).is_err(), "a report count that does not fit");

    let block = ReportBlock { lsr: 0x1234_5678, dlsr: 0x10, cumulative_lost: 3, ..ReportBlock::default() };
    let rr = ReceiverReport { ssrc: 9, block, ..report(250_000, 0.0125, 2) };
    let b = rr.emit().as_slice().to_vec();
    assert_eq!(b.len(), RR_APP_BYTES);
    assert_eq!(&b[..4], &[0x81, 201, 0, 7]);
    assert_eq!(&b[32..40], &[0x80, 204, 0, 5, 0, 0, 0, 9]);
    assert_eq!(&b[40..44], b"SRMT");
    assert_eq!(&b[44..56], &[0, 3, 0xd0, 0x90, 0x00, 0xbe, 0xbc, 0x20, 2, 0, 0, 0]);
    assert_eq!(ReceiverReport::parse(&b), Ok(rr));
    let mutate = |i: usize, v: u8| {
        let mut x = b.clone();
        x[i] = v;
        ReceiverReport::parse(&x)
    };
    assert_eq!(mutate(0, 0x41), Err(WireError::BadVersion(1)));
    assert!(mutate(0, 0x82).is_err(), "two report blocks in one's room");
    assert!(matches!(mutate(39, 8), Err(WireError::Inconsistent(_))), "APP SSRC differs");
    assert!(matches!(mutate(43, b'X'), Err(WireError::Inconsistent(_))), "not SRMT");
    assert!(matches!(mutate(48, 0xff), Err(WireError::Inconsistent(_))), "loss above 1");
    assert!(matches!(mutate(52, 7), Err(WireError::Inconsistent(_))), "level beyond 5");
    assert!(matches!(ReceiverReport::parse(&b[..50]), Err(WireError::Truncated { .. })));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn parsers_never_panic_and_endpoints_count_garbage((bytes, extra) in garbage(), layered: bool) {
        let _ = DataHeader::parse(&bytes);
        let _ = ToReceiver::parse(&bytes, bytes.len() + extra as usize);
        let _ = ReceiverReport::parse(&bytes);
        let cfg = if layered { SramtConfig::layered() } else { SramtConfig::simulcast() };
        let mut s = sender(&cfg, layered, 2);
        feed_garbage(&mut s, secs(1.0), &bytes, extra, Rejections::Counted)?;
        let mut r = SramtReceiver::new(&cfg, layered, 0, 1000.0, Instant::ZERO, RngStreams::new(1).stream("r"));
        r.handle_timeout(Instant::ZERO);
        feed_garbage(&mut r, secs(1.0), &bytes, extra, Rejections::Counted)?;
    }

    #[test]
    fn data_headers_round_trip(seq: u16, ts: u32, group in 0u8..5, n in 1u8..=5, flags in 0u8..8,
                               rates in proptest::array::uniform5(1u32..), idx: u32, members: u32,
                               echo: (u32, u32), heard: (u8, u32)) {
        let mut rates_bps = [0; MAX_GROUPS];
        rates_bps[..n as usize].copy_from_slice(&rates[..n as usize]);
        let h = DataHeader {
            seq, timestamp_us: ts, ssrc: 1, group: group % n, epoch_end: flags & 1 != 0, epoch_us: 1,
            epoch_index: idx, members, echo: (flags & 2 != 0).then_some(echo),
            heard: (flags & 4 != 0).then_some((heard.0 % (n + 1), heard.1)), n, rates_bps,
        };
        prop_assert_eq!(DataHeader::parse(&emit(&h)), Ok(h));
    }
}
