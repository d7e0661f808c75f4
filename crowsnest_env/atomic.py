"""Atomic file writes: readers see the old content or the new, never half a file.

The temp file sits beside the target as ``.NAME.tmp-<pid>-<random>``: recognisable, so a
later write to the same target removes the ones left by processes that died mid-write
(killed, out of memory); a write that fails removes its own. A failed write raises
``OSError`` naming the target, and says "no space left" when the disk is full (torch's
own message for that is an ``inline_container.cc`` RuntimeError).

File mode: ``mkstemp`` makes 0600 files; the result gets the usual ``0o666 & ~umask``.
The umask can only be read by setting it, so it is read lazily (first write, not at
import: importing must not touch process state) under a lock, and cached: a process
that changes its umask afterwards keeps the first one for these files.
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import threading
from collections.abc import Callable
from typing import IO, Any

_UMASK_LOCK = threading.Lock()
_UMASK: int | None = None


def _file_mode() -> int:
    global _UMASK
    with _UMASK_LOCK:
        if _UMASK is None:
            _UMASK = os.umask(0o022)
            os.umask(_UMASK)
    return 0o666 & ~_UMASK


def temp_name(path: str, pid: int | None = None) -> str:
    """The temp file a write of ``path`` uses: ``.NAME.tmp-<pid>-<random>`` in the same folder."""
    folder, base = os.path.split(path)
    return os.path.join(folder, f".{base}.tmp-{os.getpid() if pid is None else pid}-{secrets.token_hex(4)}")


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's live process
        return True
    except OSError:
        return True
    return True


def remove_stale_temps(path: str) -> list[str]:
    """Remove temp files of ``path`` left by dead processes; returns the removed paths."""
    folder, base = os.path.split(os.path.abspath(path))
    pattern = re.compile(rf"^\.{re.escape(base)}\.tmp-(\d+)-[0-9a-f]+$")
    removed: list[str] = []
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    for name in names:
        m = pattern.match(name)
        if m and not _pid_alive(int(m.group(1))):
            try:
                os.unlink(os.path.join(folder, name))
                removed.append(os.path.join(folder, name))
            except OSError:
                pass
    return removed


def _is_io_failure(err: RuntimeError) -> bool:
    text = str(err)
    return any(s in text for s in ("inline_container", "file write failed", "No space left", "unexpected pos"))


def _write_error(path: str, err: BaseException) -> OSError:
    code = getattr(err, "errno", None)
    text = str(err)
    if code == errno.ENOSPC or "No space left" in text or "file write failed" in text:
        return OSError(errno.ENOSPC, f"cannot write {path!r}: no space left on device ({type(err).__name__}: {text})")
    return OSError(code or errno.EIO, f"cannot write {path!r}: {type(err).__name__}: {text}")


def atomic_write(path: str | os.PathLike[str], write: Callable[[IO[Any]], None], binary: bool = False) -> None:
    """Call ``write(file)`` on a temp file beside ``path``, fsync it, then ``os.replace`` it into place.

    OSError (or a RuntimeError from torch's writer) during the write becomes an OSError naming
    ``path``; the temp file is removed whatever happens.
    """
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    mode = _file_mode()
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as err:
        raise _write_error(path, err) from err
    remove_stale_temps(path)
    tmp = temp_name(os.path.join(folder, os.path.basename(path)))
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as err:
        raise _write_error(path, err) from err
    try:
        with (os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8")) as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except OSError as err:
        _unlink(tmp)
        raise _write_error(path, err) from err
    except RuntimeError as err:
        _unlink(tmp)
        if _is_io_failure(err):  # torch's zip writer reports I/O failures as RuntimeError
            raise _write_error(path, err) from err
        raise
    except BaseException:
        _unlink(tmp)
        raise


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    def write(fh: IO[Any]) -> None:
        fh.write(text)

    atomic_write(path, write)
