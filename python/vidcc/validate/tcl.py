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
- TFRC: ``df_ = q`` (= ``q2``: ns-2 smooths both with ``df_``), ``bval_ = b``, ``ca_ =
  oscillation_prevention``, ``tcp_tick_ = tcp_tick``, sink ``numPkts_ = ndupack``, ``discount_ =
  history_discounting``, ``minDiscountRatio_ = discount_threshold``. vidcc keys with no ns-2
  counterpart must have the value ns-2 hard-codes (else an error): ``rules = "ns2"``,
  ``t_rto = "tcp"``, ``initial_rate = "rfc5348"``, ``nofeedback_rtts = 2``, ``t_mbi = 64s``.
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
- DRR: ``Queue/DRR`` with ``blimit_`` = vidcc's byte limit, ``quantum_``, ``buckets_``,
  ``mask_``. ns-2 hashes a packet's *source node*, vidcc its flow instance, with the same hash
  (queue/drr.cc); the generator refuses a layout where the two put flows into buckets
  differently (every flow's source, and every receiver's node for the reverse direction, must
  land in its own bucket in both), so that both schedule the same set of queues.
- Multicast (``plm``): ``new Simulator -multicast on`` and dense-mode routing (``mrtproto DM``)
  with ``DM set PruneTimeout`` beyond the run: vidcc's tree is the union of the members' paths
  and never floods, while DM floods a pruned group again each time a prune times out (0.5 s by
  default). The session is ns-2's own PLM (Legout's ``tcl/plm`` library, built into ns 2.35):
  ``PLMbuild_source_set`` (one ``CBR_PP`` source per layer, ``random_ 1`` = vidcc's ``jitter``),
  receivers ``PLM/ns`` with ``check_estimate`` = ``check_period``, and the globals
  ``packetSize``, ``PP_burst_length`` = ``burst``, ``PP_estimation_length`` = ``min_estimates``,
  ``rates``. ns-2 hard-codes the loss rule (10 %), the 30 s rejoin and has no no-pair rule: vidcc's
  ``loss_threshold``, ``rejoin_after`` and ``drop_without_pairs`` must have those values. The
  receivers are a subclass that logs every subscription change and every period's minimum
  estimate (``choose_layer``'s argument, vidcc's ``rate`` event). ns-2's joins and leaves are
  DM grafts and prunes travelling hop by hop; vidcc models them as fixed latencies, set by the
  case (see cases.py).
"""

from __future__ import annotations

from collections.abc import Callable

from vidcc.validate.layout import FlowSpec, Layout, LayoutError, LinkSpec, QueueSpec, SessionSpec

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


def drr_hash(key: int, buckets: int, mask: bool = False) -> int:
    """ns-2 2.35 ``DRR::hash`` (queue/drr.cc) on an address, then ``% buckets_`` as its enque
    does (C's remainder of a negative number: only key 0 gives -1 + 1 = 0 here)."""
    i = key & 0xFFF0 if mask else key
    h = i + (i >> 8) + ~(i >> 4)
    m = (2 << 23) - 1
    r = abs(h) % m * (1 if h >= 0 else -1)  # C's % truncates towards zero
    return (r + 1) % buckets


def _check_drr_buckets(layout: Layout) -> None:
    """Both simulators must put the flows of a DRR link into the same buckets: vidcc keys by flow
    instance, ns-2 by source node (the module docs). Every key in its own bucket in both is
    the case the generator accepts."""
    drr = [lk for lk in layout.links if lk.queue.kind == "drr"]
    if not drr:
        return
    ids = {n: i for i, n in enumerate(layout.nodes())}  # ns-2 numbers nodes in creation order
    flows = [(f.index, f.src, [f.dst]) for f in layout.flows]
    flows += [(s.index, s.src, [r.node for r in s.receivers]) for s in layout.sessions]
    for lk in drr:
        b, mask = int(lk.queue.drr["buckets"]), bool(lk.queue.drr["mask"])
        keys = {
            "vidcc's flow keys": [drr_hash(i, b, mask) for i, _, _ in flows],
            "ns-2's source nodes": [drr_hash(ids[src], b, mask) for _, src, _ in flows],
            "ns-2's receiving nodes": [drr_hash(ids[d], b, mask) for _, _, dsts in flows for d in dsts],
        }
        for what, buckets in keys.items():
            if len(set(buckets)) != len(buckets):
                raise LayoutError(
                    f"link {lk.name}: DRR with {b} buckets: {what} share buckets {buckets}; the two simulators "
                    "would schedule different queues (use more buckets or fewer flows)"
                )


def _queue(link: LinkSpec, a: str, b: str) -> list[str]:
    q = link.queue
    if q.kind == "drr":
        d = q.drr
        return [
            f"set q [[$ns link {a} {b}] queue]",
            f"$q set blimit_ {q.limit_bytes}",
            f"$q set quantum_ {int(d['quantum'])}",
            f"$q set buckets_ {int(d['buckets'])}",
            f"$q set mask_ {int(bool(d['mask']))}",
        ]
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
        f"$agent({i}) set singledup_ {1 if p.get('limited_transmit', True) else 0}",
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
    fixed = {"nofeedback_rtts": 2.0, "t_mbi_ns": 64_000_000_000, "initial_rate": "rfc5348", "rules": "ns2",
             "t_rto": "tcp"}
    for key, want in fixed.items():
        if p[key] != want:
            raise LayoutError(f"flow {f.index}: tfrc {key} = {p[key]!r}; ns-2 2.35 has only {want!r}")
    if p["q2"] != p["q"]:
        raise LayoutError(f"flow {f.index}: tfrc q2 = {p['q2']!r} differs from q = {p['q']!r}; "
                          "ns-2 2.35 smooths both with df_")
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
        f"$agent({i}) set tcp_tick_ {_s(p['tcp_tick_ns'])}",
        f"$agent({i}) set overhead_ {_s(f.send_jitter_ns)}",
        f"set sink({i}) [new Agent/TFRCSink]",
        f"$sink({i}) set numPkts_ {p['ndupack']}",
        f"$sink({i}) set discount_ {int(bool(p['history_discounting']))}",
        f"$sink({i}) set minDiscountRatio_ {p['discount_threshold']!r}",
        f"set app({i}) [new Application/FTP]",
        f"$app({i}) attach-agent $agent({i})",
    ]


# vidcc plm keys whose value ns-2 2.35's PLM hard-codes (tcl/plm: exceed_loss_thresh 0.10,
# drop-layer's 30 s rejoin timer, no no-pair rule).
PLM_FIXED = {"loss_threshold": 0.1, "rejoin_after_ns": 30_000_000_000, "drop_without_pairs": False}

# A PLM receiver that logs its subscription at every change and each check period's minimum
# estimate (the argument of choose_layer), keyed "flow,receiver". Logged from the start; the
# metrics cut the measurement interval.
PLM_LOGGED_CLASS = [
    "Class PLM/ns/Logged -superclass PLM/ns",
    "PLM/ns/Logged instproc init {key args} { $self set key_ $key; eval $self next $args }",
    "PLM/ns/Logged instproc log-layers {} {",
    "  global layer_log",
    "  lappend layer_log([$self set key_]) [list [[Simulator instance] now] [$self set subscription_]]",
    "}",
    "PLM/ns/Logged instproc add-layer {} { $self next; $self log-layers }",
    "PLM/ns/Logged instproc drop-layer {} { $self next; $self log-layers }",
    "PLM/ns/Logged instproc choose_layer {v} {",
    "  global estimate_log",
    "  lappend estimate_log([$self set key_]) [list [[Simulator instance] now] $v]",
    "  $self next $v",
    "}",
]


def _plm_globals(sessions: list[SessionSpec]) -> list[str]:
    """ns-2's PLM reads its parameters from globals: every session of a script must share them."""
    first = sessions[0]
    shared = ("layer_rates_bps", "burst", "min_estimates")
    for s in sessions:
        for key, want in PLM_FIXED.items():
            if s.params[key] != want:
                raise LayoutError(f"flow {s.index}: plm {key} = {s.params[key]!r}; ns-2 2.35's PLM has only {want!r}")
        if s.stop_ns is not None:
            raise LayoutError(f"flow {s.index}: a plm session's stop is not translated to ns-2")
        if s.packet_size != first.packet_size or any(s.params[k] != first.params[k] for k in shared):
            raise LayoutError(
                f"flow {s.index}: ns-2's PLM keeps packetSize, rates, PP_burst_length and PP_estimation_length "
                "in globals: every plm session of a case needs the same packet_size, layer_rates, burst, min_estimates"
            )
    p = first.params
    return [
        "# ns-2's own PLM (tcl/plm in ns 2.35): parameters are globals of its library",
        f"set packetSize {first.packet_size}",
        f"Agent/UDP set packetSize_ {first.packet_size}",
        f"set PP_burst_length {int(p['burst'])}",
        f"set PP_estimation_length {int(p['min_estimates'])}",
        "set plm_debug_flag 0",
        f"set rates {{{' '.join(str(int(r)) for r in p['layer_rates_bps'])}}}",
        "set rates_cum [calc_cum $rates]",
        *PLM_LOGGED_CLASS,
    ]


def _plm_session(s: SessionSpec, node: dict[str, str]) -> list[str]:
    i = s.index
    lines = [
        f"set addrs({i}) {{}}",
        f"foreach r $rates {{ lappend addrs({i}) [Node allocaddr] }}",
        f"$ns PLMbuild_source_set s{i} $rates $addrs({i}) {i} {node[s.src]} {_s(s.start_ns)}",
    ]
    if not s.params["jitter"]:
        lines.append(f"for {{set l 0}} {{$l < [llength $rates]}} {{incr l}} {{ $src_plm(s{i}:$l) set random_ 0 }}")
    for r in s.receivers:
        key = f"{i},{r.index}"
        lines.append(
            f"$ns at {_s(r.start_ns)} {{set plm({key}) [new PLM/ns/Logged {key} $ns {node[r.node]} $addrs({i}) "
            f"{_s(s.params['check_period_ns'])} {r.index}]}}"
        )
    return lines


SESSIONS: dict[str, Callable[[SessionSpec, dict[str, str]], list[str]]] = {"plm": _plm_session}


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
    for s in layout.sessions:
        if s.protocol not in SESSIONS:
            raise LayoutError(
                f"flow {s.index}: multicast protocol {s.protocol!r} has no ns-2 translation ({sorted(SESSIONS)})"
            )
    _check_drr_buckets(layout)
    lines = [
        f"# ns-2 2.35 script for the vidcc validation case {layout.name!r}, generated by vidcc.validate.",
        "# Re-run by hand: ns THIS_FILE OUTPUT_FILE",
        "if {$argc != 1} { puts stderr \"usage: ns script.tcl OUTPUT_FILE\"; exit 2 }",
        "set out_path [lindex $argv 0]",
        "set ns [new Simulator -multicast on]" if layout.sessions else "set ns [new Simulator]",
        f"$defaultRNG seed {layout.seed + 1}",  # ns-2 seed 0 means 'from the clock'
        "Agent/TCP set tcpTick_ 0.01",
        *GEOMETRIC_PROC,
        f"foreach n {{{' '.join(nodes)}}} {{ set node($n) [$ns node] }}",
    ]
    for i, link in enumerate(layout.links):
        a, b = node[link.src], node[link.dst]
        kind = {"red": "RED", "drr": "DRR"}.get(link.queue.kind, "DropTail")
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
    if layout.sessions:
        lines += _plm_globals(list(layout.sessions))
        for s in layout.sessions:
            lines += SESSIONS[s.protocol](s, node)
        # Dense mode with prunes that outlast the run: vidcc's trees never flood (module docs).
        lines += [f"DM set PruneTimeout {max(1000, 2 * layout.duration_ns // 1_000_000_000)}", "$ns mrtproto DM {}"]
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
        *(_receiver_counters(layout) if layout.sessions else [
            f"$ns at {_s(warm)} {{ set warm_counters [counters]; set warm_link [link_counters] }}"]),
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
        *(_receiver_output() if layout.sessions else []),
        "  puts $f \"end\"",
        "  close $f",
        "  exit 0",
        "}",
        f"$ns at {_s(layout.duration_ns)} finish",
        "$ns run",
    ]



def _receiver_counters(layout: Layout) -> list[str]:
    """Multicast receivers: packets received on every layer (the layers' loss monitors count
    across leaves and joins; ``clear`` on a join resets only the expected sequence number,
    tools/loss-monitor.cc), snapshot at the warmup beside the flows' counters."""
    keys = " ".join(f"{s.index},{r.index}" for s in layout.sessions for r in s.receivers)
    return [
        f"set receivers {{{keys}}}",
        "proc rx_counters {} {",
        "  global plm receivers",
        "  set c {}",
        "  foreach k $receivers {",
        "    set n 0",
        "    if {[info exists plm($k)]} { foreach l [$plm($k) set layers_] { incr n [[$l mon] set npkts_] } }",
        "    lappend c $n",
        "  }",
        "  return $c",
        "}",
        "set warm_rx {}",
        f"$ns at {_s(layout.warmup_ns)} {{ set warm_counters [counters]; set warm_link [link_counters];"
        " set warm_rx [rx_counters] }",
    ]


def _receiver_output() -> list[str]:
    """``receiver F J packets P`` after the warmup, then every logged subscription change
    (``layers F J T N``) and period minimum estimate (``estimate F J T BPS``) from the start."""
    return [
        "  global receivers warm_rx layer_log estimate_log",
        "  foreach k $receivers w $warm_rx e [rx_counters] {",
        "    set fj [join [split $k ,] { }]",
        "    puts $f \"receiver $fj packets [expr {$e - $w}]\"",
        "    if {[info exists layer_log($k)]} {",
        "      foreach x $layer_log($k) { puts $f \"layers $fj [lindex $x 0] [lindex $x 1]\" }",
        "    }",
        "    if {[info exists estimate_log($k)]} {",
        "      foreach x $estimate_log($k) { puts $f \"estimate $fj [lindex $x 0] [lindex $x 1]\" }",
        "    }",
        "  }",
    ]
