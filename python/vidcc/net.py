"""``vidcc send | recv | link``: streaming over real UDP sockets (docs/real-network.md).

The sockets, the wall clock and the relay live in the Rust binary ``vidcc-net`` (crate
``crates/vidcc-net``); this module is its front end:

- ``send`` builds a one-flow scenario from the command line (``--protocol``, ``--video``,
  ``--set key=value``), validates and resolves it with the same schema as ``vidcc run``, and hands
  the resolved flow to ``vidcc-net send``, which offers it to the receiver;
- ``recv`` runs ``vidcc-net recv`` (Ctrl-C and SIGTERM reach it; it writes its tables and ends),
  then writes the tables exactly as a simulated run's (``vidcc.runner.Result.write``: Parquet,
  figures, summary.json), so ``vidcc video quality`` and every figure work on a real run;
- ``link`` runs ``vidcc-net link``, the emulated bottleneck.

The binary is found as ``$VIDCC_NET_BIN``, ``vidcc-net`` on ``PATH``, or a cargo build of this
checkout (``$CARGO_TARGET_DIR`` or ``target/``, release first).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

__all__ = ["add_net_parser", "find_binary", "offer_document", "load_receiver_output", "NetError"]

REPO = Path(__file__).resolve().parents[2]


class NetError(Exception):
    """A problem with the command line or the binary, stated in one line."""


def find_binary() -> Path:
    """The ``vidcc-net`` binary (see the module docs for where it is looked for)."""
    env = os.environ.get("VIDCC_NET_BIN")
    if env:
        if not Path(env).is_file():
            raise NetError(f"VIDCC_NET_BIN={env}: no such file")
        return Path(env)
    on_path = shutil.which("vidcc-net")
    if on_path:
        return Path(on_path)
    targets = [Path(os.environ["CARGO_TARGET_DIR"])] if os.environ.get("CARGO_TARGET_DIR") else []
    targets.append(REPO / "target")
    for t in targets:
        for profile in ("release", "debug"):
            p = t / profile / "vidcc-net"
            if p.is_file():
                return p
    raise NetError("the vidcc-net binary was not found: build it with `cargo build --release -p vidcc-net` "
                   "(or set VIDCC_NET_BIN)")


def _video_table(spec: str) -> dict[str, Any]:
    """``--video``: a trace file (``*.trace``: Evalvid; ``*.txt``: plain), ``cbr:RATE``,
    ``tes:RATE``, or a TOML inline table (``{ model = "trace", trace = "...", ... }``)."""
    import tomllib

    s = spec.strip()
    if s.startswith("{"):
        try:
            return dict(tomllib.loads(f"v = {s}")["v"])
        except tomllib.TOMLDecodeError as e:
            raise NetError(f"--video {spec!r}: not a TOML inline table ({e})") from None
    for prefix, model in (("cbr:", "cbr"), ("tes:", "tes-mpeg4")):
        if s.startswith(prefix):
            return {"model": model, "rate": s[len(prefix):]}
    path = Path(s).expanduser()
    if not path.is_file():
        raise NetError(f"--video {spec!r}: no such trace file (or use cbr:RATE, tes:RATE, or {{ model = ... }})")
    fmt = "plain" if path.suffix == ".txt" else "evalvid"
    return {"model": "trace", "trace": str(path.resolve()), "trace_format": fmt}


def _set_value(item: str) -> dict[str, Any]:
    """``--set key=value``: the value as TOML (``0.5``, ``true``, ``"1Mbps"``), else as a string;
    dotted keys reach into tables (``video.playout_delay=500ms``)."""
    import tomllib

    key, sep, value = item.partition("=")
    if not sep or not key.strip():
        raise NetError(f"--set {item!r}: expected key=value")
    try:
        return tomllib.loads(f"{key.strip()} = {value.strip()}")
    except tomllib.TOMLDecodeError:
        try:
            return tomllib.loads(f"{key.strip()} = {json.dumps(value.strip())}")
        except tomllib.TOMLDecodeError as e:
            raise NetError(f"--set {item!r}: {e}") from None


def _merge(into: dict[str, Any], new: dict[str, Any]) -> None:
    for k, v in new.items():
        if isinstance(v, dict) and isinstance(into.get(k), dict):
            _merge(into[k], v)
        else:
            into[k] = v


def offer_document(protocol: str, *, video: str | None = None, duration: str = "30s", sets: list[str] = (),
                   seed: int = 1) -> dict[str, Any]:
    """The scenario of one flow, validated and resolved as ``vidcc run`` would: ``{"scenario":
    ..., "resolved": ...}``, what ``vidcc-net send --config`` reads. The topology is a placeholder
    the schema requires (the network is real); the flow's keys are the scenario's."""
    from vidcc.scenario import ScenarioError, parse_scenario

    flow: dict[str, Any] = {"protocol": protocol}
    if video:
        flow["video"] = _video_table(video)
    for item in sets:
        _merge(flow, _set_value(item))
    doc = {
        "scenario": {"duration": duration, "warmup": "0s", "seed": seed},
        "topology": {"kind": "dumbbell", "bottleneck": {"bandwidth": "1Gbps", "delay": "1ms"},
                     "access": {"bandwidth": "1Gbps", "delay": "0ms"}},
        "flows": [flow],
    }
    try:
        sc = parse_scenario(doc)
        return {"scenario": sc.to_dict(), "resolved": sc.resolve(None)}
    except ScenarioError as e:
        raise NetError(_flow_problem(e, protocol, doc)) from None


#: What ``vidcc send`` adds to a scenario error that a command-line user would otherwise have to
#: translate from scenario-file terms.
_LAYERS_HINT = ("give them with --set 'video.layers=[\"1Mbps\"]' (one layer: each frame of a trace whole, "
                "what `vidcc video quality` scores) or more rates for more layers")
_NO_VIDEO_HINT = ("this protocol carries no video: leave out --video (there is then nothing for `vidcc video "
                  "quality` to score)")


def _flow_problem(e: Exception, protocol: str, doc: dict[str, Any]) -> str:
    """The scenario error of ``vidcc send``'s one-flow scenario, in the command's terms: every
    problem of the flow (not only the first), and what to type for the common ones."""
    from vidcc.schema.document import problems

    found = problems(doc) or [(e.path, e.message)]
    text = "; ".join(f"{path}: {message}" if path else message for path, message in found)
    missing = [path.removeprefix("flows[0].") for path, m in found if m.startswith("missing required key")]
    if missing and not any(path.endswith("video.layers") for path in missing):
        text += " — give " + ", ".join(f"--set {k}=..." for k in missing)
    if any(path.endswith("video.layers") for path, _ in found):
        text += f" — {_LAYERS_HINT}"
    if any(path.endswith(".video") and ("not video" in m or "unknown key" in m) for path, m in found):
        text += f" — {_NO_VIDEO_HINT}"
    return f"--protocol {protocol}: {text}"


def _numpy_column(col: dict[str, Any]):
    import numpy as np

    kind, values = col["type"], col["values"]
    if kind == "str":
        return [str(v) for v in values]
    if kind == "f64":
        return np.array([np.nan if v is None else v for v in values], dtype=np.float64)
    return np.array(values, dtype={"u64": np.uint64, "i64": np.int64, "bool": np.bool_}[kind])


def load_receiver_output(path: str | os.PathLike[str]):
    """``vidcc-net recv``'s JSON as a :class:`vidcc.runner.Result` (the tables as simulated runs
    hold them; ``stats`` has the receiver's datagram counters)."""
    from vidcc.runner import Result
    from vidcc.scenario import parse_scenario

    doc = json.loads(Path(path).read_text(encoding="utf-8"))
    extra = (doc.get("offer") or {}).get("extra") or {}
    if "scenario" not in extra or "resolved" not in extra:
        raise NetError(f"{path}: the sender's offer carries no scenario (was it sent by `vidcc send`?)")
    scenario = parse_scenario(extra["scenario"])
    raw = {
        "stats": {"real_network": True, "peer": doc.get("peer"), "listen": doc.get("listen"),
                  "ended_by": doc.get("ended_by"), "end_ns": doc.get("end_ns"), **doc.get("counters", {})},
        "tables": {name: {c: _numpy_column(v) for c, v in cols.items()} for name, cols in doc["tables"].items()},
    }
    return Result(scenario, extra["resolved"], raw, (doc.get("end_ns") or 0) / 1e9)


# Every reason the binary drops a datagram (its counters), as the console names them.
REJECTION_REASONS = (
    ("malformed_envelope", "malformed"),
    ("malformed_protocol", "malformed for the protocol"),
    ("wrong_session", "another session"),
    ("auth_bad_tag", "bad tag"),
    ("auth_truncated", "truncated"),
    ("auth_replay", "replay"),
    ("unauthenticated", "unauthenticated"),
    ("out_of_window", "out of window"),
    ("bad_media_tag", "impossible media tag"),
    ("bye_rejected", "Bye not fitting what arrived"),
    ("implausible_report", "impossible receiver report"),
)


def rejections(counters: dict[str, Any]) -> str:
    """The console's account of rejected datagrams: the total, then every reason that occurred
    (foreign addresses apart, since they never reach any check), the receiver's state cap, and
    the feedback whose claims could not be true for what was sent (``clamped_feedback``)."""
    parts = [f"{counters.get(k, 0)} {name}" for k, name in REJECTION_REASONS if counters.get(k, 0)]
    total = sum(counters.get(k, 0) for k, _ in REJECTION_REASONS)
    text = f"rejected datagrams: {total}" + (f" ({', '.join(parts)})" if parts else "")
    text += f", {counters.get('foreign_address', 0)} from other addresses"
    if counters.get("state_cap_reached", 0):
        text += f"; {counters['state_cap_reached']} arrivals not recorded (state cap reached)"
    # Counted apart: most clamped feedback is used once clamped (the refused is also malformed).
    text += f"; clamped feedback: {counters.get('clamped_feedback', 0)}"
    return text


def _key_args(args: argparse.Namespace) -> list[str]:
    out = []
    if getattr(args, "key_file", None):
        out += ["--key-file", args.key_file]
    if getattr(args, "key_env", None):
        out += ["--key-env", args.key_env]
    return out


def _run_child(cmd: list[str]) -> int:
    """Runs the binary in the foreground; SIGTERM to us is passed on to it, and Ctrl-C (which the
    terminal sends to both) waits for it to finish writing."""
    proc = subprocess.Popen(cmd)
    previous = signal.signal(signal.SIGTERM, lambda *_: proc.send_signal(signal.SIGTERM))
    try:
        while True:
            try:
                return proc.wait()
            except KeyboardInterrupt:
                proc.send_signal(signal.SIGINT)
    finally:
        signal.signal(signal.SIGTERM, previous)


def _cmd_send(args: argparse.Namespace) -> int:
    doc = offer_document(args.protocol, video=args.video, duration=args.duration, sets=args.set or [], seed=args.seed)
    with tempfile.TemporaryDirectory(prefix="vidcc-send-") as tmp:
        cfg = Path(tmp) / "offer.json"
        cfg.write_text(json.dumps(doc), encoding="utf-8")
        cmd = [str(find_binary()), "send", "--config", str(cfg), "--to", args.to, *_key_args(args)]
        if args.max_rate:
            cmd += ["--max-rate", args.max_rate]
        if args.feedback_timeout:
            cmd += ["--feedback-timeout", args.feedback_timeout]
        if args.spin_margin:
            cmd += ["--spin-margin", args.spin_margin]
        if args.bind:
            cmd += ["--bind", args.bind]
        cmd += _payload_args(args, Path(tmp))
        report = Path(args.report) if args.report else Path(tmp) / "report.json"
        cmd += ["--report", str(report)]
        code = _run_child(cmd)
        if code == 0 and not args.quiet and report.exists():
            r = json.loads(report.read_text(encoding="utf-8"))
            c = r["counters"]
            print(f"sent {r['data_sent']} data packets ({c['bytes_out'] / 1e6:.2f} MB) in "
                  f"{r['elapsed_ns'] / 1e9:.1f} s to {args.to} (ceiling {r['ceiling_bps'] / 1e6:.3g} Mbit/s, "
                  f"held back {c['rate_capped']} times), ended by {r['ended_by']}; {rejections(c)}")
        return code


def _payload_args(args: argparse.Namespace, tmp: Path) -> list[str]:
    """Real encoded bytes in the data packets when ``--video`` is a prepared trace with its
    bitstream beside it; ``--plain-rtp`` and ``--sdp`` for a third-party RTP receiver."""
    from vidcc.net_rtp import RtpError, bitstream_of, payload_map, sdp

    trace = Path(args.video) if args.video and args.video.endswith(".trace") else None
    bitstream = bitstream_of(trace) if trace else None
    if (args.plain_rtp or args.sdp) and args.protocol != "rtcp-udp":
        raise NetError(f"--plain-rtp/--sdp: {args.protocol}'s data packets are not RTP; only rtcp-udp's are")
    if args.sdp and not args.plain_rtp:
        raise NetError("--sdp describes the --plain-rtp stream: give --plain-rtp HOST:PORT too")
    if args.plain_rtp and bitstream is None:
        raise NetError("--plain-rtp: --video must be a prepared trace (q{N}.trace) with its q{N}.m4v beside it")
    if bitstream is None:
        return []
    try:
        mapping = payload_map(trace, bitstream)
        out = ["--payload-map", str(tmp / "frames.json")]
        (tmp / "frames.json").write_text(json.dumps(mapping), encoding="utf-8")
        if args.plain_rtp:
            host, _, port = args.plain_rtp.rpartition(":")
            if not host or not port.isdigit():
                raise NetError(f"--plain-rtp {args.plain_rtp!r}: expected HOST:PORT")
            out += ["--plain-copy", args.plain_rtp]
            if args.sdp:
                Path(args.sdp).write_text(sdp(bitstream, host.strip("[]"), int(port)), encoding="ascii")
    except (RtpError, OSError) as e:
        raise NetError(str(e)) from None
    return out


def _cmd_recv(args: argparse.Namespace) -> int:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    raw = out / "receiver.json"
    cmd = [str(find_binary()), "recv", "--listen", args.listen, "--out", str(raw), "--idle", args.idle,
           "--log", str(out / "arrivals.csv"), *_key_args(args)]
    if args.wait:
        cmd += ["--wait", args.wait]
    if args.max_state:
        cmd += ["--max-state", args.max_state]
    t0 = time.perf_counter()
    code = _run_child(cmd)
    if code != 0 or not raw.exists():
        return code or 1
    result = load_receiver_output(raw)
    result.wall_seconds = time.perf_counter() - t0
    result.write(out, figures=not args.no_figures)
    if not args.quiet:
        s = result.records("flow_summary")[0]
        c = result.stats
        print(f"received {s['delivered_packets']} of {s['sent_packets']} packets from {c['peer']}: "
              f"{s['throughput_bps'] / 1e6:.3f} Mbit/s, loss {100 * (s['drop_rate'] or 0):.2f} %, "
              f"mean delay {(s['mean_delay_ns'] or 0) / 1e6:.1f} ms; {rejections(c)}; wrote {out}")
    return 0


def _cmd_link(args: argparse.Namespace) -> int:
    cmd = [str(find_binary()), "link", "--listen", args.listen, "--to", args.to, "--bandwidth", args.bandwidth,
           "--delay", args.delay, "--queue", args.queue, "--seed", str(args.seed)]
    for flag in ("loss", "reverse", "duration", "stats"):
        if getattr(args, flag):
            cmd += [f"--{flag}", getattr(args, flag)]
    if args.red:
        cmd.append("--red")
    if args.protocol_sizes:
        cmd.append("--protocol-sizes")
    return _run_child(cmd)


def add_net_parser(name: str, p: argparse.ArgumentParser) -> None:
    """Fills the parser of ``vidcc send``, ``recv`` or ``link``."""
    key_help = "pre-shared key for HMAC-SHA256 of every datagram (keys per direction derived with HKDF)"
    if name == "send":
        p.description = "Stream one flow to a `vidcc recv` over UDP (docs/real-network.md)."
        p.add_argument("--protocol", required=True, help="protocol name (vidcc run's flow `protocol`)")
        p.add_argument("--to", required=True, metavar="HOST:PORT", help="the receiver (or a `vidcc link`)")
        p.add_argument("--video", help="a trace file, cbr:RATE, tes:RATE or a TOML inline table (a flow's `video`)")
        p.add_argument("--duration", default="30s", help="how long to send (default 30s)")
        p.add_argument("--set", action="append", metavar="KEY=VALUE", help="a flow key, as in a scenario (repeatable)")
        p.add_argument("--seed", type=int, default=1, help="seed of the flow's random streams (default 1)")
        p.add_argument("--max-rate", metavar="RATE",
                       help="never send faster than this, whatever feedback says (default: 4x the video's mean "
                            "rate, at least 1Mbps; without --video 10Mbps)")
        p.add_argument("--feedback-timeout", metavar="TIME",
                       help="RFC 8083 circuit breaker: stop after this long without feedback (default 15s; "
                            "udp, udp-cbr and udp-pareto are exempt)")
        p.add_argument("--spin-margin", metavar="TIME",
                       help="busy-wait this long before each departure instead of sleeping (default 40us, at most "
                            "1ms): above the machine's timer wake-up latency it removes the pacing tail, at the CPU "
                            "cost of the spin (benches/README.md)")
        p.add_argument("--bind", metavar="HOST:PORT", help="local address (default: any)")
        p.add_argument("--report", metavar="FILE", help="write the sender's counters here (JSON)")
        p.add_argument("--plain-rtp", metavar="HOST:PORT",
                       help="rtcp-udp only: also send its RTP packets, without the driver's envelope, here "
                            "(for a third-party RTP receiver such as FFmpeg)")
        p.add_argument("--sdp", metavar="FILE", help="write the SDP of the --plain-rtp stream here (MPEG-4 Part 2, "
                                                     "RFC 6416)")
        p.add_argument("--quiet", "-q", action="store_true", help="print nothing but errors")
        p.add_argument("--key-file", metavar="FILE", help=key_help + ", read from FILE")
        p.add_argument("--key-env", metavar="VAR", help=key_help + ", read from environment variable VAR")
        p.set_defaults(func=_guard(_cmd_send))
    elif name == "recv":
        p.description = ("Receive one flow from a `vidcc send` and write the tables a simulated run writes "
                         "(flows, flow_summary, aggregate, flow_samples, packets, frames, video_summary).")
        p.add_argument("--listen", required=True, metavar="HOST:PORT", help="address to receive on")
        p.add_argument("--out", required=True, metavar="DIR", help="output directory")
        p.add_argument("--idle", default="5s", help="end after this long without a datagram (default 5s)")
        p.add_argument("--wait", help="give up if no sender arrives within this (default: wait)")
        p.add_argument("--max-state", metavar="SIZE",
                       help="bound on the recorded state; arrivals beyond it are counted, not recorded (default 64MB)")
        p.add_argument("--no-figures", action="store_true", help="do not draw PNG figures")
        p.add_argument("--quiet", "-q", action="store_true", help="print nothing but errors")
        p.add_argument("--key-file", metavar="FILE", help=key_help + ", read from FILE")
        p.add_argument("--key-env", metavar="VAR", help=key_help + ", read from environment variable VAR")
        p.set_defaults(func=_guard(_cmd_recv))
    else:
        p.description = ("An emulated bottleneck: relay UDP from --listen to --to and back through the simulator's "
                         "queue and loss models at a serialisation rate and a propagation delay, per direction.")
        p.add_argument("--listen", required=True, metavar="HOST:PORT", help="where senders send")
        p.add_argument("--to", required=True, metavar="HOST:PORT", help="where the forward direction goes")
        p.add_argument("--bandwidth", required=True, help="serialisation rate, e.g. 2Mbps")
        p.add_argument("--delay", required=True, help="one-way propagation delay, e.g. 30ms")
        p.add_argument("--queue", required=True, help="queue limit: packets (50) or a size (64KB)")
        p.add_argument("--red", action="store_true", help="RED (ns-2 defaults) instead of DropTail")
        p.add_argument("--protocol-sizes", action="store_true",
                       help="queue and serialise each datagram by the protocol's bytes, as the simulator sizes "
                            "packets (without the driver's envelope)")
        p.add_argument("--loss", help="loss model: bernoulli:p=0.01, gilbert-elliott:p=0.01,r=0.15, "
                                      "correlated-bernoulli:p=0.01,q=0.15")
        p.add_argument("--reverse", help='reverse direction\'s changes: "bandwidth=.. delay=.. queue=.. loss=.." '
                                         "(default: as forward, without loss)")
        p.add_argument("--seed", type=int, default=1, help="seed of the loss and RED random streams (default 1)")
        p.add_argument("--duration", help="stop after this long (default: until Ctrl-C)")
        p.add_argument("--stats", metavar="FILE", help="write the link's counters here (JSON)")
        p.set_defaults(func=_guard(_cmd_link))


def _guard(cmd):
    def run(args: argparse.Namespace) -> int:
        from vidcc.cli_common import print_error

        try:
            return cmd(args)
        except NetError as e:
            print_error(e)
            return 2

    return run

