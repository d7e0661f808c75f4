"""How the command-line tools report bad input: one ``prog: error: ...`` line and an exit status.

argparse's own ``parser.error`` also prints the usage block, which buries the one line that
matters once the arguments parsed; and an exception's text can run to many lines (torch's
unpickling errors, a remote traceback): :func:`print_error` and :func:`exit_error` write it as
one line.
"""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn

USAGE_ERROR = 2
"""exit status of bad input (argparse's)"""


def one_line(err: BaseException | str) -> str:
    """The text of ``err`` on one line (whitespace runs, newlines included, become one space)."""
    text = " ".join(str(err).split())
    return text or type(err).__name__


def print_error(prog: str, err: BaseException | str, status: int = USAGE_ERROR) -> int:
    """Write ``prog: error: <err on one line>`` to stderr; returns ``status`` for ``main`` to return."""
    print(f"{prog}: error: {one_line(err)}", file=sys.stderr)
    return status


def exit_error(parser: argparse.ArgumentParser, err: BaseException | str) -> NoReturn:
    """``parser.error`` without the usage block: ``prog: error: <err on one line>``, SystemExit(2)."""
    parser.exit(USAGE_ERROR, f"{parser.prog}: error: {one_line(err)}\n")


__all__ = ["USAGE_ERROR", "exit_error", "one_line", "print_error"]
