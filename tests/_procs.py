"""Test helper: find the processes another process spawned (multiprocessing spawn), from /proc."""

from __future__ import annotations

import os

HAS_PROC = os.path.isdir("/proc/self")


def spawned_children(parent: int) -> list[int]:
    """Pids of the ``spawn_main`` children of ``parent`` (pool workers, actors), not its resource tracker."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline", "rb") as fh:
                cmd = fh.read()
        except (OSError, ValueError, IndexError):
            continue
        if ppid == parent and b"spawn_main" in cmd and b"resource_tracker" not in cmd:
            out.append(int(entry))
    return out
