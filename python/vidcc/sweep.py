"""Parameter sweeps: a base scenario, axes over scenario key paths, and seeds.

A sweep file names a base scenario (a file, or an inline ``[base]`` table), one or more axes
(``key`` = a user-level key path such as ``flows[0].count``; ``values`` or an inclusive
``range``) and the seeds. The cross product of the axes and the seeds is the set of runs.

Why it is shaped like this:

* Sweeps edit the **user-level** document (``Scenario.to_dict()``), the same thing a person
  writes, and validate every point again with :class:`vidcc.scenario.Scenario`. So an axis can
  touch any key the schema has, and a bad value gets the schema's own one-line error.
* A run is identified by the hash of its fully **resolved** configuration (which includes the
  seed) and of the code that runs it (:mod:`vidcc.runids`): the same point reached from two
  sweeps, or written two ways (``"10Mbps"`` and ``"10000kbps"``), is one run. That key is what
  makes re-running a sweep cheap: only runs missing from the results database are executed.
  A run made by other code (another build of the simulator, edited sources) is not current: it
  is run again (the old run stays in the database, marked superseded), unless ``reuse_stale``
  asks to reuse it, and then the outcome and its summary line say which runs came from which code.
* Workers are pure: :func:`simulate_point` takes (user-level dict, seed) and returns data. Only
  the main process writes the database (:mod:`vidcc.results`), which keeps it consistent when
  anything is interrupted, and lets the same function run on local processes or on Dask
  workers that do not share a file system (:mod:`vidcc.cluster`).

The file format is documented in ``docs/experiments.md`` ("Sweeps"); keep the two in step.
"""

from __future__ import annotations

import dataclasses
import signal
import threading
import time
from collections.abc import Callable
from os import PathLike
from pathlib import Path
from typing import Any

from vidcc.point import failed_payload, simulate_point
from vidcc.runids import canonical_json, code_fingerprint, code_summary, run_id_of
from vidcc.sweep_spec import Axis, Point, SweepError, SweepSpec, load_sweep, parse_sweep

__all__ = [
    "Axis",
    "SweepSpec",
    "SweepError",
    "SweepOutcome",
    "SweepProgress",
    "SweepInterrupted",
    "Point",
    "load_sweep",
    "parse_sweep",
    "run_sweep",
    "simulate_point",
    "run_id_of",
    "canonical_json",
    "code_fingerprint",
]

# How many times a run may be in flight when its worker process dies before it is recorded as
# failed (a run that kills its worker every time must not stall the sweep forever).
MAX_WORKER_DEATHS = 3


class SweepInterrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM) stopped a sweep. Every run that had finished is in the database;
    ``outcome`` says how far it got. Running the sweep again finishes it."""

    def __init__(self, outcome: SweepOutcome):
        super().__init__("sweep interrupted")
        self.outcome = outcome



# --------------------------------------------------------------------------------------------
# Running a sweep (main process)


@dataclasses.dataclass
class SweepOutcome:
    """What one invocation did. ``total`` points; ``ran`` executed now (ok or failed);
    ``skipped`` already done (status ok) in the database; ``failed`` of those ran;
    ``run_ids`` of every point, in point order (the run that stands for the point: with
    ``reuse_stale``, possibly one made by other code).

    ``stale``: run_id → code fingerprint (None: unknown, recorded before fingerprints) of the
    runs of *other code* this sweep reused (``reuse_stale``; they are counted in ``skipped``).
    ``rerun_stale``: how many points had only other code's runs and were run again.
    ``code``: this process's code fingerprint."""

    total: int
    ran: int
    skipped: int
    failed: int
    run_ids: list[str]
    errors: dict[str, str] = dataclasses.field(default_factory=dict)
    wall_seconds: float = 0.0
    interrupted: bool = False
    stale: dict[str, str | None] = dataclasses.field(default_factory=dict)
    rerun_stale: int = 0
    code: str = ""

    @property
    def remaining(self) -> int:
        return self.total - self.ran - self.skipped


@dataclasses.dataclass(frozen=True)
class SweepProgress:
    """Passed to a ``progress`` callable after every recorded run."""

    total: int
    skipped: int
    done: int
    failed: int
    remaining: int


ProgressArg = bool | Callable[[SweepProgress], None] | None


def run_sweep(
    spec: SweepSpec,
    *,
    db: str | PathLike[str] | None = None,
    jobs: int | None = None,
    cluster: str | None = None,
    force: bool = False,
    reuse_stale: bool = False,
    progress: ProgressArg = False,
) -> SweepOutcome:
    """Run the points of ``spec`` that the database ``db`` does not hold yet from this code
    (all of them with ``force``) and record each as it finishes.

    ``reuse_stale``: a point whose only recorded run was made by other code (another code
    fingerprint, or one recorded before fingerprints existed) reuses that run instead of
    running again; ``SweepOutcome.stale`` lists them. Default: such points run again.

    ``jobs``: local worker processes (default: all cores). ``cluster``: the address of a Dask
    scheduler (``tcp://host:port``) to run on instead. ``progress``: False, True (a rich bar on
    stderr) or a callable receiving :class:`SweepProgress`.

    A failing run is recorded with its error and does not stop the sweep. Ctrl-C (SIGINT) or
    SIGTERM stops it after recording what has finished and raises :class:`SweepInterrupted`.
    A sweep-file problem or an unreachable cluster raises :class:`SweepError`.
    """
    from vidcc import cluster as backends
    from vidcc import results

    t_start = time.perf_counter()
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
        raise SweepError("--jobs", "", f"expected a number of processes >= 1, got {jobs!r}")
    if jobs is not None and cluster is not None:
        raise SweepError("--cluster", "", "give either jobs (local processes) or cluster, not both")
    if force and reuse_stale:
        raise SweepError("--reuse-stale", "", "give either force (run everything again) or reuse_stale, not both")
    db = Path(db) if db is not None else results.default_db()
    if cluster is None:
        executor = backends.LocalExecutor(jobs)
        if force or not db.exists():
            # Everything will run: the workers' imports start now, beside the validation of
            # the points and the creation of the database.
            executor.prestart()
    points = spec.points()
    if cluster is not None:
        executor = backends.connect(cluster)  # fail fast, before touching the database
    try:
        store = results.Store(db)
    except BaseException:
        executor.close()
        raise
    outcome = SweepOutcome(total=len(points), ran=0, skipped=0, failed=0, run_ids=[p.run_id for p in points],
                           code=code_fingerprint())
    bar = _Bar(spec.name, progress) if progress else None
    stop = _StopFlag()
    try:
        status = store.statuses([p.run_id for p in points])
        done_ok = {p.run_id for p in points if status.get(p.run_id) == "ok"} if not force else set()
        others = store.other_code_runs(p for p in points if p.run_id not in done_ok) if not force else {}
        reused = {}
        if reuse_stale:
            reused = {point_id: old for point_id, (old, _) in others.items()}
            outcome.stale = {old: code for old, code in others.values()}
            outcome.run_ids = [reused.get(p.run_id, p.run_id) for p in points]
            done_ok |= set(reused)
        else:
            outcome.rerun_stale = len(others)
        store.begin_sweep(spec, points, done_ok, reused)
        todo = [p for p in points if p.run_id not in done_ok]
        outcome.skipped = len(points) - len(todo)

        def record(point: Point, payload: dict[str, Any]) -> None:
            store.record(spec.name, point, payload)
            outcome.ran += 1
            if payload["status"] != "ok":
                outcome.failed += 1
                outcome.errors[point.run_id] = payload["error"] or "failed"
            report()

        def report() -> None:
            state = SweepProgress(outcome.total, outcome.skipped, outcome.ran - outcome.failed, outcome.failed, outcome.remaining)
            if bar is not None:
                bar.update(state)

        report()
        runnable = []
        for p in todo:
            if p.error is not None:
                record(p, failed_payload(p, p.error))
            else:
                runnable.append(p)
        if runnable:
            if isinstance(executor, backends.LocalExecutor):
                executor.prestart()
            with stop.installed():
                _execute(executor, runnable, spec.source, record, stop)
        if stop.requested:
            raise KeyboardInterrupt
    except KeyboardInterrupt:
        outcome.interrupted = True
        outcome.wall_seconds = time.perf_counter() - t_start
        if executor is not None:
            executor.close(cancel=True)
            executor = None
        raise SweepInterrupted(outcome) from None
    except BaseException:
        if executor is not None:  # do not wait for running simulations whose results are lost
            executor.close(cancel=True)
            executor = None
        raise
    finally:
        if bar is not None:
            bar.close()
        if executor is not None:
            executor.close()
        store.close()
    outcome.wall_seconds = time.perf_counter() - t_start
    return outcome


def _execute(executor, points: list[Point], source: str, record: Callable[[Point, dict], None], stop: _StopFlag) -> None:
    """Keep the executor busy until every point is recorded or a stop is requested. A run whose
    worker died is resubmitted, up to MAX_WORKER_DEATHS times."""
    from vidcc.cluster import WorkerLost

    pending = list(reversed(points))  # pop() from the end keeps point order
    inflight: dict[Any, Point] = {}
    deaths: dict[str, int] = {}

    def fill() -> None:
        while pending and len(inflight) < executor.window:
            p = pending.pop()
            inflight[executor.submit(p.scenario, p.seed, source, key=f"{p.run_id}-{deaths.get(p.run_id, 0)}")] = p

    while pending or inflight:
        if stop.requested:
            break
        fill()
        done: list[tuple[Point, dict]] = []
        for fut in executor.wait(list(inflight), timeout=0.25):
            p = inflight.pop(fut)
            try:
                payload = executor.result(fut)
            except WorkerLost as e:
                deaths[p.run_id] = deaths.get(p.run_id, 0) + 1
                if deaths[p.run_id] >= MAX_WORKER_DEATHS or not executor.resubmit_lost:
                    times = f" {deaths[p.run_id]} times" if executor.resubmit_lost else ""
                    done.append((p, failed_payload(p, f"the worker process died{times} while running it ({e})")))
                else:
                    pending.append(p)
                continue
            if payload.get("status") == "ok" and payload.get("run_id") != p.run_id:
                # A worker whose scenario code resolves differently (another vidcc version on a
                # cluster) must not file its result under this point's id.
                theirs, ours = payload.get("code_fingerprint") or "?", code_fingerprint()
                why = (f"runs other code (worker code {theirs[:12]}, here {ours[:12]})" if theirs != ours
                       else "resolved a different configuration")
                payload = failed_payload(p, f"the worker {why} (worker vidcc {payload.get('vidcc_version')}); is the same vidcc installed everywhere?")
            done.append((p, payload))
        if not stop.requested:
            fill()  # the workers get their next run before this process spends time recording
        for p, payload in done:
            record(p, payload)
    if stop.requested:
        # Keep what has already finished, then let the caller stop the workers.
        for fut in [f for f in inflight if executor.is_done(f)]:
            p = inflight.pop(fut)
            try:
                payload = executor.result(fut)
            except Exception:  # noqa: BLE001
                continue
            if payload.get("status") == "ok" and payload.get("run_id") == p.run_id:
                record(p, payload)


class _StopFlag:
    """The first SIGINT/SIGTERM asks the sweep to stop between two runs (so no database write
    is cut in half); a second SIGINT interrupts at once."""

    def __init__(self):
        self.requested = False

    def _handle(self, signum, frame):
        if self.requested and signum == signal.SIGINT:
            raise KeyboardInterrupt
        self.requested = True

    def installed(self):
        flag = self

        class _Ctx:
            def __enter__(self):
                self.old = {}
                if threading.current_thread() is threading.main_thread():
                    for sig in (signal.SIGINT, signal.SIGTERM):
                        self.old[sig] = signal.signal(sig, flag._handle)
                return flag

            def __exit__(self, *exc):
                for sig, handler in self.old.items():
                    signal.signal(sig, handler)
                return False

        return _Ctx()


class _Bar:
    """A rich progress bar on stderr: runs done / failed / remaining."""

    def __init__(self, name: str, progress: ProgressArg):
        self.callback = progress if callable(progress) else None
        self.bar = None
        if progress is True:
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

            self.bar = Progress(
                TextColumn(f"[bold]{_escape(name)}"),
                BarColumn(),
                TextColumn("[green]{task.fields[done]} done[/] [red]{task.fields[failed]} failed[/] {task.fields[remaining]} remaining"),
                TimeElapsedColumn(),
                TextColumn("eta"),
                TimeRemainingColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            self.task = None
            self.bar.start()

    def update(self, s: SweepProgress) -> None:
        if self.callback is not None:
            self.callback(s)
        if self.bar is not None:
            todo = s.total - s.skipped
            if self.task is None:
                self.task = self.bar.add_task("sweep", total=todo, done=0, failed=0, remaining=todo)
            self.bar.update(self.task, completed=s.done + s.failed, done=s.done, failed=s.failed, remaining=s.remaining)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def _escape(text: str) -> str:
    from rich.markup import escape

    return escape(text)


def describe(outcome: SweepOutcome, name: str, db: str | PathLike[str]) -> str:
    """The one-line summary the CLI prints at the end of a sweep."""
    ok = outcome.ran - outcome.failed
    text = (
        f"sweep {name}: {outcome.total} run{'s' if outcome.total != 1 else ''}: "
        f"{outcome.ran} ran ({ok} ok, {outcome.failed} failed), {outcome.skipped} already done"
    )
    if outcome.rerun_stale:
        text += f" ({outcome.rerun_stale} of those ran had only runs by other code, kept as superseded)"
    if outcome.stale:
        text += f"; MIXED CODE: {len(outcome.stale)} reused from other code ({code_summary(outcome.stale.values())}; this code {outcome.code[:12]})"
    if outcome.interrupted:
        text += f", {outcome.remaining} not run (interrupted; run again to finish)"
    return text + f"; {outcome.wall_seconds:.1f} s; {db}"

