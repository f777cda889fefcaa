//! The UDP socket (socket2): bound once, non-blocking, large kernel buffers. Sleeping is
//! `ppoll(2)` with a nanosecond timeout (high-resolution timers: a socket receive timeout,
//! `SO_RCVTIMEO`, would round to the kernel's jiffy of 1–10 ms, far too coarse for pacing at video
//! rates); busy waiting and draining poll the socket without blocking. After a wake-up every
//! datagram already queued is handled in one batch before the endpoint is serviced again.

use std::io;
use std::mem::MaybeUninit;
use std::net::SocketAddr;

use socket2::{Domain, Protocol, SockAddr, Socket as Raw, Type};
use vidcc_core::{Duration, Instant};

use crate::clock::{Clock, SPIN_MARGIN};

/// Largest datagram accepted (anything longer is truncated by the kernel and then rejected).
pub const MAX_DATAGRAM: usize = 65_536;
/// Kernel buffer sizes asked for (the kernel may grant less).
const SOCKET_BUFFER_BYTES: usize = 4 << 20;
/// Datagrams handled per wake-up before the endpoint is serviced again.
pub const BATCH: usize = 64;

pub struct Socket {
    raw: Raw,
    buf: Vec<MaybeUninit<u8>>,
    /// How long before a deadline [`Socket::wait`]'s sleep ends and its busy wait begins.
    spin_margin: std::time::Duration,
}

impl Socket {
    pub fn bind(addr: SocketAddr) -> io::Result<Socket> {
        let raw = Raw::new(Domain::for_address(addr), Type::DGRAM, Some(Protocol::UDP))?;
        // Best effort: a smaller buffer only means earlier drops under a burst.
        let _ = raw.set_recv_buffer_size(SOCKET_BUFFER_BYTES);
        let _ = raw.set_send_buffer_size(SOCKET_BUFFER_BYTES);
        raw.bind(&addr.into())?;
        raw.set_nonblocking(true)?;
        Ok(Socket {
            raw,
            buf: vec![MaybeUninit::new(0); MAX_DATAGRAM],
            spin_margin: std::time::Duration::from_nanos(SPIN_MARGIN.as_nanos()),
        })
    }

    /// Sets how long before a deadline the sleep ends and the busy wait begins (default
    /// [`SPIN_MARGIN`]). A margin above the machine's timer wake-up latency removes the pacing
    /// tail that latency causes, at the CPU cost of the spin (benches/README.md, "timer floor").
    pub fn set_spin_margin(&mut self, margin: Duration) {
        self.spin_margin = std::time::Duration::from_nanos(margin.as_nanos());
    }

    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.raw.local_addr()?.as_socket().ok_or_else(|| io::Error::other("not an IP socket"))
    }

    pub fn send_to(&self, bytes: &[u8], to: SocketAddr) -> io::Result<usize> {
        self.raw.send_to(bytes, &SockAddr::from(to))
    }

    /// The received bytes of the last successful receive.
    fn bytes(&self, n: usize) -> &[u8] {
        // SAFETY: the first `n` bytes were written by the kernel (recv_from returned n), and the
        // buffer was initialised at construction anyway.
        unsafe { std::slice::from_raw_parts(self.buf.as_ptr() as *const u8, n) }
    }

    /// A datagram already queued, without blocking.
    pub fn try_recv(&mut self) -> io::Result<Option<(&[u8], SocketAddr)>> {
        match self.raw.recv_from(&mut self.buf) {
            Ok((n, from)) => Ok(from.as_socket().map(|a| (self.bytes(n.min(MAX_DATAGRAM)), a))),
            Err(e) if would_block(&e) => Ok(None),
            Err(e) if e.kind() == io::ErrorKind::ConnectionRefused => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Waits until `deadline` on `clock` or the first datagram, whichever comes first: asleep in
    /// `ppoll` until the spin margin ([`SPIN_MARGIN`] unless set) before the deadline, then a busy wait.
    pub fn wait(&mut self, clock: &Clock, deadline: Instant) -> io::Result<Option<(&[u8], SocketAddr)>> {
        let sleep = clock.until(deadline).saturating_sub(self.spin_margin);
        if sleep >= std::time::Duration::from_micros(20) {
            self.poll_readable(sleep)?;
        }
        loop {
            // Re-borrow per iteration: the returned slice borrows `self`.
            let got = match self.raw.recv_from(&mut self.buf) {
                Ok((n, from)) => from.as_socket().map(|a| (n, a)),
                Err(e) if would_block(&e) || e.kind() == io::ErrorKind::ConnectionRefused => None,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => None,
                Err(e) => return Err(e),
            };
            if let Some((n, a)) = got {
                return Ok(Some((self.bytes(n.min(MAX_DATAGRAM)), a)));
            }
            if clock.now() >= deadline {
                return Ok(None);
            }
            std::hint::spin_loop();
        }
    }

    /// Sleeps until the socket is readable or `timeout` passes (a signal also wakes it).
    fn poll_readable(&self, timeout: std::time::Duration) -> io::Result<()> {
        use std::os::fd::AsRawFd;
        let mut fd = libc::pollfd { fd: self.raw.as_raw_fd(), events: libc::POLLIN, revents: 0 };
        let ts = libc::timespec { tv_sec: timeout.as_secs() as libc::time_t, tv_nsec: timeout.subsec_nanos() as _ };
        // SAFETY: one valid pollfd for the duration of the call, a valid timespec, no signal mask.
        let r = unsafe { libc::ppoll(&mut fd, 1, &ts, std::ptr::null()) };
        if r < 0 {
            let e = io::Error::last_os_error();
            if e.kind() != io::ErrorKind::Interrupted {
                return Err(e);
            }
        }
        Ok(())
    }
}

/// Batched receives and sends for the relay, through quinn-udp: `recvmmsg(2)` (up to
/// [`RECV_BATCH`] datagrams per system call, and UDP GRO where the kernel coalesces equal-sized
/// datagrams of one sender into one buffer, split again here by their stride), and UDP GSO
/// sends (one `sendmsg` carries a burst of equal-sized datagrams to one destination).
pub struct RecvBatch {
    state: quinn_udp::UdpSocketState,
    bufs: Vec<Vec<u8>>,
    meta: Vec<quinn_udp::RecvMeta>,
    /// Datagrams of the last batch: (buffer, offset, length, sender).
    got: Vec<(usize, usize, usize, SocketAddr)>,
}

/// Datagrams per `recvmmsg` call.
pub const RECV_BATCH: usize = 32;

impl RecvBatch {
    pub fn new(socket: &Socket) -> io::Result<RecvBatch> {
        let state = quinn_udp::UdpSocketState::new((&socket.raw).into())?;
        // A GRO buffer holds up to 64 KB of coalesced datagrams.
        let bufs = (0..RECV_BATCH).map(|_| vec![0u8; MAX_DATAGRAM]).collect();
        Ok(RecvBatch { state, bufs, meta: vec![quinn_udp::RecvMeta::default(); RECV_BATCH], got: Vec::new() })
    }

    /// Receives what is queued (one system call, none waiting); returns how many datagrams.
    pub fn recv(&mut self, socket: &Socket) -> io::Result<usize> {
        self.got.clear();
        let mut slices: Vec<io::IoSliceMut<'_>> = self.bufs.iter_mut().map(|b| io::IoSliceMut::new(b)).collect();
        let n = match self.state.recv((&socket.raw).into(), &mut slices, &mut self.meta) {
            Ok(n) => n,
            Err(e) if would_block(&e) || e.kind() == io::ErrorKind::ConnectionRefused => return Ok(0),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => return Ok(0),
            Err(e) => return Err(e),
        };
        for (i, m) in self.meta.iter().take(n).enumerate() {
            let stride = if m.stride == 0 { m.len } else { m.stride };
            let mut at = 0;
            while at < m.len {
                let len = stride.min(m.len - at);
                self.got.push((i, at, len, m.addr));
                at += len;
            }
        }
        Ok(self.got.len())
    }

    /// Most datagrams one [`RecvBatch::send_segments`] may carry (1 without UDP GSO).
    pub fn max_segments(&self) -> usize {
        self.state.max_gso_segments().max(1)
    }

    /// Sends `contents` to `to` as datagrams of `segment` bytes (the last may be shorter): one
    /// `sendmsg` with UDP GSO where the kernel has it, else one datagram per call.
    pub fn send_segments(&self, socket: &Socket, to: SocketAddr, contents: &[u8], segment: usize) -> io::Result<()> {
        if self.max_segments() == 1 || contents.len() <= segment {
            for chunk in contents.chunks(segment.max(1)) {
                socket.send_to(chunk, to)?;
            }
            return Ok(());
        }
        let t = quinn_udp::Transmit { destination: to, ecn: None, contents, segment_size: Some(segment), src_ip: None };
        self.state.try_send((&socket.raw).into(), &t)
    }

    /// Datagram `k` of the last batch and its sender.
    pub fn get(&self, k: usize) -> (&[u8], SocketAddr) {
        let (i, at, len, addr) = self.got[k];
        (&self.bufs[i][at..at + len], addr)
    }
}

fn would_block(e: &io::Error) -> bool {
    matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut)
}
