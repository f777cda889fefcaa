"""vidcc: congestion-controlled real-time and layered video over UDP."""

from vidcc._vidcc import __version__

__all__ = ["__version__"]
