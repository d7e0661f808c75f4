"""The game behind the play app, without any UI: a :class:`Table`, the AI seats, hints, replay.

Every move, the person's or an agent's, goes through ``Table.step``; a replay rebuilds each
position with :func:`crowsnest_env.replay` from a prefix of the record's actions.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

from crowsnest_env import record as record_mod
from crowsnest_env.rules import NO_CROW_SUFFIX, NUM_SEATS, HandResult, Phase, State, Variant
from crowsnest_env.table import Table

from .. import make_agent
from .settings import Settings

SEAT_NAMES = ("You", "Left", "Partner", "Right")
"""Seats as the person sees them, by offset from their own seat (clockwise)."""


def seat_label(seat: int, me: int) -> str:
    """``You``, ``Left``, ``Partner`` or ``Right`` (with the seat number) as seen from ``me``."""
    return f"{SEAT_NAMES[(seat - me) % NUM_SEATS]} (p{seat})"


def build_agent(spec: str, variant: Variant, seed: int | None):
    """``make_agent`` for this variant: a checkpoint must have been trained for it (ValueError if not)."""
    if spec.startswith("checkpoint:"):
        crow = not variant.name.endswith(NO_CROW_SUFFIX)
        base = variant.name.removesuffix(NO_CROW_SUFFIX)
        try:
            return make_agent(spec, seed=seed, variant=base, crow=crow)
        except ImportError as exc:  # torch is an optional dependency
            raise ValueError(f"checkpoint agents need torch ({exc})") from None
    return make_agent(spec, seed=seed)


@dataclass(frozen=True)
class Hint:
    """What an agent would do in the person's seat, and its per-card values when it has them."""

    agent: str
    action: int
    values: dict[int, float] | None = None


class Game:
    """One game: the person's seat, three agents, the Table, and what the UI shows between moves."""

    def __init__(self, settings: Settings, seed: int | None = None, max_hands: int | None = None,
                 autoplay: bool = False):
        self.settings = settings.check()
        self.variant = settings.rules()
        self.seed = random.SystemRandom().randrange(2**31) if seed is None else int(seed)
        self.me = settings.seat
        self.autoplay = autoplay
        partner = (self.me + 2) % NUM_SEATS
        seats = range(NUM_SEATS) if autoplay else [s for s in range(NUM_SEATS) if s != self.me]
        self.agents = {s: build_agent(settings.partner if s in (self.me, partner) else settings.opponents,
                                      self.variant, self.seed * 10 + s) for s in seats}
        self.table = Table(self.variant, episode="game", max_hands=max_hands)
        self.table.reset(self.seed)
        self.deal_nest = self.state.nest
        self.last: tuple[int, int] | None = None  # (seat, action) of the last move
        self.events: list[HandResult] = []

    @property
    def state(self) -> State:
        assert self.table.state is not None  # reset() ran in __init__
        return self.table.state

    @property
    def done(self) -> bool:
        return self.table.done

    def human_to_move(self) -> bool:
        return not self.done and not self.autoplay and self.table.to_move == self.me

    def legal(self) -> list[int]:
        return [] if self.done else self.state.legal_actions()

    def step(self, action: int) -> HandResult | None:
        """Apply the mover's action through the Table; the hand result if one was scored."""
        seat = self.table.to_move
        nest_before = self.deal_nest
        self.table.step(action)
        self.last = (seat, action)
        if self.state.phase is Phase.AUCTION and (self.table.scored or self.table.passed_out):
            self.deal_nest = self.state.nest  # a new deal: remember its nest for the summary
        if self.table.scored is not None:
            self.events.append(self.table.scored)
            self.scored_nest = nest_before
        return self.table.scored

    def agent_step(self) -> HandResult | None:
        """Let the agent on turn move."""
        seat = self.table.to_move
        return self.step(self.agents[seat].act(self.table.view(seat)))

    def hint(self) -> Hint:
        """What a fresh copy of the partner's agent would play in the person's seat now."""
        view = self.table.view(self.me)
        spec = self.settings.partner
        agent = build_agent(spec, self.variant, self.seed + len(self.table.record()["actions"]))
        explain = getattr(agent, "explain", None)
        if explain is not None:
            action, values = explain(view)
            return Hint(spec, action, values)
        return Hint(spec, agent.act(view))

    def record(self) -> dict[str, Any]:
        return self.table.record()

    def save(self, path: str) -> None:
        self.table.save_record(path)


def load_record(path: str) -> dict[str, Any]:
    """A game record from a file, replayed once to check it; ValueError saying what is wrong."""
    try:
        rec = record_mod.load(path)
    except OSError as exc:
        raise ValueError(f"cannot read record {path!r}: {exc.strerror or exc}") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path!r} is not a JSON game record: {exc}") from None
    try:
        check_record(rec)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise ValueError(f"{path!r} is not a valid CrowsNest game record: {exc}") from None
    return rec


def check_record(rec: Any) -> None:
    """ValueError unless ``rec`` replays with every one of its actions applied."""
    full = record_mod.replay(rec)  # checks the format, the variant and each action's legality
    if not rec["deals"]:
        raise ValueError("it has no deals")
    actions = list(rec["actions"])
    if actions and record_mod.replay({**rec, "actions": actions[:-1]}) == full:
        raise ValueError("some of its actions are never reached (no deal for them, or after the game's end)")


class Replay:
    """Steps through a saved game one action at a time (forwards and back)."""

    def __init__(self, record: dict[str, Any], seat: int = 0):
        self.record = record
        self.actions: list[int] = list(record["actions"])
        self.me = seat
        self.pos = 0
        self.state = self._at(0)

    def _at(self, n: int) -> State:
        return record_mod.replay({**self.record, "actions": self.actions[:n]})

    def seek(self, n: int) -> State:
        self.pos = max(0, min(n, len(self.actions)))
        self.state = self._at(self.pos)
        return self.state

    @property
    def last(self) -> tuple[int, int] | None:
        """(seat, action) of the move just shown."""
        if self.pos == 0:
            return None
        before = self._at(self.pos - 1)
        return before.to_move, self.actions[self.pos - 1]

    @property
    def at_end(self) -> bool:
        return self.pos >= len(self.actions)
