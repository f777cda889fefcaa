"""ns-2 (2.35) Tcl generated from a :class:`~vidcc.validate.layout.Layout`.

The script rebuilds vidcc's network link by link (``simplex-link`` per direction, so each
direction keeps its own queue and loss model as in vidcc), attaches the ns-2 agent that vidcc's
protocol models, and writes its own counters to the file named on its command line (format in
:mod:`vidcc.validate.ns2`). ``ns case.tcl out.txt`` re-runs it by hand.

Translation of vidcc's keys (vidcc's resolved configuration -> ns-2 variable), and why:

- Queue limits: vidcc's ``limit`` counts waiting packets; ns-2's DropTail holds ``qlim_ - 1``
  waiting (``q_->length() + 1 >= qlim_`` drops), so DropTail gets ``queue-limit = limit + 1``;
  RED holds ``qlim_`` waiting and gets ``limit`` (see :func:`ns2_queue_limit`).
- Packet sizes: vidcc's ``packet_size`` is bytes on the wire. ns-2's TCP adds a 40 B header to
  ``packetSize_`` (as vidcc's TCP header), so ``packetSize_ = packet_size - 40``; UDP, CBR,
  Pareto and TFRC (``useHeaders_ 0``) put ``packetSize_`` on the wire as it is.
- TCP: ``window_ = floor(max_window / packet_size)`` (vidcc's window limit in segments),
  ``windowInit_``, ``minrto_``, ``rtxcur_init_`` (initial RTO), ``maxrto_ 60`` (vidcc's maximum),
  ``overhead_ = send_jitter``; delayed ACKs: ``TCPSink/DelAck`` with ``interval_ 0.1`` (vidcc's
  100 ms). ``tcpTick_`` stays at ns-2's 0.01 s, which is vidcc's RTO granularity.
- TFRC: ``df_ = q``, ``bval_ = b``, ``ca_ = oscillation_prevention``, sink ``numPkts_ =
  ndupack``, ``discount_ = history_discounting``, ``minDiscountRatio_ = discount_threshold``.
  vidcc keys with no ns-2 counterpart must have the value ns-2 hard-codes (else an error).
- Loss: Bernoulli is ``ErrorModel`` (per packet, uniform draw) placed after the queue
  (``link-lossmodel``), as vidcc drops after the queue. Gilbert-Elliott is
  ``ErrorModel/TwoState`` in packet units with *integer* sojourns drawn from discrete
  ``RandomVariable/Empirical`` tables (``interpolation_ 0``), so that the runs have vidcc's
  geometric laws exactly, not only their means. TwoState (errmodel.cc) loses the packet during
  which a Good sojourn runs out, then every packet while the Bad sojourn lasts; with integer
  sojourns a Bad sojourn of n loses n + 1 packets and a Good one of g keeps g - 1. vidcc's chain
  (state found, then move) has runs Geometric(r) of losses and Geometric(p) of deliveries on
  {1, 2, ...}, so n = Geometric(r) - 1 and g = Geometric(p) + 1. (Exponential sojourns of the
  same means, the first translation, give a loss burst of k ≥ 5 packets half as often as
  vidcc's chain, 3.1 % against 6.3 % of bursts at r = 0.5: NewReno needs one round trip per
  lost packet, so it is the long bursts that end in timeouts.) Only ``loss_good = 0`` and
  ``loss_bad = 1`` translate.
- Seeds: ns-2's ``defaultRNG`` is seeded with the case's seed; the two simulators' random
  streams are different anyway, which is why every band allows for seed effects.
"""

from __future__ import annotations

from collections.abc import Callable

from vidcc.validate.layout import FlowSpec, Layout, LayoutError, LinkSpec, QueueSpec

RESULTS_MAGIC = "vidcc-ns2-results 1"

# vidcc TCP agent -> (ns-2 sender class, sink class, delayed-ACK sink class). Adding a flavour
# that ns-2 has is one line here and one case line in cases.py.
TCP_AGENTS: dict[str, tuple[str, str, str]] = {
    "tcp-tahoe": ("Agent/TCP", "Agent/TCPSink", "Agent/TCPSink/DelAck"),
    "tcp-reno": ("Agent/TCP/Reno", "Agent/TCPSink", "Agent/TCPSink/DelAck"),
    "tcp-newreno": ("Agent/TCP/Newreno", "Agent/TCPSink", "Agent/TCPSink/DelAck"),
    "tcp-sack": ("Agent/TCP/Sack1", "Agent/TCPSink/Sack1", "Agent/TCPSink/Sack1/DelAck"),
}
TCP_HEADER = 40


# A discrete random variable offset + Geometric0(q), P(offset + k) = q (1 - q)^k, k >= 0, as an
# ns-2 Empirical table written beside the results (format of ranvar.cc loadCDF: value, count,
# CDF; discrete lookup returns the first value whose CDF reaches the uniform draw).
GEOMETRIC_PROC = [
    "proc geometric_rv {path q offset} {",
    "  set f [open $path w]",
    "  set k 0",
    "  set cdf 0.0",
    "  while {$cdf < 1.0 - 1e-12} {",
    "    set cdf [expr {1.0 - pow(1.0 - $q, $k + 1)}]",
    "    puts $f [format {%d 0 %.17g} [expr {$offset + $k}] [expr {$cdf < 1.0 - 1e-12 ? $cdf : 1.0}]]",
    "    incr k",
    "  }",
    "  close $f",
    "  set rv [new RandomVariable/Empirical]",
    "  $rv set interpolation_ 0",
    "  $rv loadCDF $path",
    "  return $rv",
    "}",
]


def _s(ns: int) -> str:
    """Nanoseconds as Tcl seconds, exactly (ns-2 parses doubles)."""
    return repr(ns / 1e9)


def ns2_queue_limit(q: QueueSpec) -> int:
    """ns-2's ``qlim_`` for a vidcc queue limit. vidcc's limit counts packets *waiting* (the one
    being serialised is not in the queue). ns-2 2.35's DropTail (queue/drop-tail.cc) refuses an
    arrival when ``q_->length() + 1 >= qlim_``, so it holds ``qlim_ - 1`` waiting packets: the same
    buffer needs ``qlim_ = limit + 1``. Its RED (queue/red.cc) refuses one when ``qlen >= qlim``
    before the enqueue, i.e. holds ``qlim_`` waiting, as vidcc: no correction there."""
    return q.limit_packets + 1 if q.kind == "droptail" else q.limit_packets


def _queue(link: LinkSpec, a: str, b: str) -> list[str]:
    q = link.queue
    lines = [f"$ns queue-limit {a} {b} {ns2_queue_limit(q)}"]
    if q.kind == "red":
        r = q.red
        if r["max_p"] <= 0:
            raise LayoutError(f"link {link.name}: RED max_p = 0 has no ns-2 linterm_")
        lines += [
            f"set q [[$ns link {a} {b}] queue]",
            f"$q set thresh_ {r['min_thresh']}",
            f"$q set maxthresh_ {r['max_thresh']}",
            f"$q set q_weight_ {r['weight']}",
            f"$q set linterm_ {1.0 / r['max_p']!r}",
            f"$q set gentle_ {int(bool(r['gentle']))}",
            f"$q set bytes_ {int(bool(r['bytes']))}",
            f"$q set queue_in_bytes_ {int(bool(r['bytes']))}",
            f"$q set mean_pktsize_ {int(r['mean_packet_bytes'])}",
            f"$q set wait_ {int(bool(r['wait']))}",
            "$q set setbit_ 0",
            "$q set adaptive_ 0",
        ]
    return lines


def _loss(link: LinkSpec, a: str, b: str, i: int) -> list[str]:
    m = link.loss
    if m is None:
        return []
    em = f"em({i})"
    if m.kind == "bernoulli":
        lines = [
            f"set {em} [new ErrorModel]",
            f"${em} unit pkt",
            f"${em} set rate_ {m.p!r}",
            f"${em} ranvar [new RandomVariable/Uniform]",
        ]
    else:
        if m.loss_good != 0.0 or m.loss_bad != 1.0 or not (0 < m.p < 1 and 0 < m.r < 1):
            raise LayoutError(
                f"link {link.name}: gilbert-elliott translates to ns-2's TwoState model only with "
                "loss_good = 0, loss_bad = 1 and 0 < p, r < 1"
            )
        # Integer sojourns from discrete geometric tables (see the module docs for why).
        lines = [
            f"set rv_good({i}) [geometric_rv $out_path.good{i}.cdf {m.p!r} 2]",
            f"set rv_bad({i}) [geometric_rv $out_path.bad{i}.cdf {m.r!r} 0]",
            f"set {em} [new ErrorModel/TwoState $rv_good({i}) $rv_bad({i}) pkt]",
        ]
    # `link-lossmodel` puts the model after the link's delay, so a lost packet has used the link
    # as in vidcc. It makes the link's drop head the drop target, where the queue monitor would
    # count the loss as a queue departure *and* a drop (its queue length goes negative): the
    # losses go to a counting sink of their own instead, set after `link-lossmodel`.
    return lines + [
        f"$ns link-lossmodel ${em} {a} {b}",
        f"set lossdrops({i}) [new Agent/LossMonitor]",
        f"${em} drop-target $lossdrops({i})",
    ]


def _tcp(f: FlowSpec) -> list[str]:
    sender, sink, delack_sink = TCP_AGENTS[f.protocol]
    p = f.params
    if p.get("transfer_bytes") is not None:
        raise LayoutError(f"flow {f.index}: `transfer` is not translated (the validation uses backlogged FTP)")
    payload = f.packet_size - TCP_HEADER
    i = f.index
    return [
        f"set agent({i}) [new {sender}]",
        f"$agent({i}) set packetSize_ {payload}",
        f"$agent({i}) set window_ {p['max_window_bytes'] // f.packet_size}",
        f"$agent({i}) set windowInit_ {p['initial_window']}",
        f"$agent({i}) set minrto_ {_s(p['min_rto_ns'])}",
        f"$agent({i}) set rtxcur_init_ {_s(p['initial_rto_ns'])}",
        f"$agent({i}) set maxrto_ 60",
        f"$agent({i}) set overhead_ {_s(f.send_jitter_ns)}",
        f"set sink({i}) [new {delack_sink if p['delayed_ack'] else sink}]",
        *([f"$sink({i}) set interval_ 0.1"] if p["delayed_ack"] else []),
        f"set app({i}) [new Application/FTP]",
        f"$app({i}) attach-agent $agent({i})",
    ]


def _udp_app(f: FlowSpec, app: str, settings: list[str]) -> list[str]:
    i = f.index
    if f.send_jitter_ns:
        raise LayoutError(f"flow {f.index}: send_jitter on UDP has no ns-2 translation")
    return [
        f"set agent({i}) [new Agent/UDP]",
        f"$agent({i}) set packetSize_ {f.packet_size}",
        f"set sink({i}) [new Agent/Null]",
        f"set app({i}) [new {app}]",
        f"$app({i}) set packetSize_ {f.packet_size}",
        *[f"$app({i}) set {s}" for s in settings],
        f"$app({i}) attach-agent $agent({i})",
    ]


def _cbr(f: FlowSpec) -> list[str]:
    return _udp_app(f, "Application/Traffic/CBR", [f"rate_ {f.params['rate_bps']}", "random_ 0"])


def _pareto(f: FlowSpec) -> list[str]:
    p = f.params
    settings = [
        f"rate_ {p['rate_bps']}",
        f"burst_time_ {_s(p['on_mean_ns'])}",
        f"idle_time_ {_s(p['off_mean_ns'])}",
        f"shape_ {p['shape']!r}",
    ]
    return _udp_app(f, "Application/Traffic/Pareto", settings)


def _tfrc(f: FlowSpec) -> list[str]:
    p = f.params
    # vidcc keys whose value ns-2 2.35 hard-codes: a different value would compare two protocols.
    fixed = {"nofeedback_rtts": 2.0, "t_mbi_ns": 64_000_000_000, "initial_rate": "rfc5348"}
    for key, want in fixed.items():
        if p[key] != want:
            raise LayoutError(f"flow {f.index}: tfrc {key} = {p[key]!r}; ns-2 2.35 has only {want!r}")
    if p.get("sender_buffer_packets") is not None or p.get("sender_buffer_max_age_ns") is not None:
        raise LayoutError(f"flow {f.index}: tfrc sender buffer keys apply to video only")
    i = f.index
    return [
        f"set agent({i}) [new Agent/TFRC]",
        f"$agent({i}) set packetSize_ {f.packet_size}",
        f"$agent({i}) set useHeaders_ 0",
        f"$agent({i}) set df_ {p['q']!r}",
        f"$agent({i}) set bval_ {p['b']!r}",
        f"$agent({i}) set ca_ {int(bool(p['oscillation_prevention']))}",
        f"$agent({i}) set overhead_ {_s(f.send_jitter_ns)}",
        f"set sink({i}) [new Agent/TFRCSink]",
        f"$sink({i}) set numPkts_ {p['ndupack']}",
        f"$sink({i}) set discount_ {int(bool(p['history_discounting']))}",
        f"$sink({i}) set minDiscountRatio_ {p['discount_threshold']!r}",
        f"set app({i}) [new Application/FTP]",
        f"$app({i}) attach-agent $agent({i})",
    ]


PROTOCOLS: dict[str, Callable[[FlowSpec], list[str]]] = {
    **{name: _tcp for name in TCP_AGENTS},
    "udp-cbr": _cbr,
    "udp-pareto": _pareto,
    "tfrc": _tfrc,
}


def is_tcp(protocol: str) -> bool:
    return protocol in TCP_AGENTS


def generate(layout: Layout) -> str:
    """The whole ns-2 script for a layout (deterministic text: same layout, same bytes)."""
    nodes = layout.nodes()
    node = {n: f"$node({n})" for n in nodes}
    lines = [
        f"# ns-2 2.35 script for the vidcc validation case {layout.name!r}, generated by vidcc.validate.",
        "# Re-run by hand: ns THIS_FILE OUTPUT_FILE",
        "if {$argc != 1} { puts stderr \"usage: ns script.tcl OUTPUT_FILE\"; exit 2 }",
        "set out_path [lindex $argv 0]",
        "set ns [new Simulator]",
        f"$defaultRNG seed {layout.seed + 1}",  # ns-2 seed 0 means 'from the clock'
        "Agent/TCP set tcpTick_ 0.01",
        *GEOMETRIC_PROC,
        f"foreach n {{{' '.join(nodes)}}} {{ set node($n) [$ns node] }}",
    ]
    for i, link in enumerate(layout.links):
        a, b = node[link.src], node[link.dst]
        kind = "RED" if link.queue.kind == "red" else "DropTail"
        lines.append(f"$ns simplex-link {a} {b} {link.bandwidth_bps} {_s(link.delay_ns)} {kind}")
        lines += _queue(link, a, b)
        lines += _loss(link, a, b, i)
    bn = layout.link(layout.bottleneck)
    bn_index = layout.links.index(bn)
    lines.append(f"set qmon [$ns monitor-queue {node[bn.src]} {node[bn.dst]} [open /dev/null w] 1.0]")
    lines.append(f"set bn_loss {'$lossdrops(%d)' % bn_index if bn.loss else '{}'}")
    tcp, other = [], []
    for f in layout.flows:
        if f.protocol not in PROTOCOLS:
            raise LayoutError(f"flow {f.index}: protocol {f.protocol!r} has no ns-2 translation ({sorted(PROTOCOLS)})")
        lines += PROTOCOLS[f.protocol](f)
        i = f.index
        lines += [
            f"$ns attach-agent {node[f.src]} $agent({i})",
            f"$ns attach-agent {node[f.dst]} $sink({i})",
            f"$ns connect $agent({i}) $sink({i})",
            f"$ns at {_s(f.start_ns)} \"$app({i}) start\"",
        ]
        if f.stop_ns is not None:
            lines.append(f"$ns at {_s(f.stop_ns)} \"$app({i}) stop\"")
        if is_tcp(f.protocol):
            tcp.append(i)
        else:
            # Delivered packets of a non-TCP flow: departures of the link into its sink's host.
            last = next(lk for lk in layout.links if lk.dst == f.dst)
            lines.append(f"set fmon({i}) [$ns monitor-queue {node[last.src]} {node[last.dst]} [open /dev/null w] 1.0]")
            other.append(i)
    lines += _measurement(layout, tcp, other)
    return "\n".join(lines) + "\n"


def _measurement(layout: Layout, tcp: list[int], other: list[int]) -> list[str]:
    """Counters snapshot at the warmup and at the end, queue samples after the warmup."""
    interval = layout.queue_sample_interval_ns
    n_samples = layout.duration_ns // interval
    warm = layout.warmup_ns
    return [
        f"set tcp_flows {{{' '.join(map(str, tcp))}}}",
        f"set other_flows {{{' '.join(map(str, other))}}}",
        "proc counters {} {",
        "  global agent fmon tcp_flows other_flows",
        "  set c {}",
        "  foreach i $tcp_flows {",
        "    lappend c [list $i [expr {[$agent($i) set ack_] + 1}]"
        " [$agent($i) set nrexmit_] [$agent($i) set ncwndcuts1_]]",
        "  }",
        "  foreach i $other_flows { lappend c [list $i [$fmon($i) set pdepartures_] 0 0] }",
        "  return $c",
        "}",
        "set qsum 0.0",
        "set qn 0",
        "proc sample {} {",
        "  global qmon qsum qn",
        "  set qsum [expr {$qsum + [$qmon set pkts_]}]",
        "  incr qn",
        "}",
        # Same instants as vidcc's queue_samples (k * interval, k >= 1) from the warmup on.
        f"for {{set k 1}} {{$k <= {n_samples}}} {{incr k}} {{",
        f"  set t [expr {{$k * {interval}}}]",
        f"  if {{$t >= {warm}}} {{ $ns at [expr {{$t / 1e9}}] sample }}",
        "}",
        "proc link_counters {} {",
        "  global qmon bn_loss",
        "  set lost 0",
        "  if {$bn_loss ne {}} { set lost [$bn_loss set npkts_] }",
        "  return [list [$qmon set parrivals_] [$qmon set pdrops_] $lost]",
        "}",
        "set warm_counters {}",
        "set warm_link {0 0 0}",
        f"$ns at {_s(warm)} {{ set warm_counters [counters]; set warm_link [link_counters] }}",
        "proc finish {} {",
        "  global out_path qsum qn warm_counters warm_link",
        "  set end [counters]",
        "  set l [link_counters]",
        "  set f [open $out_path w]",
        f"  puts $f \"{RESULTS_MAGIC}\"",
        "  puts $f \"bottleneck arrivals [expr {[lindex $l 0] - [lindex $warm_link 0]}]"
        " queue_drops [expr {[lindex $l 1] - [lindex $warm_link 1]}]"
        " loss_drops [expr {[lindex $l 2] - [lindex $warm_link 2]}]\"",
        "  puts $f \"queue samples $qn sum $qsum\"",
        "  foreach w $warm_counters e $end {",
        "    puts $f \"flow [lindex $e 0] packets [expr {[lindex $e 1] - [lindex $w 1]}]"
        " timeouts [expr {[lindex $e 2] - [lindex $w 2]}] cuts [expr {[lindex $e 3] - [lindex $w 3]}]\"",
        "  }",
        "  puts $f \"end\"",
        "  close $f",
        "  exit 0",
        "}",
        f"$ns at {_s(layout.duration_ns)} finish",
        "$ns run",
    ]

