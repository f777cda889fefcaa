//! The UDP socket (socket2): bound once, non-blocking, large kernel buffers. Sleeping is
//! `ppoll(2)` with a nanosecond timeout (high-resolution timers: a socket receive timeout,
//! `SO_RCVTIMEO`, would round to the kernel's jiffy of 1–10 ms, far too coarse for pacing at video
//! rates); busy waiting and draining poll the socket without blocking. After a wake-up every
//! datagram already queued is handled in one batch before the endpoint is serviced again.

use std::io;
use std::mem::MaybeUninit;
use std::net::SocketAddr;

use socket2::{Domain, Protocol, SockAddr, Socket as Raw, Type};
use vidcc_core::Instant;

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
}

impl Socket {
    pub fn bind(addr: SocketAddr) -> io::Result<Socket> {
        let raw = Raw::new(Domain::for_address(addr), Type::DGRAM, Some(Protocol::UDP))?;
        // Best effort: a smaller buffer only means earlier drops under a burst.
        let _ = raw.set_recv_buffer_size(SOCKET_BUFFER_BYTES);
        let _ = raw.set_send_buffer_size(SOCKET_BUFFER_BYTES);
        raw.bind(&addr.into())?;
        raw.set_nonblocking(true)?;
        Ok(Socket { raw, buf: vec![MaybeUninit::new(0); MAX_DATAGRAM] })
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
    /// `ppoll` until [`SPIN_MARGIN`] before the deadline, then a busy wait.
    pub fn wait(&mut self, clock: &Clock, deadline: Instant) -> io::Result<Option<(&[u8], SocketAddr)>> {
        let sleep = clock.until(deadline).saturating_sub(std::time::Duration::from_nanos(SPIN_MARGIN.as_nanos()));
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

fn would_block(e: &io::Error) -> bool {
    matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut)
}
