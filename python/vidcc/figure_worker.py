"""``vidcc run``'s figures drawn by a child process, while the command simulates and writes its
tables (issue 14, "Whole command"; benches/README.md).

Importing matplotlib and drawing the two figures cost more than the whole simulation of most
scenarios, and all of it holds the GIL. :class:`FigureWorker` forks a child as soon as the scenario
is valid (before numpy is imported, before any thread starts): the child imports what the figures
need while the parent imports numpy, simulates, prints and writes the Parquet files; the parent
then hands it the figures' tables (:meth:`FigureWorker.submit`) and waits for the PNG files
(:meth:`FigureWorker.wait`) before it writes ``summary.json``, the mark of a complete directory.

The child never outlives the command: ``wait`` and ``close`` join it, and it is a daemon
process, which ``multiprocessing`` ends when the parent exits. A failure in the child comes back
as a :class:`RuntimeError` naming it. Only where ``fork`` is the platform's safe default (Linux):
:func:`available` says so; elsewhere the command draws in its own process, as the library does.

This module imports only the standard library in the parent; the child imports ``vidcc.plots``.
"""

from __future__ import annotations

import importlib
import multiprocessing
import sys
import traceback
from collections.abc import Mapping
from pathlib import Path
from typing import Any

__all__ = ["FigureWorker", "available", "import_figure_modules"]

# The tables the figures are drawn from (vidcc.plots.FIGURES), all the child is sent.
FIGURE_TABLES = ("flow_samples", "flows", "queue_samples", "links")


def available() -> bool:
    """Whether figures can be drawn by a forked child here (Linux, where fork is the default)."""
    return sys.platform == "linux" and "fork" in multiprocessing.get_all_start_methods()


def import_figure_modules() -> None:
    """Import what ``vidcc run`` draws its figures with (``vidcc.plots``: ``matplotlib.figure``,
    and the Agg canvas; never pyplot), skipping the property tables matplotlib writes into the
    docstring of every Artist class's ``set()`` while its modules load (``matplotlib.artist.kwdoc``,
    about a third of matplotlib's import time). A command's process only draws PNG files and
    exits: nobody reads those docstrings there. The library (``import vidcc.plots``) does not do
    this."""
    if "matplotlib.figure" in sys.modules:  # already imported: nothing to save
        return
    import matplotlib.artist as artist

    kwdoc = getattr(artist, "kwdoc", None)
    if callable(kwdoc):
        artist.kwdoc = lambda _artist: ""
    try:
        importlib.import_module("vidcc.plots")
        importlib.import_module("matplotlib.backends.backend_agg")
    finally:
        if callable(kwdoc):
            artist.kwdoc = kwdoc


def _child(conn: Any, parent_end: Any) -> None:
    """The child: import, wait for the job, draw and write, report."""
    # The fork copied the parent's end of the pipe: closed here, so that the parent's death
    # reaches `recv` as EOF instead of leaving this process waiting for good.
    parent_end.close()
    try:
        import_figure_modules()
        tables, resolved, out = conn.recv()
        from vidcc import plots
        from vidcc.runner import write_atomic

        for name, make in plots.FIGURES.items():
            fig = make(tables, resolved)
            if fig is not None:
                write_atomic(out / f"{name}.png", lambda p, fig=fig: plots.save(fig, p))
        conn.send(None)
    except (KeyboardInterrupt, EOFError):
        return  # the parent was interrupted too (same terminal) or gave up: it reports it
    except BaseException as e:  # noqa: BLE001  (every failure goes back to the parent)
        lines = traceback.format_exception_only(type(e), e)
        try:
            conn.send(" ".join(" ".join(lines).split()))
        except OSError:
            pass
    finally:
        conn.close()


class FigureWorker:
    """A child process that draws one run's figures (module docstring)."""

    def __init__(self) -> None:
        context = multiprocessing.get_context("fork")
        self._conn, child = context.Pipe()
        self._process = context.Process(target=_child, args=(child, self._conn), name="vidcc-figures", daemon=True)
        self._process.start()
        child.close()
        self._submitted = False

    def submit(self, tables: Mapping[str, Any], resolved: Mapping[str, Any], out: Path) -> None:
        """Hand the child the figures' tables (``FIGURE_TABLES`` of ``tables``) and the output
        directory (created here). Once per worker."""
        if self._submitted:
            raise RuntimeError("this FigureWorker has already drawn a run's figures")
        out.mkdir(parents=True, exist_ok=True)
        figure_tables = {name: tables[name] for name in FIGURE_TABLES if name in tables}
        self._submitted = True
        try:
            self._conn.send((figure_tables, dict(resolved), out))
        except OSError:
            # The child already failed (e.g. importing matplotlib) and closed its end: its
            # message waits in the pipe and `wait` raises it, after the tables are written.
            pass

    @property
    def submitted(self) -> bool:
        return self._submitted

    def wait(self) -> None:
        """Wait for the PNG files; raise RuntimeError if the child failed."""
        try:
            outcome = self._conn.recv()
        except EOFError:
            outcome = f"the figure process ended without drawing (exit code {self._join()})"
        self._join()
        if outcome is not None:
            raise RuntimeError(f"drawing the figures: {outcome}")

    def close(self) -> None:
        """End the child if it is still running (the command stopped before its figures were
        waited for: nothing is left to draw them for)."""
        if self._process.is_alive():
            self._process.terminate()
        self._join()

    def _join(self) -> int | None:
        self._process.join()
        self._conn.close()
        return self._process.exitcode

    def __enter__(self) -> FigureWorker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
