"""``vidcc run --real SCENARIO.toml``: a single-bottleneck scenario run with real processes on
loopback (docs/real-network.md, "A scenario with real processes").

The scenario is validated and resolved exactly as for a simulation. Its dumbbell becomes one
``vidcc-net link`` relay (the bottleneck's rate, queue and loss models; each direction's delay
is the bottleneck's plus both access links', so the round trip is the simulator's), and every
flow instance a ``vidcc-net recv`` and a ``vidcc-net send`` process pair whose route through
the relay is fixed (``--routes``): all flows share the one emulated link. Each sender offers
its own flow of the resolved scenario, with the flow's index (its random streams are the
simulator's). The relay sizes datagrams as the simulator sizes packets (``--protocol-sizes``: the
protocol's bytes, without the driver's 32-byte envelope), so the emulated link carries the
scenario's link rate of protocol bytes; without it the envelope alone costs 3 % of a link's
capacity at 1000-byte packets, and a flow whose rate sits at the link's rate (a DVRC layer of
exactly 2 Mbit/s on a 2 Mbit/s link) loses twice as many packets as simulated. The receivers'
tables are merged into one :class:`vidcc.runner.Result` with the flows numbered as in the
simulation, marked ``stats["real_network"] = True``.

What the real run cannot do, refused with a message naming the key:
- topologies other than a dumbbell, reverse flows, more than :data:`MAX_FLOWS` instances;
- a queue limit of ``"bdp"`` (say it in packets or bytes), access links slower than the bottleneck and
  access-link losses (only the bottleneck is emulated);
- the operating system's own TCP: the relay forwards UDP datagrams, and a TCP connection cannot
  cross a UDP relay (carrying TCP segments would need a TUN device, i.e. privileges, which these
  machines do not grant). The ``tcp-*`` protocols of a scenario are vidcc's own TCP models (the
  simulator's code, carried in UDP by the driver), and run as any other protocol.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from vidcc.net import NetError, find_binary, load_receiver_output

__all__ = ["run_real", "store_real", "MAX_FLOWS", "REAL_GROUP", "link_arguments"]

#: Flow instances a real run accepts (each is two processes on a shared, loaded machine).
MAX_FLOWS = 4
#: Said (in the run's stats, and by ``vidcc run --real``) when a scenario has ``tcp-*`` flows.
TCP_NOTE = ("{} ran as vidcc's own TCP models carried in UDP, not the operating system's TCP: the relay "
            "forwards UDP datagrams and a TCP connection cannot cross it (that needs a TUN device, i.e. privileges)")
#: Columns holding times on a receiver's clock, shifted by its flow's start.
_TIME_COLUMNS = {"flow_samples": ("t_ns",), "packets": ("sent_ns", "arrival_ns"), "flows": ("start_ns",),
                 "frames": ("ready_ns", "complete_ns", "deadline_ns")}


#: Ports this process handed out: real runs in threads at once (tests/test_sim_vs_real.py) must not
#: be given a port another closed a moment ago and has not bound again yet.
_HANDED_OUT: set[int] = set()
_PORTS_LOCK = threading.Lock()


def _free_ports(n: int) -> list[int]:
    with _PORTS_LOCK:
        while True:
            socks = [socket.socket(socket.AF_INET, socket.SOCK_DGRAM) for _ in range(n)]
            try:
                for s in socks:
                    s.bind(("127.0.0.1", 0))
                ports = [s.getsockname()[1] for s in socks]
            finally:
                for s in socks:
                    s.close()
            if not _HANDED_OUT.intersection(ports):
                _HANDED_OUT.update(ports)
                return ports


def _loss_arg(loss: Mapping[str, Any] | None, where: str) -> str | None:
    if not loss:
        return None
    kind = loss.get("kind")
    if kind not in ("bernoulli", "gilbert-elliott", "correlated-bernoulli"):
        raise NetError(f"{where}: loss kind {kind!r} has no relay equivalent")
    params = ",".join(f"{k}={v}" for k, v in loss.items() if k != "kind" and v is not None)
    return f"{kind}:{params}"


def _queue_arg(queue: Mapping[str, Any], where: str) -> tuple[str, bool]:
    kind = queue.get("kind")
    if kind not in ("droptail", "red"):
        raise NetError(f"{where}.queue: kind {kind!r} has no relay equivalent (droptail, red)")
    limit = queue.get("limit")
    if isinstance(limit, Mapping) and "packets" in limit:
        return str(int(limit["packets"])), kind == "red"
    if isinstance(limit, Mapping) and "bytes" in limit:
        return f"{int(limit['bytes'])}B", kind == "red"
    raise NetError(f"{where}.queue.limit: {limit!r}: give a real run's queue limit in packets or bytes")


def link_arguments(resolved: Mapping[str, Any]) -> list[str]:
    """The ``vidcc-net link`` arguments emulating a resolved dumbbell's bottleneck (without
    addresses): rate, delay (bottleneck + both access links, per direction), queue, loss."""
    topo = resolved["topology"]
    if topo.get("kind") != "dumbbell":
        raise NetError(f"topology.kind: {topo.get('kind')!r}: a real run emulates one bottleneck (a dumbbell)")
    b = topo["bottleneck"]
    for side in ("source_access", "sink_access"):
        a = topo.get(side) or {}
        if a.get("loss") or a.get("reverse_loss"):
            raise NetError(f"topology.{side}: losses on access links are not emulated in a real run")
        if (a.get("bandwidth_bps") or 0) < b["bandwidth_bps"]:
            raise NetError(f"topology.{side}.bandwidth: slower than the bottleneck; a real run emulates the "
                           "bottleneck only")
    if b.get("arq"):
        raise NetError("topology.bottleneck.arq: link-layer retransmission is not emulated in a real run")
    delay_ns = b["delay_ns"] + topo["source_access"]["delay_ns"] + topo["sink_access"]["delay_ns"]
    queue, red = _queue_arg(b["queue"], "topology.bottleneck")
    args = ["--bandwidth", f"{b['bandwidth_bps']}bps", "--delay", f"{delay_ns}ns", "--queue", queue,
            "--seed", str(resolved["seed"])]
    if red:
        args.append("--red")
    loss = _loss_arg(b.get("loss"), "topology.bottleneck.loss")
    if loss:
        args += ["--loss", loss]
    reverse = _loss_arg(b.get("reverse_loss"), "topology.bottleneck.reverse_loss")
    args += ["--reverse", f"loss={reverse}" if reverse else ""]
    return args


def _instances(resolved: Mapping[str, Any]) -> list[tuple[dict[str, Any], int]]:
    """(flow with count 1, start ns) per instance, in the simulator's flow order. A start range
    is spread evenly over its instances (the simulator draws them at random)."""
    out = []
    for i, flow in enumerate(resolved["flows"]):
        if (flow.get("placement") or {}).get("kind", "end_to_end") != "end_to_end" or \
                (flow.get("placement") or {}).get("reverse"):
            raise NetError(f"flows[{i}].placement: a real run sends every flow left to right, end to end")
        count = int(flow.get("count", 1))
        start = flow.get("start_ns", 0)
        for k in range(count):
            if isinstance(start, Mapping):
                lo, hi = start["min"], start["max"]
                at = lo if count == 1 else lo + (hi - lo) * k // (count - 1)
            else:
                at = int(start or 0)
            out.append(({**flow, "count": 1, "start_ns": 0}, at))
    if len(out) > MAX_FLOWS:
        raise NetError(f"flows: {len(out)} flow instances; a real run takes at most {MAX_FLOWS}")
    return out


def _stop(procs: list[subprocess.Popen]) -> None:
    for p in procs:
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
    for p in procs:
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def _merge(results: list[Any], starts: list[int]) -> dict[str, dict[str, Any]]:
    """One run's tables from the receivers' (each flow 0 on its own clock): flows renumbered,
    times shifted by each flow's start, the ``aggregate`` recomputed over all flows."""
    merged: dict[str, list[dict[str, Any]]] = {}
    for i, (r, start) in enumerate(zip(results, starts)):
        for name, cols in r.columns.items():
            if name == "aggregate":
                continue
            cols = dict(cols)
            if "flow" in cols:
                cols["flow"] = np.full(len(cols["flow"]), i, dtype=np.uint64)
            for c in _TIME_COLUMNS.get(name, ()):
                if c in cols:
                    v = np.asarray(cols[c])
                    # Unknown times (negative: not arrived) stay as they are.
                    if v.dtype.kind == "i":
                        cols[c] = np.where(v >= 0, v + v.dtype.type(start), v)
                    else:
                        cols[c] = v + v.dtype.type(start)
            merged.setdefault(name, []).append(cols)
    tables = {}
    for name, parts in merged.items():
        cols = {}
        for c in parts[0]:
            vals = [p[c] for p in parts]
            cols[c] = sum((list(v) for v in vals), []) if isinstance(vals[0], list) else np.concatenate(vals)
        tables[name] = cols
    tables["aggregate"] = _aggregate(tables)
    return tables


def _aggregate(tables: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """The simulator's ``aggregate`` table (vidcc-sim record/flows.rs): ``all`` and each label."""
    flows, s = tables["flows"], tables["flow_summary"]
    labels = list(flows["label"])
    groups = [("all", list(range(len(labels))))]
    for lab in dict.fromkeys(labels):
        if lab != "all":
            groups.append((lab, [k for k, x in enumerate(labels) if x == lab]))
    out: dict[str, list] = {k: [] for k in ("label", "flows", "throughput_bps_sum", "throughput_bps_mean",
                                             "goodput_bps_sum", "jain", "worst_case_fairness",
                                             "normalized_throughput_mean", "drop_rate", "cov_mean")}
    for name, members in groups:
        x = np.array([s["throughput_bps"][k] for k in members], dtype=float)
        x = x[np.isfinite(x)]
        sent = sum(int(s["sent_packets"][k]) for k in members)
        dropped = sum(int(s["dropped_queue"][k]) + int(s["dropped_loss"][k]) for k in members)
        sq = float((x * x).sum())
        out["label"].append(name)
        out["flows"].append(len(members))
        out["throughput_bps_sum"].append(float(x.sum()))
        out["throughput_bps_mean"].append(float(x.mean()) if len(x) else float("nan"))
        out["goodput_bps_sum"].append(float(sum(s["goodput_bps"][k] for k in members)))
        out["jain"].append(1.0 if not len(x) or sq == 0 else float(x.sum() ** 2 / (len(x) * sq)))
        out["worst_case_fairness"].append(1.0 if not len(x) or x.max() == 0 else float(x.min() / x.max()))
        out["normalized_throughput_mean"].append(float("nan"))
        out["drop_rate"].append(dropped / sent if sent else float("nan"))
        cov = np.array([s["cov"][k] for k in members], dtype=float)
        out["cov_mean"].append(float(np.nanmean(cov)) if np.isfinite(cov).any() else float("nan"))
    return {k: (v if k == "label" else np.array(v, dtype=np.uint64 if k == "flows" else np.float64))
            for k, v in out.items()}


def run_real(scenario: Any, *, seed: int | None = None, keep: str | os.PathLike[str] | None = None,
             start_timeout: float = 20.0, circuit_breaker: bool = False):
    """Run a scenario with real processes on loopback through ``vidcc-net link``; return a
    :class:`vidcc.runner.Result` whose ``stats`` say ``real_network: True`` (and hold the
    relay's counters under ``link``). ``keep``: a directory for the processes' files (default: a
    temporary one, removed). ``circuit_breaker``: the senders' RFC 8083 circuit breakers, off by
    default here because a real run reproduces the simulated scenario, which has none (a DVRC
    flow holding a 2 Mbit/s link at 10 % loss is ten times its TCP-friendly rate and would be cut
    after a few seconds); ``vidcc send`` keeps them on."""
    from vidcc.runner import Result, as_scenario

    sc = as_scenario(scenario)
    resolved = sc.resolve(seed)
    link_args = link_arguments(resolved)
    instances = _instances(resolved)
    binary = str(find_binary())
    with tempfile.TemporaryDirectory(prefix="vidcc-real-") as tmp:
        work = Path(keep) if keep else Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        n = len(instances)
        ports = _free_ports(1 + 2 * n)
        relay, recv_ports, send_ports = ports[0], ports[1:1 + n], ports[1 + n:]
        routes = ",".join(f"127.0.0.1:{s}=127.0.0.1:{r}" for s, r in zip(send_ports, recv_ports))
        duration_ns = resolved["duration_ns"]
        procs: list[subprocess.Popen] = []
        t0 = time.perf_counter()
        try:
            procs.append(subprocess.Popen(
                [binary, "link", "--listen", f"127.0.0.1:{relay}", "--to", f"127.0.0.1:{recv_ports[0]}",
                 "--routes", routes, "--protocol-sizes", "--stats", str(work / "link.json"), *link_args],
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True))
            receivers = []
            for k, port in enumerate(recv_ports):
                receivers.append(subprocess.Popen(
                    [binary, "recv", "--listen", f"127.0.0.1:{port}", "--out", str(work / f"recv{k}.json"),
                     "--idle", "5s", "--wait", f"{int(start_timeout + duration_ns / 1e9)}s",
                     "--log", str(work / f"arrivals{k}.csv")],
                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True))
            procs += receivers
            time.sleep(0.3)  # the relay and receivers bind before any sender offers
            senders: list[subprocess.Popen | None] = [None] * n
            begin = time.perf_counter()
            order = sorted(range(n), key=lambda k: instances[k][1])
            for k in order:
                flow, start = instances[k]
                stop = flow.get("stop_ns")
                end = min(stop, duration_ns) if stop is not None else duration_ns
                if end <= start:
                    raise NetError(f"flows: instance {k} starts at {start / 1e9} s, after its end")
                doc = {"scenario": sc.to_dict(), "flow_index": k,
                       "resolved": {**resolved, "duration_ns": end - start, "flows": [{**flow, "stop_ns": None}]}}
                cfg = work / f"offer{k}.json"
                cfg.write_text(json.dumps(doc), encoding="utf-8")
                delay = start / 1e9 - (time.perf_counter() - begin)
                if delay > 0:
                    time.sleep(delay)
                senders[k] = subprocess.Popen(
                    [binary, "send", "--config", str(cfg), "--to", f"127.0.0.1:{relay}",
                     "--bind", f"127.0.0.1:{send_ports[k]}", "--report", str(work / f"send{k}.json"),
                     "--handshake", f"{int(start_timeout)}s",
                     "--circuit-breaker", "on" if circuit_breaker else "off"],
                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                procs.append(senders[k])
            for k, p in enumerate([*senders, *receivers]):
                try:
                    code = p.wait(timeout=duration_ns / 1e9 + start_timeout + 30)
                except subprocess.TimeoutExpired:
                    raise NetError(f"a real-run process did not finish: {' '.join(map(str, p.args[:2]))}") from None
                if code != 0:
                    raise NetError(f"vidcc-net {p.args[1]} failed ({code}): {p.stderr.read().strip()}")
        finally:
            _stop(procs)
        results = [load_receiver_output(work / f"recv{k}.json") for k in range(n)]
        link_stats = json.loads((work / "link.json").read_text(encoding="utf-8")) \
            if (work / "link.json").exists() else None
        sends = [json.loads((work / f"send{k}.json").read_text(encoding="utf-8")) for k in range(n)]
    tables = _merge(results, [s for _, s in instances])
    tcp = sorted({f["protocol"]["kind"] for f, _ in instances if f["protocol"]["kind"].startswith("tcp-")})
    stats = {"real_network": True, "link": link_stats, "senders": sends,
             "receivers": [r.stats for r in results], "flow_starts_ns": [s for _, s in instances]}
    if tcp:
        stats["tcp"] = TCP_NOTE.format(", ".join(tcp))
    return Result(sc, resolved, {"stats": stats, "tables": tables}, time.perf_counter() - t0)


#: The sweep name real runs are stored under in the results database.
REAL_GROUP = "real"


def store_real(result, db: str | os.PathLike[str] | None = None) -> str:
    """Store a real run in the results database (default :func:`vidcc.results.default_db`) as a
    simulated run is stored, under the sweep ``real``; returns its run id.

    Marked real three ways: ``stats_json`` holds ``"real_network": true`` (and the relay's
    counters), the ``worker`` column reads ``real-network:<host>``, and the run id starts with
    ``real-``. A real run is not reproducible, so its id names the scenario and the moment, and
    it has no ``scenario_id`` in the runs table (that would mark the simulated runs of the same
    scenario as superseded by it); the scenario's id is in its stats instead."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from vidcc.point import code_version, per_flow, utcnow
    from vidcc.results import Store, default_db
    from vidcc.runids import code_fingerprint, scenario_id_of
    from vidcc.sweep_spec import Point

    scenario_id = scenario_id_of(result.resolved)
    now = utcnow()
    run_id = f"real-{scenario_id[:16]}-{now.strftime('%Y%m%dT%H%M%S%f')}"
    tables = {name: pa.table({c: pa.array(list(v) if isinstance(v, list) else v) for c, v in cols.items()})
              for name, cols in result.columns.items()}
    def parquet(table) -> bytes:
        sink = pa.BufferOutputStream()
        pq.write_table(table, sink)
        return sink.getvalue().to_pybytes()

    version, commit = code_version()
    stats = {**result.stats, "scenario_id": scenario_id}
    payload = {
        "status": "ok", "error": None, "run_id": run_id, "scenario_id": None,
        "code_fingerprint": code_fingerprint(), "seed": result.seed, "resolved": result.resolved,
        "stats": stats, "files": {n: parquet(t) for n, t in tables.items() if t.num_rows},
        "flows": per_flow(tables), "aggregate": tables.get("aggregate"), "sim_seconds": None,
        "wall_seconds": result.wall_seconds, "vidcc_version": version, "git_commit": commit,
        "worker": f"real-network:{socket.gethostname()}", "started_at": now, "finished_at": utcnow(),
    }
    point = Point(index=0, axes={}, seed=result.seed, scenario=result.scenario.to_dict(), run_id=run_id)
    with Store(db if db is not None else default_db()) as store:
        store.record_single(REAL_GROUP, "vidcc run --real", point, payload)
    return run_id
