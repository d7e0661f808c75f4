"""The play app's settings: what a person chose last time, kept in the user's config folder.

The file is ``<config>/crowsnest/settings.json`` where ``<config>`` is ``$XDG_CONFIG_HOME``
if set, else platformdirs' user config folder (``~/.config`` on Linux). It is written
atomically, and a missing or damaged file gives the defaults, never an error.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from crowsnest_env.atomic import atomic_write_text
from crowsnest_env.rules import NUM_SEATS, Variant, get_variant

SPEEDS = (0.0, 0.3, 0.7, 1.2, 2.0)
"""Seconds each AI move stays on screen before the next (0 = instant)."""


@dataclass(frozen=True)
class Settings:
    """One player's choices: rules, seat, the three AI seats and how fast they move."""

    variant: str = "crowsnest"
    crow: bool = True  # False = the 40-card option (only where the variant has crow_option)
    seat: int = 0
    partner: str = "heuristic"
    opponents: str = "heuristic"
    speed: float = 0.7  # seconds per AI move; 0 = instant

    def rules(self) -> Variant:
        """The Variant these settings name; ValueError for an unknown name or a bad crow option."""
        return get_variant(self.variant, self.crow)

    def check(self) -> Settings:
        """Self, or ValueError saying which setting is wrong (agents are checked when built)."""
        self.rules()
        if isinstance(self.seat, bool) or self.seat not in range(NUM_SEATS):
            raise ValueError(f"seat must be 0..3, got {self.seat!r}")
        if not isinstance(self.speed, (int, float)) or not 0 <= self.speed <= 10:
            raise ValueError(f"speed must be 0..10 seconds, got {self.speed!r}")
        for who in ("partner", "opponents"):
            if not isinstance(getattr(self, who), str) or not getattr(self, who):
                raise ValueError(f"{who} must name an agent")
        return self

    def with_(self, **changes: Any) -> Settings:
        return replace(self, **changes)


def config_dir() -> Path:
    """Where the settings live: $XDG_CONFIG_HOME/crowsnest, else the platform's user config folder."""
    xdg = os.environ.get("XDG_CONFIG_HOME")
    if xdg:
        return Path(xdg) / "crowsnest"
    try:
        from platformdirs import user_config_dir
    except ImportError:
        return Path.home() / ".config" / "crowsnest"
    return Path(user_config_dir("crowsnest", appauthor=False))


def settings_path() -> Path:
    return config_dir() / "settings.json"


def load_settings(path: Path | None = None) -> Settings:
    """The saved settings; defaults for a missing file, and for any value that does not check."""
    path = path or settings_path()
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return Settings()
    if not isinstance(raw, dict):
        return Settings()
    known = {f.name for f in fields(Settings)}
    try:
        return Settings(**{k: v for k, v in raw.items() if k in known}).check()
    except (TypeError, ValueError):
        return Settings()


def save_settings(settings: Settings, path: Path | None = None) -> Path:
    """Write the settings atomically; the path written."""
    path = path or settings_path()
    atomic_write_text(path, json.dumps(asdict(settings), indent=1) + "\n")
    return path
