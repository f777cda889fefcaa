//! The `packets` table (when the scenario's `packet_log` is on): one row per data packet a
//! sender emitted, with its size, send time, arrival time (-1 if none) and fate.

use vidcc_core::Instant;

use super::{Recorder, RunView};
use crate::metrics::{Column, Table};
use crate::packet::{DropReason, Packet, PacketFate, RecordRows};

#[derive(Default)]
pub struct PacketLog {
    flow: Vec<u64>,
    seq: Vec<u64>,
    size_bytes: Vec<u64>,
    sent_ns: Vec<u64>,
    arrival_ns: Vec<i64>,
    fate: Vec<PacketFate>,
}

impl Recorder for PacketLog {
    fn on_data_sent(&mut self, now: Instant, pkt: &Packet, rows: &mut RecordRows) {
        rows.packet_log = Some(self.flow.len() as u32);
        self.flow.push(pkt.flow as u64);
        self.seq.push(pkt.meta.seq);
        self.size_bytes.push(pkt.size as u64);
        self.sent_ns.push(now.as_nanos());
        self.arrival_ns.push(-1);
        self.fate.push(PacketFate::InFlight);
    }

    fn on_data_delivered(&mut self, now: Instant, pkt: &Packet) {
        if let Some(row) = pkt.rows.packet_log {
            self.arrival_ns[row as usize] = now.as_nanos() as i64;
            self.fate[row as usize] = PacketFate::Delivered;
        }
    }

    fn on_data_dropped(&mut self, _now: Instant, pkt: &Packet, why: DropReason) {
        if let Some(row) = pkt.rows.packet_log {
            self.fate[row as usize] = PacketFate::Dropped(why);
        }
    }

    fn finish(self, _run: &RunView<'_>) -> Vec<Table> {
        vec![Table::new("packets")
            .col("flow", Column::U64(self.flow))
            .col("seq", Column::U64(self.seq))
            .col("size_bytes", Column::U64(self.size_bytes))
            .col("sent_ns", Column::U64(self.sent_ns))
            .col("arrival_ns", Column::I64(self.arrival_ns))
            .col("fate", Column::Str(self.fate.iter().map(|f| f.name().to_string()).collect()))]
    }
}
