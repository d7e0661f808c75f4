"""The game behind the play app, without any UI: a :class:`Table`, the AI seats, hints, replay.

Every move, the person's or an agent's, goes through ``Table.step``; a replay rebuilds each
position with :func:`crowsnest_env.replay` from a prefix of the record's actions. Every agent a
table will use is built and checked on the rule set (:func:`check_agent`) before the game starts.
"""

from __future__ import annotations

import functools
import json
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from crowsnest_env import record as record_mod
from crowsnest_env.agent import Agent
from crowsnest_env.rules import (
    NO_CROW_SUFFIX,
    NUM_SEATS,
    HandResult,
    Phase,
    PlayerView,
    State,
    Variant,
    trick_winner_offset,
)
from crowsnest_env.table import DEFAULT_MAX_HANDS, Table

from .. import make_agent
from .settings import Settings

SEAT_NAMES = ("You", "Left", "Partner", "Right")
"""Seats as the person sees them, by offset from their own seat (clockwise)."""
HUMAN = "human"
"""The agent name a record's ``players`` entry gives the person's seat."""
PROBE_SEED = 20240917


def seat_label(seat: int, me: int) -> str:
    """``You``, ``Left``, ``Partner`` or ``Right`` (with the seat number) as seen from ``me``."""
    return f"{SEAT_NAMES[(seat - me) % NUM_SEATS]} (p{seat})"


def first_line(exc: BaseException) -> str:
    """An error as one line (torch's unpickling errors run to a dozen)."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def build_agent(spec: str, variant: Variant, seed: int | None) -> Agent:
    """``make_agent`` for this variant: a checkpoint must have been trained for it (ValueError if not)."""
    try:
        if spec.startswith("checkpoint:"):
            crow = not variant.name.endswith(NO_CROW_SUFFIX)
            return make_agent(spec, seed=seed, variant=variant.name.removesuffix(NO_CROW_SUFFIX), crow=crow)
        return make_agent(spec, seed=seed)
    except ImportError as exc:  # torch is an optional dependency
        raise ValueError(f"agent {spec!r} needs torch ({exc})") from None


@functools.lru_cache(maxsize=16)
def probe_views(variant: Variant) -> tuple[PlayerView, ...]:
    """One position of each phase of ``variant`` (auction, nest discard, trump, card play),
    reached by heuristic players on a fixed deal: what :func:`check_agent` asks an agent."""
    from ..heuristic import HeuristicAgent

    table = Table(variant, max_hands=1, observe=False, record=False)
    table.reset(PROBE_SEED)
    player = HeuristicAgent(seed=0)
    found: dict[Phase, PlayerView] = {}
    while not table.done and Phase.PLAY not in found:
        view = table.view()
        found.setdefault(view.phase, view)
        table.step(player.act(view))
    return tuple(found.values())


def check_agent(agent: Agent, who: str, variant: Variant) -> None:
    """ValueError (one line, naming ``who`` and the rules) unless ``agent`` makes a legal move in
    every phase of ``variant``: a policy for other rules, a missing shipped policy or a ``phase:``
    part that cannot play fail here, before a game starts, not in the middle of it."""
    for view in probe_views(variant):
        try:
            action = agent.act(view)
        except Exception as exc:  # noqa: BLE001 - any failure of a foreign agent is reported, named
            raise ValueError(f"{who} cannot play {variant.name}: {first_line(exc)}") from None
        if isinstance(action, bool) or not isinstance(action, int) or not view.legal >> action & 1:
            raise ValueError(f"{who} made an illegal move ({action!r}) in the {view.phase.name.lower()} "
                             f"of {variant.name}")


def lineup(settings: Settings, autoplay: bool = False) -> dict[int, tuple[str, str]]:
    """seat -> (agent name, label) for every computer seat (all four in autoplay)."""
    me = settings.seat
    out = {}
    for seat in range(NUM_SEATS):
        if seat == me and not autoplay:
            continue
        ours = seat % 2 == me % 2
        out[seat] = (settings.agent_for(ours), settings.label_for(ours))
    return out


def build_lineup(settings: Settings, seed: int, autoplay: bool = False) -> dict[int, Agent]:
    """Every computer seat's agent, built and checked on the rules (ValueError naming the first
    that cannot play them); each is then re-seeded, so the probe leaves no trace in the game."""
    variant = settings.rules()
    agents: dict[int, Agent] = {}
    for seat, (spec, label) in lineup(settings, autoplay).items():
        agent_seed = seed * 10 + seat
        agent = build_agent(spec, variant, agent_seed)  # an unknown name or option says so itself
        check_agent(agent, spec if label == spec else f"{label} ({spec})", variant)
        agent.reset(agent_seed)
        agents[seat] = agent
    return agents


@dataclass(frozen=True)
class Hint:
    """What an agent would do in the person's seat, and its per-card values when it has them."""

    agent: str
    action: int
    values: dict[int, float] | None = None


@dataclass(frozen=True)
class Trick:
    """A finished trick: who led, the cards from the leader, who won, in which hand."""

    hand_no: int
    number: int  # 1.. within the hand
    leader: int
    cards: tuple[int, ...]
    winner: int


class Game:
    """One game: the person's seat, three agents, the Table, and what the UI shows between moves."""

    def __init__(self, settings: Settings, seed: int | None = None, max_hands: int | None = None,
                 autoplay: bool = False):
        self.settings = settings.check()
        self.variant = settings.rules()
        self.seed = random.SystemRandom().randrange(2**31) if seed is None else int(seed)
        self.me = settings.seat
        self.autoplay = autoplay
        self.agents = build_lineup(settings, self.seed, autoplay)
        self.names = {seat: spec for seat, (spec, _) in lineup(settings, autoplay).items()}
        self.labels = {seat: label for seat, (_, label) in lineup(settings, autoplay).items()}
        self.table = Table(self.variant, episode="game",
                           max_hands=DEFAULT_MAX_HANDS if max_hands is None else max_hands)
        self.table.reset(self.seed)
        self.deal_nest = self.state.nest
        self.scored_nest = 0
        self.last: tuple[int, int] | None = None  # (seat, action) of the last move
        self.last_trick: Trick | None = None
        self.trick_done = False  # the last step finished a trick
        self.events: list[HandResult] = []
        self.started = time.time()
        self.kept: Path | bool | None = None  # where the finished game went in the record (False: it failed)

    @property
    def state(self) -> State:
        return self.table.state

    @property
    def done(self) -> bool:
        return self.table.done

    @property
    def finished(self) -> bool:
        """The game reached its end: a winner, or the hand cap (not a game left half-way)."""
        return self.table.done and self.state.hand_no > 0

    def human_to_move(self) -> bool:
        return not self.done and not self.autoplay and self.table.to_move == self.me

    def legal(self) -> list[int]:
        return [] if self.done else self.state.legal_actions()

    def step(self, action: int) -> HandResult | None:
        """Apply the mover's action through the Table; the hand result if one was scored."""
        st = self.state
        seat = self.table.to_move
        nest_before = self.deal_nest
        trick = self._trick_after(st, action)
        self.table.step(action)
        self.last = (seat, action)
        self.trick_done = trick is not None
        if trick is not None:
            self.last_trick = trick
        if self.state.phase is Phase.AUCTION and (self.table.scored or self.table.passed_out):
            self.deal_nest = self.state.nest  # a new deal: remember its nest for the summary
        if self.table.scored is not None:
            self.events.append(self.table.scored)
            self.scored_nest = nest_before
        return self.table.scored

    @staticmethod
    def _trick_after(st: State, action: int) -> Trick | None:
        """The trick ``action`` completes, if it is a trick's fourth card (the engine's trick winner)."""
        if st.phase is not Phase.PLAY or len(st.trick) != NUM_SEATS - 1:
            return None
        cards = (*st.trick, action - st.layout.play_offset)
        winner = (st.leader + trick_winner_offset(st.cards, st.trump, cards)) % NUM_SEATS
        return Trick(st.hand_no, st.trick_no + 1, st.leader, cards, winner)

    def agent_step(self) -> HandResult | None:
        """Let the agent on turn move."""
        seat = self.table.to_move
        return self.step(self.agents[seat].act(self.table.view(seat)))

    def hint(self) -> Hint:
        """What a fresh copy of the partner's agent (Easy: Normal's) would play in the person's seat now."""
        view = self.table.view(self.me)
        spec = self.settings.hint_agent()
        agent = build_agent(spec, self.variant, self.seed + len(self.table.record()["actions"]))
        explain = getattr(agent, "explain", None)
        if explain is not None:
            action, values = explain(view)
            return Hint(spec, action, values)
        return Hint(spec, agent.act(view))

    def record(self) -> dict[str, Any]:
        """The env's record of the game, with a ``players`` entry: who sat where (the person's seat
        is ``human``), the level, and whether the game was finished (replay ignores it)."""
        rec = self.table.record()
        rec["players"] = {
            "agents": [HUMAN if s == self.me and not self.autoplay else self.names[s] for s in range(NUM_SEATS)],
            "human": None if self.autoplay else self.me, "level": self.settings.level,
            "custom": bool(self.settings.partner or self.settings.opponents), "finished": self.finished,
            "app": "crowsnest-play", "started": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(self.started)),
        }
        return rec

    def record_json(self) -> str:
        return json.dumps(self.record(), indent=1)

    def save(self, path: str) -> None:
        record_mod.save(self.record(), path)


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
    """ValueError unless ``rec`` replays with every one of its actions and deals used."""
    record_mod.replay(rec)  # the format, the variant, each action's legality, nothing left over
    if not rec["deals"]:
        raise ValueError("it has no deals")


class Replay:
    """Steps through a saved game one action at a time (forwards and back)."""

    def __init__(self, record: dict[str, Any], seat: int = 0):
        self.record = record
        self.actions: list[int] = list(record["actions"])
        self.me = seat
        self.pos = 0
        self.state = self._at(0)

    def _at(self, n: int) -> State:
        return record_mod.replay(self.record, upto=n)

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
