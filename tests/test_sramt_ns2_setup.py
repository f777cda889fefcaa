"""The SRAMT suite is set up with ns-2 2.35's defaults where the paper is silent, and its earlier
reconstructions are set-up readings that restore exactly the values it had."""

from vidcc.papers import load_suite, ns2
from vidcc.papers.explore import with_alternatives
from vidcc.papers.provenance import Ns2, key_paths, setup_rows

SCENARIO_A = ("fig4-6", "fig7-9", "fig4-9-baselines")


def parse_bandwidth(text: str) -> float:
    assert text.endswith("Mbps"), text  # the suite writes every RED link in Mbit/s
    return float(text.removesuffix("Mbps")) * 1e6


def parse_duration(text: str) -> float:
    assert text.endswith("ms"), text
    return float(text.removesuffix("ms")) / 1e3


def _scenarios(suite, scale="quick"):
    for fig in suite.figures:
        for part in fig.parts:
            yield fig.id, part.name, part.scenario(scale)


def test_every_red_queue_is_ns2s_queue_red_for_its_link():
    seen = 0
    for fid, part, sc in _scenarios(load_suite("sramt")):
        for link in sc["topology"]["links"]:
            queue = link.get("queue")
            if queue is not None and queue["kind"] == "red":
                bw, delay = parse_bandwidth(link["bandwidth"]), parse_duration(link["delay"])
                assert queue == ns2.red(bw, delay), (fid, part, link["a"], link["b"])
                seen += 1
    assert seen > 100


def test_scenario_a_has_red_on_every_link_as_the_paper_says():
    suite = load_suite("sramt")
    for fid in SCENARIO_A:
        for part in suite.figure(fid).parts:
            links = part.scenario("quick")["topology"]["links"]
            kinds = {f"{lk['a']}-{lk['b']}": lk.get("queue", {}).get("kind") for lk in links}
            bottlenecks = {k: kinds.pop(k) for k in ("C1-C2", "C1-C3", "C1-C4")}
            assert set(kinds.values()) == {"red"}, (fid, part.name, kinds)  # the 13 access links
            assert set(bottlenecks.values()) == ({"drr"} if part.name == "plm" else {"red"})


def test_tahoe_flows_are_ns2_agents_and_backgrounds_send_210_byte_packets():
    tahoe = backgrounds = 0
    for fid, part, sc in _scenarios(load_suite("sramt")):
        for f in sc["flows"]:
            if f["protocol"] == "tcp-tahoe":
                assert f["packet_size"] == "1040B" and {k: f[k] for k in ns2.tcp_keys(1040)} == ns2.tcp_keys(1040)
                assert f["max_window"] == "20800B" and f["initial_rto"] == "3s"
                tahoe += 1
            elif f["label"].startswith("background"):
                assert f["packet_size"] == "210B", (fid, part)
                backgrounds += 1
    assert tahoe > 20 and backgrounds > 10


def test_the_readings_restore_the_values_the_suite_had():
    suite = load_suite("sramt")
    old = with_alternatives(suite, [suite.alternative(n) for n in
                                    ("classic-red", "droptail-access", "vidcc-tahoe", "background-1000B")])
    fig2_old = with_alternatives(suite, [suite.alternative("fig2-background-1000B")]).figure("fig2").parts[0]
    assert [f["packet_size"] for f in fig2_old.scenario("quick")["flows"] if f["label"] == "background"] == ["1000B"]
    a = dict(key_paths(old.figure("fig4-6").part("sramt-s").scenario("quick")))
    assert {p.rsplit(".", 1)[1]: v for p, v in a.items() if p.startswith("topology.links[C1-C2].queue.")} == {
        "kind": "red", "min_thresh": 5, "max_thresh": 15, "weight": 0.002, "max_p": 0.1, "gentle": False,
        "bytes": False, "limit": 50, "mean_packet_size": "500B", "wait": True}
    assert a["topology.links[S-C1].queue.kind"] == "droptail" and a["topology.links[S-C1].queue.limit"] == "bdp"
    assert (a["flows[tcp-c2].max_window"], a["flows[tcp-c2].initial_rto"], a["flows[tcp-c2].packet_size"]) == (
        "64000B", "1s", "1000B")
    b = [f for f in old.figure("fig11").parts[0].scenario("quick")["flows"] if f["label"] == "background"]
    # the earlier ON means: 20 packets of 1000 B at half of C1–C2's 1.5, C2–C3's 0.8 and C3–C4's 2 Mbit/s
    assert [(f["on_mean"], f["packet_size"]) for f in b] == [("213.3ms", "1000B"), ("400.0ms", "1000B"),
                                                             ("160.0ms", "1000B")]
    fig2 = [f for f in old.figure("fig2").parts[0].scenario("quick")["flows"] if f["label"] == "background"]
    assert [(f["on_mean"], f["packet_size"]) for f in fig2] == [("500ms", "210B")]  # only under its own reading
    # Scenario B already had RED on every link; droptail-access does not reach it
    b_queues = dict(key_paths(old.figure("fig11").parts[0].scenario("quick")))
    assert b_queues["topology.links[S-C1].queue.kind"] == "red"


def test_every_ns2_value_is_declared_as_ns2_in_the_setup_table():
    suite = load_suite("sramt")
    for fid in ("fig4-6", "fig11", "fig15-19"):
        rows = {r.path: r.source for r in setup_rows(suite, suite.figure(fid), "quick")}
        for path, source in rows.items():
            if path.endswith((".min_thresh", ".weight", ".gentle", ".max_window", ".initial_rto")):
                assert isinstance(source, Ns2), (fid, path, source)
