"""A real client no one here wrote: FFmpeg (through PyAV) receives ``rtcp-udp``'s RTP stream of
a prepared clip, described by the SDP ``vidcc send --sdp`` writes, and decodes it. The RTP
packets are the protocol's own (header from vidcc-core's wire/rtcp_udp.rs), sent without the
driver's envelope (``--plain-rtp``), with the clip's real encoded bytes as payload, packetized
as the simulator packetizes frames (RFC 6416: a VOP split across packets, marker on the last)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import av
import numpy as np
import pytest

from vidcc.net import NetError, find_binary
from vidcc.net_rtp import payload_map, sdp

ROOT = Path(__file__).resolve().parent.parent
FRAMES = 75  # 3 s at 25 fps


def _env() -> dict[str, str]:
    try:
        binary = find_binary()
    except NetError:
        subprocess.run(["cargo", "build", "--quiet", "-p", "vidcc-net"], cwd=ROOT, check=True)
        binary = find_binary()
    return {**os.environ, "VIDCC_NET_BIN": str(binary),
            "PYTHONPATH": os.pathsep.join([str(ROOT / "python"), os.environ.get("PYTHONPATH", "")])}


def vidcc(*args, cwd):
    p = subprocess.run([sys.executable, "-m", "vidcc.cli", *map(str, args)], cwd=cwd, capture_output=True, text=True,
                       env=_env())
    assert p.returncode == 0, p.stderr
    return p


def free_port_pair() -> tuple[int, int]:
    """An even RTP port whose RTCP neighbour (+1) is free too, and a port for the receiver."""
    for _ in range(50):
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1] & ~1
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as a, \
                    socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as b, \
                    socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as c:
                a.bind(("127.0.0.1", port))
                b.bind(("127.0.0.1", port + 1))
                c.bind(("127.0.0.1", 0))
                return port, c.getsockname()[1]
        except OSError:
            continue
    raise RuntimeError("no free port pair")


def bound(port: int) -> bool:
    """Whether some UDP socket on this machine is bound to ``port`` (/proc/net/udp)."""
    rows = Path("/proc/net/udp").read_text().splitlines()[1:]
    return any(int(r.split()[1].rsplit(":", 1)[1], 16) == port for r in rows)


@pytest.fixture(scope="module")
def prepared(tmp_path_factory):
    # No B frames: the sender sends frames in display order (as the simulator does), which is
    # the bitstream's order only without B frames (crates/vidcc-net/src/payload.rs).
    d = tmp_path_factory.mktemp("rtp")
    vidcc("video", "clip", "clip.y4m", "--seconds", "3", cwd=d)
    vidcc("video", "prepare", "clip.y4m", "--quantizers", "10", "--bframes", "0", "--out", "prepared", cwd=d)
    return d


def test_the_payload_map_is_the_bitstream_cut_by_the_trace(prepared):
    m = payload_map(prepared / "prepared/q10.trace", prepared / "prepared/q10.m4v")
    assert len(m["frames"]) == FRAMES
    assert sorted(f[0] for f in m["frames"]) == list(range(FRAMES))
    data = (prepared / "prepared/q10.m4v").read_bytes()
    # Each frame's range begins with an MPEG-4 start code (the first with the VOS header).
    assert all(data[o:o + 3] == b"\x00\x00\x01" for _, o, _ in m["frames"])
    text = sdp(prepared / "prepared/q10.m4v", "127.0.0.1", 5004)
    assert "m=video 5004 RTP/AVP 96\r\n" in text and "a=rtpmap:96 MP4V-ES/90000\r\n" in text
    config = text.split("config=")[1].split("\r\n")[0]
    assert data.startswith(bytes.fromhex(config)) and bytes.fromhex(config)[:4] == b"\x00\x00\x01\xb0"


def test_ffmpeg_decodes_the_rtcp_udp_stream(prepared):
    d = prepared
    rtp_port, recv_port = free_port_pair()
    sdp_path = d / "stream.sdp"
    # The SDP as `vidcc send --sdp` writes it; FFmpeg must listen before the first packet.
    sdp_path.write_text(sdp(d / "prepared/q10.m4v", "127.0.0.1", rtp_port), encoding="ascii")
    decoded: list[tuple[int, np.ndarray]] = []  # (pts, Y plane)
    failure: list[BaseException] = []

    def play() -> None:
        try:
            # timeout: (opening, reading) in seconds; the read timeout ends the stream.
            with av.open(str(sdp_path), options={"protocol_whitelist": "file,udp,rtp"}, timeout=(30, 4)) as c:
                for packet in c.demux(video=0):
                    for frame in packet.decode():
                        decoded.append((frame.pts, frame.to_ndarray(format="yuv420p")[:frame.height]))
        except av.error.ExitError:
            pass  # the read timeout: the stream is over
        except BaseException as e:  # noqa: BLE001  (reported by the test below)
            failure.append(e)

    player = threading.Thread(target=play, daemon=True)
    player.start()
    # FFmpeg must have bound its RTP port before the first packet: look for it in the kernel's
    # socket table (binding it ourselves to find out could take it from FFmpeg).
    for _ in range(400):
        if bound(rtp_port):
            break
        time.sleep(0.05)
    else:
        pytest.fail(f"FFmpeg did not bind port {rtp_port}: {failure}")
    recv = subprocess.Popen([sys.executable, "-m", "vidcc.cli", "recv", "--listen", f"127.0.0.1:{recv_port}",
                             "--out", "out/recv", "--idle", "3s", "--no-figures", "--quiet"], cwd=d, env=_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(0.5)
    # rtcp-udp adapts layered video: one layer, the whole encoded frame (a trace keeps its sizes).
    vidcc("send", "--protocol", "rtcp-udp", "--to", f"127.0.0.1:{recv_port}", "--video", "prepared/q10.trace",
          "--duration", "3s", "--set", 'video.layers=["1Mbps"]', "--plain-rtp", f"127.0.0.1:{rtp_port}",
          "--sdp", "sent.sdp", "--quiet", cwd=d)
    _, err = recv.communicate(timeout=60)
    assert recv.returncode == 0, err
    player.join(timeout=60)
    assert not player.is_alive(), "FFmpeg did not finish"
    assert not failure, failure
    assert (d / "sent.sdp").read_text(encoding="ascii") == sdp_path.read_text(encoding="ascii")
    # The vidcc receiver got the same stream (enveloped) without loss: the path was lossless.
    summary = json.loads((d / "out/recv/summary.json").read_text())["flows"][0]
    assert summary["delivered_packets"] == summary["sent_packets"] > 0
    print(f"FFmpeg decoded {len(decoded)} of {FRAMES} frames")
    assert len(decoded) >= 0.95 * FRAMES
    # The real encoded bytes arrived: each decoded picture is the encoder's own decode of that
    # frame (q10.decoded.yuv), pixel for pixel. RTP timestamps (90 kHz) number the frames: the
    # sender stamps each with its ready time, 3600 ticks apart at 25 fps.
    manifest = json.loads((d / "prepared/manifest.json").read_text())
    w, h = manifest["width"], manifest["height"]
    reference = np.fromfile(d / "prepared/q10.decoded.yuv", dtype=np.uint8).reshape(FRAMES, h * 3 // 2, w)[:, :h]
    first = decoded[0][0]
    same = sum(np.array_equal(y, reference[round((pts - first) / 3600)]) for pts, y in decoded
               if 0 <= round((pts - first) / 3600) < FRAMES)
    assert same >= 0.95 * FRAMES, f"{same} of {len(decoded)} decoded frames equal the encoder's"
