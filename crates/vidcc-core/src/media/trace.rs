//! Frame-size traces: parsing, writing, reordering, and replay as a [`FrameSource`].
//!
//! Formats (issue 4 "Sources" (a); docs/papers/asmp-tfmcc.md §2 "Pre-processing", Evalvid-RA's mp4 tracer):
//! - [`TraceFormat::Evalvid`]: the Evalvid sender trace, one frame per line,
//!   `frameId type size packets time` with `time` in seconds (`1 I 3036 4 0.040`). The raw
//!   `mp4trace` form `frameId type size packets segm at <ms> ms` is accepted too (\[I\]: as the
//!   EvalVid tool prints it; time in milliseconds).
//! - [`TraceFormat::Plain`]: `type size` per line.
//!
//! Both: whitespace-separated fields, `#` starts a comment, blank lines are skipped, frame types
//! `I`/`P`/`B` in either case. `frameId` and `packets` must be non-negative integers but are
//! otherwise ignored: ids are re-assigned on replay and packetization is vidcc's own
//! (`packetizer.rs`, with the caller's packet size).
//!
//! `H` lines (Evalvid: the MPEG-4 VOS/VOL header, a few tens of bytes sent before the first VOP)
//! are **merged into the next frame**: their bytes are added to that frame's size, because no
//! frame decodes without the header, so losing it has the same effect as losing the first I
//! frame. An `H` line with no frame after it is an error. Consequently `to_evalvid` never writes
//! `H` lines, and a round trip text → trace → text → trace is exact on the trace.
//!
//! Errors ([`TraceError`]) name the 1-based line: wrong field count, unknown frame type, a size
//! that is negative, non-numeric or above `u32::MAX`, a bad frame id or packet count, a time that
//! is not a non-negative number or goes backwards (equal times are allowed: Evalvid gives the
//! header and the first frame the same time), and a file with no frames (reported at its last
//! line).
//!
//! Frame order: an Evalvid trace lists frames as `mp4trace` reads them from the file, i.e. in
//! **decode (bitstream) order** (`I P B B P B B ...` for an `IBBP...` GOP); a plain trace is
//! taken to be in display order. [`Trace`] keeps the file's order; [`FrameOrder`] says which it
//! is and [`Trace::in_display_order`] reorders (each anchor moves after the B frames that follow
//! it in the file). [`TraceSource`] replays in display order at a given frame rate and **loops**
//! when the trace ends (ids and times keep increasing; the first frame of the trace, an I frame
//! in practice, follows the last). A trace's own `time` column is not used for replay timing:
//! frames are ready at `start + id·interval` like every other source.

use super::frame::{Frame, FrameType};
use super::source::{frame_interval_for_fps, rate_of, FrameClock, FrameSource, SourceError};
use crate::time::{Duration, Instant};
use crate::units::{parse_duration, DataRate};
use std::fmt::Write as _;

/// Which text format a trace is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceFormat {
    /// `frameId type size packets time` (Evalvid sender trace).
    Evalvid,
    /// `type size`.
    Plain,
}

/// Order in which a trace lists its frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameOrder {
    /// Presentation order (`I B B P ...`).
    Display,
    /// Bitstream order (`I P B B ...`): every anchor before the B frames that precede it.
    Decode,
}

impl FrameOrder {
    /// The order files of `format` are written in: Evalvid traces are in decode order, plain
    /// traces in display order.
    pub fn of_format(format: TraceFormat) -> Self {
        match format {
            TraceFormat::Evalvid => FrameOrder::Decode,
            TraceFormat::Plain => FrameOrder::Display,
        }
    }
}

/// A malformed trace: the 1-based line and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("trace line {line}: {message}")]
pub struct TraceError {
    pub line: usize,
    pub message: String,
}

/// One trace entry: type, size in bytes, and (Evalvid only) the trace's time stamp.
pub type TraceFrame = (FrameType, u32, Option<Duration>);

/// Frames of a trace in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    pub frames: Vec<TraceFrame>,
}

fn parse_uint(tok: &str, what: &str) -> Result<u64, String> {
    if let Ok(v) = tok.parse::<u64>() {
        return Ok(v);
    }
    match tok.parse::<i128>() {
        Ok(v) if v < 0 => Err(format!("{what} {tok:?} is negative")),
        Ok(_) => Err(format!("{what} {tok:?} is too large")),
        Err(_) => Err(format!("{what} {tok:?} is not a non-negative integer")),
    }
}

fn parse_size(tok: &str) -> Result<u32, String> {
    let v = parse_uint(tok, "frame size")?;
    u32::try_from(v).map_err(|_| format!("frame size {tok:?} is too large (max {})", u32::MAX))
}

/// Seconds (or milliseconds) as exact integer nanoseconds; plain decimals are parsed exactly,
/// other float forms (`4e-2`) through `f64`.
fn parse_time(tok: &str, unit: &str) -> Result<Duration, String> {
    if let Ok(d) = parse_duration(&format!("{tok}{unit}")) {
        return Ok(d);
    }
    match tok.parse::<f64>() {
        Ok(v) if v < 0.0 => Err(format!("time {tok:?} is negative")),
        Ok(v) if v.is_finite() => Ok(Duration::from_secs_f64(if unit == "ms" { v * 1e-3 } else { v })),
        _ => Err(format!("time {tok:?} is not a number")),
    }
}

fn fmt_secs(out: &mut String, d: Duration) {
    let ns = d.as_nanos();
    let (s, frac) = (ns / 1_000_000_000, ns % 1_000_000_000);
    let mut digits = format!("{frac:09}");
    while digits.len() > 3 && digits.ends_with('0') {
        digits.pop();
    }
    let _ = write!(out, "{s}.{digits}");
}

impl Trace {
    pub fn parse(text: &str, format: TraceFormat) -> Result<Trace, TraceError> {
        let mut frames = Vec::new();
        let mut header_bytes: Option<(usize, u64)> = None; // (line, bytes) of pending H lines
        let mut last_time: Option<(usize, Duration)> = None;
        let mut line_count = 0;
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            line_count = line;
            let err = |message: String| TraceError { line, message };
            let content = raw.split('#').next().unwrap_or("");
            let mut fields = [""; 8];
            let mut n = 0;
            for tok in content.split_whitespace() {
                if n < fields.len() {
                    fields[n] = tok;
                }
                n += 1;
            }
            if n == 0 {
                continue;
            }
            let (type_tok, size_tok, time) = match format {
                TraceFormat::Plain => {
                    if n != 2 {
                        return Err(err(format!("expected 2 fields \"type size\", found {n}")));
                    }
                    (fields[0], fields[1], None)
                }
                TraceFormat::Evalvid => {
                    let raw_form = n == 8 && fields[4] == "segm" && fields[5] == "at" && fields[7] == "ms";
                    if n != 5 && !raw_form {
                        return Err(err(format!(
                            "expected 5 fields \"frameId type size packets time\" \
                             (or \"frameId type size packets segm at <t> ms\"), found {n}"
                        )));
                    }
                    parse_uint(fields[0], "frame id").map_err(&err)?;
                    parse_uint(fields[3], "packet count").map_err(&err)?;
                    let t = if raw_form { parse_time(fields[6], "ms") } else { parse_time(fields[4], "s") };
                    let t = t.map_err(&err)?;
                    if let Some((prev_line, prev)) = last_time {
                        if t < prev {
                            return Err(err(format!("time {t} goes backwards (line {prev_line} has {prev})")));
                        }
                    }
                    last_time = Some((line, t));
                    (fields[1], fields[2], Some(t))
                }
            };
            let mut chars = type_tok.chars();
            let (c, rest) = (chars.next(), chars.next());
            let is_header = format == TraceFormat::Evalvid && rest.is_none() && matches!(c, Some('H' | 'h'));
            let frame_type = match (c.and_then(FrameType::from_char), rest) {
                (Some(t), None) => Some(t),
                _ if is_header => None,
                _ => {
                    let expected = if format == TraceFormat::Evalvid { "I, P, B or H" } else { "I, P or B" };
                    return Err(err(format!("unknown frame type {type_tok:?} (expected {expected})")));
                }
            };
            let size = parse_size(size_tok).map_err(&err)?;
            match frame_type {
                None => {
                    let (first, bytes) = header_bytes.unwrap_or((line, 0));
                    header_bytes = Some((first, bytes + u64::from(size)));
                }
                Some(t) => {
                    let extra = header_bytes.take().map_or(0, |(_, b)| b);
                    let total = u32::try_from(u64::from(size) + extra)
                        .map_err(|_| err("frame size plus preceding header bytes is too large".into()))?;
                    frames.push((t, total, time));
                }
            }
        }
        if let Some((line, _)) = header_bytes {
            return Err(TraceError { line, message: "header (H) line is not followed by a frame".into() });
        }
        if frames.is_empty() {
            return Err(TraceError { line: line_count.max(1), message: "no frames in trace (empty file?)".into() });
        }
        Ok(Trace { frames })
    }

    pub fn len(&self) -> usize {
        self.frames.len()
    }
    pub fn is_empty(&self) -> bool {
        self.frames.is_empty()
    }
    pub fn total_bytes(&self) -> u64 {
        self.frames.iter().map(|f| u64::from(f.1)).sum()
    }
    pub fn mean_frame_bytes(&self) -> f64 {
        self.total_bytes() as f64 / self.frames.len().max(1) as f64
    }
    /// Mean bit rate when the trace is played at one frame per `interval`.
    pub fn mean_rate(&self, interval: Duration) -> DataRate {
        rate_of(self.mean_frame_bytes(), interval)
    }

    /// Evalvid sender-trace text: `id type size packets time`, ids from 1, `packets` =
    /// ⌈size / packet_size⌉ (at least 1), time in seconds. Frames without a time get
    /// `index × 40 ms` (25 fps).
    pub fn to_evalvid(&self, packet_size: u32) -> String {
        let mut out = String::with_capacity(self.frames.len() * 24);
        let ps = packet_size.max(1);
        for (i, &(t, size, time)) in self.frames.iter().enumerate() {
            let packets = size.div_ceil(ps).max(1);
            let time = time.unwrap_or(Duration::from_millis(40) * i as u64);
            let _ = write!(out, "{} {} {} {} ", i + 1, t.as_char(), size, packets);
            fmt_secs(&mut out, time);
            out.push('\n');
        }
        out
    }

    /// Plain text: `type size` per line.
    pub fn to_plain(&self) -> String {
        let mut out = String::with_capacity(self.frames.len() * 8);
        for &(t, size, _) in &self.frames {
            let _ = writeln!(out, "{} {}", t.as_char(), size);
        }
        out
    }

    /// Index permutation: `perm[k]` = file index of the k-th frame in display order.
    pub fn display_permutation(&self, order: FrameOrder) -> Vec<usize> {
        let mut perm = Vec::with_capacity(self.frames.len());
        match order {
            FrameOrder::Display => perm.extend(0..self.frames.len()),
            FrameOrder::Decode => {
                // An anchor is shown after the B frames that follow it in decode order, i.e. when
                // the next anchor arrives (or at the end).
                let mut pending: Option<usize> = None;
                for (i, f) in self.frames.iter().enumerate() {
                    if f.0 == FrameType::B {
                        perm.push(i);
                    } else if let Some(p) = pending.replace(i) {
                        perm.push(p);
                    }
                }
                perm.extend(pending);
            }
        }
        perm
    }

    /// The same frames in display order, given the order the trace is in. Time stamps travel
    /// with their frames (so they may no longer be monotonic).
    pub fn in_display_order(&self, order: FrameOrder) -> Trace {
        Trace { frames: self.display_permutation(order).into_iter().map(|i| self.frames[i]).collect() }
    }
}

/// Replays a trace in display order at a fixed frame rate, looping at the end.
#[derive(Clone, Debug)]
pub struct TraceSource {
    clock: FrameClock,
    /// (type, size) in display order.
    frames: Vec<(FrameType, u32)>,
    pos: usize,
    mean_bytes: f64,
}

impl TraceSource {
    /// `order` is the order `trace` lists its frames in (see [`FrameOrder::of_format`]).
    pub fn new(trace: &Trace, fps: f64, order: FrameOrder) -> Result<Self, SourceError> {
        if trace.is_empty() {
            return Err(SourceError("trace has no frames".into()));
        }
        let frames = trace.display_permutation(order).into_iter().map(|i| (trace.frames[i].0, trace.frames[i].1));
        Ok(TraceSource {
            clock: FrameClock::new(frame_interval_for_fps(fps)?),
            frames: frames.collect(),
            pos: 0,
            mean_bytes: trace.mean_frame_bytes(),
        })
    }
    pub fn with_start(mut self, start: Instant) -> Self {
        self.clock.start = start;
        self
    }
    /// Number of frames before the trace repeats.
    pub fn period(&self) -> usize {
        self.frames.len()
    }
}

impl FrameSource for TraceSource {
    fn next_frame(&mut self) -> Frame {
        let (id, ready_at) = self.clock.tick();
        let (frame_type, size_bytes) = self.frames[self.pos];
        self.pos += 1;
        if self.pos == self.frames.len() {
            self.pos = 0;
        }
        Frame { id, frame_type, size_bytes, ready_at }
    }
    fn frame_interval(&self) -> Duration {
        self.clock.interval
    }
    fn mean_rate(&self) -> DataRate {
        rate_of(self.mean_bytes, self.clock.interval)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use FrameType::*;

    const ST: &str = "\
# Evalvid sender trace
0 H 24 1 0.000
1 I 3036 4 0.000
2 P 659 1 0.040   # trailing comment
3 B 357 1 0.080

4 B 401 1 0.120
5 P 702 1 0.160
";

    fn err(text: &str, format: TraceFormat) -> TraceError {
        Trace::parse(text, format).unwrap_err()
    }

    #[test]
    fn parses_evalvid_and_merges_the_header_into_the_first_frame() {
        let t = Trace::parse(ST, TraceFormat::Evalvid).unwrap();
        assert_eq!(
            t.frames,
            vec![
                (I, 3060, Some(Duration::ZERO)),
                (P, 659, Some(Duration::from_millis(40))),
                (B, 357, Some(Duration::from_millis(80))),
                (B, 401, Some(Duration::from_millis(120))),
                (P, 702, Some(Duration::from_millis(160))),
            ]
        );
        let raw = "0 H 29 1 segm at 0 ms\n1 I 3000 3 segm at 0 ms\n2 P 600 1 segm at 40 ms\n";
        let t2 = Trace::parse(raw, TraceFormat::Evalvid).unwrap();
        assert_eq!(t2.frames, vec![(I, 3029, Some(Duration::ZERO)), (P, 600, Some(Duration::from_millis(40)))]);
    }

    #[test]
    fn round_trips_both_formats() {
        let t = Trace::parse(ST, TraceFormat::Evalvid).unwrap();
        let text = t.to_evalvid(1000);
        assert!(text.starts_with("1 I 3060 4 0.000\n2 P 659 1 0.040\n"), "{text}");
        assert_eq!(Trace::parse(&text, TraceFormat::Evalvid).unwrap(), t);
        let plain = t.to_plain();
        assert_eq!(plain, "I 3060\nP 659\nB 357\nB 401\nP 702\n");
        let p = Trace::parse(&plain, TraceFormat::Plain).unwrap();
        assert_eq!(
            p.frames.iter().map(|f| (f.0, f.1)).collect::<Vec<_>>(),
            t.frames.iter().map(|f| (f.0, f.1)).collect::<Vec<_>>()
        );
        assert_eq!(Trace::parse(&p.to_plain(), TraceFormat::Plain).unwrap(), p);
        // Plain → Evalvid invents 25 fps times; that text round-trips exactly too.
        let e = p.to_evalvid(500);
        assert!(e.contains("1 I 3060 7 0.000\n") && e.contains("5 P 702 2 0.160\n"), "{e}");
        assert_eq!(Trace::parse(&e, TraceFormat::Evalvid).unwrap().to_evalvid(500), e);
        // Nanosecond times survive.
        let odd = Trace { frames: vec![(I, 1, Some(Duration::from_nanos(1_000_000_001)))] };
        assert_eq!(Trace::parse(&odd.to_evalvid(1000), TraceFormat::Evalvid).unwrap(), odd);
    }

    #[test]
    fn malformed_traces_name_the_line() {
        use TraceFormat::*;
        let cases: &[(&str, TraceFormat, usize, &str)] = &[
            ("I 100\nP -5\n", Plain, 2, "negative"),
            ("I 100\nP 12x\n", Plain, 2, "not a non-negative integer"),
            ("I 100\n\nP 5000000000\n", Plain, 3, "too large"),
            ("I 100\nX 50\n", Plain, 2, "unknown frame type \"X\""),
            ("I 100\nH 50\n", Plain, 2, "unknown frame type \"H\""),
            ("I 100\nPB 50\n", Plain, 2, "unknown frame type \"PB\""),
            ("I 100\nP 50 7\n", Plain, 2, "expected 2 fields"),
            ("I\n", Plain, 1, "found 1"),
            ("", Plain, 1, "no frames"),
            ("# only a comment\n\n   \n", Evalvid, 3, "no frames"),
            ("1 I 100 1 0.0\n2 P 50 1 0.08\n3 B 20 1 0.04\n", Evalvid, 3, "goes backwards"),
            ("1 I 100 1 0.0\n2 Q 50 1 0.08\n", Evalvid, 2, "unknown frame type \"Q\""),
            ("1 I -100 1 0.0\n", Evalvid, 1, "negative"),
            ("1 I 100 1\n", Evalvid, 1, "expected 5 fields"),
            ("1 I 100 1 0.0 9\n", Evalvid, 1, "found 6"),
            ("1 I 100 1 -0.5\n", Evalvid, 1, "negative"),
            ("1 I 100 1 soon\n", Evalvid, 1, "not a number"),
            ("x I 100 1 0.0\n", Evalvid, 1, "frame id"),
            ("1 I 100 -1 0.0\n", Evalvid, 1, "packet count"),
            ("1 I 100 1 0.0\n2 H 20 1 0.04\n", Evalvid, 2, "not followed by a frame"),
        ];
        for &(text, format, line, needle) in cases {
            let e = err(text, format);
            assert_eq!(e.line, line, "{text:?}: {e}");
            assert!(e.message.contains(needle), "{text:?}: {e}");
            assert!(e.to_string().starts_with(&format!("trace line {line}: ")));
        }
    }

    #[test]
    fn decode_order_traces_are_shown_in_display_order() {
        // Decode order of IBBPBBPBBPBB with an open GOP: I0 P3 B1 B2 P6 B4 B5 P9 B7 B8 I12 B10 B11.
        let types = "IPBBPBBPBBIBB";
        let frames =
            types.chars().enumerate().map(|(i, c)| (FrameType::from_char(c).unwrap(), i as u32, None)).collect();
        let t = Trace { frames };
        let d = t.in_display_order(FrameOrder::Decode);
        let shown: String = d.frames.iter().map(|f| f.0.as_char()).collect();
        assert_eq!(shown, "IBBPBBPBBPBBI");
        let sizes: Vec<u32> = d.frames.iter().map(|f| f.1).collect();
        assert_eq!(sizes, vec![0, 2, 3, 1, 5, 6, 4, 8, 9, 7, 11, 12, 10]);
        assert_eq!(t.in_display_order(FrameOrder::Display), t);
        assert_eq!(FrameOrder::of_format(TraceFormat::Evalvid), FrameOrder::Decode);
    }

    #[test]
    fn trace_source_replays_and_loops() {
        let t = Trace::parse(ST, TraceFormat::Evalvid).unwrap();
        let mut s = TraceSource::new(&t, 25.0, FrameOrder::Decode).unwrap().with_start(Instant::from_nanos(5));
        assert_eq!(s.period(), 5);
        let got: Vec<(u32, FrameType, u32)> = (0..12)
            .map(|_| {
                let f = s.next_frame();
                (f.id, f.frame_type, f.size_bytes)
            })
            .collect();
        let expect_sizes = [3060, 357, 401, 659, 702];
        for (k, &(id, ft, size)) in got.iter().enumerate() {
            assert_eq!(id, k as u32);
            assert_eq!(size, expect_sizes[k % 5]);
            assert_eq!(ft, [I, B, B, P, P][k % 5]);
        }
        let f = s.next_frame();
        assert_eq!(f.ready_at, Instant::from_nanos(5 + 12 * 40_000_000));
        let mean = (3060 + 659 + 357 + 401 + 702) as f64 / 5.0;
        assert_eq!(s.mean_rate(), DataRate::from_bps_f64(mean * 8.0 * 25.0));
    }
}
