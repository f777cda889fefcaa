"""`flow_samples.delay_max_ns`: the largest one-way delay of the packets delivered in each sample
interval, checked against the packet log of the same run (one row per packet)."""

import numpy as np

import vidcc
from vidcc import parse_scenario

# A 3 Mbit/s CBR flow into a 2 Mbit/s bottleneck with a 50-packet queue: the queue fills within
# the first interval and the delay rises inside each interval until it stays at the full queue.
DOC = """
[scenario]
duration = "3s"
sample_interval = "500ms"
packet_log = true

[topology]
kind = "dumbbell"
bottleneck = { bandwidth = "2Mbps", delay = "10ms", queue = { kind = "droptail", limit = 50 } }
access = { bandwidth = "100Mbps", delay = "1ms" }

[[flows]]
protocol = "udp-cbr"
rate = "3Mbps"
packet_size = "1000B"
"""


def test_delay_max_is_the_largest_delay_of_the_intervals_packets():
    r = vidcc.run(parse_scenario(DOC))
    s = r.flow_samples.sort_values("t_ns")
    p = r.packets[r.packets["fate"] == "delivered"]
    delay = p["arrival_ns"] - p["sent_ns"]
    interval = 500_000_000
    # A sample at t covers the arrivals in (t - interval, t].
    expected = delay.groupby(-(-p["arrival_ns"] // interval) * interval).max()
    got = s.set_index("t_ns")["delay_max_ns"].dropna()
    common = expected.index.intersection(got.index)
    assert len(common) >= 4
    assert np.array_equal(got.loc[common].to_numpy(), expected.loc[common].to_numpy().astype(float))
    # The mean is below the maximum while the queue grows (the first interval) and never above it.
    assert (s["delay_ns"] <= s["delay_max_ns"]).all()
    assert s["delay_ns"].iloc[0] < s["delay_max_ns"].iloc[0]
