"""The SSVP suite's scenarios: topologies, flows and scale constants of every figure
(Papadimitriou & Tsaoussidis, Computer Networks, 2007; scenarios D1–D4 and X1–X3 of
docs/papers/ssvp.md §3). Where each value comes from is the set-up table (``setup.py``).

Reconstruction notes (the SSVP paper page tags [P]/[I]/[U]; ours are marked "suite"):

* Dumbbell (Fig. 6a): 1 Mbit/s bottleneck, 20 ms one way, access 10 Mbit/s / 1 ms (RTT 44 ms)
  [P/U]; drop-tail buffer = BDP = 6 packets [I]. 60 s runs, 2 s warm-up [P] (quick: 30 s);
  10 seeds (quick: 2) [U].
* Cross-traffic topology (Fig. 6b): the graph R1–R2–R3 shared with the DVRC suite
  (papers/cross_traffic.py): R1–R2 5 Mbit/s, R2–R3 10 Mbit/s, 10 ms (suite), so that R1 is the
  MPEG flows' bottleneck and R2 the one they share with the 10 FTP flows (R2→R3), as the DVRC
  paper (§4.1) says of the same figure; drop-tail queues of one bandwidth-delay product [P]
  (R2's queue is measured). Every flow has its own access links [P]: U[5, 15] ms, U[2, 10]
  Mbit/s [P ranges, U uniform]; MPEG sinks 2 Mbit/s with 1 % Bernoulli packet errors, data
  direction [P/U]; start times U[0, 1] s [U].
* MPEG flows carry the TES MPEG-4 video at 380 kbit/s mean [U] (GOP IBBPBBPBBPBB, 25 fps);
  plain UDP sends it as it comes; TFRC runs with ns-2 2.35's Agent/TFRC defaults (the paper
  leaves them to its tool; ``vidcc.protocols.tfrc.NS2_AGENT``); TCPW+ carries it through the
  ``video-over-tcp`` feature (an unbounded send buffer, frames dated by in-order delivery,
  docs/protocols/tcp.md). SSVP-LA has n = 4 equal layers of 95 kbit/s [U] (reading
  ``layers-at-capacity``: 250 kbit/s each, for Fig. 14).
* TCP Reno FTP, 1000 B, 64 kB window [P] (scenario default), ns-2 2.35's Agent/TCP otherwise
  (papers/ns2.py): initial RTO 3 s, min RTO 0.2 s, IW 2, no delayed ACK, no send jitter
  (overhead_ 0), limited transmit (singledup_ 1, vidcc's default too: docs/protocols/tcp.md).
* Baselines: the D2 dumbbell with a plain UDP 380 kbit/s video in place of SSVP (B1), and 40
  plain UDP flows at R2 (B2). D1 samples throughput every 100 ms (C7's CoV bins [I]). Suite
  additions: a ``startup`` figure (bulk SSVP alone on the free dumbbell, with and without
  startup, for C5) and the ``immediate`` part of Fig. 14 (§6.3's immediate adaptation, C19).
* The unit-level claims C3, C4, C6 and the TFRC sanity claim C22 are checked on the
  implementation's own numbers (``_vidcc.ssvp_unit_measurements``: the layer rule at the worked
  example, Alg. 2 on a scripted stream of control packets, Eq. 2 at the sender endpoint and the
  estimator on fixed and random samples, TFRC's loss-interval average and equation from a steady
  state) against values computed in ``ssvp/units.py`` from the paper's equations.
* C9 uses docs/papers/ssvp.md's PSNR proxy (§4): a decodable frame counts as ≥ 31 dB, an
  undecodable one (lost, or its reference lost, or late) as concealment.
"""

from __future__ import annotations

from vidcc.papers import cross_traffic, ns2
from vidcc.papers.building import droptail, dumbbell, flow, scenario
from vidcc.papers.measures import per_run
from vidcc.papers.model import Axis, ByScale
from vidcc.protocols.tfrc import NS2_AGENT

SEEDS = ByScale([1, 2], list(range(1, 11)))  # full: 10 seeds, enough for the stability rule (model.PASS_SHARE)


DURATION = ByScale("30s", "60s")


M_AXIS = ByScale([1, 20, 50], [1, 5, 10, 20, 30, 40, 50])


N_AXIS = ByScale([1, 5, 15], list(range(1, 31)))


TARGET = 380_000  # bit/s: the MPEG rate of §6.1 [P]


CAPACITY = 1_000_000


PROTOCOL = {"ssvp": "ssvp", "ssvp-la": "ssvp-layered", "tfrc": "tfrc", "tcpw+": "tcp-westwood-plus", "udp": "udp"}


VIDEO = {"model": "tes-mpeg4", "rate": "380kbps"}


ERROR_RATE = 0.01  # packet error rate of the MPEG sinks' access links (§5.1) [P]


LAYERED = {"model": "tes-mpeg4", "layers": ["95kbps", "190kbps", "285kbps", "380kbps"]}


NEEDS = {"tcpw+": ("video-over-tcp",)}


DUMBBELL = dumbbell("1Mbps", "20ms", access={"bandwidth": "10Mbps", "delay": "1ms"}, queue=droptail(6))


def mpeg(name: str, count=1, *, video: dict | None = None, **keys) -> dict:
    video = video or (LAYERED if name == "ssvp-la" else VIDEO)
    if name == "tcpw+":
        keys = {**TCP_KEYS, **keys}
    if name == "tfrc":
        # The paper ran ns-2 2.35's Agent/TFRC and sets none of its parameters: its defaults,
        # NS2_AGENT = tfrc.cc's rate rules with InitRate_ 300, rate_init_option_ 2, df_ 0.95,
        # ca_ 1 (sqrtrtt_ smoothed by df_), tzero_ at tcp_tick_ 0.1, no-feedback timer 2·rtt_,
        # sink numPkts_ 1, discount_ 1, minDiscountRatio_ 0.5.
        keys = {**NS2_AGENT, **keys}
    return flow(PROTOCOL[name], label=name, count=count, video=video, **keys)


def needs(name: str) -> tuple:
    return NEEDS.get(name, ())


TCP_KEYS = {k: v for k, v in ns2.tcp_keys(1000).items() if k != "max_window"}


def ftp(count, label="ftp", **keys) -> dict:
    return flow("tcp-reno", label=label, count=count, **{**TCP_KEYS, **keys})


CROSS_TOPO = cross_traffic.topology()  # shared with the DVRC suite (papers/cross_traffic.py)


def cross(name: str, count=1, *, errors: bool = True, **keys) -> dict:
    sink = {"bandwidth": "2Mbps", "delay": ["5ms", "15ms"]}
    if errors:
        sink["loss"] = {"kind": "bernoulli", "p": ERROR_RATE}
    return scenario(
        DURATION,
        CROSS_TOPO,
        [
            mpeg(name, count, **cross_traffic.mpeg_placement(sink), start=["0s", "1s"]),
            ftp(10, label="ftp", **cross_traffic.ftp_placement(), start=["0s", "1s"]),
        ],
        **keys,
    )


def m_axis() -> Axis:
    return Axis("flows[0].count", M_AXIS, "m")


def d2(name: str) -> dict:
    return scenario(DURATION, DUMBBELL, [mpeg(name), ftp(1)])


def tcp_nt(df):
    """Normalized throughput: "the ratio of the average throughput received by each flow over the
    bandwidth fair share on each case" (§5). The DVRC paper of the same authors defines the same
    metric in the same words and writes the fair share out: B/n, n the number of flows sharing the
    bottleneck (DVRC §4.2). With N FTP flows and the SSVP flow: C/(N+1). (The suite's earlier
    max-min share, (C − min(d, C/(N+1)))/N with the video's demand d, differs only at N = 1, where
    d = 380 kbit/s < C/2.)"""
    df = df.copy()
    df["nt"] = df["throughput_bps"] / (CAPACITY / (df["n"].astype(float) + 1))
    return df


def utilisation(df):
    r = per_run(
        df[["run_id", "part", "seed", "n", "label", "throughput_bps"]].assign(label="all"), "throughput_bps", "sum"
    )
    r["utilisation"] = r["throughput_bps"] / CAPACITY
    return r
