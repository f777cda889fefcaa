"""``vidcc demo``: the project's job in miniature, one command from a fresh clone.

The project's test clip is prepared at five quantisers (:func:`vidcc.video.prepare`), and the
same layered video (``scenarios/video/demo.toml``) is carried by each of :data:`PROTOCOLS` in
turn across a bottleneck shared with two TCP NewReno flows. Each run is scored the Evalvid way
(:func:`vidcc.video.evaluate_run`: what the receiver could show, PSNR, SSIM, MOS), and the
results become one table (printed, and written as ``demo.csv``), figures and one self-contained
``report.html``.

The layer rates are the clip's mean bit rates at the mapped quantisers, read from the prepared
manifest, so that a receiver with L layers sees the picture of the L-th encoding.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["PROTOCOLS", "LAYER_QUANTIZERS", "DemoRow", "run_demo", "layer_rates"]

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "scenarios" / "video" / "demo.toml"
PROTOCOLS = ("dvrc", "tfrc", "ssvp-layered", "udp")
# Base layer first: L decodable layers look like the encoding at LAYER_QUANTIZERS[L - 1].
LAYER_QUANTIZERS = (31, 16, 8, 4, 2)
WHAT = {
    "dvrc": "receiver-driven AIAMD, adapts the number of layers (DVRC paper)",
    "tfrc": "TCP-friendly rate (RFC 5348) carrying every layer through a sender buffer",
    "ssvp-layered": "inter-packet-gap AIMD with receiver-buffered layers (SSVP paper)",
    "udp": "no rate control: every layer, whatever the network does",
}


@dataclass
class DemoRow:
    """One protocol's outcome: the video flow, the TCP flows beside it, and the picture shown."""

    protocol: str
    video_throughput_bps: float
    video_drop_rate: float
    tcp_normalized_throughput: float  # the TCP flows' mean throughput / the fair share
    frames_on_time: float  # share of the frames shown from their own data, in time
    mean_layers: float  # mean decodable layers over the frames shown
    psnr_db: float
    ssim: float
    mos: float
    run_dir: Path

    def cells(self) -> list[str]:
        return [self.protocol, f"{self.video_throughput_bps / 1e6:.2f}", f"{self.video_drop_rate:.1%}",
                f"{self.tcp_normalized_throughput:.2f}", f"{self.frames_on_time:.1%}", f"{self.mean_layers:.2f}",
                f"{self.psnr_db:.2f}", f"{self.ssim:.3f}", f"{self.mos:.2f}"]


HEADERS = ["protocol", "video Mbit/s", "video drops", "TCP share", "frames on time", "layers",
           "PSNR dB", "SSIM", "MOS"]


def layer_rates(manifest: dict[str, Any]) -> list[str]:
    """The cumulative layer rates: the prepared clip's mean bit rate at each mapped quantiser."""
    by_q = {e["quantizer"]: e["mean_bitrate_bps"] for e in manifest["encodings"]}
    missing = [q for q in LAYER_QUANTIZERS if q not in by_q]
    if missing:
        raise ValueError(f"the prepared clip has no encoding at quantiser {missing[0]}; prepare "
                         f"{','.join(map(str, LAYER_QUANTIZERS))}")
    return [f"{round(by_q[q] / 1000)}kbps" for q in LAYER_QUANTIZERS]


def prepare_clip(out: Path, log: Callable[[str], None]) -> dict[str, Any]:
    """The clip prepared at :data:`LAYER_QUANTIZERS` in ``out/prepared`` (reused when there)."""
    import json

    from vidcc import video

    prepared = out / "prepared"
    manifest = prepared / "manifest.json"
    if manifest.exists():
        doc = json.loads(manifest.read_text())
        if set(LAYER_QUANTIZERS) <= {e["quantizer"] for e in doc.get("encodings", [])}:
            log(f"clip: reusing {prepared}")
            return doc
    log(f"clip: preparing the test clip at quantisers {','.join(map(str, LAYER_QUANTIZERS))} into {prepared}")
    video.prepare(video.default_clip(), prepared, quantizers=",".join(map(str, sorted(LAYER_QUANTIZERS))))
    return json.loads(manifest.read_text())


def scenario_for(protocol: str, manifest: dict[str, Any], prepared: Path) -> dict[str, Any]:
    """``scenarios/video/demo.toml`` with its video flow carried by ``protocol``, the layer rates
    of this prepared clip and its top-quality trace."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]

    doc = tomllib.loads(SCENARIO.read_text())
    video_flow = doc["flows"][0]
    video_flow["protocol"] = protocol
    video_flow["video"]["layers"] = layer_rates(manifest)
    video_flow["video"]["trace"] = str((prepared / f"q{min(LAYER_QUANTIZERS)}.trace").resolve())
    return doc


def _row(protocol: str, result, quality, run_dir: Path) -> DemoRow:
    flows = result.flows.merge(result.flow_summary, on=["flow", "receiver"])
    video_flow = flows[flows["label"] == "video"].iloc[0]
    tcp = flows[flows["label"] == "tcp"]
    q = quality.flow(int(video_flow["flow"]))
    frames = quality.frames[quality.frames["flow"] == int(video_flow["flow"])]
    shown = frames[frames["usable"]]
    layers = shown["shown_quantizer"].map({q: i + 1 for i, q in enumerate(LAYER_QUANTIZERS)})
    return DemoRow(
        protocol=protocol,
        video_throughput_bps=float(video_flow["throughput_bps"]),
        video_drop_rate=float(video_flow["drop_rate"]),
        tcp_normalized_throughput=float(tcp["normalized_throughput"].mean()),
        frames_on_time=len(shown) / len(frames) if len(frames) else 0.0,
        mean_layers=float(layers.mean()) if len(shown) else 0.0,
        psnr_db=float(q["mean_psnr_db"]),
        ssim=float(q["mean_ssim"]),
        mos=float(q["mean_mos"]),
        run_dir=run_dir,
    )


def run_demo(out: str | Path = "out/demo", *, protocols=PROTOCOLS, log: Callable[[str], None] = print) -> list[DemoRow]:
    """Prepare the clip, run the demo scenario once per protocol, score each receiver, and write
    ``demo.csv``, the figures and ``report.html`` into ``out``."""
    import vidcc
    from vidcc import video

    out = Path(out)
    manifest = prepare_clip(out, log)
    rows = []
    for protocol in protocols:
        run_dir = out / protocol
        result = vidcc.run(scenario_for(protocol, manifest, out / "prepared"))
        result.write(run_dir, figures=False)
        quality = video.evaluate_run(run_dir, layer_quantizers=LAYER_QUANTIZERS)
        rows.append(_row(protocol, result, quality, run_dir))
        log(f"{protocol}: simulated 30 s in {result.wall_seconds:.2f} s, PSNR {rows[-1].psnr_db:.2f} dB")
    _write_csv(out / "demo.csv", rows)
    images = _figures(out, rows)
    page = out / "report.html"
    page.write_text(_html(rows, images, manifest), encoding="utf-8")
    log(table(rows))
    log(f"report: {page}")
    return rows


def table(rows: list[DemoRow]) -> str:
    cells = [HEADERS] + [r.cells() for r in rows]
    widths = [max(len(c[i]) for c in cells) for i in range(len(HEADERS))]
    lines = ["  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths))) for row in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _write_csv(path: Path, rows: list[DemoRow]) -> None:
    import csv

    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["protocol", "video_throughput_bps", "video_drop_rate", "tcp_normalized_throughput",
                    "frames_on_time", "mean_layers", "psnr_db", "ssim", "mos"])
        for r in rows:
            w.writerow([r.protocol, r.video_throughput_bps, r.video_drop_rate, r.tcp_normalized_throughput,
                        r.frames_on_time, r.mean_layers, r.psnr_db, r.ssim, r.mos])


def _figures(out: Path, rows: list[DemoRow]) -> list[Path]:
    """Video throughput over time and PSNR per frame, one line per protocol."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import pandas as pd

    fig, (rate, psnr) = plt.subplots(2, 1, figsize=(9, 6.5), sharex=True)
    for r in rows:
        samples = pd.read_parquet(r.run_dir / "flow_samples.parquet")
        flows = pd.read_parquet(r.run_dir / "flows.parquet")
        vid = int(flows.loc[flows["label"] == "video", "flow"].iloc[0])
        s = samples[samples["flow"] == vid]
        rate.plot(s["t_ns"] / 1e9, s["throughput_bps"] / 1e6, label=r.protocol, lw=1.2)
        q = pd.read_parquet(r.run_dir / "quality.parquet")
        q = q[q["flow"] == vid]
        psnr.plot(q["frame"] / 25.0, q["psnr_db"].rolling(25, min_periods=1).mean(), label=r.protocol, lw=1.2)
    rate.set_ylabel("video throughput (Mbit/s)")
    rate.axhline(1.0, color="grey", ls=":", lw=1)
    rate.legend(ncol=4, fontsize=8)
    psnr.set_ylabel("PSNR, 1 s mean (dB)")
    psnr.set_xlabel("time (s)")
    fig.tight_layout()
    path = out / "demo.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return [path]


def _html(rows: list[DemoRow], images: list[Path], manifest: dict[str, Any]) -> str:
    e = html.escape
    head = "".join(f"<th>{e(h)}</th>" for h in HEADERS) + "<th>what it is</th>"
    body = "".join("<tr>" + "".join(f"<td>{e(c)}</td>" for c in r.cells())
                   + f"<td>{e(WHAT.get(r.protocol, ''))}</td></tr>" for r in rows)
    pics = "".join(f"<img src='data:image/png;base64,{base64.b64encode(p.read_bytes()).decode()}' alt='{e(p.stem)}'>"
                   for p in images)
    encodings = ", ".join(f"q{e_['quantizer']}: {e_['mean_bitrate_bps'] / 1e3:.0f} kbit/s, {e_['mean_psnr_db']:.1f} dB"
                          for e_ in sorted(manifest["encodings"], key=lambda x: -x["quantizer"]))
    return f"""<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>vidcc demo</title>
<style>body{{font:15px/1.45 system-ui,sans-serif;max-width:1000px;margin:2em auto;padding:0 1em}}
table{{border-collapse:collapse}}td,th{{border:1px solid #ddd;padding:.3em .6em;text-align:right}}
td:first-child,td:last-child{{text-align:left}}th{{background:#f4f4f6}}img{{max-width:100%}}</style></head><body>
<h1>vidcc demo: one layered video, four rate controls</h1>
<p>The project's test clip ({manifest['width']}×{manifest['height']}, {manifest['fps_float']:g} fps,
{manifest['duration_s']:g} s, replayed) in five cumulative layers ({e(encodings)}) crosses a 3 Mbit/s
bottleneck shared with two TCP NewReno flows for 30 s (<code>scenarios/video/demo.toml</code>). The fair share
is 1 Mbit/s; full quality needs 1.85 Mbit/s, so the rate control must choose what to send.
Each receiver's picture is rebuilt frame by frame from the decoded encodings (a frame with L usable
layers looks like the L-th encoding; an unusable frame repeats the last one shown) and scored against
the original: PSNR, SSIM and MOS.</p>
<table><tr>{head}</tr>{body}</table>
<p><b>TCP share</b>: the TCP flows' mean throughput over the fair share (1 = TCP got its share).
<b>Frames on time</b>: frames shown from their own data before their playout deadline.
<b>Layers</b>: the mean number of usable layers of those frames.</p>
{pics}
<p>Each run's tables are in its directory (<code>{e(', '.join(str(r.run_dir) for r in rows))}</code>); the table
above is <code>demo.csv</code>.</p>
</body></html>
"""
