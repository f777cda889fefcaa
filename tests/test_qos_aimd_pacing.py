"""S5's cause: how much of the time the wireless link idles, and how much of that idle time the
sender held a packet its window had released (``utilisation.link_idle_and_hold``), on packet logs
of a flow alone on the suite's path (R = 17 slots) made by a small event model here.

The cause it replaces compared rwnd with a "measured round trip" that included the BS queue and
the ARQ retransmissions, so it could not say whether the window or something else idled the link;
these tests fail on it (the function did not exist)."""

from __future__ import annotations

import numpy as np
import pytest

from vidcc.papers.qos_aimd.scenarios import ACCESS_DELAY_S, R_SLOTS, SLOT_S
from vidcc.papers.qos_aimd.utilisation import link_idle_and_hold

SLOT = SLOT_S * 1e9
BS_MH = ACCESS_DELAY_S * 1e9
WIRED = 38.2e6  # CH → BS one way
ONE_WAY = WIRED + SLOT + BS_MH
BACK = R_SLOTS * SLOT - ONE_WAY  # MH → CH, for the ack


def _log(window: int, spacing_slots: float, packets: int = 4000, errors=()):
    """Packet log of a window-limited sender on an error-free link (one slot per packet, plus one
    slot per packet listed in ``errors``: an ARQ retransmission), the sender spacing its packets at
    least ``spacing_slots`` apart."""
    sent, arr = np.zeros(packets), np.zeros(packets)
    link_free, last = 0.0, -1e18
    retx = set(errors)
    for i in range(packets):
        release = 0.0 if i < window else arr[i - window] + BACK
        sent[i] = max(release, last + spacing_slots * SLOT)
        last = sent[i]
        start = max(sent[i] + WIRED, link_free)
        link_free = start + SLOT * (2 if i in retx else 1)
        arr[i] = link_free + BS_MH
    return sent, arr


def test_a_window_of_r_with_no_spacing_keeps_the_link_busy():
    s, a = _log(R_SLOTS, 0.0)
    h = link_idle_and_hold(s, a, R_SLOTS, warm_ns=1e9)
    assert h["idle share"] == pytest.approx(0.0, abs=1e-9)
    assert h["mean hold (slots)"] == pytest.approx(0.0, abs=1e-9)


def test_spacing_wider_than_a_slot_idles_the_link_and_the_idle_time_is_the_senders_hold():
    # one packet per 1.1 slots: the link idles 0.1 of every 1.1 slots, all of it while the window
    # had released the packet (the token came back in R − 1 slots)
    s, a = _log(R_SLOTS, 1.1)
    h = link_idle_and_hold(s, a, R_SLOTS, warm_ns=2e9)
    assert h["idle share"] == pytest.approx(0.1 / 1.1, rel=0.02)
    assert h["held share of the idle time"] == pytest.approx(1.0, abs=1e-6)
    assert h["share of packets held"] > 0.9


def test_a_window_below_r_idles_the_link_with_nothing_held():
    # W = R − 2: the window, not the sender, leaves the link idle 2 of every R slots
    w = R_SLOTS - 2
    s, a = _log(w, 0.0)
    h = link_idle_and_hold(s, a, w, warm_ns=1e9)
    assert h["idle share"] == pytest.approx(2 / R_SLOTS, rel=0.02)
    assert h["held share of the idle time"] == pytest.approx(0.0, abs=1e-6)


def test_retransmissions_count_as_busy_time():
    # every 10th packet takes two slots (ARQ): with W = R and no spacing the link never idles
    s, a = _log(R_SLOTS, 0.0, errors=range(0, 4000, 10))
    h = link_idle_and_hold(s, a, R_SLOTS, warm_ns=1e9)
    assert h["idle share"] == pytest.approx(0.0, abs=1e-9)


def test_a_packet_missing_from_the_log_leaves_only_its_successors_release_unknown():
    """Packets the backbone dropped are not in the log: the release of packet i comes from packet
    i − W by sequence number, not by position (by position the W packets after a gap would take an
    earlier packet's ack as their release and look held for a slot)."""
    s, a = _log(R_SLOTS, 0.0)
    keep = np.ones(len(s), bool)
    keep[[1000, 2500]] = False
    h = link_idle_and_hold(s[keep], a[keep], R_SLOTS, warm_ns=1e9, seq=np.arange(len(s))[keep])
    assert h["share of packets held"] == pytest.approx(0.0, abs=1e-9)
    assert h["mean hold (slots)"] == pytest.approx(0.0, abs=1e-9)
