//! Quantities with their units in the type: [`DataRate`] (bit/s) and [`DataSize`] (bytes), and
//! parsing of the human forms used in scenario files (`"10Mbps"`, `"35ms"`, `"64KB"`).
//!
//! Prefixes are decimal (SI), as in networking: `1 kbps = 1000 bit/s`, `1 KB = 1000 B`.
//! Binary prefixes are accepted where people use them for sizes (`KiB`, `MiB`). Parsing is exact:
//! `"0.5ms"` is 500 000 ns with no floating point on the way; anything finer than the base unit
//! (1 ns, 1 bit/s, 1 byte) is rounded to the nearest.

use crate::time::Duration;
use std::fmt;

/// A rate in bits per second.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DataRate(u64);

/// An amount of data in bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DataSize(u64);

impl DataRate {
    pub const ZERO: DataRate = DataRate(0);
    pub const fn from_bps(bps: u64) -> Self {
        DataRate(bps)
    }
    pub const fn from_kbps(k: u64) -> Self {
        DataRate(k * 1_000)
    }
    pub const fn from_mbps(m: u64) -> Self {
        DataRate(m * 1_000_000)
    }
    /// Rounds to the nearest bit/s; negative and NaN give zero.
    pub fn from_bps_f64(bps: f64) -> Self {
        if bps.is_nan() || bps <= 0.0 {
            DataRate(0)
        } else if bps >= u64::MAX as f64 {
            DataRate(u64::MAX)
        } else {
            DataRate(bps.round() as u64)
        }
    }
    pub const fn as_bps(self) -> u64 {
        self.0
    }
    pub fn as_bps_f64(self) -> f64 {
        self.0 as f64
    }
    /// Time to serialise `size` at this rate, rounded up to whole nanoseconds so that a link
    /// never sends faster than its capacity. A zero rate takes forever.
    pub fn transmission_time(self, size: DataSize) -> Duration {
        if self.0 == 0 {
            return Duration::MAX;
        }
        // The simulator calls this for every packet on every link: 64-bit division when the
        // product fits (any packet under 2.3 GB), the same result in 128 bits otherwise.
        if let Some(bits) = size.as_bytes().checked_mul(8 * 1_000_000_000) {
            return Duration::from_nanos(bits.div_ceil(self.0));
        }
        let bits = size.as_bytes() as u128 * 8 * 1_000_000_000;
        let ns = bits.div_ceil(self.0 as u128);
        Duration::from_nanos(ns.min(u64::MAX as u128) as u64)
    }
    /// Data carried at this rate during `d` (rounded down to whole bytes).
    pub fn size_in(self, d: Duration) -> DataSize {
        let bytes = self.0 as u128 * d.as_nanos() as u128 / 8 / 1_000_000_000;
        DataSize(bytes.min(u64::MAX as u128) as u64)
    }
    /// The rate that carries `size` in `d`; zero for an empty interval.
    pub fn from_size_per(size: DataSize, d: Duration) -> Self {
        if d.is_zero() {
            return DataRate(0);
        }
        let bps = size.as_bytes() as u128 * 8 * 1_000_000_000 / d.as_nanos() as u128;
        DataRate(bps.min(u64::MAX as u128) as u64)
    }
}

impl DataSize {
    pub const ZERO: DataSize = DataSize(0);
    pub const fn from_bytes(b: u64) -> Self {
        DataSize(b)
    }
    pub const fn as_bytes(self) -> u64 {
        self.0
    }
    pub const fn as_bits(self) -> u64 {
        self.0 * 8
    }
}

impl std::ops::Add for DataSize {
    type Output = DataSize;
    fn add(self, o: DataSize) -> DataSize {
        DataSize(self.0.saturating_add(o.0))
    }
}

/// Why a quantity string was rejected. The message names the input and what was expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid {kind} {input:?}: {reason}")]
pub struct UnitError {
    pub kind: &'static str,
    pub input: String,
    pub reason: String,
}

const RATE_UNITS: &[(&str, u128)] = &[
    ("bps", 1),
    ("bit/s", 1),
    ("kbps", 1_000),
    ("kbit/s", 1_000),
    ("Kbps", 1_000),
    ("Mbps", 1_000_000),
    ("Mbit/s", 1_000_000),
    ("Gbps", 1_000_000_000),
    ("Gbit/s", 1_000_000_000),
];
const TIME_UNITS: &[(&str, u128)] =
    &[("ns", 1), ("us", 1_000), ("µs", 1_000), ("ms", 1_000_000), ("s", 1_000_000_000), ("min", 60_000_000_000)];
const SIZE_UNITS: &[(&str, u128)] = &[
    ("B", 1),
    ("KB", 1_000),
    ("kB", 1_000),
    ("MB", 1_000_000),
    ("GB", 1_000_000_000),
    ("KiB", 1_024),
    ("MiB", 1_048_576),
    ("GiB", 1_073_741_824),
];

fn expected(units: &[(&str, u128)]) -> String {
    let names: Vec<&str> = units.iter().map(|(n, _)| *n).collect();
    names.join(", ")
}

/// Parses `<decimal number><unit>` exactly into a count of base units.
fn parse_quantity(kind: &'static str, input: &str, units: &[(&str, u128)], example: &str) -> Result<u64, UnitError> {
    let err = |reason: String| UnitError { kind, input: input.to_string(), reason };
    let s = input.trim();
    if s.is_empty() {
        return Err(err(format!("empty; expected e.g. {example:?}")));
    }
    if s.starts_with('-') {
        return Err(err("must not be negative".into()));
    }
    let split = s.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(s.len());
    let (number, unit) = (&s[..split], s[split..].trim());
    if number.is_empty() {
        return Err(err(format!("expected a number followed by a unit, e.g. {example:?}")));
    }
    let Some(&(_, factor)) = units.iter().find(|(n, _)| *n == unit) else {
        let reason = if unit.is_empty() {
            format!("missing unit; expected one of {} (e.g. {example:?})", expected(units))
        } else {
            format!("unknown unit {unit:?}; expected one of {} (e.g. {example:?})", expected(units))
        };
        return Err(err(reason));
    };
    let (int_part, frac_part) = match number.split_once('.') {
        Some((i, f)) => (i, f),
        None => (number, ""),
    };
    if frac_part.contains('.') || (int_part.is_empty() && frac_part.is_empty()) {
        return Err(err(format!("{number:?} is not a number")));
    }
    if int_part.len() > 20 || frac_part.len() > 18 {
        return Err(err("too many digits".into()));
    }
    let int: u128 = if int_part.is_empty() { 0 } else { int_part.parse().map_err(|_| err("not a number".into()))? };
    let frac: u128 =
        if frac_part.is_empty() { 0 } else { frac_part.parse().map_err(|_| err("not a number".into()))? };
    let scale = 10u128.pow(frac_part.len() as u32);
    // Round half up to the nearest base unit.
    let value = int * factor + (frac * factor * 2 + scale) / (2 * scale);
    u64::try_from(value).map_err(|_| err("too large".into()))
}

/// `"10Mbps"`, `"1.5 Mbit/s"`, `"128kbps"` → bit/s.
pub fn parse_rate(s: &str) -> Result<DataRate, UnitError> {
    parse_quantity("rate", s, RATE_UNITS, "10Mbps").map(DataRate)
}

/// `"35ms"`, `"0.5s"`, `"200us"` → nanoseconds.
pub fn parse_duration(s: &str) -> Result<Duration, UnitError> {
    parse_quantity("duration", s, TIME_UNITS, "35ms").map(Duration::from_nanos)
}

/// `"1000B"`, `"64KB"` (64 000 bytes), `"64KiB"` (65 536 bytes) → bytes.
pub fn parse_size(s: &str) -> Result<DataSize, UnitError> {
    parse_quantity("size", s, SIZE_UNITS, "1000B").map(DataSize)
}

/// Formats with the largest unit that keeps the value exact, so that `parse(format(x)) == x`.
fn fmt_exact(f: &mut fmt::Formatter<'_>, v: u64, units: &[(&str, u64)]) -> fmt::Result {
    for &(name, factor) in units.iter().rev() {
        if v != 0 && v.is_multiple_of(factor) {
            return write!(f, "{}{}", v / factor, name);
        }
    }
    write!(f, "{}{}", v, units[0].0)
}

pub(crate) fn fmt_duration(f: &mut fmt::Formatter<'_>, ns: u64) -> fmt::Result {
    fmt_exact(f, ns, &[("ns", 1), ("us", 1_000), ("ms", 1_000_000), ("s", 1_000_000_000)])
}

impl fmt::Display for DataRate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt_exact(f, self.0, &[("bps", 1), ("kbps", 1_000), ("Mbps", 1_000_000), ("Gbps", 1_000_000_000)])
    }
}
impl fmt::Display for DataSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt_exact(f, self.0, &[("B", 1), ("KB", 1_000), ("MB", 1_000_000), ("GB", 1_000_000_000)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_forms_people_write() {
        assert_eq!(parse_rate("10Mbps").unwrap().as_bps(), 10_000_000);
        assert_eq!(parse_rate("1.5 Mbit/s").unwrap().as_bps(), 1_500_000);
        assert_eq!(parse_rate("128kbps").unwrap().as_bps(), 128_000);
        assert_eq!(parse_duration("35ms").unwrap().as_nanos(), 35_000_000);
        assert_eq!(parse_duration("0.5s").unwrap().as_nanos(), 500_000_000);
        assert_eq!(parse_duration(".25ms").unwrap().as_nanos(), 250_000);
        assert_eq!(parse_duration("2min").unwrap(), Duration::from_secs(120));
        assert_eq!(parse_size("64KB").unwrap().as_bytes(), 64_000);
        assert_eq!(parse_size("64KiB").unwrap().as_bytes(), 65_536);
        assert_eq!(parse_size("1000B").unwrap().as_bytes(), 1000);
    }

    #[test]
    fn sub_unit_precision_rounds_to_nearest() {
        assert_eq!(parse_duration("1.5ns").unwrap().as_nanos(), 2);
        assert_eq!(parse_duration("1.4ns").unwrap().as_nanos(), 1);
        assert_eq!(parse_size("0.0001KB").unwrap().as_bytes(), 0);
    }

    #[test]
    fn rejections_name_the_problem() {
        let e = parse_rate("10Mbit").unwrap_err();
        assert!(e.to_string().contains("unknown unit \"Mbit\""), "{e}");
        assert!(e.to_string().contains("Mbps"), "{e}");
        assert!(parse_rate("10").unwrap_err().reason.contains("missing unit"));
        assert!(parse_rate("-5Mbps").unwrap_err().reason.contains("negative"));
        assert!(parse_duration("fast").unwrap_err().reason.contains("expected a number"));
        assert!(parse_duration("1.2.3s").is_err());
        assert!(parse_duration("").is_err());
        assert!(parse_size("99999999999999999999GB").unwrap_err().reason.contains("too large"));
        assert!(parse_duration(".s").is_err());
    }

    #[test]
    fn display_round_trips_through_parse() {
        for ns in [0u64, 1, 999, 1_000, 35_000_000, 70_500_000, 200_000_000_000] {
            let d = Duration::from_nanos(ns);
            assert_eq!(parse_duration(&d.to_string()).unwrap(), d, "{d}");
        }
        for bps in [1u64, 128_000, 10_000_000, 1_500_000, 2_000_000_000] {
            let r = DataRate::from_bps(bps);
            assert_eq!(parse_rate(&r.to_string()).unwrap(), r, "{r}");
        }
        for b in [1u64, 1000, 64_000, 1_234_567] {
            let s = DataSize::from_bytes(b);
            assert_eq!(parse_size(&s.to_string()).unwrap(), s, "{s}");
        }
    }

    #[test]
    fn transmission_time_rounds_up() {
        let r = DataRate::from_mbps(10);
        assert_eq!(r.transmission_time(DataSize::from_bytes(1000)).as_nanos(), 800_000);
        let r = DataRate::from_bps(3);
        assert_eq!(r.transmission_time(DataSize::from_bytes(1)).as_nanos(), 2_666_666_667);
        assert_eq!(DataRate::ZERO.transmission_time(DataSize::from_bytes(1)), Duration::MAX);
        // Past 64 bits of bit·ns the 128-bit path gives the same rounding.
        let huge = DataSize::from_bytes(u64::MAX / 1_000);
        let expect = ((u64::MAX / 1_000) as u128 * 8_000_000_000).div_ceil(7);
        assert_eq!(DataRate::from_bps(7).transmission_time(huge).as_nanos() as u128, expect.min(u64::MAX as u128));
        let expect = ((u64::MAX / 1_000) as u128 * 8_000_000_000).div_ceil(u64::MAX as u128);
        assert_eq!(DataRate::from_bps(u64::MAX).transmission_time(huge).as_nanos() as u128, expect);
        // Across the boundary of the 64-bit path, both paths agree with exact arithmetic.
        for bytes in [u64::MAX / 8_000_000_000 - 1, u64::MAX / 8_000_000_000, u64::MAX / 8_000_000_000 + 1] {
            let exact = (bytes as u128 * 8_000_000_000).div_ceil(1_000_003);
            assert_eq!(
                DataRate::from_bps(1_000_003).transmission_time(DataSize::from_bytes(bytes)).as_nanos() as u128,
                exact
            );
        }
        assert_eq!(r.size_in(Duration::from_secs(8)).as_bytes(), 3);
        assert_eq!(DataRate::from_size_per(DataSize::from_bytes(1000), Duration::from_millis(8)).as_bps(), 1_000_000);
    }
}
