"""Hand-made results for one figure of a paper suite: runs, flows and per-run series tables, so that
a check can be tried on numbers chosen to tell a faithful reading from a wrong one."""

from __future__ import annotations

import pandas as pd

from vidcc.papers.measures import FigureData


def figure_data(figure, runs: list[dict], flows: list[dict], series: dict[tuple[str, str], pd.DataFrame],
                aggregate: list[dict] | None = None) -> FigureData:
    """``runs``: rows with run_id, part, seed and axis columns; ``flows``: run_flows rows (their
    run's columns are filled in); ``series``: (run_id, table) → that run's table."""
    by_id = {r["run_id"]: r for r in runs}
    flows = [{**{k: v for k, v in by_id[f["run_id"]].items() if k != "resolved_json"}, **f} for f in flows]
    tables = {"runs": pd.DataFrame(runs), "run_flows": pd.DataFrame(flows),
              "run_aggregate": pd.DataFrame(aggregate or [])}
    return FigureData(figure, tables, ran=sorted({r["part"] for r in runs}),
                      series=lambda rid, table: series.get((rid, table), pd.DataFrame()))


def run(run_id: str, part: str, seed: int = 1, **axes) -> dict:
    return {"run_id": run_id, "part": part, "seed": seed, **axes}


def events(rows: list[tuple[float, int, str, float]]) -> pd.DataFrame:
    """(t in s, flow, kind, value) rows as an ``events`` table."""
    return pd.DataFrame([{"t_ns": int(t * 1e9), "flow": f, "side": "sender", "kind": k, "value": v}
                         for t, f, k, v in rows])


def samples(flow: int, points: list[tuple[float, float]]) -> pd.DataFrame:
    """(t in s, throughput in bit/s) rows as a ``flow_samples`` table of one flow."""
    return pd.DataFrame([{"t_ns": int(t * 1e9), "flow": flow, "receiver": 0, "throughput_bps": x, "jitter_ns": 0.0}
                         for t, x in points])
