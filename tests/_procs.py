"""Test helper: find the processes another process spawned (multiprocessing spawn), from /proc."""

from __future__ import annotations

import os

HAS_PROC = os.path.isdir("/proc/self")


def _stat(pid: int) -> list[str]:
    """The fields of ``/proc/PID/stat`` after the command name: state, ppid, ... (OSError if none)."""
    with open(f"/proc/{pid}/stat") as fh:
        return fh.read().rsplit(")", 1)[1].split()


def is_running(pid: int) -> bool:
    """Whether ``pid`` is a live process; a zombie counts as gone (an init that does not reap it
    leaves it in /proc, as this machine's does)."""
    try:
        return _stat(pid)[0] != "Z"
    except (OSError, IndexError):
        return False


def spawned_children(parent: int) -> list[int]:
    """Pids of the ``spawn_main`` children of ``parent`` (pool workers, actors), not its resource tracker."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            ppid = int(_stat(int(entry))[1])
            with open(f"/proc/{entry}/cmdline", "rb") as fh:
                cmd = fh.read()
        except (OSError, ValueError, IndexError):
            continue
        if ppid == parent and b"spawn_main" in cmd and b"resource_tracker" not in cmd:
            out.append(int(entry))
    return out
