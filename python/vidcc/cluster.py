"""Where a sweep's runs execute: local worker processes, or a Dask distributed cluster.

Both executors run the same pure function (:func:`vidcc.point.simulate_point`) and hand its
return value back to the main process, which alone writes the results database. They share a
small interface so that :func:`vidcc.sweep.run_sweep` has one loop:

* ``window``: how many runs to keep in flight;
* ``submit(scenario, seed, source, key=...)`` → a future;
* ``wait(futures, timeout)`` → the finished ones (returns early, so Ctrl-C is seen quickly);
* ``result(future)`` → the payload, or :class:`WorkerLost` if the process running it died;
* ``close(cancel=False)``.

We do not schedule anything ourselves: local runs go through
``concurrent.futures.ProcessPoolExecutor`` and cluster runs through ``dask.distributed``.
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import os
import socket
import threading
import time
from typing import Any
from urllib.parse import urlsplit

from vidcc.point import simulate_point
from vidcc.sweep_spec import SweepError

__all__ = ["LocalExecutor", "DaskExecutor", "WorkerLost", "connect", "CONNECT_TIMEOUT_S"]

# An unreachable scheduler must fail the command quickly, not after Dask's default 30 s.
CONNECT_TIMEOUT_S = 5.0


class WorkerLost(RuntimeError):
    """The process running a run died (killed, out of memory) before returning."""


# --------------------------------------------------------------------------------------------
# Local processes


def _worker_init(main_pid: int) -> None:
    """Runs once in every local worker process.

    * Ctrl-C in a terminal reaches the whole process group; the main process handles it (it
      records what finished, then stops the workers), so workers ignore SIGINT instead of
      dying with a traceback each.
    * If the main process is killed (SIGKILL), nothing tells a pool worker, and the fork
      server (the worker's parent) stays up as long as its workers do. A watchdog thread
      exits the worker once the main process is gone, so no simulation runs for nobody.
    * One thread per worker: the sweep's parallelism is the processes.
    """
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    identity = _identity(main_pid)

    def watchdog() -> None:
        while True:
            time.sleep(0.5)
            if _identity(main_pid) != identity:
                os._exit(1)

    threading.Thread(target=watchdog, name="vidcc-orphan-watchdog", daemon=True).start()
    _preload()
    try:
        import pyarrow

        pyarrow.set_cpu_count(1)
        pyarrow.set_io_thread_count(1)
    except Exception:  # noqa: BLE001
        pass


def _identity(pid: int) -> str | None:
    """Something that changes when process ``pid`` dies: its start time (Linux), so that a
    killed main process that is still a zombie, or a new process given the same pid, does not
    count as alive. None when it is gone."""
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        return None if fields[0] in ("Z", "X") else fields[19]
    except FileNotFoundError:
        return None
    except (OSError, IndexError):
        pass
    try:  # no /proc: the pid exists or it does not
        os.kill(pid, 0)
        return "alive"
    except ProcessLookupError:
        return None
    except OSError:
        return "alive"


def _preload() -> None:
    """The imports every run needs, done once per worker (or once in the fork server), not
    inside the first run's timing."""
    import pyarrow  # noqa: F401
    import pyarrow.compute  # noqa: F401
    import pyarrow.parquet  # noqa: F401

    from vidcc import point, runids

    point.code_version()  # runs git once per process; cached
    runids.code_fingerprint()  # hashes the extension and the sources once per process; cached


def _context() -> multiprocessing.context.BaseContext:
    """``forkserver`` where there is one (POSIX): a clean server process imports vidcc and
    pyarrow once and forks every worker from there, so starting (or restarting)
    a pool costs milliseconds, and workers inherit none of the main process's threads or
    database handles. ``spawn`` elsewhere."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["vidcc.cluster", "pyarrow", "pyarrow.compute", "pyarrow.parquet"])
        return ctx
    return multiprocessing.get_context("spawn")


class LocalExecutor:
    """A pool of ``jobs`` worker processes (default: all cores) from :func:`_context`."""

    def __init__(self, jobs: int | None = None):
        self.jobs = jobs if jobs is not None else (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)
        # One run per worker plus one queued, so that a worker finishing a run finds the next
        # one without waiting for the main process. When a worker dies every run in flight is
        # charged a death, so few queued runs keep that close to the runs really executing.
        self.window = self.jobs + 1
        self.resubmit_lost = True
        self._ctx = _context()
        self._pool: cf.ProcessPoolExecutor | None = None

    def prestart(self) -> None:
        """Start the fork server now, in the background of whatever the caller does next
        (opening the database): its imports are most of a pool's start-up time."""
        if self._ctx.get_start_method() == "forkserver":
            from multiprocessing import forkserver

            try:
                forkserver.ensure_running()
            except Exception:  # noqa: BLE001 - the pool will start it (or report) itself
                pass

    def _ensure_pool(self) -> cf.ProcessPoolExecutor:
        if self._pool is None:
            self._pool = cf.ProcessPoolExecutor(
                max_workers=self.jobs, mp_context=self._ctx, initializer=_worker_init, initargs=(os.getpid(),)
            )
        return self._pool

    def submit(self, scenario: dict, seed: int, source: str, key: str | None = None) -> cf.Future:
        try:
            pool = self._ensure_pool()
            future = pool.submit(simulate_point, scenario, seed, source)
        except cf.process.BrokenProcessPool:
            self._restart(self._pool)
            pool = self._ensure_pool()
            future = pool.submit(simulate_point, scenario, seed, source)
        future.vidcc_pool = pool  # which pool broke, when it breaks
        return future

    def wait(self, futures: list, timeout: float) -> list:
        if not futures:
            return []
        done, _ = cf.wait(futures, timeout=timeout, return_when=cf.FIRST_COMPLETED)
        return list(done)

    def is_done(self, future: cf.Future) -> bool:
        return future.done()

    def result(self, future: cf.Future) -> dict[str, Any]:
        try:
            return future.result()
        except cf.process.BrokenProcessPool as e:
            self._restart(getattr(future, "vidcc_pool", None))
            raise WorkerLost(" ".join(str(e).split()) or "a worker process terminated abruptly") from None
        except cf.CancelledError:
            raise WorkerLost("cancelled") from None

    def _restart(self, broken: cf.ProcessPoolExecutor | None) -> None:
        """A dead worker breaks the whole pool; the next submit starts a new one. Only the
        broken pool is dropped: the failed futures of an old pool may arrive after the new
        one has started."""
        if broken is not None and broken is self._pool:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def close(self, cancel: bool = False) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        if cancel:
            # Running simulations cannot be cancelled from outside; stop their processes.
            processes = list(getattr(pool, "_processes", {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for p in processes:
                try:
                    p.terminate()
                except Exception:  # noqa: BLE001
                    pass
            for p in processes:
                p.join(timeout=5)
        else:
            pool.shutdown(wait=True)


# --------------------------------------------------------------------------------------------
# Dask


def _probe(address: str, timeout: float) -> None:
    """Open (and close) a TCP connection to the scheduler: "connection refused" or "no route"
    in milliseconds, with the address in the message, instead of Dask's long timeout."""
    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    if parts.scheme not in ("tcp", "tls"):
        return  # other transports: let Dask try, within its own timeout
    try:
        host, port = parts.hostname, parts.port
    except ValueError:
        host, port = None, None
    if not host or not port:
        raise SweepError("--cluster", address, "expected a scheduler address like tcp://HOST:PORT")
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except socket.timeout:
        raise SweepError("--cluster", address, f"cannot reach the Dask scheduler: no answer within {timeout:g} s") from None
    except OSError as e:
        raise SweepError("--cluster", address, f"cannot reach the Dask scheduler: {e.strerror or e}") from None


class DaskExecutor:
    """Runs on a Dask distributed cluster through ``distributed.Client(address)``.

    Every point is submitted at once: Dask balances them over the workers (also ones that join
    later) and reschedules the runs of a worker that dies; after Dask's own retry limit the
    future fails with ``KilledWorker``, which becomes :class:`WorkerLost` here.
    """

    def __init__(self, address: str, timeout: float = CONNECT_TIMEOUT_S):
        _probe(address, timeout)
        from distributed import Client

        try:
            self.client = Client(address, timeout=f"{timeout}s", set_as_default=False)
        except (OSError, TimeoutError) as e:
            raise SweepError("--cluster", address, f"cannot connect to the Dask scheduler: {' '.join(str(e).split())}") from None
        self.address = address
        self.window = 1 << 30
        # Dask already retried the run on other workers before reporting it lost.
        self.resubmit_lost = False
        self._futures: set = set()

    def submit(self, scenario: dict, seed: int, source: str, key: str | None = None):
        future = self.client.submit(simulate_point, scenario, seed, source, key=f"vidcc-run-{key}" if key else None, pure=False)
        self._futures.add(future)
        return future

    def wait(self, futures: list, timeout: float) -> list:
        from distributed import wait

        if not futures:
            return []
        done = [f for f in futures if f.done()]
        if done:
            return done
        try:
            wait(futures, timeout=timeout, return_when="FIRST_COMPLETED")
        except TimeoutError:
            pass
        except Exception:  # noqa: BLE001 - a distributed timeout class of some versions
            pass
        return [f for f in futures if f.done()]

    def is_done(self, future) -> bool:
        return future.done()

    def result(self, future) -> dict[str, Any]:
        try:
            return future.result()
        except Exception as e:  # noqa: BLE001 - KilledWorker, CancelledError, lost scheduler
            raise WorkerLost(f"{type(e).__name__}: {' '.join(str(e).split())}") from None
        finally:
            self._futures.discard(future)
            future.release()

    def close(self, cancel: bool = False) -> None:
        client, self.client = getattr(self, "client", None), None
        if client is None:
            return
        try:
            if cancel and self._futures:
                client.cancel(list(self._futures), force=True)
            self._futures.clear()
        except Exception:  # noqa: BLE001
            pass
        client.close()


def connect(address: str) -> DaskExecutor:
    """The executor for ``--cluster ADDRESS``; raises :class:`SweepError` quickly if the
    scheduler cannot be reached."""
    return DaskExecutor(address)
