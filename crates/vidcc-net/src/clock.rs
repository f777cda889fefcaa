//! The wall clock and precise waiting: the only place in vidcc that reads real time.
//!
//! [`Clock`] maps the monotonic clock to vidcc's integer [`Instant`] (ns since the clock's
//! origin, the start of a session) and keeps the Unix time of that origin, so that send times
//! written into datagrams (Unix ns) can be put on a receiver's own timeline.
//!
//! Waiting for a deadline is done in two phases ([`Socket::wait`](crate::socket::Socket::wait)):
//! a blocking receive with a timeout that ends [`SPIN_MARGIN`] before the deadline (the thread
//! sleeps, and wakes at once if a datagram arrives), then a busy wait that polls the socket
//! without blocking until the deadline. The margin covers the kernel's wake-up latency, which
//! [`tighten_timer_slack`] reduces from its 50 µs default.

use std::time::{SystemTime, UNIX_EPOCH};

use vidcc_core::{Duration, Instant};

/// How long before a deadline the blocking sleep ends and the busy wait begins.
pub const SPIN_MARGIN: Duration = Duration::from_micros(40);

#[derive(Clone, Copy, Debug)]
pub struct Clock {
    origin: std::time::Instant,
    origin_unix_ns: u64,
}

impl Default for Clock {
    fn default() -> Self {
        Clock::new()
    }
}

impl Clock {
    /// A clock whose `Instant::ZERO` is now.
    ///
    /// The monotonic and the Unix clock cannot be read at once: a thread preempted between the
    /// two reads (milliseconds on a loaded machine) would put the Unix origin that late, and
    /// every one-way delay measured across two clocks would be off by as much (measured: 4 ms
    /// too short, below the link's propagation delay). So the Unix time is read between two
    /// monotonic reads, a few times, and the tightest bracket's midpoint is the origin.
    pub fn new() -> Self {
        let mut best: Option<(std::time::Duration, std::time::Instant, u64)> = None;
        for _ in 0..8 {
            let before = std::time::Instant::now();
            let unix = unix_now_ns();
            let after = std::time::Instant::now();
            let width = after - before;
            if best.is_none_or(|(w, _, _)| width < w) {
                best = Some((width, before + width / 2, unix));
            }
            if width < std::time::Duration::from_micros(2) {
                break;
            }
        }
        let (_, origin, origin_unix_ns) = best.expect("at least one reading");
        Clock { origin, origin_unix_ns }
    }

    pub fn now(&self) -> Instant {
        Instant::from_nanos(self.origin.elapsed().as_nanos() as u64)
    }

    /// The Unix time (ns) of `t` on this clock.
    pub fn to_unix_ns(&self, t: Instant) -> u64 {
        self.origin_unix_ns.saturating_add(t.as_nanos())
    }

    /// The instant of a Unix time (ns) on this clock (zero if before the origin).
    pub fn from_unix_ns(&self, unix_ns: u64) -> Instant {
        Instant::from_nanos(unix_ns.saturating_sub(self.origin_unix_ns))
    }

    /// `std` duration from now until `t` (zero if past).
    pub fn until(&self, t: Instant) -> std::time::Duration {
        std::time::Duration::from_nanos(t.saturating_since(self.now()).as_nanos())
    }
}

pub fn unix_now_ns() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
}

/// Asks the kernel to wake this thread within 1 µs of its timers instead of the default 50 µs
/// (Linux `PR_SET_TIMERSLACK`); elsewhere a no-op. Pacing then needs a shorter busy wait.
pub fn tighten_timer_slack() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl(PR_SET_TIMERSLACK, n) only changes this thread's timer slack.
    unsafe {
        libc::prctl(libc::PR_SET_TIMERSLACK, 1000 as libc::c_ulong, 0, 0, 0);
    }
}

/// Opt-in real-time scheduling for the calling thread (Linux `SCHED_FIFO` at `priority`, 1–99),
/// where permitted (root or `CAP_SYS_NICE`, or an `RLIMIT_RTPRIO`). Why: on a busy machine the
/// pacing tail is the time a woken thread waits for a CPU behind other runnable tasks, not the
/// loop's own work (measured by `make bench` at load 7.6: p99 9.5 ms under the default policy,
/// 61 µs under `SCHED_FIFO`); a real-time thread preempts them. What is left (p99 61–170 µs
/// in three runs) is the timer wake-up itself and `sendto`. The loop sleeps between
/// departures (the busy wait is only `SPIN_MARGIN`), so it does not monopolise a core.
pub fn request_realtime(priority: i32) -> Result<(), String> {
    #[cfg(target_os = "linux")]
    {
        let param = libc::sched_param { sched_priority: priority };
        // SAFETY: sched_setscheduler(0, ..) changes only the calling thread's policy; `param`
        // outlives the call.
        let r = unsafe { libc::sched_setscheduler(0, libc::SCHED_FIFO, &param) };
        if r == 0 {
            Ok(())
        } else {
            Err(format!("SCHED_FIFO {priority}: {}", std::io::Error::last_os_error()))
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = priority;
        Err("real-time scheduling is only implemented on Linux".into())
    }
}
