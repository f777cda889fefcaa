//! Wire formats: one file per header format, each a validating `parse` and an `emit`, tested
//! against fixed byte vectors. Parsers take bytes from the network: they return [`WireError`]
//! on anything truncated, oversized or inconsistent and never panic.

pub mod asmp;
pub mod dvrc;
pub mod qos_aimd;
pub mod rtcp;
pub mod rtcp_udp;
pub mod rtp;
pub mod ssvp;
pub mod tfrc;
pub mod udp;

/// Why a datagram was rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum WireError {
    #[error("truncated: need {needed} bytes, got {got}")]
    Truncated { needed: usize, got: usize },
    #[error("unknown packet type {0}")]
    UnknownType(u8),
    #[error("unsupported version {0}")]
    BadVersion(u8),
    #[error("inconsistent header: {0}")]
    Inconsistent(&'static str),
    /// Well-formed feedback claiming what cannot be true for this sender
    /// ([`crate::proto::plausible`]).
    #[error("implausible feedback: {0}")]
    Implausible(&'static str),
}

/// Big-endian field readers that report truncation instead of panicking.
pub(crate) struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    pub fn new(buf: &'a [u8]) -> Self {
        Reader { buf, pos: 0 }
    }
    pub fn need(&self, n: usize) -> Result<(), WireError> {
        if self.buf.len() < self.pos + n {
            Err(WireError::Truncated { needed: self.pos + n, got: self.buf.len() })
        } else {
            Ok(())
        }
    }
    pub fn u8(&mut self) -> Result<u8, WireError> {
        self.need(1)?;
        self.pos += 1;
        Ok(self.buf[self.pos - 1])
    }
    pub fn u16(&mut self) -> Result<u16, WireError> {
        Ok(u16::from_be_bytes(self.array()?))
    }
    pub fn u32(&mut self) -> Result<u32, WireError> {
        Ok(u32::from_be_bytes(self.array()?))
    }
    pub fn u64(&mut self) -> Result<u64, WireError> {
        Ok(u64::from_be_bytes(self.array()?))
    }
    /// The next `n` bytes as a slice.
    pub fn bytes(&mut self, n: usize) -> Result<&'a [u8], WireError> {
        self.need(n)?;
        self.pos += n;
        Ok(&self.buf[self.pos - n..self.pos])
    }
    /// Bytes read so far.
    pub fn pos(&self) -> usize {
        self.pos
    }
    fn array<const N: usize>(&mut self) -> Result<[u8; N], WireError> {
        self.need(N)?;
        let mut a = [0u8; N];
        a.copy_from_slice(&self.buf[self.pos..self.pos + N]);
        self.pos += N;
        Ok(a)
    }
}

/// Which packet of a data/feedback header pair ([`PairLayout`]) a datagram holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PairKind {
    Data,
    Feedback,
}

/// The preamble shared by vidcc's rate-control header pairs (TFRC's `wire::tfrc`, TFMCC's
/// `proto::tfmcc::wire`): byte 0 the version, byte 1 the type; a data header is followed by its
/// payload, a feedback packet is the whole datagram.
pub(crate) struct PairLayout {
    pub version: u8,
    pub data_type: u8,
    pub data_bytes: usize,
    pub feedback_type: u8,
    pub feedback_bytes: usize,
}

impl PairLayout {
    /// Checks the version, the type and the length (a data header at least `data_bytes`, a
    /// feedback packet exactly `feedback_bytes`) and returns the kind with a reader after the
    /// type byte, where each format's own fields begin.
    pub fn parse<'a>(&self, buf: &'a [u8]) -> Result<(PairKind, Reader<'a>), WireError> {
        let mut r = Reader::new(buf);
        r.need(4)?;
        let version = r.u8()?;
        if version != self.version {
            return Err(WireError::BadVersion(version));
        }
        let ty = r.u8()?;
        let (kind, len) = match ty {
            t if t == self.data_type => (PairKind::Data, self.data_bytes),
            t if t == self.feedback_type => (PairKind::Feedback, self.feedback_bytes),
            t => return Err(WireError::UnknownType(t)),
        };
        Reader::new(buf).need(len)?;
        if kind == PairKind::Feedback && buf.len() > len {
            return Err(WireError::Inconsistent("feedback packet with trailing bytes"));
        }
        Ok((kind, r))
    }
}

/// Big-endian field writer over a fixed buffer sized by the emitter.
pub(crate) struct Writer<'a> {
    buf: &'a mut [u8],
    pos: usize,
}

impl<'a> Writer<'a> {
    pub fn new(buf: &'a mut [u8]) -> Self {
        Writer { buf, pos: 0 }
    }
    pub fn u8(&mut self, v: u8) -> &mut Self {
        self.put(&[v])
    }
    pub fn u16(&mut self, v: u16) -> &mut Self {
        self.put(&v.to_be_bytes())
    }
    pub fn u32(&mut self, v: u32) -> &mut Self {
        self.put(&v.to_be_bytes())
    }
    pub fn u64(&mut self, v: u64) -> &mut Self {
        self.put(&v.to_be_bytes())
    }
    pub fn bytes(&mut self, b: &[u8]) -> &mut Self {
        self.put(b)
    }
    fn put(&mut self, b: &[u8]) -> &mut Self {
        self.buf[self.pos..self.pos + b.len()].copy_from_slice(b);
        self.pos += b.len();
        self
    }
}
