"""Writes the seed corpus of the fuzz targets (crates/vidcc-net/src/fuzzing.rs has the layout):
envelopes of every kind for session 5, among them the forged numbers of issue 21 (sequence
numbers 2^62, 2^64 - 1, 200 000, Byes claiming 2^62 packets, an impossible receiver report),
and random bytes. Deterministic: `python3 gen_seeds.py` in this directory."""

import random
import struct

random.seed(21)
S = 5


def prefix(kind):
    return bytes([kind]) + struct.pack(">I", S)


def data(seq, frame=0, ftype=0, layer=0, index=0, count=1, flags=2, body=b""):
    info = struct.pack(">QQIBBHHB", seq, 1_700_000_000_000_000_000, frame, ftype, layer, index, count, flags)
    return prefix(0xA3) + info + body


def control(body):
    return prefix(0xA4) + body


def bye(sent, nxt, reason=None):
    return prefix(0xA5) + struct.pack(">QQ", sent, nxt) + (bytes([reason]) if reason is not None else b"")


def report(rx, nxt, echo, delay):
    return prefix(0xA6) + struct.pack(">QQQQ", rx, nxt, echo, delay)


def pack(ds):
    out = b""
    for d in ds:
        d = d[:255]
        out += bytes([len(d)]) + d
    return out


def rnd(n):
    return bytes(random.getrandbits(8) for _ in range(n))


for pick in range(24):
    for flags in (0, 1):
        ds = [control(rnd(random.randrange(0, 60))) for _ in range(5)]
        ds += [report(3, 3, 0, 0), report(1, 2**62, 2**63, 0), bye(10, 10, 3), data(0, body=rnd(20)), rnd(30)]
        open(f"corpus/sender/p{pick:02d}k{flags}", "wb").write(bytes([pick, flags]) + pack(ds))
        ds = [data(i, frame=i // 2, index=i % 2, count=2, body=rnd(40)) for i in range(8)]
        ds += [data(2**62), data(2**64 - 1), data(200_000), data(3, frame=2**32 - 2), bye(2**62, 2**62),
               bye(8, 8, 2), control(rnd(30)), prefix(0xA1) + b'{"x":1}', report(1, 1, 1, 1)]
        open(f"corpus/receiver/p{pick:02d}k{flags}", "wb").write(bytes([pick, flags]) + pack(ds))
for i in range(6):
    out = bytes([i & 1, (i >> 1) & 1])
    for _ in range(40):
        d = rnd(random.randrange(0, 255))
        out += bytes([random.randrange(0, 256), len(d)]) + d
    open(f"corpus/relay/seed{i}", "wb").write(out)
