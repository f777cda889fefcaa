"""Type stub of the Rust extension (crates/vidcc-py): unit parsers, the protocol registry, the
simulator, QoS-AIMD's parameter selection and the PSNR/SSIM kernel. Every function raises
ValueError with a one-line message on bad input."""

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

__version__: str

def parse_rate(s: str) -> int:
    """``"10Mbps"`` → 10_000_000 (bit/s)."""

def parse_duration(s: str) -> int:
    """``"35ms"`` → 35_000_000 (ns)."""

def parse_size(s: str) -> int:
    """``"64KB"`` → 64_000 (bytes)."""

def parse_trace(text: str, format: str) -> int:
    """Parses a frame-size trace (``"evalvid"`` or ``"plain"``); returns its frame count."""

def parse_gop(s: str) -> int:
    """Validates a GOP pattern (``"IBBPBBPBBPBB"``); returns its length."""

def protocol_names() -> list[str]:
    """Every protocol a flow may name, in the registry's order."""

def protocol_defaults(name: str) -> dict[str, Any]:
    """Protocol ``name``'s default configuration in the resolved form (base units, with ``kind``).
    Fields the schema requires (a CBR flow's ``rate_bps``) hold a placeholder."""

def protocol_header_bytes(name: str) -> int:
    """Bytes of protocol ``name``'s data header."""

def protocol_reach(name: str) -> str:
    """``"unicast"`` (one receiver per flow) or ``"multicast"`` (any number) for protocol ``name``."""

def simulate(
    config_json: str, progress: Callable[[float], object] | None = None
) -> dict[str, Any]:
    """Runs one simulation of a resolved configuration (JSON). Returns
    ``{"tables": {name: {column: numpy array | list[str]}}, "stats": {name: int}}``; the GIL is
    released while it runs and ``progress(fraction)`` is called about every 1 % of simulated time.
    Ctrl-C (or an exception from ``progress``) stops the run and is re-raised."""

def sramt_unit_measurements() -> dict[str, float]: ...
def ssvp_unit_measurements() -> dict[str, float]: ...
def qos_aimd_select(
    error_rate: float,
    rtt_slots: Sequence[int],
    delay_bound: int,
    outage_target: float = 0.01,
    beta: float = 0.875,
    burst_slots: float | None = None,
    shares: Sequence[float] | None = None,
    rounding: str = "nearest",
) -> dict[str, Any]:
    """QoS-AIMD's cross-layer parameter selection and the model's predictions."""

def psnr_ssim(
    reference: NDArray[np.uint8], test: NDArray[np.uint8], ssim_constants: str = "wang"
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """PSNR (dB, capped at 100) and SSIM (8×8 windows every 4 samples) of each frame of a batch of
    8-bit Y planes, shape ``(n, height, width)``, C-contiguous, in one pass per frame
    (vidcc-core ``media::quality``). ``ssim_constants``: ``"wang"`` or ``"ffmpeg"``. The GIL is
    released while it runs."""
