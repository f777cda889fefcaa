"""Where every value of the ASMP/TFMCC suite's scenarios comes from (filled in the next step)."""

from __future__ import annotations

SETUP: list = []
