"""Bounded quoting of bad input for error messages.

An error message quotes what it refuses, but a value read from a file can be huge (a YAML
alias bomb expands to hundreds of megabytes) or nested thousands deep: :func:`quote` writes
at most :data:`QUOTE_CHARS` characters of it (``reprlib``: at most :data:`QUOTE_LEVELS` levels and
a few items of each container).
"""

from __future__ import annotations

import reprlib
from typing import Any

QUOTE_CHARS = 160
"""longest quote: longer ones keep their start and end, joined by ``...``"""
QUOTE_LEVELS = 3
"""containers deeper than this are written ``[...]``"""

_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = _REPR.maxlong = 100
_REPR.maxlevel = QUOTE_LEVELS
_REPR.maxlist = _REPR.maxtuple = _REPR.maxdict = _REPR.maxset = _REPR.maxfrozenset = 6


def quote(value: Any) -> str:
    """``repr(value)``, shortened to a few dozen characters (see the module docstring)."""
    try:
        text = _REPR.repr(value)
    except Exception:  # a foreign object whose repr fails: its type still says what it is
        return f"<{type(value).__name__}>"
    if len(text) <= QUOTE_CHARS:
        return text
    half = (QUOTE_CHARS - 3) // 2
    return text[:half] + "..." + text[-half:]


__all__ = ["QUOTE_CHARS", "QUOTE_LEVELS", "quote"]
