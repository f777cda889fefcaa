"""Running ns-2 on a generated script and reading back the counters it writes.

The results file (written by the script's ``finish``; see :mod:`vidcc.validate.tcl`)::

    vidcc-ns2-results 1
    bottleneck arrivals A queue_drops Q loss_drops L
    queue samples N sum S
    flow I packets P timeouts T cuts C      (one line per flow instance)
    receiver F J packets P                  (one line per multicast receiver J of flow F)
    layers F J T N                          (receiver F,J subscribed N layers at T seconds)
    estimate F J T BPS                      (its check period closed at T on this minimum estimate)
    end

``packets`` are the flow's delivered data packets after the warmup (TCP: in-order segments, from
the cumulative ACK; others: packets handed to the sink's host), ``timeouts`` ns-2's ``nrexmit_``
and ``cuts`` its ``ncwndcuts1_`` (window reductions with data outstanding: fast retransmits and
timeouts) over the same interval. A receiver's ``packets`` are its data packets after the warmup;
its ``layers`` and ``estimate`` lines are logged from the start, in time order, after its
``receiver`` line. The final ``end`` line proves the file is complete. Every
deviation from this is an :class:`Ns2OutputError` naming the file and line.
"""

from __future__ import annotations

import math
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from vidcc.validate.tcl import RESULTS_MAGIC

INSTALL_HINT = (
    "ns-2 (the `ns` command) is not installed. On Debian/Ubuntu run `sudo apt-get install -y ns2` "
    "(or `make validate` as root, which installs it), then run `make validate` again."
)


class Ns2Error(RuntimeError):
    """ns-2 is missing or a run failed (message says which case and why)."""


class Ns2OutputError(ValueError):
    """A results file that is missing, truncated or garbled (message names file and line)."""


@dataclass(frozen=True)
class FlowCounters:
    packets: int
    timeouts: int
    cuts: int


@dataclass(frozen=True)
class Ns2Output:
    arrivals: int
    queue_drops: int
    loss_drops: int
    queue_samples: int
    queue_sum: float
    flows: dict[int, FlowCounters]
    # multicast receivers, keyed (flow, receiver)
    receivers: dict[tuple[int, int], int] = field(default_factory=dict)  # packets after the warmup
    layers: dict[tuple[int, int], list[tuple[float, int]]] = field(default_factory=dict)  # (t s, layers)
    estimates: dict[tuple[int, int], list[tuple[float, float]]] = field(default_factory=dict)  # (t s, bit/s)


def ns_binary() -> str:
    path = shutil.which("ns")
    if path is None:
        raise Ns2Error(INSTALL_HINT)
    return path


def run(script: Path, output: Path, *, timeout_s: float = 600.0) -> Ns2Output:
    """Run ``ns script output`` and parse what it wrote."""
    output.unlink(missing_ok=True)
    try:
        proc = subprocess.run(
            [ns_binary(), str(script), str(output)], capture_output=True, text=True, timeout=timeout_s, check=False
        )
    except subprocess.TimeoutExpired:
        raise Ns2Error(f"{script}: ns-2 did not finish within {timeout_s:.0f} s") from None
    if proc.returncode != 0:
        tail = "\n".join((proc.stderr or proc.stdout).strip().splitlines()[-8:])
        raise Ns2Error(f"{script}: ns-2 exited with status {proc.returncode}:\n{tail}")
    return read(output)


def read(path: Path) -> Ns2Output:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise Ns2OutputError(f"{path}: ns-2 results file is missing (did the script reach `finish`?)") from None
    except UnicodeDecodeError as e:
        raise Ns2OutputError(f"{path}: not a text file ({e.reason} at byte {e.start})") from None
    return parse(text, str(path))


def _fields(source: str, n: int, words: list[str], keys: tuple[str, ...], kinds: tuple[type, ...]) -> list:
    """``word0 word1 key value key value ...`` with the expected keys in order."""
    values = words[len(words) - 2 * len(keys) :]
    head = words[: len(words) - 2 * len(keys)]
    want = " ".join(f"{k} <{t.__name__}>" for k, t in zip(keys, kinds, strict=True))
    if len(values) != 2 * len(keys) or [values[2 * i] for i in range(len(keys))] != list(keys):
        raise Ns2OutputError(f"{source}: line {n}: expected `{' '.join(head)} {want}`, got {' '.join(words)!r}")
    out = []
    for k, t, v in zip(keys, kinds, values[1::2], strict=True):
        try:
            x = t(v)
        except ValueError:
            raise Ns2OutputError(f"{source}: line {n}: {k} = {v!r} is not a valid {t.__name__}") from None
        if x < 0:
            raise Ns2OutputError(f"{source}: line {n}: {k} = {v} is negative")
        out.append(x)
    return out


def parse(text: str, source: str = "<ns-2 output>") -> Ns2Output:
    lines = text.splitlines()
    if not lines or lines[0].strip() != RESULTS_MAGIC:
        first = lines[0][:60] if lines else "an empty file"
        raise Ns2OutputError(f"{source}: line 1: expected {RESULTS_MAGIC!r}, got {first!r}")
    bottleneck = queue = None
    flows: dict[int, FlowCounters] = {}
    receivers: dict[tuple[int, int], int] = {}
    logs: dict[str, dict[tuple[int, int], list]] = {"layers": {}, "estimate": {}}
    ended = False
    for n, line in enumerate(lines[1:], start=2):
        words = line.split()
        if ended:
            if words:
                raise Ns2OutputError(f"{source}: line {n}: text after `end`")
            continue
        if not words:
            continue
        if words == ["end"]:
            ended = True
        elif words[0] == "bottleneck" and len(words) == 7:
            bottleneck = _fields(source, n, words, ("arrivals", "queue_drops", "loss_drops"), (int, int, int))
        elif words[:2] == ["queue", "samples"] and len(words) == 5:
            queue = _fields(source, n, ["queue", *words[1:]], ("samples", "sum"), (int, float))
        elif words[0] == "flow" and len(words) == 8:
            try:
                index = int(words[1])
            except ValueError:
                raise Ns2OutputError(f"{source}: line {n}: flow index {words[1]!r} is not an integer") from None
            if index in flows:
                raise Ns2OutputError(f"{source}: line {n}: flow {index} appears twice")
            flows[index] = FlowCounters(*_fields(source, n, words, ("packets", "timeouts", "cuts"), (int, int, int)))
        elif words[0] in ("receiver", "layers", "estimate") and len(words) == 5:
            _receiver_line(source, n, words, receivers, logs)
        else:
            raise Ns2OutputError(f"{source}: line {n}: unrecognised line {line[:80]!r}")
    if not ended:
        raise Ns2OutputError(f"{source}: truncated: no final `end` line")
    if bottleneck is None or queue is None:
        missing = "bottleneck" if bottleneck is None else "queue samples"
        raise Ns2OutputError(f"{source}: no `{missing}` line")
    return Ns2Output(
        arrivals=bottleneck[0],
        queue_drops=bottleneck[1],
        loss_drops=bottleneck[2],
        queue_samples=queue[0],
        queue_sum=queue[1],
        flows=flows,
        receivers=receivers,
        layers=logs["layers"],
        estimates=logs["estimate"],
    )


def _number(source: str, n: int, what: str, text: str, kind: type) -> float:
    try:
        x = kind(text)
    except ValueError:
        raise Ns2OutputError(f"{source}: line {n}: {what} = {text!r} is not a valid {kind.__name__}") from None
    if not math.isfinite(x) or x < 0:
        raise Ns2OutputError(f"{source}: line {n}: {what} = {text} is negative or not finite")
    return x


def _receiver_line(
    source: str, n: int, words: list[str], receivers: dict[tuple[int, int], int], logs: dict[str, dict]
) -> None:
    """``receiver F J packets P``, ``layers F J T N``, ``estimate F J T BPS`` (module docs)."""
    kind = words[0]
    key = (int(_number(source, n, "flow", words[1], int)), int(_number(source, n, "receiver", words[2], int)))
    if kind == "receiver":
        if words[3] != "packets":
            raise Ns2OutputError(f"{source}: line {n}: expected `receiver F J packets <int>`, got {' '.join(words)!r}")
        if key in receivers:
            raise Ns2OutputError(f"{source}: line {n}: receiver {key[0]},{key[1]} appears twice")
        receivers[key] = int(_number(source, n, "packets", words[4], int))
        return
    if key not in receivers:
        raise Ns2OutputError(f"{source}: line {n}: {kind} of receiver {key[0]},{key[1]} before its `receiver` line")
    t = _number(source, n, "time", words[3], float)
    value = _number(source, n, kind, words[4], int if kind == "layers" else float)
    log = logs[kind].setdefault(key, [])
    if log and t < log[-1][0]:
        raise Ns2OutputError(
            f"{source}: line {n}: {kind} of receiver {key[0]},{key[1]} goes back in time ({t} < {log[-1][0]})"
        )
    log.append((t, value))
