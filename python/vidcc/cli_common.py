"""What every ``vidcc`` command line shares: problems are one ``error: ...`` line on stderr, and
usage errors exit with status 2 after the usage line. Used by ``vidcc.cli`` and the subcommands
that live next to their subject (``vidcc.video.cli``, ``vidcc.qos_aimd_select``).
"""

from __future__ import annotations

import argparse
import sys

__all__ = ["Parser", "print_error"]


def print_error(message: object) -> None:
    """``error: <message>`` on stderr, the message folded onto one line."""
    print("error: " + " ".join(str(message).split()), file=sys.stderr)


class Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line and exit 2, like every other usage
    problem."""

    def error(self, message: str):
        self.print_usage(sys.stderr)
        print_error(f"{self.prog}: {message}")
        sys.exit(2)
