"""Atomic file writes: readers see the old content or the new, never half a file."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from typing import IO, Any

_UMASK = os.umask(0)
os.umask(_UMASK)  # read once: mkstemp makes 0600 files, the result should get the usual mode


def atomic_write(path: str | os.PathLike[str], write: Callable[[IO[Any]], None], binary: bool = False) -> None:
    """Call ``write(file)`` on a temp file beside ``path``, fsync it, then ``os.replace`` it into place."""
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(path)}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb" if binary else "w", **({} if binary else {"encoding": "utf-8"})) as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o666 & ~_UMASK)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    atomic_write(path, lambda fh: fh.write(text))
