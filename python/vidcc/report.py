"""The output of ``vidcc reproduce``: a self-contained HTML report and ``claims.json``.

``report.html`` needs nothing but itself: figures are embedded as base64 PNG (``data:`` URIs;
each also links its SVG as a ``data:`` URI), the style sheet is inline, there are no scripts
and no external references. It opens with the summary count of claim statuses, then one
section per figure of the paper (caption, what was run, the plots, the claims that read it),
then the claims without a figure.

``claims.json`` is the machine-readable twin: paper, scale, vidcc version, the code fingerprint
that made the report, and per claim its id, kind (``paper`` or ``baseline``), text, status
(PASS / FAIL / UNSTABLE / NOT-YET), the measured values that decided it, its ``stability``
(the check on each seed alone) and a one-line explanation. Parts and figures whose results
include runs made by other code (``--reuse-stale``) say so (``other_code``), in the report too.
For ``vidcc reproduce all`` the top-level files hold every paper (``papers``), and each paper
also gets its own directory.
"""

from __future__ import annotations

import base64
import html
import json
import math
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Sequence

from vidcc import __version__
from vidcc.papers.model import (
    FAIL,
    FAIL_SHARE,
    NOT_YET,
    PASS,
    PASS_SHARE,
    STATUSES,
    UNSTABLE,
    ClaimResult,
    FigureRun,
    SuiteRun,
)
from vidcc.papers.provenance import Ns2, Paper, Reconstruction, setup_rows
from vidcc.runids import analysis_fingerprint, code_fingerprint, code_summary

__all__ = ["suite_document", "write_suite", "write_all", "render_html"]


def _json_value(x: Any) -> Any:
    if isinstance(x, float) and (math.isnan(x) or math.isinf(x)):
        return None
    if isinstance(x, dict):
        return {str(k): _json_value(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_json_value(v) for v in x]
    if hasattr(x, "item"):  # numpy scalars
        return _json_value(x.item())
    return x


def _claim_doc(c: ClaimResult) -> dict[str, Any]:
    cl = c.claim
    return {
        "id": cl.id,
        "kind": cl.kind,
        "text": cl.text,
        "ref": cl.ref,
        "figure": cl.figure,
        "protocols": list(cl.protocols),
        "needs": list(cl.needs),
        "status": c.status,
        "measured": _json_value(c.measured),
        "stability": _stability_doc(c),
        "explanation": c.explanation,
        **({"category": _category_doc(c)} if c.status in (FAIL, UNSTABLE) else {}),
    }


def _category_doc(c: ClaimResult) -> dict[str, str] | None:
    """Why a FAIL or UNSTABLE does not reproduce (vidcc.papers.categories), or None when the claim is
    not classified yet."""
    return None if c.category is None else {"name": c.category.category.value, "evidence": c.category.evidence}


def _stability_doc(c: ClaimResult) -> dict[str, Any] | None:
    st = c.stability
    if st is None:
        return None
    return {"pooled": st.pooled, "seeds_held": st.held, "seeds_decided": st.decided, "share": st.share,
            "per_seed": {str(k): v for k, v in st.per_seed.items()}, "note": st.note, "text": st.text}


def _part_doc(p) -> dict[str, Any]:
    return {
        "name": p.part.name,
        "kind": p.part.kind,
        "status": p.status,
        "protocols": p.part.protocols(),
        "reasons": list(p.reasons),
        "note": p.part.note,
        "sweep": p.sweep,
        "axes": _json_value(p.axes),
        "seeds": list(p.seeds),
        "runs": p.total,
        "ran": p.ran,
        "reused": p.skipped,
        "failed": p.failed,
        "errors": list(p.errors),
        "other_code": _other_code(p.stale),
    }


def _other_code(stale: dict[str, str | None]) -> dict[str, Any] | None:
    """Runs made by other code that stand in these results (``--reuse-stale``), or None."""
    if not stale:
        return None
    return {"runs": len(stale), "codes": sorted({c or "unknown" for c in stale.values()}), "summary": code_summary(stale.values())}


def suite_document(run: SuiteRun) -> dict[str, Any]:
    """The ``claims.json`` document of one paper."""
    s = run.suite
    return {
        "paper": s.name,
        "title": s.title,
        "citation": s.citation,
        "page": s.page,
        "scale": run.scale,
        "vidcc_version": __version__,
        "code_fingerprint": code_fingerprint(),
        "analysis_fingerprint": analysis_fingerprint(),
        "summary": run.counts(),
        "categories": run.categories(),
        "runs": _runs_doc(run),
        "wall_seconds": round(run.wall_seconds, 1),
        "figures": [
            {
                "id": f.figure.id,
                "title": f.figure.title,
                "ref": f.figure.ref,
                "status": f.status,
                "other_code": _other_code(f.stale),
                "parts": [_part_doc(p) for p in f.parts],
                "images": [Path(i.png).name for i in f.images],
                "setup": _setup_doc(run, f.figure),
            }
            for f in run.figures
        ],
        "claims": [_claim_doc(c) for c in run.claims],
        **({"explore": [_trial_doc(t) for t in run.explored]} if run.explored else {}),
    }


def _runs_doc(run: SuiteRun) -> dict[str, Any]:
    """How many runs stand behind the verdicts, how many this reproduction made and how many it
    found in the database, and ``seconds``: the workers' time that made them, summed over the runs
    (what they cost whenever they were made; ``wall_seconds`` beside it is this reproduction's)."""
    parts = [p for f in run.figures for p in f.parts]
    per_run: dict[str, float] = {}  # a run behind two figures is counted once
    made_by: dict[str, str | None] = {}
    for f in run.figures:
        if f.data is not None:
            runs = f.data.runs()
            if "wall_seconds" in runs.columns and not runs.empty:
                per_run.update(zip(runs["run_id"], runs["wall_seconds"].fillna(0).astype(float)))
            if "code_fingerprint" in runs.columns and not runs.empty:
                made_by.update((r, c if isinstance(c, str) and c else None)
                               for r, c in zip(runs["run_id"], runs["code_fingerprint"]))
    seconds = sum(per_run.values())
    codes = {c for c in made_by.values()}
    return {"total": sum(p.total for p in parts), "made": sum(p.ran for p in parts),
            "reused": sum(p.skipped for p in parts), "failed": sum(p.failed for p in parts),
            "seeds": max((len(p.seeds) for p in parts), default=0), "seconds": round(seconds, 1),
            # The run code: the code fingerprint of the runs behind the verdicts (one code, or None
            # when they were made by several, or by code without a fingerprint), which differs from
            # ``code_fingerprint`` (this process's) when stored runs were re-judged (--reuse-stale).
            "code": next(iter(codes)) if len(codes) == 1 and None not in codes else None,
            "codes": code_summary(made_by.values())}


def _trial_doc(t) -> dict[str, Any]:
    """One ``--explore`` trial (:class:`vidcc.papers.explore.Trial`) in ``claims.json``."""
    return {
        "alternatives": list(t.alternatives),
        "combined": t.combined,
        "for_claims": list(t.targets),
        "summary": t.counts,
        "wall_seconds": t.wall_seconds,
        "gains": [c.claim for c in t.gains],
        "costs": [c.claim for c in t.costs],
        "changes": [{"claim": c.claim, "before": c.before, "after": c.after, "explanation": c.explanation}
                    for c in t.changes],
    }


def _dump(path: Path, doc: dict) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(_json_value(doc), indent=2, ensure_ascii=False, allow_nan=False) + "\n", encoding="utf-8")
    tmp.replace(path)


def write_suite(run: SuiteRun, out_dir: str | Path) -> tuple[Path, Path]:
    """Write ``report.html`` and ``claims.json`` of one paper into ``out_dir``."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    _dump(out / "claims.json", suite_document(run))
    page = out / "report.html"
    tmp = page.with_name(".report.html.tmp")
    tmp.write_text(render_html([run], title=f"vidcc reproduce {run.suite.name} ({run.scale})"), encoding="utf-8")
    tmp.replace(page)
    return page, out / "claims.json"


def write_all(runs: Sequence[SuiteRun], out_dir: str | Path, scale: str) -> tuple[Path, Path]:
    """The combined report of ``vidcc reproduce all`` (each paper's own files are written by
    :func:`write_suite` into ``out_dir/<paper>``)."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    total = {s: 0 for s in STATUSES}
    by_category: dict[str, int] = {}
    for r in runs:
        for k, v in r.counts().items():
            total[k] += v
        for k, v in r.categories().items():
            by_category[k] = by_category.get(k, 0) + v
    _dump(out / "claims.json", {"paper": "all", "scale": scale, "vidcc_version": __version__, "summary": total,
                                "categories": by_category, "papers": [suite_document(r) for r in runs]})
    page = out / "report.html"
    tmp = page.with_name(".report.html.tmp")
    tmp.write_text(render_html(runs, title=f"vidcc reproduce all ({scale})"), encoding="utf-8")
    tmp.replace(page)
    return page, out / "claims.json"


# --------------------------------------------------------------------------------------------
# HTML

_CSS = """
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto; max-width: 1100px; padding: 0 1em; color: #1d1d1f; }
h1 { font-size: 1.6em; margin-bottom: .2em; } h2 { margin-top: 2.2em; border-bottom: 1px solid #ddd; padding-bottom: .2em; }
h3 { margin-top: 1.6em; } .meta { color: #555; font-size: .9em; }
table { border-collapse: collapse; margin: .6em 0; font-size: .9em; } td, th { border: 1px solid #ddd; padding: .25em .5em; vertical-align: top; text-align: left; }
th { background: #f4f4f6; } .num { text-align: right; font-variant-numeric: tabular-nums; }
.badge { display: inline-block; min-width: 5.5em; text-align: center; font-weight: 600; border-radius: .3em; padding: .05em .4em; font-size: .85em; }
.PASS { background: #d8f5dd; color: #0b6b1d; } .FAIL { background: #fde0e0; color: #9b1111; } .NOT-YET { background: #ececf0; color: #555; }
.UNSTABLE { background: #fff1cc; color: #7a5300; } .claim.UNSTABLE { border-color: #d99a00; background: none; }
.stale { background: #fff1cc; border: 1px solid #d99a00; padding: .3em .6em; }
.summary .badge { font-size: 1.1em; padding: .3em .8em; margin-right: .6em; }
.claim { border-left: 4px solid #ccc; padding: .3em .8em; margin: .8em 0; } .claim.PASS { border-color: #2c9b45; background: none; }
.claim.FAIL { border-color: #c62828; background: none; } .claim.NOT-YET { border-color: #aaa; background: none; }
.explain { font-style: italic; } figure { margin: 1em 0; } figure img { max-width: 100%; border: 1px solid #eee; }
figcaption { font-size: .85em; color: #555; } .kind { color: #777; font-size: .85em; } code { font-size: .9em; }
.notes { font-size: .88em; color: #333; white-space: pre-wrap; background: #fafafa; border: 1px solid #eee; padding: .6em; }
"""


def _e(x: Any) -> str:
    return html.escape(str(x), quote=True)


def _badge(status: str) -> str:
    return f'<span class="badge {_e(status)}">{_e(status)}</span>'


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.6g}"
    if v is None:
        return "–"
    return str(v)


def _data_uri(path: Path, mime: str) -> str:
    return f"data:{mime};base64," + base64.b64encode(Path(path).read_bytes()).decode("ascii")


def _claim_html(c: ClaimResult, anchor_prefix: str) -> str:
    cl = c.claim
    kind = "baseline check" if cl.kind == "baseline" else "paper claim"
    refs = " · ".join(x for x in (cl.ref, ", ".join(cl.protocols) and "needs " + ", ".join(cl.protocols)) if x)
    out = [f'<div class="claim {_e(c.status)}" id="{_e(anchor_prefix + cl.id)}">',
           f"<p>{_badge(c.status)} <b>{_e(cl.id)}</b> <span class='kind'>({kind}{'; ' + _e(refs) if refs else ''})</span><br>{_e(cl.text)}</p>",
           f"<p class='explain'>{_e(c.explanation)}</p>"]
    if c.status in (FAIL, UNSTABLE):
        out.append(f"<p class='explain'>{_category_html(c)}</p>")
    if c.stability_text:
        out.append(f"<p class='kind'>Per seed: {_e(c.stability_text)}</p>")
    if c.measured:
        out.append("<table><tr><th>measured</th><th>value</th></tr>")
        for k, v in c.measured.items():
            out.append(f"<tr><td>{_e(k)}</td><td class='num'>{_e(_fmt(v))}</td></tr>")
        out.append("</table>")
    out.append("</div>")
    return "\n".join(out)


def _source_kind(source) -> str:
    return {Paper: "paper", Ns2: "ns-2 default", Reconstruction: "reconstruction"}.get(type(source), "no source")


def _setup_html(run: SuiteRun, fig) -> list[str]:
    """The figure's set-up table (vidcc.papers.provenance): every key its parts set, its values and
    where they come from, folded under a line that counts the sources."""
    rows = setup_rows(run.suite, fig, run.scale)
    if not rows:
        return []
    kinds = [_source_kind(r.source) for r in rows]
    counts = ", ".join(f"{kinds.count(k)} {k}" for k in ("paper", "ns-2 default", "reconstruction", "no source") if k in kinds)
    out = [f"<details><summary>Set-up: {len(rows)} keys ({_e(counts)})</summary>",
           "<table><tr><th>key</th><th>value</th><th>source</th></tr>"]
    for r, kind in zip(rows, kinds):
        text = r.source.text() if r.source is not None else "no source declared"
        out.append(f"<tr><td><code>{_e(r.path)}</code></td><td>{_e(', '.join(r.values))}</td>"
                   f"<td class='{'stale' if r.source is None else 'kind'}'>{_e(text)}</td></tr>")
    out.append("</table></details>")
    return out


def _setup_doc(run: SuiteRun, fig) -> list[dict[str, Any]]:
    return [{"key": r.path, "values": list(r.values), "source": _source_kind(r.source),
             "text": r.source.text() if r.source is not None else None} for r in setup_rows(run.suite, fig, run.scale)]


def _category_html(c: ClaimResult) -> str:
    if c.category is None:
        return "<b>Category:</b> not classified yet"
    return f"<b>Category: {_e(c.category.category.value)}</b> — {_e(c.category.evidence)}"


def _axes_text(axes: dict) -> str:
    return "; ".join(f"{k} ∈ {{{', '.join(map(_fmt, v))}}}" for k, v in axes.items()) or "–"


def _figure_html(run: SuiteRun, f: FigureRun, prefix: str) -> str:
    fig = f.figure
    state = {"ran": PASS, "partial": "partial", NOT_YET: NOT_YET, "failed": FAIL}[f.status]
    label = {"ran": "ran", "partial": "partly ran", NOT_YET: "NOT-YET", "failed": "runs failed"}[f.status]
    out = [f'<h3 id="{_e(prefix + "fig-" + fig.id)}">{_e(fig.title)} <span class="kind">— paper {_e(fig.ref)}</span> '
           f'<span class="badge {_e(state if state in STATUSES else "NOT-YET")}">{_e(label)}</span></h3>',
           f"<p>{_e(fig.caption)}</p>"]
    for note in fig.notes:
        out.append(f"<p class='kind'>{_e(note)}</p>")
    out.append("<table><tr><th>part</th><th>kind</th><th>status</th><th>protocols</th><th>axes</th><th>seeds</th>"
               "<th class='num'>runs</th><th class='num'>ran now</th><th class='num'>reused</th><th class='num'>failed</th><th>notes</th></tr>")
    for p in f.parts:
        stale = [f"{len(p.stale)} runs by other code ({code_summary(p.stale.values())})"] if p.stale else []
        notes = "; ".join([*p.reasons, *([p.part.note] if p.part.note else []), *stale, *p.errors[:3]])
        out.append(
            f"<tr><td>{_e(p.part.name)}</td><td>{_e(p.part.kind)}</td><td>{_e(p.status)}</td><td>{_e(', '.join(p.part.protocols()))}</td>"
            f"<td>{_e(_axes_text(p.axes))}</td><td>{_e(', '.join(map(str, p.seeds)))}</td><td class='num'>{p.total}</td>"
            f"<td class='num'>{p.ran}</td><td class='num'>{p.skipped}</td><td class='num'>{p.failed}</td><td>{_e(notes)}</td></tr>")
    out.append("</table>")
    out.extend(_setup_html(run, fig))
    if f.stale:
        out.append(f"<p class='stale'>Other code: {len(f.stale)} of the runs behind this figure were made by other code "
                   f"({_e(code_summary(f.stale.values()))}), reused with --reuse-stale; this report's code is "
                   f"<code>{_e(code_fingerprint()[:12])}</code>.</p>")
    for img in f.images:
        out.append(f"<figure><img alt='{_e(img.plot.title)}' src='{_data_uri(img.png, 'image/png')}'>"
                   f"<figcaption>{_e(img.plot.title)} — mean over seeds, bars: 95 % CI (Student t) · "
                   f"<a download='{_e(Path(img.svg).name)}' href='{_data_uri(img.svg, 'image/svg+xml')}'>SVG</a></figcaption></figure>")
    for n in f.notes:
        out.append(f"<p class='kind'>{_e(n)}</p>")
    claims = [c for c in run.claims if c.claim.figure == fig.id]
    if claims:
        out.append("<h4>Claims</h4>")
        out.extend(_claim_html(c, prefix) for c in claims)
    return "\n".join(out)


def _suite_html(run: SuiteRun, prefix: str, level: int) -> str:
    s = run.suite
    h = f"h{level}"
    counts = run.counts()
    out = [f"<{h} id='{_e(prefix + 'top')}'>{_e(s.title)}</{h}>",
           f"<p class='meta'>{_e(s.citation)} · paper page <code>{_e(s.page)}</code> · paper <code>{_e(s.name)}</code> · scale "
           f"<b>{_e(run.scale)}</b> · {run.wall_seconds:.1f} s</p>",
           "<p class='summary'>" + "".join(f"{_badge(k)}{counts[k]} " for k in STATUSES) + "</p>",
           "<p class='kind'>FAIL and UNSTABLE by category: "
           + ", ".join(f"{_e(k)} {v}" for k, v in run.categories().items()) + "</p>",
           *_stale_summary(run),
           "<table><tr><th>claim</th><th>kind</th><th>status</th><th>figure</th><th>explanation</th></tr>"]
    for c in run.claims:
        fig = c.claim.figure or "–"
        link = f"<a href='#{_e(prefix + 'fig-' + fig)}'>{_e(fig)}</a>" if c.claim.figure else "–"
        out.append(f"<tr><td><a href='#{_e(prefix + c.claim.id)}'>{_e(c.claim.id)}</a></td><td>{_e(c.claim.kind)}</td>"
                   f"<td>{_badge(c.status)}</td><td>{link}</td><td>{_e(c.explanation)}"
                   + (f" <span class='kind'>[{_category_html(c)}]</span>" if c.status in (FAIL, UNSTABLE) else "")
                   + (f" <span class='kind'>[{_e(c.stability_text)}]</span>" if c.stability_text else "") + "</td></tr>")
    out.append("</table>")
    out.extend(_explore_html(run, level + 1))
    if s.notes:
        out.append("<details><summary>Reconstruction notes</summary>")
        out.extend(f"<div class='notes'>{_e(n)}</div>" for n in s.notes)
        out.append("</details>")
    out.append(f"<h{level + 1}>Figures</h{level + 1}>")
    out.extend(_figure_html(run, f, prefix) for f in run.figures)
    loose = [c for c in run.claims if c.claim.figure is None]
    if loose:
        out.append(f"<h{level + 1}>Claims without a figure (analytic or unit-level)</h{level + 1}>")
        out.extend(_claim_html(c, prefix) for c in loose)
    return "\n".join(out)


def _explore_html(run: SuiteRun, level: int) -> list[str]:
    """The ``--explore`` section: per alternative (and the suggested combination), what it is,
    the claims it turns to PASS and those it costs."""
    if not run.explored:
        return []
    s = run.suite
    out = [f"<h{level}>Which reading reproduces the paper (--explore)</h{level}>",
           "<p class='meta'>Each row re-runs the suite with one alternative reading the paper leaves open, of a protocol "
           "or of the set-up (or the combination the single rows suggest). The verdicts above stay the defaults'. Gained: FAIL/UNSTABLE → PASS; lost: "
           "PASS → FAIL/UNSTABLE.</p>",
           "<table><tr><th>alternative</th><th>reading</th><th>explored for</th><th>gained</th><th>lost</th>"
           "<th>other changes</th><th>claims</th></tr>"]
    for t in run.explored:
        reading = "; ".join(s.alternative(n).describe() for n in t.alternatives)
        other = [c for c in t.changes if not c.gain and not c.cost]

        def cell(changes) -> str:
            return "<br>".join(f"<b>{_e(c.claim)}</b> {_e(c.before)} → {_e(c.after)}: <span class='explain'>{_e(c.explanation)}"
                               "</span>" for c in changes) or "–"

        counts = " ".join(f"{_badge(k)}{v}" for k, v in t.counts.items())
        out.append(f"<tr><td>{_e(t.name)}{' (combined)' if t.combined else ''}</td><td>{_e(reading)}</td>"
                   f"<td>{_e(', '.join(t.targets))}</td><td>{cell(t.gains)}</td><td>{cell(t.costs)}</td><td>{cell(other)}</td>"
                   f"<td>{counts}</td></tr>")
    out.append("</table>")
    notes = [a for a in s.alternatives if a.note and any(a.name in t.alternatives for t in run.explored)]
    if notes:
        out.append("<ul>" + "".join(f"<li><b>{_e(a.name)}</b>: {_e(a.note)}</li>" for a in notes) + "</ul>")
    return out


def _stale_summary(run: SuiteRun) -> list[str]:
    stale = {fr.figure.id: fr.stale for fr in run.figures if fr.stale}
    if not stale:
        return []
    figs = ", ".join(f"{fid} ({code_summary(s.values())})" for fid, s in stale.items())
    return [f"<p class='stale'>MIXED CODE: these figures include runs made by other code, reused with --reuse-stale: "
            f"{_e(figs)}. The other figures come from this code (<code>{_e(code_fingerprint()[:12])}</code>).</p>"]


def render_html(runs: Sequence[SuiteRun], title: str) -> str:
    total = {s: 0 for s in STATUSES}
    for r in runs:
        for k, v in r.counts().items():
            total[k] += v
    scale = runs[0].scale if runs else ""
    now = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    head = [
        "<!DOCTYPE html>",
        "<html lang='en'><head><meta charset='utf-8'>",
        f"<title>{_e(title)}</title>",
        f"<style>{_CSS}</style></head><body>",
        f"<h1>{_e(title)}</h1>",
        f"<p class='meta'>vidcc {_e(__version__)} · scale {_e(scale)} · generated {now} · results database "
        f"<code>{_e(runs[0].db if runs else '')}</code> · runs by code <code>{_e(code_fingerprint()[:12])}</code> · "
        f"checked by code <code>{_e(analysis_fingerprint()[:12])}</code></p>",
        "<p class='summary'>" + "".join(f"{_badge(k)}{total[k]} " for k in STATUSES) + f"({sum(total.values())} claims)</p>",
        f"<p class='meta'>PASS: the measured values satisfy the claim's test, on all seeds pooled and on at least "
        f"{PASS_SHARE:.0%} of the seeds alone. FAIL: they do not (the explanation says by how much), pooled and on at "
        f"least {1 - FAIL_SHARE:.0%} of the seeds alone. UNSTABLE: the seeds disagree (the explanation gives the share). "
        "With a single seed, or a check that cannot be applied per seed, the pooled result stands. "
        "NOT-YET: a protocol, feature or metric the claim needs does not exist yet — never a PASS. Baseline checks "
        "(kind <i>baseline</i>) are sanity checks on what exists today, not claims of the paper.</p>",
    ]
    body = []
    if len(runs) == 1:
        body.append(_suite_html(runs[0], "", 2))
    else:
        body.append("<ul>" + "".join(
            f"<li><a href='#{_e(r.suite.name)}-top'>{_e(r.suite.title)}</a>: "
            + " ".join(f"{_badge(k)}{r.counts()[k]}" for k in STATUSES) + "</li>" for r in runs) + "</ul>")
        for r in runs:
            body.append(_suite_html(r, f"{r.suite.name}-", 2))
    return "\n".join(head + body + ["</body></html>", ""])
