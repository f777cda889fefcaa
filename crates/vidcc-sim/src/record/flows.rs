//! Per-receiver flow metrics: the `flows`, `flow_summary`, `aggregate` and `flow_samples` tables
//! (definitions in `crate::metrics` and `docs/scenarios.md`).
//!
//! Each receiver of each flow is a row (a unicast flow has one). Counts cover the receiver's
//! measurement window: sends and drops in `[measure_from, measure_to)`, deliveries in
//! `[measure_from, measure_to]`. Samples cover the last sampling interval, whatever the window.

use vidcc_core::estimate::jitter::Rfc3550Jitter;
use vidcc_core::{Duration, Instant};

use super::{ReceiverInfo, Recorder, RunView};
use crate::metrics::{jain, worst_case_fairness, Column, Moments, Table};
use crate::packet::{DropReason, Packet, ReceiverRow, RecordRows};

/// Counters of one receiver.
#[derive(Default)]
struct ReceiverMetrics {
    measure_from: Instant,
    measure_to: Instant,
    // Over the measurement window.
    sent: u64,
    delivered: u64,
    dropped_queue: u64,
    dropped_loss: u64,
    delivered_bytes: u64,
    delay_sum_ns: u128,
    jitter_sum_ns: f64,
    app_bytes_at_start: u64,
    throughput_moments: Moments,
    // Over the current sample interval.
    interval_bytes: u64,
    interval_delivered: u64,
    interval_dropped: u64,
    interval_delay_sum_ns: u128,
    /// The largest one-way delay of a packet delivered in the interval (0: none).
    interval_delay_max_ns: u64,
    last_app_bytes: u64,
    jitter: Rfc3550Jitter,
}

impl ReceiverMetrics {
    fn in_window(&self, now: Instant) -> bool {
        now >= self.measure_from && now < self.measure_to
    }
}

/// Columns of the `flow_samples` table.
#[derive(Default)]
struct SampleColumns {
    t_ns: Vec<u64>,
    flow: Vec<u64>,
    receiver: Vec<u64>,
    throughput_bps: Vec<f64>,
    goodput_bps: Vec<f64>,
    delay_ns: Vec<f64>,
    delay_max_ns: Vec<f64>,
    jitter_ns: Vec<f64>,
    delivered_packets: Vec<u64>,
    dropped_packets: Vec<u64>,
}

pub struct FlowRecorder {
    rows: Vec<ReceiverMetrics>,
    samples: SampleColumns,
}

impl FlowRecorder {
    pub fn new(receivers: &[ReceiverInfo]) -> Self {
        let rows = receivers
            .iter()
            .map(|r| ReceiverMetrics {
                measure_from: r.measure_from,
                measure_to: r.measure_to,
                ..ReceiverMetrics::default()
            })
            .collect();
        FlowRecorder { rows, samples: SampleColumns::default() }
    }
}

/// Mean of the finite values; NaN if there are none.
fn finite_mean(values: impl Iterator<Item = f64>) -> f64 {
    let v: Vec<f64> = values.filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        f64::NAN
    } else {
        v.iter().sum::<f64>() / v.len() as f64
    }
}

fn mean_or_nan(sum: f64, count: u64) -> f64 {
    if count == 0 {
        f64::NAN
    } else {
        sum / count as f64
    }
}

/// The per-receiver results the summary and the aggregate share.
struct Summary {
    throughput: Vec<f64>,
    goodput: Vec<f64>,
    normalized: Vec<f64>,
    cov: Vec<f64>,
}

impl Recorder for FlowRecorder {
    fn on_data_sent(&mut self, now: Instant, pkt: &Packet, _rows: &mut RecordRows) {
        let m = &mut self.rows[pkt.receiver as usize];
        if m.in_window(now) {
            m.sent += 1;
        }
    }

    fn on_data_delivered(&mut self, now: Instant, pkt: &Packet) {
        let m = &mut self.rows[pkt.receiver as usize];
        let delay = now.saturating_since(pkt.sent_at).as_nanos();
        m.jitter.on_packet(pkt.sent_at, now);
        m.interval_bytes += pkt.size as u64;
        m.interval_delivered += 1;
        m.interval_delay_sum_ns += delay as u128;
        m.interval_delay_max_ns = m.interval_delay_max_ns.max(delay);
        if now >= m.measure_from && now <= m.measure_to {
            m.delivered += 1;
            m.delivered_bytes += pkt.size as u64;
            m.delay_sum_ns += delay as u128;
            m.jitter_sum_ns += m.jitter.jitter().as_nanos() as f64;
        }
    }

    fn on_data_dropped(&mut self, now: Instant, pkt: &Packet, why: DropReason) {
        let m = &mut self.rows[pkt.receiver as usize];
        m.interval_dropped += 1;
        if m.in_window(now) {
            match why {
                DropReason::Queue => m.dropped_queue += 1,
                DropReason::Loss => m.dropped_loss += 1,
            }
        }
    }

    fn on_measure_start(&mut self, receiver: ReceiverRow, run: &RunView<'_>) {
        self.rows[receiver as usize].app_bytes_at_start = (run.app_bytes)(receiver);
    }

    fn on_flow_sample(&mut self, now: Instant, interval: Duration, run: &RunView<'_>) {
        let secs = interval.as_secs_f64();
        for (row, m) in self.rows.iter_mut().enumerate() {
            let info = &run.receivers[row];
            let app = (run.app_bytes)(row as ReceiverRow);
            let throughput = m.interval_bytes as f64 * 8.0 / secs;
            let c = &mut self.samples;
            c.t_ns.push(now.as_nanos());
            c.flow.push(info.flow as u64);
            c.receiver.push(info.index as u64);
            c.throughput_bps.push(throughput);
            c.goodput_bps.push(app.saturating_sub(m.last_app_bytes) as f64 * 8.0 / secs);
            c.delay_ns.push(mean_or_nan(m.interval_delay_sum_ns as f64, m.interval_delivered));
            c.delay_max_ns.push(if m.interval_delivered == 0 { f64::NAN } else { m.interval_delay_max_ns as f64 });
            c.jitter_ns.push(m.jitter.jitter().as_nanos() as f64);
            c.delivered_packets.push(m.interval_delivered);
            c.dropped_packets.push(m.interval_dropped);
            if now.saturating_since(m.measure_from) >= interval && now <= m.measure_to {
                m.throughput_moments.push(throughput);
            }
            m.last_app_bytes = app;
            m.interval_bytes = 0;
            m.interval_delivered = 0;
            m.interval_dropped = 0;
            m.interval_delay_sum_ns = 0;
            m.interval_delay_max_ns = 0;
        }
    }

    fn finish(self, run: &RunView<'_>) -> Vec<Table> {
        let summary = self.summarize(run);
        let tables =
            vec![self.flows_table(run), self.summary_table(run, &summary), self.aggregate_table(run, &summary)];
        let c = self.samples;
        let flow_samples = Table::new("flow_samples")
            .col("t_ns", Column::U64(c.t_ns))
            .col("flow", Column::U64(c.flow))
            .col("receiver", Column::U64(c.receiver))
            .col("throughput_bps", Column::F64(c.throughput_bps))
            .col("goodput_bps", Column::F64(c.goodput_bps))
            .col("delay_ns", Column::F64(c.delay_ns))
            .col("delay_max_ns", Column::F64(c.delay_max_ns))
            .col("jitter_ns", Column::F64(c.jitter_ns))
            .col("delivered_packets", Column::U64(c.delivered_packets))
            .col("dropped_packets", Column::U64(c.dropped_packets));
        tables.into_iter().chain([flow_samples]).collect()
    }
}

impl FlowRecorder {
    fn summarize(&self, run: &RunView<'_>) -> Summary {
        let n = self.rows.len();
        let mut s = Summary {
            throughput: Vec::with_capacity(n),
            goodput: Vec::with_capacity(n),
            normalized: Vec::with_capacity(n),
            cov: Vec::with_capacity(n),
        };
        for (row, m) in self.rows.iter().enumerate() {
            let window = m.measure_to.saturating_since(m.measure_from).as_secs_f64();
            let app = (run.app_bytes)(row as ReceiverRow);
            let t = if window > 0.0 { m.delivered_bytes as f64 * 8.0 / window } else { f64::NAN };
            s.throughput.push(t);
            s.goodput.push(if window > 0.0 {
                app.saturating_sub(m.app_bytes_at_start) as f64 * 8.0 / window
            } else {
                f64::NAN
            });
            s.normalized.push(t / run.receivers[row].fair_share_bps);
            s.cov.push(m.throughput_moments.cov());
        }
        s
    }

    fn flows_table(&self, run: &RunView<'_>) -> Table {
        let rx = run.receivers;
        let instance = |r: &super::ReceiverInfo| &run.net.flows[r.flow as usize];
        let scenario_flow = |r: &super::ReceiverInfo| &run.config.flows[instance(r).group as usize];
        let node = |n: u32| run.net.nodes[n as usize].clone();
        Table::new("flows")
            .col("flow", Column::U64(rx.iter().map(|r| r.flow as u64).collect()))
            .col("receiver", Column::U64(rx.iter().map(|r| r.index as u64).collect()))
            .col("group", Column::U64(rx.iter().map(|r| instance(r).group as u64).collect()))
            .col("instance", Column::U64(rx.iter().map(|r| instance(r).instance as u64).collect()))
            .col("label", Column::Str(rx.iter().map(|r| scenario_flow(r).label.clone()).collect()))
            .col("protocol", Column::Str(rx.iter().map(|r| scenario_flow(r).protocol.name().to_string()).collect()))
            .col("src", Column::Str(rx.iter().map(|r| node(run.senders[r.flow as usize])).collect()))
            .col("dst", Column::Str(rx.iter().map(|r| node(r.node)).collect()))
            .col("start_ns", Column::U64(rx.iter().map(|r| instance(r).start.as_nanos()).collect()))
            .col("fair_share_bps", Column::F64(rx.iter().map(|r| r.fair_share_bps).collect()))
            .col("path_rtt_ns", Column::U64(rx.iter().map(|r| r.path_rtt.as_nanos()).collect()))
            // A receiver of a multicast flow (its aggregate row is `<label>/flow<flow>`).
            .col("multicast", Column::Bool(rx.iter().map(|r| instance(r).multicast).collect()))
    }

    fn summary_table(&self, run: &RunView<'_>, s: &Summary) -> Table {
        let rows = &self.rows;
        let count = |g: &dyn Fn(&ReceiverMetrics) -> u64| Column::U64(rows.iter().map(g).collect());
        let drop_rate = rows
            .iter()
            .map(|m| if m.sent == 0 { f64::NAN } else { (m.dropped_queue + m.dropped_loss) as f64 / m.sent as f64 })
            .collect();
        Table::new("flow_summary")
            .col("flow", Column::U64(run.receivers.iter().map(|r| r.flow as u64).collect()))
            .col("receiver", Column::U64(run.receivers.iter().map(|r| r.index as u64).collect()))
            .col("sent_packets", count(&|m| m.sent))
            .col("delivered_packets", count(&|m| m.delivered))
            .col("dropped_queue", count(&|m| m.dropped_queue))
            .col("dropped_loss", count(&|m| m.dropped_loss))
            .col("delivered_bytes", count(&|m| m.delivered_bytes))
            .col("throughput_bps", Column::F64(s.throughput.clone()))
            .col("goodput_bps", Column::F64(s.goodput.clone()))
            .col("cov", Column::F64(s.cov.clone()))
            .col(
                "mean_delay_ns",
                Column::F64(rows.iter().map(|m| mean_or_nan(m.delay_sum_ns as f64, m.delivered)).collect()),
            )
            .col("jitter_ns", Column::F64(rows.iter().map(|m| mean_or_nan(m.jitter_sum_ns, m.delivered)).collect()))
            .col("drop_rate", Column::F64(drop_rate))
            .col("normalized_throughput", Column::F64(s.normalized.clone()))
    }

    /// Aggregates: all receivers, then each label in order of first appearance, then each
    /// multicast flow instance's receivers (its group of receivers), labelled `<label>/flow<k>`.
    fn aggregate_table(&self, run: &RunView<'_>, s: &Summary) -> Table {
        let label_of = |row: usize| {
            let group = run.net.flows[run.receivers[row].flow as usize].group;
            &run.config.flows[group as usize].label
        };
        let n = self.rows.len();
        let mut groups: Vec<(String, Vec<usize>)> = vec![("all".into(), (0..n).collect())];
        for row in 0..n {
            let l = label_of(row);
            match groups[1..].iter_mut().find(|(g, _)| g == l) {
                Some((_, v)) => v.push(row),
                None => groups.push((l.clone(), vec![row])),
            }
        }
        for row in 0..n {
            let flow = run.receivers[row].flow;
            if !run.net.flows[flow as usize].multicast {
                continue;
            }
            let name = format!("{}/flow{flow}", label_of(row));
            match groups.last_mut() {
                Some((g, v)) if *g == name => v.push(row),
                _ => groups.push((name, vec![row])),
            }
        }
        let mut label = Vec::new();
        let mut flows = Vec::new();
        let mut throughput_sum = Vec::new();
        let mut throughput_mean = Vec::new();
        let mut goodput_sum = Vec::new();
        let mut jain_index = Vec::new();
        let mut worst_case = Vec::new();
        let mut normalized_mean = Vec::new();
        let mut drop_rate = Vec::new();
        let mut cov_mean = Vec::new();
        for (name, members) in &groups {
            let x: Vec<f64> = members.iter().map(|&k| s.throughput[k]).filter(|v| v.is_finite()).collect();
            let sent: u64 = members.iter().map(|&k| self.rows[k].sent).sum();
            let dropped: u64 = members.iter().map(|&k| self.rows[k].dropped_queue + self.rows[k].dropped_loss).sum();
            label.push(name.clone());
            flows.push(members.len() as u64);
            throughput_sum.push(x.iter().sum::<f64>());
            throughput_mean.push(finite_mean(x.iter().copied()));
            goodput_sum.push(members.iter().map(|&k| s.goodput[k]).filter(|v| v.is_finite()).sum::<f64>());
            jain_index.push(jain(&x));
            worst_case.push(worst_case_fairness(&x));
            normalized_mean.push(finite_mean(members.iter().map(|&k| s.normalized[k])));
            drop_rate.push(if sent == 0 { f64::NAN } else { dropped as f64 / sent as f64 });
            cov_mean.push(finite_mean(members.iter().map(|&k| s.cov[k])));
        }
        Table::new("aggregate")
            .col("label", Column::Str(label))
            .col("flows", Column::U64(flows))
            .col("throughput_bps_sum", Column::F64(throughput_sum))
            .col("throughput_bps_mean", Column::F64(throughput_mean))
            .col("goodput_bps_sum", Column::F64(goodput_sum))
            .col("jain", Column::F64(jain_index))
            .col("worst_case_fairness", Column::F64(worst_case))
            .col("normalized_throughput_mean", Column::F64(normalized_mean))
            .col("drop_rate", Column::F64(drop_rate))
            .col("cov_mean", Column::F64(cov_mean))
    }
}
