"""The SRAMT claims (paper claims C01–C35 and the baseline B1): text, figure, check and cause.

Each check and cause is a function of the figure's data named for what it tests, in the module
for its topic: :mod:`mechanisms` (the equations, estimator, rate rules, feedback), :mod:`adaptation`
(where receivers go and when they change), :mod:`sharing` (Scenario A's bottlenecks), :mod:`rates`
(group rates), :mod:`comparisons` (C30–C34, the compared schemes) and :mod:`tables` (C35).
"""

from __future__ import annotations

from vidcc.papers.categories import OverClaim, UnrecordedReading
from vidcc.papers.model import Claim
from vidcc.papers.sramt import adaptation, comparisons, mechanisms, rates, sharing, tables, trace
from vidcc.papers.sramt.scenarios import EXPECTED_B, LE, NEEDS, TAHOE, S


def _s(d) -> list[trace.Run]:
    return trace.part_runs(d, "sramt-s", False)


def _le(d) -> list[trace.Run]:
    return trace.part_runs(d, "sramt-le", True)


def _le_a(d) -> list[trace.Run]:
    """SRAMT-LE's Scenario A runs (figure fig7-9)."""
    return trace.other_runs(d, "fig7-9", "sramt-le", True)


def _compared(proto):
    """C30–C34: judged on the common bottleneck, with the other set-ups' numbers beside the verdict."""
    return comparisons.with_other_setups(comparisons.check(proto), proto)


def _claim(cid, text, fig, protos, check, ref, **kw):
    return Claim(cid, text, fig, protos, check, needs=NEEDS if fig else (), ref=ref, **kw)


def _cycling(runs_of):
    return lambda d, m: adaptation.cycling(runs_of(d), m)


# Why receivers do not stay where they end up (C11, C17, C19, C20, C22, C24, C25): the back-off as
# §3.3 states it, with the bound computed from the claim's own runs.
RETRIES_ARGUMENT = (
    "§3.3's back-off blocks a change that failed k times in a row for 2^k·T_change and never for good; a receiver "
    "whose trigger persists (rule 2's estimate above or below its stream's rate for 4 epochs, rule 1's pinned band "
    "edge) retries at the end of every block, at times growing about twofold, so the second half of any run holds a "
    "retry and its undoing: 'after some unsuccessful changes ... stay until the end' needs the triggers to stop, which "
    "the rules do not provide")


# The protocol readings of readings.py, under each of which (and all three together) these claims
# were run at quick scale and fail as well (docs/papers/sramt.md, audit).
PROTOCOL_READINGS = ("no-aimd", "current-estimate", "unsuccessful-within-t-change")


def _retries(runs_of) -> OverClaim:
    return OverClaim(RETRIES_ARGUMENT, bound=lambda d, m: adaptation.retries_persist(runs_of(d), m),
                     readings=PROTOCOL_READINGS)


AIMD_SILENT = "Eq. 4's r_AIMD comes from the AIMD of [2], which the paper does not give (A-07; the suite's stand-in)"
UNSUCCESSFUL_SILENT = ("what makes a change unsuccessful: §3.3 says 'after a short time period (T_change)' and gives "
                       "T_change no other role; the suite counts any undo by the receiver's next change (A-17)")
RED_SILENT = ("RED's parameters: §8.1 says only that 'all the links ... use the RED ... policy to their queues'; the "
              "suite takes ns-2 2.35's Queue/RED defaults, auto-configured per link")
TAHOE_SILENT = ("the Tahoe flows' parameters: §8.1 says only 'We model the TCP sources as \"4.3BSD Tahoe TCP\" "
                "sources'; the suite takes ns-2 2.35's Agent/TCP/Tahoe defaults (window_ 20 packets of 1040 B, "
                "rtxcur_init_ 3 s)")
BACKGROUND_SIZE_SILENT = ("Scenario B's background packet size: §8.2 gives 'a Pareto distribution ... with a mean "
                          "of 20 packets' and no size; the suite takes ns-2 2.35's Application/Traffic/Pareto "
                          "packetSize_ 210 B")
ESTIMATE_SILENT = ("which estimate a receiver compares at an epoch end: §3.3 says 'the value of the r_r_tcp^i', the "
                   "suite takes the epoch's mean (A-13b)")


# Why the RTT estimate runs below the true RTT (C04, full scale): Eqs. 14–16 as §4.2 states them.
CALIBRATION_ARGUMENT = (
    "§4.2 calibrates the receiver's RTT estimate on the sender's RTCP RTT (Eq. 15: A − LSR − DLSR, an RTT of a small "
    "Sender Report forward and a small Receiver Report back) against the one-way delay of the data packet that "
    "carried the echo (Eq. 16), and between calibrations scales it by the data's one-way delay (Eq. 14); the time a "
    "full-size data packet spends on the bottleneck beyond a report's is in the data's RTT but never in the "
    "calibration, so the estimate runs below the true RTT by about that much whatever the load")


# C31, C32, C35: §9 reads each compared scheme off its own paper's figure (Figs. 15–19, other
# papers' set-ups); with the schemes side by side on the common bottleneck these fail under every
# declared reading that changes that figure (docs/papers/sramt.md §5.5).
COMMON_READINGS = ("no-aimd", "current-estimate", "unsuccessful-within-t-change", "classic-red", "vidcc-tahoe")
RLC_ARGUMENT = (
    "RLC as its rules are recorded (§2.2: a receiver adds a layer only after a loss-free interval between its "
    "level's synchronisation points, 2^(L−1) of them, and drops one at any loss) leaves a layer at each early drop of "
    "a RED bottleneck it shares with Tahoe, so it holds a low level and takes far less than TCP, not 'slightly more'; "
    "§9 takes 'slightly more aggressive' from RLC's own paper's set-up, which the SRAMT paper does not give (the "
    "suite's synchronisation-point spacing, burst and deaf period are reconstructions, docs/protocols/rlc.md)")
TABLES_ARGUMENT = (
    "Tables 1–2 summarise ratings §9 read off five other papers' figures, each in its own set-up; measured side by "
    "side on one bottleneck, the rows the suite can check do not order the schemes as rated under any reading of "
    "SRAMT or of the set-up (SRAMT-LE's 'Very good' friendliness against MLDA's 'Good' fails in every one)")


CLAIMS = [
    _claim("C01", "TCP model with D = 1, t_out = 4·RTT gives the §1.2 vectors (rel. error < 1e-9).", None, S,
           mechanisms.tcp_model_vectors, "Eq. 1"),
    _claim("C02", "8-tap loss filter with weights (1, 1, 1, 1, .8, .6, .4, .2) gives the §1.3 vectors.", None, S,
           mechanisms.loss_filter_vectors, "Eq. 10"),
    _claim("C03", "After a calibration the RTT estimate equals the echoed RTT; afterwards it scales with the one-way "
           "delay.", None, S, mechanisms.rtt_calibration, "Eqs. 14–16"),
    _claim("C04", "The one-way-delay-based RTT estimate tracks the true RTT under on/off load (median rel. error "
           "≤ 0.2, ρ > 0.5).", "fig2", S, mechanisms.rtt_tracks_fig2, "Fig. 2", cause=mechanisms.rtt_bias_fig2,
           category=OverClaim(CALIBRATION_ARGUMENT, bound=mechanisms.rtt_underestimate_fig2)),
    _claim("C05", "Each simulcast stream rate = the minimum preferred rate of its receivers (clamped).", None, S,
           lambda _d: mechanisms.rate_rule(["c05_c06_s_violations"], "Eq. 5 (S)"), "Eq. 5"),
    _claim("C06", "The cumulative layered rate of level k = the minimum preferred rate of level-k receivers (clamped).",
           None, LE, lambda _d: mechanisms.rate_rule(["c05_c06_le_violations"], "Eq. 6 as corrected (LE)"), "Eq. 6"),
    _claim("C07", "Stream/layer 1's rate never exceeds any of its receivers' preferred rates unless pinned at the band "
           "minimum.", None, S + LE,
           lambda _d: mechanisms.rate_rule(["c07_s_violations", "c07_le_violations"],
                                           "group 1 at most each of its receivers' preferred rates"), "§3.2"),
    _claim("C08", "Rule 2: no two rule-2 moves of one receiver less than 20 s apart.", "fig13", S,
           lambda d: adaptation.rule2_spacing(adaptation.scenario_b_runs(d, with_le=False)), "§3.3"),
    _claim("C09", "Back-off: the k-th consecutive failed retry of a change comes ≥ 2^k·5 s after the previous failure.",
           "fig13", S + LE, lambda d: adaptation.backoff_spacing(adaptation.scenario_b_runs(d)), "§3.3"),
    _claim("C10", "All receivers' changes happen at epoch boundaries (± one-way delay).", "fig11", S + LE,
           lambda d: adaptation.epoch_aligned(adaptation.scenario_b_runs(d)), "§6"),
    _claim("C11", "Scenario A, S and LE: final assignment R1, R2 → 1; R3, R4 → 2; R5, R6 → 3 (held over [500, 1000] s "
           "in ≥ 80 % of seeds).", "fig4-6", S + LE, adaptation.final_assignment_a, "Figs. 4–9",
           cause=_cycling(lambda d: _s(d) + _le_a(d)),
           category=_retries(lambda d: _s(d) + _le_a(d))),
    _claim("C12", "Scenario A, S: on each bottleneck long-term SRAMT ≈ TCP (0.5 ≤ F ≤ 2), no starvation window.",
           "fig4-6", S + TAHOE, lambda d: sharing.friendliness(d, "sramt-s"), "Figs. 4–6",
           cause=lambda d, m: sharing.link_positions(_s(d), m)),
    _claim("C13", "Scenario A, LE: as C12 for the cumulative layer traffic.", "fig7-9", LE + TAHOE,
           lambda d: sharing.friendliness(d, "sramt-le"), "Figs. 7–9",
           cause=lambda d, m: sharing.link_positions(_le(d), m)),
    _claim("C14", "Short-term, SRAMT is sometimes above and sometimes below TCP (≥ 5 sign changes in 10 s bins per "
           "link per 1000 s run).", "fig4-6", S + LE + TAHOE, sharing.short_term_alternation, "Figs. 4–9",
           cause=sharing.short_term_cause,
           category=UnrecordedReading(AIMD_SILENT, ("no-aimd",))),
    _claim("C15", "Simulcast stream rates are steadier than the layers' rates in Scenario A (mean CoV of the announced "
           "rates, S < LE).",
           "fig4-6", S + LE, lambda d: rates.steadier(_s(d), _le_a(d)), "§8.1, §8.3"),
    _claim("C16", "S and LE give similar per-link SRAMT throughput in Scenario A (within ± 30 %).", "fig4-6", S + LE,
           lambda d: sharing.similar_links(d, _s(d), d.other("fig7-9"), _le_a(d)), "§8.1",
           cause=sharing.similar_links_cause,
           # current-estimate passes it at quick scale, not at full (FAIL; the 2026-11-27 full record, 10 seeds).
           category=UnrecordedReading(ESTIMATE_SILENT, ("current-estimate",), fails_at=("full",))),
    _claim("C17", "Scenario B1 (LE): final levels R1 → 3; R2, R4 → 2; R3, R5 → 1.", "fig11", LE,
           lambda d: adaptation.assignment(_le(d), EXPECTED_B, what="B1 (LE)"), "Fig. 11", cause=_cycling(_le),
           category=_retries(_le)),
    _claim("C18", "Scenario B1: the base-layer rate ends close to ≈ 120 kbit/s, not to the expected 200 "
           "(closer to 120 than to 200).", "fig11", LE,
           lambda d: rates.low_base_rate(_le(d), "layer-1", 120), "Fig. 11"),
    _claim("C19", "Scenario B1: unsuccessful changes concentrated early (≥ 80 % before 200 s), none after 500 s.",
           "fig11", LE, lambda d: adaptation.unsuccessful_timing(_le(d), early_share=0.2, late_share=0.5), "Fig. 11",
           cause=_cycling(_le),
           category=_retries(_le)),
    _claim("C20", "Scenario B2 (S): R1, R2, R4 → stream 2; R3, R5 → stream 1; R1's attempts at stream 3 fail quickly.",
           "fig12", S, adaptation.b2_assignment_and_stream3, "Fig. 12", cause=_cycling(_s),
           category=_retries(_s)),
    # Full scale (10 seeds, run code 64951606b2c7, 2026-11-27): PASS under no-aimd (LE 1472 > S 1267 kbit/s) and
    # under background-1000B (1244 > 1146); the quick run's 2 seeds do not (UNSTABLE, FAIL): docs/papers/sramt.md.
    _claim("C21", "Scenario B with the original capacities: LE outperforms S (sum of receivers' mean rates).", "fig12",
           S + LE, rates.layered_outperforms_simulcast, "Figs. 11 vs 12",
           cause=rates.layered_outperforms_simulcast_cause,
           category=UnrecordedReading(f"{AIMD_SILENT}; {BACKGROUND_SIZE_SILENT}", ("no-aimd", "background-1000B"),
                                      fails_at=("quick",))),
    _claim("C22", "Scenario B3 (S, 3.0/1.4 Mbit/s): R1 → 3; R2, R4 → 2; R3, R5 → 1.", "fig13", S,
           lambda d: adaptation.assignment(_s(d), EXPECTED_B, what="B3 (S)"), "Fig. 13", cause=_cycling(_s),
           category=_retries(_s)),
    _claim("C23", "Scenario B3: the stream-1 rate ends close to ≈ 100 kbit/s, not to the expected 200 "
           "(closer to 100 than to 200).", "fig13", S,
           lambda d: rates.low_base_rate(_s(d), "stream-1", 100), "Fig. 13",
           category=UnrecordedReading(UNSUCCESSFUL_SILENT, ("unsuccessful-within-t-change",))),
    _claim("C24", "Scenario B3: unsuccessful changes only early (none after 500 s).", "fig13", S,
           lambda d: adaptation.unsuccessful_timing(_s(d), early_share=None, late_share=0.5), "Fig. 13",
           cause=_cycling(_s),
           category=_retries(_s)),
    _claim("C25", "Scenario B4 (droptail): the same final assignment as C22, stable to the end.", "fig14", S,
           lambda d: adaptation.assignment(_s(d), EXPECTED_B, what="B4 (S, droptail)"), "Fig. 14",
           cause=_cycling(_s),
           category=_retries(_s)),
    _claim("C26", "Droptail lowers the receivers' SRAMT throughput compared with RED, most for the receivers of "
           "the low-rate streams.", "fig14", S,
           rates.droptail_lowers_rates, "Figs. 13 vs 14", cause=rates.droptail_lowers_rates_cause),
    _claim("C27", "Synchronised changes keep one receiver's change from disturbing others (others' 5 s mean rate drops "
           "< 20 %).", "fig11", S + LE, adaptation.changes_undisturbing, "§6, §8.2"),
    _claim("C28", "With ≤ 6 receivers the sender hears from every receiver (each updated at least every 2 RTCP "
           "intervals).", "fig4-6", S, lambda d: mechanisms.feedback_gaps(_s(d)), "§7"),
    _claim("C29", "Partial suppression keeps feedback small: N = 10 000, λ = 10, T_rand = 6c → mean reports per round "
           "< 10 (≈ 7.2).", None, S, mechanisms.suppression_bound, "§7, [17]"),
    _claim("C30", "PLM (behind DRR fair queueing) has a steadier, step-wise rate than SRAMT-LE (behind RED) on the "
           "common 1 Mbit/s bottleneck with one Tahoe flow; TCP gets more than PLM (F_PLM < 1); SRAMT-LE ≈ TCP "
           "(|F_SRAMT − 1| < |F_PLM − 1|).", "fig15-19", LE + ("plm",) + TAHOE, _compared("plm"), "§9, Fig. 15",
           cause=comparisons.plm_cause,
           # vidcc-tahoe passes it at quick scale but not at full (UNSTABLE, 2026-11-27 full record): only the
           # reading that passes at both scales is named.
           category=UnrecordedReading(UNSUCCESSFUL_SILENT, ("unsuccessful-within-t-change",))),
    _claim("C31", "RLC slightly more aggressive than TCP; SRAMT-LE friendlier than RLC; no starvation.", "fig15-19",
           LE + ("rlc",), _compared("rlc"), "§9, Fig. 16", cause=comparisons.rlc_cause,
           category=OverClaim(RLC_ARGUMENT, readings=COMMON_READINGS)),
    _claim("C32", "MLDA occasionally starves TCP (or is starved) and converges slower than SRAMT-LE.", "fig15-19",
           LE + ("mlda",), _compared("mlda"), "§9, Fig. 17", cause=comparisons.mlda_cause),
    # Not an over-claim any more: its argument was that SRAMT-LE settles no sooner than MLDA under
    # every reading, but since multicast receivers get their sender's first frame (2026-11-27)
    # MLDA settles later in one of the two quick runs (docs/papers/sramt.md, fourth pass).
    _claim("C33", "DSG steadier than SRAMT-S (mean CoV of the held streams' rates, common bottleneck); similar "
           "convergence.", "fig15-19", S + ("dsg",), _compared("dsg"), "§9, Fig. 18", cause=comparisons.dsg_cause,
           # vidcc-tahoe passes it at quick scale but not at full (FAIL, 2026-11-27 full record).
           category=UnrecordedReading(RED_SILENT, ("classic-red",))),
    _claim("C34", "SRAMT-S friendlier than IRFM (|F − 1| smaller) and converges faster (its rate settles "
           "sooner after its start).",
           "fig15-19", S + ("irfm",), _compared("irfm"), "§9, Fig. 19", cause=comparisons.irfm_cause),
    _claim("C35", "Tables 1–2: wherever two schemes' ratings differ, the measured order on the common bottleneck "
           "agrees (TCP friendliness ↔ |F − 1|, stable transmission rate ↔ CoV, convergence time ↔ time until the "
           "received rate settles).", "fig15-19", S + LE + ("plm", "rlc", "mlda", "dsg", "irfm"),
           tables.tables_order_as_measured, "Tables 1–2",
           category=OverClaim(TABLES_ARGUMENT, readings=COMMON_READINGS)),
    Claim("B1", "Baseline: Scenario A with TCP only — on each bottleneck (C1–C2, C1–C3, C1–C4; RED) a Tahoe flow from "
          "S's side and the Tahoe flow from TCPi, same 60 ms RTT, get friendliness ratio F = 1 within [0.5, 2] (C12's "
          "test, Tahoe standing in for SRAMT).", "fig4-6", TAHOE, sharing.tcp_standin_friendliness, kind="baseline",
          parts=("tcp-only",)),
]
