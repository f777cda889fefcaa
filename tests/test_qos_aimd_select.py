"""`vidcc qos-aimd select` (python/vidcc/qos_aimd_select.py): the QoS-AIMD paper page's derived test
vectors (docs/papers/qos-aimd.md §2.7, i.i.d. channel, R = 17, D = 10, target 1 %) through the
command, its table and JSON output, and one-line errors."""

import json

import pytest

from vidcc.qos_aimd_select import SelectError, main, select


def run_json(capsys, *argv: str) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    "p_e, w_max",
    # W_max for p_e = 1 % … 10 %: 25, 24, 24, 23, 22, 22, 22, 21, 21, 20.
    list(zip([0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09, 0.10], [25, 24, 24, 23, 22, 22, 22, 21, 21, 20])),
)
def test_w_max_reference_vector(capsys, p_e, w_max):
    r = run_json(capsys, "--error-rate", str(p_e), "--rtt-slots", "17", "--delay-bound", "10")
    assert r["windows"] == [w_max] and r["buffer_packets"] == w_max and r["max_window_sum"] == w_max
    assert r["outage"] <= 0.01 < r["outage_next"]


def test_single_flow_numbers_and_alpha(capsys):
    # p_e = 0.1: eq. (1) at W = 20 is 3.871407e−03 and at 21 is 1.466778e−02; α(0.875) = 0.2;
    # throughput 1 − p_e = 0.9 pkt/slot; β·rwnd ≥ R needs rwnd ≥ ⌈17/0.875⌉ = 20.
    r = run_json(capsys, "--error-rate", "0.1", "--rtt-slots", "17", "--delay-bound", "10")
    assert r["outage"] == pytest.approx(3.871407e-03, abs=5e-10)
    assert r["outage_next"] == pytest.approx(1.466778e-02, abs=5e-9)
    assert r["alpha"] == pytest.approx(0.2, abs=1e-15)
    assert r["throughput_pkt_per_slot"] == [pytest.approx(0.9)]
    assert r["wired_loss_window"] == 20 and r["full_utilization"] is True and r["overflow_loss"] == 0
    # p_e = 0.01: W = 25 gives 2.444107e−03, W = 26 gives 2.975e−02.
    r = run_json(capsys, "--error-rate", "0.01", "--rtt-slots", "17", "--delay-bound", "10")
    assert r["outage"] == pytest.approx(2.444107e-03, abs=5e-10)
    assert r["outage_next"] == pytest.approx(2.975e-02, abs=5e-6)
    # β = 0.5 gives TCP's α = 1.
    assert run_json(capsys, "--error-rate", "0.1", "--rtt-slots", "17", "--delay-bound", "10", "--beta", "0.5")["alpha"] == 1.0


@pytest.mark.parametrize(
    "p_e, rtts, rounding, windows, s, outage",
    [
        # 2 flows, both R = 17: 12 each / 10 each; 4 flows: 6 / 5 each (S ≤ W_max = 25 / 20).
        (0.01, "17,17", "nearest", [12, 12], 24, None),
        (0.1, "17,17", "nearest", [10, 10], 20, None),
        (0.01, "17,17,17,17", "nearest", [6, 6, 6, 6], 24, None),
        (0.1, "17,17,17,17", "nearest", [5, 5, 5, 5], 20, None),
        # R = (17, 25): S_max = 27 → (12, 15), outage 2.304e−3; integer gap: S = 26 → (11, 15), 2.25e−4.
        (0.01, "17,25", "nearest", [12, 15], 27, 2.304e-3),
        (0.01, "17,25", "integer-gap", [11, 15], 26, 2.25e-4),
        # p_e = 0.1: S_max = 23 → (10, 13), 7.195e−3; integer gap: S = 22 → (9, 13), 2.079e−3.
        (0.1, "17,25", "nearest", [10, 13], 23, 7.195e-3),
        (0.1, "17,25", "integer-gap", [9, 13], 22, 2.079e-3),
        # 4 flows, R = (17, 17, 25, 25): S = 26 → (6, 6, 7, 7), 2.25e−4; p_e = 0.1: S = 22 → (5, 5, 6, 6), 2.079e−3.
        (0.01, "17,17,25,25", "nearest", [6, 6, 7, 7], 26, 2.25e-4),
        (0.1, "17,17,25,25", "nearest", [5, 5, 6, 6], 22, 2.079e-3),
    ],
)
def test_multi_flow_reference_table(capsys, p_e, rtts, rounding, windows, s, outage):
    r = run_json(capsys, "--error-rate", str(p_e), "--rtt-slots", rtts, "--delay-bound", "10", "--rounding", rounding)
    assert r["windows"] == windows and r["window_sum"] == s and r["buffer_packets"] == s
    if outage is not None:
        assert r["outage"] == pytest.approx(outage, rel=5e-4)


def test_multi_flow_s_max_and_next():
    # S_max = 27 (p_e = 0.01) and 23 (0.1); the next S gives 0.0161 / 0.0216; splits 11.52/15.48, 9.70/13.30.
    r = select(0.01, [17, 25], 10)
    assert (r["max_window_sum"], r["exact_windows"]) == (27, [pytest.approx(11.52), pytest.approx(15.48)])
    assert r["outage_next"] == pytest.approx(0.0161, abs=5e-5)
    r = select(0.1, [17, 25], 10)
    assert (r["max_window_sum"], r["exact_windows"]) == (23, [pytest.approx(9.70), pytest.approx(13.30)])
    assert r["outage_next"] == pytest.approx(0.0216, abs=5e-5)
    # Caveat: S = 23 < R_N = 25 at p_e = 0.1.
    assert r["full_utilization"] is False
    # Flows keep the order given.
    assert select(0.1, [25, 17], 10)["windows"] == [13, 10]


def test_gilbert_channel_vectors():
    # Bursts of 2 and 5 slots (docs/papers/qos-aimd.md §2.7): W_max = 23 … 17 and 19 … 10.
    b2 = [23, 21, 21, 20, 19, 19, 18, 18, 17, 17]
    b5 = [19, 17, 15, 14, 13, 12, 11, 11, 10, 10]
    for k in range(10):
        p = (k + 1) / 100
        assert select(p, 17, 10, burst=2)["windows"] == [b2[k]]
        assert select(p, 17, 10, burst=5)["windows"] == [b5[k]]


def test_table_output(capsys):
    assert main(["--error-rate", "0.1", "--rtt-slots", "17", "--delay-bound", "10"]) == 0
    out = capsys.readouterr().out
    assert "rwnd = W_max             20 packets" in out
    assert "3.871407e-03" in out and "alpha (eq. 10)           0.2" in out
    assert main(["--error-rate", "0.01", "--rtt-slots", "17,25", "--delay-bound", "10"]) == 0
    out = capsys.readouterr().out
    assert "S_max                  27 packets" in out and "11.5200" in out and "15.4800" in out
    assert main(["--error-rate", "0.1", "--rtt-slots", "17", "--delay-bound", "10", "--burst", "5"]) == 0
    assert "warning: the window is below the RTT" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv, gist",
    [
        (["--error-rate", "1.5", "--rtt-slots", "17", "--delay-bound", "10"], "--error-rate must be in [0, 1), got 1.5"),
        (["--error-rate", "-0.1", "--rtt-slots", "17", "--delay-bound", "10"], "--error-rate"),
        (["--error-rate", "0.1", "--rtt-slots", "0", "--delay-bound", "10"], "--rtt-slots must be positive"),
        (["--error-rate", "0.1", "--rtt-slots", "17", "--delay-bound", "-1"], "--delay-bound must be"),
        (["--error-rate", "0.1", "--rtt-slots", "17", "--delay-bound", "10", "--outage", "0"], "--outage"),
        (["--error-rate", "0.1", "--rtt-slots", "17", "--delay-bound", "10", "--beta", "1"], "--beta"),
        (["--error-rate", "0.1", "--rtt-slots", "17", "--delay-bound", "10", "--burst", "0.5"], "--burst"),
        (["--error-rate", "0.1", "--rtt-slots", "17,25", "--delay-bound", "10", "--shares", "0.5"], "--shares needs"),
        (["--error-rate", "0.1", "--rtt-slots", "17,25", "--delay-bound", "10", "--shares", "0.5,0.6"], "add up to 1"),
        (["--error-rate", "0.1", "--rtt-slots", "5000", "--delay-bound", "10"], "too large"),
        (["--error-rate", "0.6", "--rtt-slots", "17", "--delay-bound", "10", "--burst", "1"], "good→bad"),
        (["--error-rate", "0.1", "--rtt-slots", "17,x", "--delay-bound", "10"], "expected integers"),
        (["--rtt-slots", "17", "--delay-bound", "10"], "--error-rate"),
    ],
)
def test_out_of_range_inputs_are_one_line_errors(capsys, argv, gist):
    # Range errors return 2; argparse's own (bad syntax, missing option) exit with 2.
    try:
        code = main(argv)
    except SystemExit as e:
        code = e.code
    assert code == 2
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(lines) == 1 and gist in lines[0], err


def test_select_raises_value_errors():
    with pytest.raises(SelectError):
        select(0.1, [17, 25], 10, shares=[0.3, 0.7], rounding="integer-gap")
    assert issubclass(SelectError, ValueError)


def test_wired_into_the_vidcc_command():
    import json
    import subprocess
    import sys
    from pathlib import Path

    exe = Path(sys.executable).parent / "vidcc"
    p = subprocess.run([str(exe), "qos-aimd", "select", "--error-rate", "0.1", "--rtt-slots", "17", "--delay-bound", "10",
                        "--json"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert data["windows"] == [20] and data["alpha"] == 0.2  # docs/papers/qos-aimd.md §2.7: W_max = 20 at p_e = 0.1
    bad = subprocess.run([str(exe), "qos-aimd", "select", "--error-rate", "1.5", "--rtt-slots", "17", "--delay-bound", "10"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "error" in bad.stderr
