//! `udp-multicast`: unresponsive multicast, the one-to-many counterpart of `udp-cbr` and `udp`.
//!
//! Not from a paper: a background source and the simplest user of the simulator's multicast
//! groups (docs/protocols/udp-multicast.md). The sender transmits to its groups whatever the
//! network does:
//! - bulk: `groups` constant-rate streams of `rate` each, stream g to group g (packet n of a
//!   stream leaves at `start + n·packet_size/rate`, as `udp-cbr`);
//! - video: every part of every frame when the frame is ready, layer (or simulcast stream) l to
//!   group l, as `udp` sends its layers.
//!
//! Each receiver joins its groups (its `groups` in the scenario, or every group) at its start
//! and leaves them at its stop; it counts what arrives and sends nothing back.
//!
//! Parameters: `rate` (bulk, per group, default 1 Mbit/s), `groups` (bulk, default 1).
//! Deviations: none.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use super::udp::{UdpConfig, UdpReceiver, UdpSender};
use crate::endpoint::{
    Datagram, Destination, Endpoint, EndpointStats, FlowEndpoints, GroupId, Membership, PacketMeta, Transmit,
};
use crate::media::stream::{FrameFeeder, PartSelection};
use crate::media::MediaTag;
use crate::proto::registry::{FlowContext, ReceiverSpec};
use crate::proto::Application;
use crate::time::Instant;
use crate::units::{DataRate, DataSize};
use crate::wire::{udp::UdpData, udp::HEADER_BYTES, WireError};

/// `udp-multicast`: the resolved configuration.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct UdpMulticastConfig {
    /// Rate of each group's constant-rate stream (bulk data; ignored with video). Default 1 Mbit/s.
    pub rate_bps: u64,
    /// How many constant-rate groups (bulk data; with video there is a group per layer or
    /// stream).
    pub groups: u32,
}

impl Default for UdpMulticastConfig {
    fn default() -> Self {
        UdpMulticastConfig { rate_bps: 1_000_000, groups: 1 }
    }
}

/// Constant-rate streams, one per group, each on its own exact schedule.
pub struct CbrGroupsSender {
    streams: Vec<UdpSender>,
    seq: u64,
}

impl Endpoint for CbrGroupsSender {
    fn handle_datagram(&mut self, _now: Instant, _d: Datagram<'_>) -> Result<(), WireError> {
        Ok(())
    }
    fn handle_timeout(&mut self, _now: Instant) {}
    fn poll_transmit(&mut self, now: Instant) -> Option<Transmit> {
        // Due packets of every group leave at once, lower groups first at equal instants.
        for (g, s) in self.streams.iter_mut().enumerate() {
            if let Some(mut t) = s.poll_transmit(now) {
                t.to = Destination::Group(GroupId(g as u32));
                // One sequence over the flow, so that per-packet logs tell packets apart.
                t.meta.seq = self.seq;
                self.seq += 1;
                return Some(t);
            }
        }
        None
    }
    fn poll_timeout(&self) -> Option<Instant> {
        self.streams.iter().filter_map(|s| s.poll_timeout()).min()
    }
    fn stats(&self) -> EndpointStats {
        EndpointStats::default()
    }
}

/// Every part of every frame, part l to group l.
pub struct VideoGroupsSender {
    feeder: FrameFeeder,
    queue: VecDeque<(u32, MediaTag)>,
    seq: u32,
}

impl VideoGroupsSender {
    fn produce(&mut self, now: Instant) {
        let queue = &mut self.queue;
        self.feeder.produce(now, |_| PartSelection::All, |_, len, tag| queue.push_back((len, tag)));
    }
}

impl Endpoint for VideoGroupsSender {
    fn handle_datagram(&mut self, _now: Instant, _d: Datagram<'_>) -> Result<(), WireError> {
        Ok(())
    }
    fn handle_timeout(&mut self, now: Instant) {
        self.produce(now);
    }
    fn poll_transmit(&mut self, now: Instant) -> Option<Transmit> {
        self.produce(now);
        let (payload_len, tag) = self.queue.pop_front()?;
        let header = UdpData { seq: self.seq, send_time_ns: now.as_nanos() }.emit();
        let meta = PacketMeta { media: tag, ..PacketMeta::data(self.seq as u64) };
        self.seq = self.seq.wrapping_add(1);
        Some(Transmit { to: Destination::Group(GroupId(tag.layer as u32)), header, payload_len, meta })
    }
    fn poll_timeout(&self) -> Option<Instant> {
        if !self.queue.is_empty() {
            return None;
        }
        self.feeder.next_ready()
    }
    fn enable_media_reports(&mut self) {
        self.feeder.enable_media_reports();
    }
    fn poll_media(&mut self) -> Option<crate::media::report::MediaReport> {
        self.feeder.poll_media()
    }
    fn stats(&self) -> EndpointStats {
        EndpointStats::default()
    }
}

/// Joins its groups at `start`, leaves them at `stop`, counts what arrives in between.
pub struct GroupReceiver {
    inner: UdpReceiver,
    groups: Vec<GroupId>,
    start: Instant,
    stop: Option<Instant>,
    joined: bool,
    left: bool,
    pending: VecDeque<Membership>,
}

impl GroupReceiver {
    pub fn new(spec: &ReceiverSpec, groups: Vec<GroupId>) -> Self {
        GroupReceiver {
            inner: UdpReceiver::new(),
            groups,
            start: spec.start,
            stop: spec.stop,
            joined: false,
            left: false,
            pending: VecDeque::new(),
        }
    }
}

impl Endpoint for GroupReceiver {
    fn handle_datagram(&mut self, now: Instant, d: Datagram<'_>) -> Result<(), WireError> {
        self.inner.handle_datagram(now, d)
    }
    fn handle_timeout(&mut self, now: Instant) {
        if !self.joined && now >= self.start {
            self.joined = true;
            self.pending.extend(self.groups.iter().map(|&g| Membership::Join(g)));
        }
        if self.joined && !self.left && self.stop.is_some_and(|s| now >= s) {
            self.left = true;
            self.pending.extend(self.groups.iter().map(|&g| Membership::Leave(g)));
        }
    }
    fn poll_transmit(&mut self, _now: Instant) -> Option<Transmit> {
        None
    }
    fn poll_timeout(&self) -> Option<Instant> {
        if !self.joined {
            Some(self.start)
        } else if !self.left {
            self.stop
        } else {
            None
        }
    }
    fn poll_membership(&mut self) -> Option<Membership> {
        self.pending.pop_front()
    }
    fn stats(&self) -> EndpointStats {
        self.inner.stats()
    }
}

/// The registry's constructor of `udp-multicast`.
pub fn build(config: &UdpMulticastConfig, ctx: FlowContext<'_>) -> Result<FlowEndpoints, String> {
    if (ctx.packet_size.as_bytes() as usize) <= HEADER_BYTES {
        return Err(format!("packet_size must exceed the {HEADER_BYTES}-byte header"));
    }
    let (sender, groups): (Box<dyn Endpoint + Send>, u32) = match ctx.app {
        Application::Video(stream) => {
            let parts = stream.parts() as u32;
            let max_payload = (ctx.packet_size.as_bytes() as usize - HEADER_BYTES) as u32;
            let feeder = FrameFeeder::new(stream, max_payload, ctx.stop)?;
            (Box::new(VideoGroupsSender { feeder, queue: VecDeque::new(), seq: 0 }), parts)
        }
        Application::Bulk => {
            if config.groups == 0 {
                return Err("groups must be at least 1".into());
            }
            if config.rate_bps == 0 {
                return Err("rate must be positive (the rate of each group)".into());
            }
            let stream = UdpConfig {
                rate: DataRate::from_bps(config.rate_bps),
                packet_size: DataSize::from_bytes(ctx.packet_size.as_bytes()),
                start: ctx.start,
                stop: ctx.stop,
            };
            let streams = (0..config.groups).map(|_| UdpSender::new(stream.clone())).collect();
            (Box::new(CbrGroupsSender { streams, seq: 0 }), config.groups)
        }
    };
    let mut receivers: Vec<Box<dyn Endpoint + Send>> = Vec::with_capacity(ctx.members.len());
    for (i, spec) in ctx.members.iter().enumerate() {
        if let Some(g) = spec.groups.iter().find(|g| g.0 >= groups) {
            return Err(format!("receiver {i} subscribes to group {}, but the sender has {groups} groups", g.0));
        }
        let mine = if spec.groups.is_empty() { (0..groups).map(GroupId).collect() } else { spec.groups.clone() };
        receivers.push(Box::new(GroupReceiver::new(spec, mine)));
    }
    Ok(FlowEndpoints { sender, receivers })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::Duration;

    fn ctx<'a>(members: &'a [ReceiverSpec], rng: &'a dyn Fn(&str) -> crate::rng::SimRng) -> FlowContext<'a> {
        FlowContext {
            app: Application::Bulk,
            packet_size: DataSize::from_bytes(1000),
            start: Instant::ZERO,
            stop: None,
            receivers: members.len() as u32,
            members,
            rng,
        }
    }

    #[test]
    fn each_group_gets_its_own_constant_rate_stream() {
        let members = [ReceiverSpec::default()];
        let rng = |n: &str| crate::rng::RngStreams::new(1).stream(n);
        let cfg = UdpMulticastConfig { rate_bps: 800_000, groups: 2 };
        let mut f = build(&cfg, ctx(&members, &rng)).expect("builds");
        // 1000 B at 800 kbit/s: one packet per group every 10 ms.
        let mut to = Vec::new();
        for ms in 0..30 {
            let now = Instant::ZERO + Duration::from_millis(ms);
            while let Some(t) = f.sender.poll_transmit(now) {
                to.push((ms, t.to, t.meta.seq));
            }
        }
        let g = |n| Destination::Group(GroupId(n));
        assert_eq!(to, [(0, g(0), 0), (0, g(1), 1), (10, g(0), 2), (10, g(1), 3), (20, g(0), 4), (20, g(1), 5)]);
    }

    #[test]
    fn receivers_join_their_groups_at_start_and_leave_at_stop() {
        let at = |ms| Instant::ZERO + Duration::from_millis(ms);
        let members = [
            ReceiverSpec { start: at(5), stop: Some(at(50)), groups: vec![GroupId(1)] },
            ReceiverSpec { start: at(0), stop: None, groups: vec![] },
        ];
        let rng = |n: &str| crate::rng::RngStreams::new(1).stream(n);
        let mut f = build(&UdpMulticastConfig { rate_bps: 1, groups: 3 }, ctx(&members, &rng)).expect("builds");
        let r = &mut f.receivers[0];
        assert_eq!(r.poll_timeout(), Some(at(5)));
        r.handle_timeout(at(5));
        assert_eq!(r.poll_membership(), Some(Membership::Join(GroupId(1))));
        assert_eq!(r.poll_membership(), None);
        assert_eq!(r.poll_timeout(), Some(at(50)));
        r.handle_timeout(at(50));
        assert_eq!(r.poll_membership(), Some(Membership::Leave(GroupId(1))));
        assert_eq!(r.poll_timeout(), None);
        let r = &mut f.receivers[1];
        r.handle_timeout(at(0));
        let joins: Vec<_> = std::iter::from_fn(|| r.poll_membership()).collect();
        assert_eq!(joins, [0, 1, 2].map(|g| Membership::Join(GroupId(g))));
    }

    #[test]
    fn a_subscription_to_a_group_the_sender_lacks_is_refused() {
        let members = [ReceiverSpec { groups: vec![GroupId(2)], ..ReceiverSpec::default() }];
        let rng = |n: &str| crate::rng::RngStreams::new(1).stream(n);
        let err = build(&UdpMulticastConfig { rate_bps: 1000, groups: 2 }, ctx(&members, &rng)).err().expect("refused");
        assert!(err.contains("receiver 0") && err.contains("group 2"), "{err}");
    }
}
