"""Real network on loopback, through the commands of docs/real-network.md: `vidcc link`, `vidcc recv`
and `vidcc send` stream a prepared clip, and `vidcc video quality` scores the real run exactly as
a simulated one. The protocol-by-protocol loopback tests, the flood, absurd feedback and
authentication tests are Rust integration tests (crates/vidcc-net/tests)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pandas as pd
import pytest

from vidcc.net import NetError, find_binary

ROOT = Path(__file__).resolve().parent.parent


def _binary() -> Path:
    """The vidcc-net binary: `make test` builds it with the Rust tests; build it if it is missing."""
    try:
        return find_binary()
    except NetError:
        subprocess.run(["cargo", "build", "--quiet", "-p", "vidcc-net"], cwd=ROOT, check=True)
        return find_binary()


def _env() -> dict[str, str]:
    return {**os.environ, "VIDCC_NET_BIN": str(_binary()),
            "PYTHONPATH": os.pathsep.join([str(ROOT / "python"), os.environ.get("PYTHONPATH", "")])}


def vidcc(*args, cwd, env=None):
    p = subprocess.run([sys.executable, "-m", "vidcc.cli", *map(str, args)], cwd=cwd, capture_output=True, text=True,
                       env=env or _env())
    assert p.returncode == 0, p.stderr
    return p


def start(*args, cwd) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "vidcc.cli", *map(str, args)], cwd=cwd, env=_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def free_ports(n: int) -> list[int]:
    socks = [socket.socket(socket.AF_INET, socket.SOCK_DGRAM) for _ in range(n)]
    for s in socks:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


@pytest.fixture(scope="module")
def prepared(tmp_path_factory):
    d = tmp_path_factory.mktemp("real")
    vidcc("video", "clip", "out/clip.y4m", "--seconds", "3", cwd=d)
    vidcc("video", "prepare", "out/clip.y4m", "--quantizers", "10", "--out", "out/prepared", cwd=d)
    return d


def stream(d: Path, name: str, loss: str | None, ports: list[int]) -> Path:
    """The three commands of docs/real-network.md, on free loopback ports (the link's, the
    receiver's)."""
    link_port, recv_port = ports
    link_args = ["link", "--listen", f"127.0.0.1:{link_port}", "--to", f"127.0.0.1:{recv_port}",
                 "--bandwidth", "10Mbps", "--delay", "20ms", "--queue", "500", "--stats", f"out/{name}-link.json"]
    if loss:
        link_args += ["--loss", loss]
    link = start(*link_args, cwd=d)
    recv = start("recv", "--listen", f"127.0.0.1:{recv_port}", "--out", f"out/{name}", "--idle", "3s", "--no-figures",
                 cwd=d)
    time.sleep(0.5)
    vidcc("send", "--protocol", "udp", "--to", f"127.0.0.1:{link_port}", "--video", "out/prepared/q10.trace",
          "--duration", "3s", "--set", "video.playout_delay=200ms", cwd=d)
    out, err = recv.communicate(timeout=60)
    assert recv.returncode == 0, err
    link.terminate()  # SIGTERM: the link ends cleanly and writes its counters
    link.communicate(timeout=30)
    assert link.returncode == 0
    return d / "out" / name


def test_a_lossless_real_run_scores_the_encoders_psnr_and_a_lossy_one_less(prepared):
    d = prepared
    encoder_psnr = json.loads((d / "out/prepared/manifest.json").read_text())["encodings"][0]["mean_psnr_db"]

    # The two runs at once, each on its own link and ports (a few hundred kbit/s each).
    ports = free_ports(4)  # all at once: distinct
    with ThreadPoolExecutor(2) as pool:
        runs = [pool.submit(stream, d, name, loss, ports[2 * k:2 * k + 2])
                for k, (name, loss) in enumerate((("clean", None), ("lossy", "bernoulli:p=0.02")))]
        clean, lossy = (r.result() for r in runs)
    for table in ("flows", "flow_summary", "aggregate", "flow_samples", "packets", "frames", "video_summary"):
        assert (clean / f"{table}.parquet").exists(), table
    summary = pd.read_parquet(clean / "flow_summary.parquet").iloc[0]
    assert summary["delivered_packets"] == summary["sent_packets"] > 0
    log = pd.read_csv(clean / "arrivals.csv")
    assert len(log) == summary["delivered_packets"] and (log["arrival_ns"] > log["sent_ns"]).all()
    packets = pd.read_parquet(clean / "packets.parquet")
    delay = packets["arrival_ns"] - packets["sent_ns"]
    assert delay.min() >= 20_000_000, "at least the link's propagation delay"
    vidcc("video", "quality", clean, "--prepared", "out/prepared", cwd=d)
    q = json.loads((clean / "quality.json").read_text())["flows"][0]
    assert q["concealed_frames"] == 0 and q["frames"] == 75
    assert q["mean_psnr_db"] == pytest.approx(encoder_psnr, abs=1e-9)

    link = json.loads((d / "out/lossy-link.json").read_text())["forward"]
    assert link["dropped_loss"] > 0
    vidcc("video", "quality", lossy, "--prepared", "out/prepared", cwd=d)
    q = json.loads((lossy / "quality.json").read_text())["flows"][0]
    assert q["concealed_frames"] > 0
    assert 15 < q["mean_psnr_db"] < encoder_psnr


def test_bad_command_lines_are_one_error_line(tmp_path):
    p = subprocess.run([sys.executable, "-m", "vidcc.cli", "send", "--protocol", "no-such", "--to", "127.0.0.1:9"],
                       cwd=tmp_path, capture_output=True, text=True, env=_env())
    assert p.returncode == 2 and p.stderr.startswith("error:") and "no-such" in p.stderr, p.stderr
    p = subprocess.run([str(_binary()), "link", "--listen", "127.0.0.1:0", "--to", "127.0.0.1:9", "--bandwidth",
                        "2Mbps", "--delay", "1ms", "--queue", "5", "--loss", "gilbert-elliott:p=2,r=0.1"],
                       capture_output=True, text=True)
    assert p.returncode == 2 and "p" in p.stderr and p.stderr.startswith("error:"), p.stderr
    p = subprocess.run([sys.executable, "-m", "vidcc.cli", "send", "--protocol", "udp-cbr", "--set", "rate=1Mbps",
                        "--to", "127.0.0.1:9", "--spin-margin", "2ms"], cwd=tmp_path, capture_output=True, text=True,
                       env=_env())
    assert p.returncode == 2 and "--spin-margin" in p.stderr and "at most 1ms" in p.stderr, p.stderr


@pytest.mark.parametrize(("protocol", "extra", "words"), [
    ("dvrc", {"video": "cbr:1Mbps"}, "video.layers=[\"1Mbps\"]"),
    ("gaimd", {"video": "cbr:1Mbps"}, "leave out --video"),
    ("udp-cbr", {"video": "cbr:1Mbps"}, "leave out --video"),
    ("udp-cbr", {}, "--set rate="),
])
def test_send_says_what_a_protocol_needs(protocol, extra, words):
    from vidcc.net import offer_document

    with pytest.raises(NetError) as e:
        offer_document(protocol, **extra)
    assert str(e.value).startswith(f"--protocol {protocol}: flows[0].") and words in str(e.value), str(e.value)
    # ... and with what it said, the flow is valid.
    fixed = {"dvrc": {"sets": ['video.layers=["1Mbps"]'], **extra}, "gaimd": {},
             "udp-cbr": {"sets": ["rate=1Mbps"]}}[protocol]
    assert offer_document(protocol, **fixed)["resolved"]["flows"][0]["protocol"]["kind"] == protocol


def test_the_console_names_every_rejection_reason_the_binary_counts():
    """Every counter the binary sums into its rejected total (driver.rs `Counters::rejected`) has
    a name on the console, and a summary line shows each reason that occurred."""
    import re

    from vidcc.net import REJECTION_REASONS, rejections

    driver = (Path(__file__).resolve().parents[1] / "crates/vidcc-net/src/driver.rs").read_text(encoding="utf-8")
    body = re.search(r"pub fn rejected\(&self\) -> u64 \{(.*?)\n    \}", driver, re.S).group(1)
    summed = set(re.findall(r"self\.(\w+)", body))
    assert summed and summed == {k for k, _ in REJECTION_REASONS}, summed
    counters = {k: i + 1 for i, (k, _) in enumerate(REJECTION_REASONS)} | {"foreign_address": 7,
                                                                          "state_cap_reached": 3}
    line = rejections(counters)
    total = sum(range(1, len(REJECTION_REASONS) + 1))
    assert line.startswith(f"rejected datagrams: {total} (")
    for i, (_, name) in enumerate(REJECTION_REASONS):
        assert f"{i + 1} {name}" in line, (name, line)
    assert "7 from other addresses" in line and "3 arrivals not recorded" in line
    assert rejections({"foreign_address": 0}) == ("rejected datagrams: 0, 0 from other addresses; "
                                                  "clamped feedback: 0")
    assert rejections({"clamped_feedback": 5}).endswith("; clamped feedback: 5")
