"""Where every value of the DVRC suite's scenarios comes from: the paper (§ and its words), ns-2
2.35's default (the paper ran ns-2, §4.1), or our reconstruction and why
(:mod:`vidcc.papers.provenance`). The first matching row wins."""

from __future__ import annotations

SETUP: list = []
