"""The ASMP/TFMCC suite's set-up readings do what their notes say, checked on the scenarios they
build (no run needed)."""

from __future__ import annotations

import re

import pytest

from vidcc.papers import load_suite


def _seconds(text: str) -> float:
    m = re.fullmatch(r"([0-9.]+)(ms|s)", text)
    assert m, text
    return float(m.group(1)) / (1000 if m.group(2) == "ms" else 1)


def _bps(text: str) -> float:
    m = re.fullmatch(r"([0-9.]+)(Mbps|kbps)", text)
    assert m, text
    return float(m.group(1)) * (1e6 if m.group(2) == "Mbps" else 1e3)


def _path(links: list[dict], src: str, dst: str) -> list[dict]:
    """The links from ``src`` to ``dst`` (the topologies are trees: one path)."""
    def walk(node, seen):
        if node == dst:
            return []
        for link in links:
            for a, b in ((link["a"], link["b"]), (link["b"], link["a"])):
                if a == node and b not in seen:
                    rest = walk(b, seen | {b})
                    if rest is not None:
                        return [link, *rest]
        return None

    path = walk(src, {src})
    assert path, f"no path {src} -> {dst}"
    return path


def _tcp_windows(alternatives: list[str], scale: str) -> list[tuple[str, float, float]]:
    """(part, window in packets, packets the path holds: its bandwidth-delay product at the
    slowest link plus that link's queue) for every TCP flow of S1 and S4."""
    from vidcc.papers.building import part_spec
    from vidcc.papers.explore import with_alternatives
    from vidcc.papers.ns2 import TCP_PACKET_BYTES

    suite = load_suite("asmp-tfmcc")
    if alternatives:
        suite = with_alternatives(suite, [suite.alternative(a) for a in alternatives])
    out = []
    for figure in suite.figures:
        if figure.id not in ("fig3-6", "fig13-18"):
            continue
        for part in figure.parts:
            base = part_spec(suite, figure, part, scale).base
            for flow in base["flows"]:
                if flow["label"] != "tcp":
                    continue
                path = _path(base["topology"]["links"], flow["src"], flow["dst"])
                rtt = 2 * sum(_seconds(link["delay"]) for link in path)
                slowest = min(path, key=lambda link: _bps(link["bandwidth"]))
                holds = _bps(slowest["bandwidth"]) * rtt / 8 / TCP_PACKET_BYTES + slowest["queue"]["limit"]
                window = float(flow["max_window"].removesuffix("B")) / TCP_PACKET_BYTES
                out.append((part.name, window, holds))
    return out


@pytest.mark.parametrize("scale", ["quick", "full"])
def test_tcp_window_open_never_binds_in_s1_and_s4(scale):
    """tcp-window-open: every background TCP flow of S1/S4 may have more packets in flight than
    its path holds (bandwidth-delay product + the bottleneck's queue), so losses limit it."""
    rows = _tcp_windows(["tcp-window-open"], scale)
    assert rows and all(window > holds for _, window, holds in rows), rows


@pytest.mark.parametrize("scale", ["quick", "full"])
def test_the_suites_tcp_window_is_ns2s_20_packets_and_binds(scale):
    """The default (ns-2's window_ 20): below what every S1/S4 path holds, so TCP can stay
    window-limited there without a loss — what the reading changes."""
    rows = _tcp_windows([], scale)
    assert rows and all(window == 20 and window < holds for _, window, holds in rows), rows


def test_c24s_readings_bear_on_it_and_reach_s5():
    """C24 (S5, fig19-23) is classified by readings that --explore runs for it: each names C24
    and applies to S5's parts (lossy-never was limited to S2, S4 and S7 before)."""
    from vidcc.papers.asmp_tfmcc.readings import BEARING
    from vidcc.papers.categories import UnrecordedReading

    suite = load_suite("asmp-tfmcc")
    c24 = next(c for c in suite.claims if c.id == "C24")
    assert isinstance(c24.category, UnrecordedReading) and c24.category.readings
    for name in c24.category.readings:
        assert "C24" in BEARING[name], name
        assert suite.alternative(name).in_figure(c24.figure), name
