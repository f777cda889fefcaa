//! A video behind a rate-paced sender: the frame feeder, the sender buffer its packets wait in,
//! and the sender's rate fed back to a rate-adaptive set. This is what every single-rate
//! rate-controlled video sender holds (TFRC, TFMCC, ASMP): each frame ready by now goes into the
//! buffer, the protocol pops a packet whenever its pacing allows.
//!
//! **Rate adaptation** (docs/papers/asmp-tfmcc.md §2, Evalvid-RA, AMB-13 \[C\]): before frames are
//! drawn, the sender's current rate X becomes the target of a rate-adaptive set, which picks the
//! best quantizer whose upcoming GOP fits X × GOP duration at each GOP start. When the backlog
//! already exceeds one GOP at X (bytes queued > X × GOP duration), the target is 0, so the next
//! GOP takes the smallest trace (q = 31 in the paper's set) — docs/papers/asmp-tfmcc.md's "if the
//! sender queue exceeds one GOP, force q = 31". Other stream kinds ignore the target.

use super::sender_buffer::{BufferedPacket, SenderBuffer, SenderBufferConfig, SenderBufferStats};
use super::stream::{FrameFeeder, PartSelection, VideoStream};
use crate::time::{Duration, Instant};
use crate::units::DataRate;

/// Frames of a video waiting to be paced out (module docs).
pub struct PacedVideo {
    feeder: FrameFeeder,
    buffer: SenderBuffer,
    /// GOP duration of a rate-adaptive stream (`None`: the stream does not adapt).
    adaptive_gop: Option<Duration>,
}

impl PacedVideo {
    /// `initial_rate`: the sender's rate when the first frame is drawn; `max_payload`: payload
    /// bytes per packet.
    pub fn new(
        mut stream: VideoStream,
        initial_rate: DataRate,
        max_payload: u32,
        stop: Option<Instant>,
        buffer: SenderBufferConfig,
    ) -> Result<Self, String> {
        let adaptive_gop = stream.adaptive_gop_duration();
        // The feeder draws its first frame at once: set the target before.
        stream.set_target_rate(initial_rate);
        Ok(PacedVideo {
            feeder: FrameFeeder::new(stream, max_payload, stop)?,
            buffer: SenderBuffer::new(buffer),
            adaptive_gop,
        })
    }

    /// Moves every frame ready by `now` into the buffer (every part: all layers, the top
    /// simulcast stream, the chosen trace of a rate-adaptive set). Frames are drawn one ahead
    /// (more in decode order, which holds B frames until their forward anchor): a frame drawn
    /// in this call takes the target `rate` and the backlog as they are when it is drawn.
    pub fn produce(&mut self, now: Instant, rate: DataRate) {
        while let Some(t) = self.feeder.next_ready().filter(|&t| t <= now) {
            if let Some(gop) = self.adaptive_gop {
                let backlog_bits = u128::from(self.buffer.bytes()) * 8 * 1_000_000_000;
                let gop_bits = u128::from(rate.as_bps()) * u128::from(gop.as_nanos());
                self.feeder.set_target_rate(if backlog_bits > gop_bits { DataRate::ZERO } else { rate });
            }
            let buffer = &mut self.buffer;
            self.feeder.produce(
                t,
                |_| PartSelection::Full,
                |f, len, tag| {
                    buffer.push(now, tag, len, f.ready_at);
                },
            );
        }
    }

    /// The next packet to send, if any.
    pub fn pop(&mut self, now: Instant) -> Option<BufferedPacket> {
        self.buffer.pop(now)
    }
    pub fn is_empty(&self) -> bool {
        self.buffer.is_empty()
    }
    /// When the next frame is ready (`None` past the stop).
    pub fn next_ready(&self) -> Option<Instant> {
        self.feeder.next_ready()
    }
    pub fn buffer_stats(&self) -> &SenderBufferStats {
        self.buffer.stats()
    }
    pub fn buffered_bytes(&self) -> u64 {
        self.buffer.bytes()
    }
    /// Reports of the frames produced and the packets the buffer dropped (`media/report.rs`).
    pub fn enable_media_reports(&mut self) {
        self.feeder.enable_media_reports();
        self.buffer.enable_media_reports();
    }
    /// Productions first: a frame's report precedes its packets' drops.
    pub fn poll_media(&mut self) -> Option<super::report::MediaReport> {
        self.feeder.poll_media().or_else(|| self.buffer.poll_media())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::media::config::{
        build_stream, PlayoutConfigSpec, RaCriterionSpec, RaTraceSpec, TraceFormatSpec, VideoConfig, VideoModel,
    };
    use crate::rng::RngStreams;

    /// A plain trace of `gops` GOPs of IPPP (4 frames) with every frame `size` bytes.
    fn trace(size: u32, gops: usize) -> String {
        (0..gops * 4).map(|i| format!("{} {}\n", if i % 4 == 0 { "I" } else { "P" }, size)).collect()
    }

    /// Three traces at 25 fps, GOP of 4 frames (0.16 s): 5000, 2000 and 500 B frames = 1000,
    /// 400 and 100 kbit/s, listed q10, q2, q31 (not in quantizer order).
    pub(crate) fn ra_config() -> VideoConfig {
        let t = |q: u8, size: u32| RaTraceSpec { quantizer: q, text: trace(size, 5), source: format!("q{q}") };
        VideoConfig {
            model: VideoModel::RateAdaptive {
                traces: vec![t(10, 2000), t(2, 5000), t(31, 500)],
                format: TraceFormatSpec::Plain,
                criterion: RaCriterionSpec::UpcomingGop,
            },
            fps: 25.0,
            gop: "IPPP".into(),
            layers_bps: vec![],
            streams_bps: vec![],
            playout: PlayoutConfigSpec::FirstArrival { delay_ns: 1_000_000_000 },
            delayed_threshold_ns: 75_000_000,
            display_order: false,
        }
    }

    fn ms(t: u64) -> Instant {
        Instant::ZERO + Duration::from_millis(t)
    }

    fn stream() -> VideoStream {
        let streams = RngStreams::new(1);
        build_stream(&ra_config(), Instant::ZERO, &|| streams.stream("video")).unwrap()
    }

    /// The encoding (scenario list index) of each packet's frame, one entry per frame.
    fn encodings(v: &mut PacedVideo, now: Instant) -> Vec<u8> {
        let mut out = Vec::new();
        while let Some(p) = v.pop(now) {
            if p.tag.index == 0 {
                out.push(p.tag.layer);
            }
        }
        out
    }

    #[test]
    fn the_sender_rate_picks_the_trace_at_each_gop_start() {
        let mut v =
            PacedVideo::new(stream(), DataRate::from_kbps(450), 1000, None, SenderBufferConfig::default()).unwrap();
        // GOP 0 (frames 0-3, ready at 0..120 ms) was drawn at 450 kbit/s: q10 (list index 0).
        // At 120 ms the last frame of GOP 0 goes and GOP 1's first is drawn at 1.2 Mbit/s: q2.
        v.produce(ms(120), DataRate::from_kbps(1200));
        assert_eq!(encodings(&mut v, ms(120)), [0, 0, 0, 0]);
        // Below every trace but q31's: q31 (index 2).
        v.produce(ms(280), DataRate::from_kbps(150));
        assert_eq!(encodings(&mut v, ms(280)), [1, 1, 1, 1]);
        // Below q31 too: still the smallest.
        v.produce(ms(440), DataRate::from_kbps(10));
        assert_eq!(encodings(&mut v, ms(440)), [2, 2, 2, 2]);
        v.produce(ms(600), DataRate::from_kbps(450));
        assert_eq!(encodings(&mut v, ms(600)), [2, 2, 2, 2]);
        v.produce(ms(760), DataRate::from_kbps(450));
        assert_eq!(encodings(&mut v, ms(760)), [0, 0, 0, 0]);
    }

    #[test]
    fn a_backlog_over_one_gop_forces_the_smallest_trace() {
        let mut v =
            PacedVideo::new(stream(), DataRate::from_kbps(1200), 1000, None, SenderBufferConfig::default()).unwrap();
        // GOP 0 at q2, nothing sent. GOP 1's first frame is drawn with 15 000 B queued, within
        // one GOP at 1.2 Mbit/s (24 000 B): q2 again.
        v.produce(ms(120), DataRate::from_kbps(1200));
        assert_eq!(v.buffered_bytes(), 20_000);
        // GOP 2's first frame is drawn with 35 000 B queued, over one GOP: q31 whatever the rate.
        v.produce(ms(280), DataRate::from_kbps(1200));
        assert_eq!(v.buffered_bytes(), 40_000);
        v.produce(ms(440), DataRate::from_kbps(1200));
        assert_eq!(v.buffered_bytes(), 42_000);
        let all = encodings(&mut v, ms(440));
        assert_eq!(&all[8..], [2, 2, 2, 2]);
    }
}
