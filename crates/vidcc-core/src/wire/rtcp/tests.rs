//! RTCP round trips against hand-assembled RFC 3550 layouts, rejections, and random bytes.

use super::*;
use proptest::prelude::*;

/// SR (RFC 3550 §6.4.1) with one report block, laid out by hand.
#[rustfmt::skip]
const SR1: [u8; 52] = [
    0x81, 200, 0, 12,                   // V=2, P=0, RC=1, PT=SR, length 12 (52 bytes)
    0x11, 0x22, 0x33, 0x44,             // SSRC of sender
    0, 0, 0, 5, 0x40, 0, 0, 0,          // NTP 5.25 s
    0, 0, 0x03, 0xe8,                   // RTP timestamp 1000
    0, 0, 0, 100,                       // sender's packet count
    0, 1, 0x86, 0xa0,                   // sender's octet count 100 000
    0xaa, 0xbb, 0xcc, 0xdd,             // SSRC_1
    0x19, 0, 0, 7,                      // fraction lost 25/256, cumulative lost 7
    0, 2, 0, 10,                        // extended highest sequence: 2 cycles, seq 10
    0, 0, 0, 45,                        // interarrival jitter
    0, 5, 0x40, 0,                      // LSR: 5.25 s in 16.16
    0, 1, 0, 0,                         // DLSR: 1 s
];

fn sr1() -> (u32, SenderInfo, ReportBlock) {
    let info =
        SenderInfo { ntp: (5 << 32) | 0x4000_0000, rtp_timestamp: 1000, packet_count: 100, octet_count: 100_000 };
    let block = ReportBlock {
        source_ssrc: 0xaabb_ccdd,
        fraction_lost: 25,
        cumulative_lost: 7,
        extended_highest_seq: 131_082,
        jitter: 45,
        lsr: 0x0005_4000,
        dlsr: 0x0001_0000,
    };
    (0x1122_3344, info, block)
}

/// A compound RR (§6.4.2) + APP (§6.7).
#[rustfmt::skip]
const RR_APP: [u8; 52] = [
    0x81, 201, 0, 7,                    // RR, RC=1, 32 bytes
    0, 0, 0, 9,                         // SSRC of packet sender
    0xaa, 0xbb, 0xcc, 0xdd,             // SSRC_1
    0xff, 0xff, 0xff, 0xff,             // fraction 255, cumulative −1
    0, 0, 0xff, 0xff,                   // extended highest 65 535
    0, 0, 0, 0,                         // jitter
    0, 0, 0, 0,                         // no SR heard: LSR 0
    0, 0, 0, 0,                         //              DLSR 0
    0x83, 204, 0, 4,                    // APP, subtype 3, 20 bytes
    0, 0, 0, 9,                         // SSRC
    b'A', b'S', b'M', b'P',             // name
    0, 0, 0x30, 0x39, 0, 0, 0, 1,       // two words of data
];

const RR_BLOCK: ReportBlock = ReportBlock {
    source_ssrc: 0xaabb_ccdd,
    fraction_lost: 255,
    cumulative_lost: -1,
    extended_highest_seq: 65_535,
    jitter: 0,
    lsr: 0,
    dlsr: 0,
};

#[test]
fn sender_report_vector() {
    let (ssrc, info, block) = sr1();
    assert_eq!(RtcpBuilder::new().sr(ssrc, info, &[block], &[]).finish().as_slice(), &SR1);
    let c = Compound::parse(&SR1).unwrap();
    assert_eq!(c.len(), 1);
    let sr = c.sender_report().unwrap();
    assert_eq!((sr.ssrc, sr.info, sr.ext), (ssrc, info, &[][..]));
    assert_eq!(sr.reports.iter().collect::<Vec<_>>(), vec![block]);
    assert_eq!(sr.reports.about(0xaabb_ccdd), Some(block));
    assert_eq!(sr.reports.about(1), None);
    assert_eq!(RtcpPacket::parse(&SR1).unwrap().1, 52);
}

#[test]
fn compound_rr_and_app_vector() {
    let data = [0, 0, 0x30, 0x39, 0, 0, 0, 1];
    let built = RtcpBuilder::new().rr(9, &[RR_BLOCK], &[]).app(3, 9, *b"ASMP", &data).finish();
    assert_eq!(built.as_slice(), &RR_APP);
    let c = Compound::parse(&RR_APP).unwrap();
    let packets: Vec<_> = c.iter().collect();
    assert_eq!(packets.len(), 2);
    let RtcpPacket::Rr(rr) = packets[0] else { panic!("{:?}", packets[0]) };
    assert_eq!((rr.ssrc, rr.reports.len(), rr.reports.get(0)), (9, 1, Some(RR_BLOCK)));
    assert_eq!(packets[1], RtcpPacket::App(App { subtype: 3, ssrc: 9, name: *b"ASMP", data: &data }));
    assert_eq!(c.app(*b"ASMP").map(|a| a.data), Some(&data[..]));
    assert_eq!(c.app(*b"XXXX"), None);
    assert_eq!(c.sender_report(), None);
}

#[test]
fn empty_reports_extensions_and_opaque_packets() {
    // The empty RR that heads a compound packet with nothing to report (§6.1).
    let rr = RtcpBuilder::new().rr(2, &[], &[]).finish();
    assert_eq!(rr.as_slice(), &[0x80, 201, 0, 1, 0, 0, 0, 2]);
    // An SR with a one-word profile-specific extension.
    let sr = RtcpBuilder::new().sr(1, SenderInfo::default(), &[], &[1, 2, 3, 4]).finish();
    assert_eq!(&sr.as_slice()[..4], &[0x80, 200, 0, 7]);
    let (RtcpPacket::Sr(p), 32) = RtcpPacket::parse(sr.as_slice()).unwrap() else { panic!() };
    assert_eq!((p.ext, p.reports.is_empty()), (&[1, 2, 3, 4][..], true));
    // RR + BYE (§6.6): the BYE is kept as an opaque packet.
    let mut v = rr.as_slice().to_vec();
    v.extend([0x81, 203, 0, 1, 0, 0, 0, 2]);
    let c = Compound::parse(&v).unwrap();
    assert_eq!(c.iter().nth(1), Some(RtcpPacket::Other { packet_type: PT_BYE, count: 1, body: &[0, 0, 0, 2] }));
    // A padded last packet: APP whose last word is padding (count 4).
    let mut v = rr.as_slice().to_vec();
    v.extend([0xa0, 204, 0, 3, 0, 0, 0, 2, b'n', b'a', b'm', b'e', 0, 0, 0, 4]);
    let c = Compound::parse(&v).unwrap();
    let Some(RtcpPacket::App(a)) = c.iter().nth(1) else { panic!() };
    assert!(a.data.is_empty());
}

#[test]
fn bad_version_is_rejected_in_any_packet() {
    let mut v = SR1;
    v[0] = 0x41;
    assert_eq!(Compound::parse(&v), Err(WireError::BadVersion(1)));
    let mut v = RR_APP;
    v[32] = 0xc3; // version 3 on the APP
    assert_eq!(Compound::parse(&v), Err(WireError::BadVersion(3)));
}

#[test]
fn overrunning_lengths_are_truncations() {
    // The SR's length says 52 bytes, 40 are there.
    assert_eq!(Compound::parse(&SR1[..40]), Err(WireError::Truncated { needed: 52, got: 40 }));
    // The APP's length overruns by a word: counted from the start of the datagram.
    let mut v = RR_APP;
    v[35] = 5;
    assert_eq!(Compound::parse(&v), Err(WireError::Truncated { needed: 56, got: 52 }));
    // Three stray bytes after a whole packet.
    let mut v = SR1.to_vec();
    v.extend([0x80, 201, 0]);
    assert_eq!(Compound::parse(&v), Err(WireError::Truncated { needed: 56, got: 55 }));
    assert_eq!(Compound::parse(&[]), Err(WireError::Truncated { needed: 4, got: 0 }));
}

#[test]
fn report_counts_that_do_not_fit_are_rejected() {
    // RC = 2 but room for one block.
    let mut v = RR_APP;
    v[0] = 0x82;
    assert_eq!(Compound::parse(&v), Err(WireError::Inconsistent("RR report count does not fit its length")));
    // An SR claiming a block with no room for it (28 bytes, length 6).
    let sr = RtcpBuilder::new().sr(1, SenderInfo::default(), &[], &[]).finish();
    let mut v = sr.as_slice().to_vec();
    v[0] = 0x81;
    assert_eq!(Compound::parse(&v), Err(WireError::Inconsistent("SR report count does not fit its length")));
    // RC = 31 on the SR vector.
    let mut v = SR1;
    v[0] = 0x9f;
    assert!(matches!(Compound::parse(&v), Err(WireError::Inconsistent(_))));
    // An "SR" of 8 bytes cannot hold its sender info.
    assert_eq!(
        Compound::parse(&[0x80, 200, 0, 1, 0, 0, 0, 1]),
        Err(WireError::Inconsistent("SR shorter than its sender info"))
    );
}

#[test]
fn other_malformations_are_rejected() {
    let bad = |v: &[u8]| matches!(Compound::parse(v), Err(WireError::Inconsistent(_)));
    // A compound packet must start with an SR or RR.
    assert!(bad(&RR_APP[32..]));
    // Padding on the first of two packets.
    let mut v = RR_APP;
    v[0] |= 0x20;
    v[31] = 4;
    assert!(bad(&v));
    // Padding count zero, and longer than the packet.
    let mut v = RR_APP;
    v[32] |= 0x20;
    v[51] = 0;
    assert!(bad(&v));
    v[51] = 17;
    assert!(bad(&v));
    // Padding that leaves the APP data a non-whole number of words.
    v[51] = 2;
    assert!(bad(&v));
    // A non-ASCII APP name.
    let mut v = RR_APP;
    v[40] = 0xc3;
    assert!(bad(&v));
    // A packet type outside RTCP's range.
    let mut v = RR_APP;
    v[1] = 96;
    assert_eq!(Compound::parse(&v), Err(WireError::UnknownType(96)));
}

#[test]
fn ntp_conversions_and_rtt() {
    // 2.5 s → seconds 2, fraction 0.5 · 2^32.
    assert_eq!(ntp_from_ns(2_500_000_000), (2 << 32) | 0x8000_0000);
    assert_eq!(ntp_middle(ntp_from_ns(2_500_000_000)), 0x0002_8000);
    assert_eq!(ns_to_short(500_000_000), 0x8000);
    assert_eq!(short_to_ns(0x8000), 500_000_000);
    // 70 ms = 4587.52 units → 4587 (rounded down).
    assert_eq!(ns_to_short(70_000_000), 4587);
    assert_eq!(ns_to_short(u64::MAX), u32::MAX);
    // §6.4.1's example: the SR left at 5.25 s, the receiver held it 1 s, the RR arrives at
    // 6.32 s: RTT = 70 ms, within one 1/65536 s unit.
    let (_, _, b) = sr1();
    let rtt = rtt_from_report(Instant::from_nanos(6_320_000_000), b.lsr, b.dlsr).unwrap().as_nanos();
    assert!((70_000_000 - 15_259..=70_000_000).contains(&rtt), "{rtt}");
    // No SR echoed, and a "negative" RTT (the RR claims to have held the SR longer than it was away).
    assert_eq!(rtt_from_report(Instant::from_nanos(6_320_000_000), 0, b.dlsr), None);
    assert_eq!(rtt_from_report(Instant::from_nanos(6_000_000_000), b.lsr, b.dlsr), None);
}

fn block() -> impl Strategy<Value = ReportBlock> {
    (any::<u32>(), any::<u8>(), CUMULATIVE_LOST_MIN..=CUMULATIVE_LOST_MAX, any::<[u32; 4]>()).prop_map(
        |(source_ssrc, fraction_lost, cumulative_lost, [extended_highest_seq, jitter, lsr, dlsr])| ReportBlock {
            source_ssrc,
            fraction_lost,
            cumulative_lost,
            extended_highest_seq,
            jitter,
            lsr,
            dlsr,
        },
    )
}

proptest! {
    #[test]
    fn compound_round_trips(ssrc: u32, ntp: u64, counts: [u32; 3], sr: bool, b in proptest::collection::vec(block(), 0..2),
                            ext_words in 0usize..2, subtype in 0u8..32, app_words in 0usize..2, name in "[A-Za-z0-9 ]{4}") {
        let size = if sr { SR_MIN_BYTES } else { RR_MIN_BYTES } + REPORT_BLOCK_BYTES * b.len() + 4 * ext_words
            + APP_MIN_BYTES + 4 * app_words;
        prop_assume!(size <= crate::endpoint::MAX_HEADER_BYTES);
        let ext: Vec<u8> = (0..4 * ext_words).map(|i| i as u8).collect();
        let info = SenderInfo { ntp, rtp_timestamp: counts[0], packet_count: counts[1], octet_count: counts[2] };
        let builder = if sr { RtcpBuilder::new().sr(ssrc, info, &b, &ext) } else { RtcpBuilder::new().rr(ssrc, &b, &ext) };
        let data: Vec<u8> = (0..4 * app_words).map(|i| (i * 7) as u8).collect();
        let name: [u8; 4] = name.as_bytes().try_into().unwrap();
        let buf = builder.app(subtype, ssrc, name, &data).finish();
        let c = Compound::parse(buf.as_slice()).unwrap();
        let p: Vec<_> = c.iter().collect();
        prop_assert_eq!(p.len(), 2);
        let (reports, got_ext) = match p[0] {
            RtcpPacket::Sr(s) => { prop_assert!(sr); prop_assert_eq!((s.ssrc, s.info), (ssrc, info)); (s.reports, s.ext) }
            RtcpPacket::Rr(r) => { prop_assert!(!sr); prop_assert_eq!(r.ssrc, ssrc); (r.reports, r.ext) }
            other => return Err(TestCaseError::fail(format!("{other:?}"))),
        };
        prop_assert_eq!(reports.iter().collect::<Vec<_>>(), b);
        prop_assert_eq!(got_ext, &ext[..]);
        prop_assert_eq!(p[1], RtcpPacket::App(App { subtype, ssrc, name, data: &data }));
    }

    #[test]
    fn random_bytes_never_panic_and_errors_are_typed(bytes in proptest::collection::vec(any::<u8>(), 0..128)) {
        match Compound::parse(&bytes) {
            Ok(c) => {
                prop_assert!(!c.is_empty());
                prop_assert_eq!(c.iter().count(), c.len());
            }
            Err(WireError::Truncated { needed, got }) => prop_assert!(needed > got && got == bytes.len()),
            Err(WireError::BadVersion(v)) => prop_assert_ne!(v, RTCP_VERSION),
            Err(WireError::UnknownType(t)) => prop_assert!(!(192..=223).contains(&t)),
            Err(WireError::Inconsistent(why)) => prop_assert!(!why.is_empty()),
            Err(WireError::Implausible(why)) => prop_assert!(false, "a parser judged plausibility: {}", why),
        }
    }

    #[test]
    fn mutated_vectors_never_panic(i in 0usize..52, v: u8, cut in 0usize..53) {
        for base in [SR1, RR_APP] {
            let mut m = base;
            m[i] = v;
            let _ = Compound::parse(&m[..cut]);
            if let Ok(c) = Compound::parse(&m[..cut]) {
                prop_assert!(c.iter().count() == c.len());
            }
        }
    }
}
