//! Links: the `queue_samples` table (queue length and RED average of monitored links, every
//! queue sampling interval) and the `links` table (each direction's parameters and counters).

use vidcc_core::Instant;

use super::{Recorder, RunView};
use crate::metrics::{Column, Table};
use crate::queue::Limit;

#[derive(Default)]
pub struct LinkRecorder {
    t_ns: Vec<u64>,
    link: Vec<u64>,
    packets: Vec<u64>,
    bytes: Vec<u64>,
    average: Vec<f64>,
}

impl Recorder for LinkRecorder {
    fn on_queue_sample(&mut self, now: Instant, run: &RunView<'_>) {
        for &li in run.monitored {
            let l = &run.links[li as usize];
            self.t_ns.push(now.as_nanos());
            self.link.push(li as u64);
            self.packets.push(l.queue.len_packets() as u64);
            self.bytes.push(l.queue.len_bytes());
            self.average.push(l.queue.average().unwrap_or(f64::NAN));
        }
    }

    fn finish(self, run: &RunView<'_>) -> Vec<Table> {
        let queue_samples = Table::new("queue_samples")
            .col("t_ns", Column::U64(self.t_ns))
            .col("link", Column::U64(self.link))
            .col("packets", Column::U64(self.packets))
            .col("bytes", Column::U64(self.bytes))
            .col("average", Column::F64(self.average));
        let specs = &run.net.links;
        let state = run.links;
        let node = |n: u32| run.net.nodes[n as usize].clone();
        let counter = |g: &dyn Fn(&crate::forward::LinkState) -> u64| Column::U64(state.iter().map(g).collect());
        let links = Table::new("links")
            .col("link", Column::U64((0..specs.len() as u64).collect()))
            .col("name", Column::Str(specs.iter().map(|l| l.name.clone()).collect()))
            .col("src", Column::Str(specs.iter().map(|l| node(l.from)).collect()))
            .col("dst", Column::Str(specs.iter().map(|l| node(l.to)).collect()))
            .col("bandwidth_bps", Column::U64(specs.iter().map(|l| l.bandwidth.as_bps()).collect()))
            .col("delay_ns", Column::U64(specs.iter().map(|l| l.delay.as_nanos()).collect()))
            .col("queue_limit_packets", counter(&|l| if let Limit::Packets(n) = l.limit { n } else { 0 }))
            .col("queue_limit_bytes", counter(&|l| if let Limit::Bytes(n) = l.limit { n } else { 0 }))
            .col("monitored", Column::Bool(specs.iter().map(|l| l.monitored).collect()))
            .col("delivered_packets", counter(&|l| l.delivered))
            .col("dropped_queue", counter(&|l| l.dropped_queue))
            .col("dropped_loss", counter(&|l| l.dropped_loss))
            .col("retransmissions", counter(&|l| l.retransmissions));
        vec![queue_samples, links]
    }
}
