"""A tiny worker for the worker-layer tests (importable by spawned processes and Ray actors)."""

from __future__ import annotations

import os
import signal
import time
from typing import Any


class Echo:
    """``collect(x)`` returns what the call brought; ``"raise"``, ``"die"``, ``"sleep:S"`` misbehave
    (``"sleep:S:SEED"``: only the worker seeded SEED sleeps)."""

    def __init__(self, tag: str, seed: int):
        self.tag, self.seed = tag, seed
        self.weights: Any = None
        self.files: list[str] = []

    def collect(self, x: Any, weights: Any = None, snapshots: dict[str, Any] | None = None) -> dict[str, Any]:
        if x == "raise":
            raise ValueError("the worker's own error")
        if x == "die":
            os.kill(os.getpid(), signal.SIGKILL)
        if isinstance(x, str) and x.startswith("sleep:"):
            _, seconds, *only = x.split(":")
            if not only or int(only[0]) == self.seed:
                time.sleep(float(seconds))
        got_weights = weights is not None
        if got_weights:
            self.weights = weights
        self.files += sorted(snapshots or {})
        return {"x": x, "tag": self.tag, "seed": self.seed, "pid": os.getpid(), "got_weights": got_weights,
                "weights": self.weights, "files": list(self.files), "snapshot_data": dict(snapshots or {})}
