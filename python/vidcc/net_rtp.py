"""Real encoded bytes and a third-party RTP receiver for ``vidcc send`` (docs/real-network.md,
docs/protocols/rtcp-udp.md).

- :func:`payload_map`: where each frame of a prepared trace (``vidcc video prepare``'s
  ``q{N}.trace``, lines in bitstream order) lies in its bitstream (``q{N}.m4v`` beside it): the
  frames are the bitstream's consecutive byte ranges, in line order, so the sender's data packets
  carry the real encoded bytes (crates/vidcc-net/src/payload.rs).
- :func:`sdp`: the session description (RFC 4566) of ``rtcp-udp``'s RTP stream as plain RTP,
  MPEG-4 Part 2 video per RFC 6416: ``a=rtpmap:96 MP4V-ES/90000`` and an ``a=fmtp`` with the
  ``profile-level-id`` and ``config`` (the VOS/VO/VOL headers before the first VOP, in hex), so
  that FFmpeg (``ffplay -protocol_whitelist file,udp,rtp stream.sdp``) can decode it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["payload_map", "bitstream_of", "sdp", "RtpError"]

VOS_START = b"\x00\x00\x01\xb0"  # visual_object_sequence_start_code (ISO/IEC 14496-2 6.2.2)
VOP_START = b"\x00\x00\x01\xb6"  # vop_start_code: the first frame's data begins here


class RtpError(ValueError):
    """A bitstream or trace that cannot be streamed as asked, in one line."""


def bitstream_of(trace: str | Path) -> Path | None:
    """The MPEG-4 Part 2 bitstream a prepared trace describes (``q10.trace`` -> ``q10.m4v``)."""
    p = Path(trace).with_suffix(".m4v")
    return p if p.is_file() else None


def payload_map(trace: str | Path, bitstream: str | Path) -> dict[str, Any]:
    """``{"bitstream": path, "frames": [[display index, offset, size], ...]}`` from an Evalvid
    trace in bitstream order; the sizes must add up to the bitstream's length."""
    frames, offset = [], 0
    for n, line in enumerate(Path(trace).read_text(encoding="ascii").splitlines(), 1):
        if not line.strip():
            continue
        parts = line.split()
        try:
            display, size = int(parts[0]), int(parts[2])
        except (IndexError, ValueError):
            raise RtpError(f"{trace}:{n}: not an Evalvid trace line (frameId type size packets time)") from None
        frames.append([display, offset, size])
        offset += size
    length = Path(bitstream).stat().st_size
    if offset != length:
        raise RtpError(f"{bitstream}: {length} bytes, but the frames of {trace} add up to {offset}; "
                       "is it the trace's bitstream?")
    return {"bitstream": str(Path(bitstream).resolve()), "frames": frames}


def sdp(bitstream: str | Path, host: str, port: int) -> str:
    """The SDP of the plain RTP stream of ``rtcp-udp`` carrying this MPEG-4 Part 2 bitstream to
    ``host:port`` (RFC 4566; RFC 6416 §7.1 for the ``fmtp`` parameters)."""
    data = Path(bitstream).read_bytes()
    vop = data.find(VOP_START)
    if vop <= 0:
        raise RtpError(f"{bitstream}: no VOL header before the first VOP; not an MPEG-4 Part 2 elementary stream")
    config = data[:vop]
    vos = config.find(VOS_START)
    # profile_and_level_indication follows the VOS start code; 1 (Simple Profile, level 1) if
    # the stream has no VOS header (RFC 6416 §7.1: the default).
    profile = config[vos + 4] if vos >= 0 and vos + 4 < len(config) else 1
    family = "IP6" if ":" in host else "IP4"
    return (
        "v=0\r\n"
        f"o=- 0 0 IN {family} {host}\r\n"
        "s=vidcc rtcp-udp\r\n"
        f"c=IN {family} {host}\r\n"
        "t=0 0\r\n"
        f"m=video {port} RTP/AVP 96\r\n"
        "a=rtpmap:96 MP4V-ES/90000\r\n"
        f"a=fmtp:96 profile-level-id={profile};config={config.hex().upper()}\r\n"
    )
