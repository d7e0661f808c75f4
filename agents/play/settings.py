"""The play app's settings: what a person chose last time, kept in the user's config folder.

The file is ``<config>/crowsnest/settings.json`` where ``<config>`` is ``$XDG_CONFIG_HOME``
if set, else platformdirs' user config folder (``~/.config`` on Linux). It is written
atomically (only when the person saves the Settings screen; command-line options apply to
one run), and it can never stop the app from starting: a missing or damaged file gives the
defaults, and each saved value that does not check is reported and replaced by its default.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from crowsnest_env.atomic import atomic_write_text
from crowsnest_env.rules import NUM_SEATS, Variant, get_variant

from .levels import DEFAULT_LEVEL, LEVELS, level_agent

SPEEDS = (0.0, 0.3, 0.7, 1.2, 2.0)
"""Seconds each AI move stays on screen before the next (0 = instant)."""
TRICK_PAUSES: tuple[float | None, ...] = (0.0, 1.0, 2.0, 4.0, None)
"""After each trick: 0 = go on, seconds to wait (a key goes on sooner), None = until a key."""


@dataclass(frozen=True)
class Settings:
    """One player's choices: rules, seat, how strong the computer players are and how they move.

    ``partner`` / ``opponents`` name an agent for those seats instead of the level's (empty:
    the level's agent); the app's default is all three computer players at one level."""

    variant: str = "crowsnest"
    crow: bool = True  # False = the 40-card option (only where the variant has crow_option)
    seat: int = 0
    level: str = DEFAULT_LEVEL
    partner: str = ""
    opponents: str = ""
    speed: float = 0.7  # seconds per AI move; 0 = instant
    trick_pause: float | None = 0.0  # see TRICK_PAUSES
    keep_games: bool = True  # save every finished game under the user data folder

    def rules(self) -> Variant:
        """The Variant these settings name; ValueError for an unknown name or a bad crow option."""
        return get_variant(self.variant, self.crow)

    def check(self) -> Settings:
        """Self, or ValueError saying which setting is wrong (agents are checked when a table is built)."""
        if not isinstance(self.variant, str) or not isinstance(self.crow, bool):
            raise ValueError(f"variant must be a name and crow true or false, got {self.variant!r}, {self.crow!r}")
        self.rules()
        if isinstance(self.seat, bool) or self.seat not in range(NUM_SEATS):
            raise ValueError(f"seat must be 0..3, got {self.seat!r}")
        level_agent(self.level)
        for who in ("partner", "opponents"):
            if not isinstance(getattr(self, who), str):
                raise ValueError(f"{who} must be an agent name (or empty for the level's), got {getattr(self, who)!r}")
        if not _number(self.speed) or not 0 <= self.speed <= 10:
            raise ValueError(f"speed must be 0..10 seconds, got {self.speed!r}")
        if self.trick_pause is not None and (not _number(self.trick_pause) or not 0 <= self.trick_pause <= 60):
            raise ValueError(f"trick_pause must be 0..60 seconds or null (until a key), got {self.trick_pause!r}")
        if not isinstance(self.keep_games, bool):
            raise ValueError(f"keep_games must be true or false, got {self.keep_games!r}")
        return self

    def with_(self, **changes: Any) -> Settings:
        return replace(self, **changes)

    @property
    def variant_name(self) -> str:
        return self.rules().name

    def agent_for(self, partner: bool) -> str:
        """The agent name of the partner's seat (``partner=True``) or of an opponent's."""
        return (self.partner if partner else self.opponents) or level_agent(self.level)

    def hint_agent(self) -> str:
        """Who gives the hints: the partner's agent (the level's may name a better one)."""
        return self.partner or LEVELS[self.level].hint or level_agent(self.level)

    def label_for(self, partner: bool) -> str:
        """How a computer seat is shown: the level (``Normal``), or the agent named for it."""
        own = self.partner if partner else self.opponents
        return own if own else LEVELS[self.level].title


def _number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def config_dir() -> Path:
    """Where the settings live: $XDG_CONFIG_HOME/crowsnest, else the platform's user config folder."""
    xdg = os.environ.get("XDG_CONFIG_HOME")
    if xdg:
        return Path(xdg) / "crowsnest"
    from platformdirs import user_config_dir

    return Path(user_config_dir("crowsnest", appauthor=False))


def settings_path() -> Path:
    return config_dir() / "settings.json"


def read_settings(path: Path | None = None) -> tuple[Settings, list[str]]:
    """The saved settings and what was wrong with the file: each value that does not check
    (alone, or with the values before it) is replaced by its default and named in a problem."""
    path = path or settings_path()
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Settings(), []
    except (OSError, ValueError) as exc:
        return Settings(), [f"settings file {path} cannot be read ({exc}); using the defaults"]
    if not isinstance(raw, dict):
        return Settings(), [f"settings file {path} is not a JSON object; using the defaults"]
    settings, problems = Settings(), []
    for f in fields(Settings):
        if f.name not in raw:
            continue
        try:
            settings = replace(settings, **{f.name: raw[f.name]}).check()
        except (TypeError, ValueError) as exc:
            problems.append(f"saved setting {f.name}={raw[f.name]!r} is not valid ({exc}); "
                            f"using {getattr(settings, f.name)!r}")
    return settings, problems


def load_settings(path: Path | None = None) -> Settings:
    """The saved settings (defaults for anything missing or wrong; see :func:`read_settings`)."""
    return read_settings(path)[0]


def save_settings(settings: Settings, path: Path | None = None) -> Path:
    """Write the settings atomically; the path written."""
    path = path or settings_path()
    atomic_write_text(path, json.dumps(asdict(settings.check()), indent=1) + "\n")
    return path
