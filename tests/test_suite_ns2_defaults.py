"""The ASMP/TFMCC and QoS-AIMD suites take ns-2 2.35's defaults where their papers are silent
(python/vidcc/papers/ns2.py): every TCP flow an ns-2 Agent/TCP (window_ 20 packets, rtxcur_init_
3 s, an ACK per segment), every queue the papers do not size a DropTail of 50 packets, RED as
ns-2 configures it. The exceptions are the values the papers give, named here."""

import pytest

from vidcc.papers import ns2
from vidcc.papers.asmp_tfmcc import SUITE as ASMP
from vidcc.papers.qos_aimd import SUITE as QOS
from vidcc.papers.qos_aimd import scenarios as qos_scenarios

TCP = ("tcp-tahoe", "tcp-reno", "tcp-newreno", "tcp-sack", "tcp-westwood-plus")


def scenarios(suite):
    for fig in suite.figures:
        for part in fig.parts:
            yield f"{fig.id}/{part.name}", part.scenario("quick")


def size(text: str) -> int:
    assert text.endswith("B") and text[:-1].isdigit(), text
    return int(text[:-1])


def tcp_flows(suite):
    return [(where, f) for where, sc in scenarios(suite) for f in sc["flows"] if f["protocol"] in TCP]


@pytest.mark.parametrize("suite", [ASMP, QOS], ids=["asmp-tfmcc", "qos-aimd"])
def test_every_tcp_flow_is_an_ns2_agent(suite):
    flows = tcp_flows(suite)
    assert flows
    for where, f in flows:
        if suite is QOS and f["protocol"] == "tcp-newreno":
            assert f["max_window"] == "1MB", where  # baseline B1: a window that does not bind, by design
        else:
            assert size(f["max_window"]) == ns2.TCP_WINDOW * size(f["packet_size"]), where
        agent = (f["initial_rto"], f["min_rto"], f["initial_window"], f["delayed_ack"])
        assert agent == ("3s", "200ms", 2, False), where


def test_asmp_tcp_has_ns2_segments_and_no_send_jitter():
    for where, f in tcp_flows(ASMP):
        assert f["packet_size"] == "1040B" and "send_jitter" not in f, where


def test_asmp_every_queue_is_fifty_packets_and_cbr_packets_are_ns2s():
    for where, sc in scenarios(ASMP):
        for i, link in enumerate(sc["topology"]["links"]):
            assert link.get("queue") == {"kind": "droptail", "limit": 50}, f"{where}: link {i} {link['a']}-{link['b']}"
        for f in sc["flows"]:
            if f["protocol"] == "udp-cbr":
                assert f["packet_size"] == "210B", where


def test_qos_aimd_queues_are_ns2s_but_the_bs_buffer_and_the_red_backbone():
    for where, sc in scenarios(QOS):
        links = sc["topology"]["links"]
        for link in links:
            ends = (link["a"], link["b"])
            if ends == ("r1", "r2"):
                assert link["queue"] == ns2.red(100e6, qos_scenarios.BACKBONE_DELAY_S), where
            elif ends == ("BS", "MH"):
                assert link["queue"]["kind"] == "droptail", where  # B = rwnd (or 10 for UDP) [P]
            else:
                assert link["queue"] == ns2.droptail(), f"{where}: {ends}"
        for f in sc["flows"]:
            for side in ("source_access", "sink_access"):
                if side in f:
                    assert f[side]["queue"] == ns2.droptail(), f"{where}: {f['protocol']} {side}"
