"""Self-play rollout collection on the rules engine + incremental encoder (no PettingZoo overhead).

Reward timing follows the AEC environment: a hand's reward lands when the last card is
played, while the other seats are mid-turn; each seat sees it at its next decision (or at
termination) and it belongs to that seat's *previous* transition. :func:`attribute_rewards`
is that rule as a function of the decision order, tested against the AEC env.

``SelfPlayCollector`` steps ``num_envs`` games side by side. The four seats of each game are
driven by *controllers*: a batched network controller (the learner, or a past snapshot) or a
view agent (heuristic, random). Decisions of the same network are batched across games.
Only seats whose controller is the learner produce transitions; each seat's transitions are
emitted as one contiguous trajectory whose last step has ``done = 1``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from agents.learned import legal_to_mask
from crowsnest_env.agent import Agent
from crowsnest_env.observation import ObservationEncoder
from crowsnest_env.rules import NUM_SEATS, Phase, State, Variant, player_view

MAX_REDEALS = 10  # all-pass deals in a row before an episode ends as passed out (reward 0)


def attribute_rewards(movers: Sequence[int], step_rewards: Sequence[Sequence[float]]) -> np.ndarray:
    """Reward of each decision: what lands for its seat before that seat's next decision.

    ``movers[t]`` is the seat that decided at step t; ``step_rewards[t][s]`` the reward that
    landed for seat s right after step t (zeros when nothing was scored). A reward landing
    after step t is credited to seat s's latest decision at or before t (the AEC env hands
    it over through ``last()`` at s's next turn or at termination). Rewards that land before a
    seat's first decision have no transition to go to and are dropped.
    """
    out = np.zeros(len(movers), dtype=np.float64)
    latest = [-1] * NUM_SEATS
    for t, seat in enumerate(movers):
        latest[seat] = t
        r = step_rewards[t]
        for s in range(NUM_SEATS):
            if r[s] and latest[s] >= 0:
                out[latest[s]] += r[s]
    return out


def last_decisions(movers: Sequence[int]) -> np.ndarray:
    """1 for each seat's final decision of the episode (its trajectory's terminal step)."""
    done = np.zeros(len(movers), dtype=np.float32)
    seen: set[int] = set()
    for t in range(len(movers) - 1, -1, -1):
        if movers[t] not in seen:
            seen.add(movers[t])
            done[t] = 1.0
    return done


# ----------------------------------------------------------------------------- controllers
class NetController:
    """A batched policy: ``act(obs (B, D) float32, masks (B, A) bool) -> (actions, extras)``.

    ``extras`` maps names to (B,) arrays stored with the learner's transitions (log-probs, values).
    """

    batched = True

    def __init__(self, act: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, dict[str, np.ndarray]]],
                 name: str = "net", score: Callable[..., dict[str, np.ndarray]] | None = None):
        self.act, self.name = act, name
        self.score = score
        """``score(obs, masks, actions) -> extras`` of actions chosen by someone else (a teacher)"""


class AgentController:
    """A view agent (``act(view) -> id``), reseeded at the start of each episode.

    With ``record`` its decisions in learner seats are kept as transitions (no extras): the
    demonstrations of behaviour cloning (:mod:`training.bc`).
    """

    batched = False

    def __init__(self, agent: Agent, name: str, record: bool = False):
        self.agent, self.name, self.record = agent, name, record


class AuctionTeacher:
    """A seat whose auction is played by ``teacher`` (not recorded) and the rest by ``learner``.

    Used for a fraction of episodes so that contracts keep being formed, and card play keeps
    producing data, while the learner's own bidding is still too timid or too rash.

    With ``record`` the teacher's bids are kept as learner transitions too, with the learner's
    own log-prob and value of them (``learner.score``): PPO then moves the policy towards the
    teacher's bids that paid off and away from those that did not, within its clip range.
    """

    batched = False

    def __init__(self, teacher: AgentController, learner: NetController, record: bool = False):
        self.teacher, self.learner, self.record = teacher, learner, record
        self.name = learner.name
        self.agent = teacher.agent

    def pick(self, phase: Phase) -> Any:
        return self.teacher if phase is Phase.AUCTION else self.learner


Assign = Callable[[int], tuple[list[Any], tuple[int, ...]]]
"""Called for each new episode of game i: (controller per seat, learner seats)."""


@dataclass
class Rollout:
    """Learner transitions, grouped as contiguous per-seat trajectories."""

    obs: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    rewards: np.ndarray
    dones: np.ndarray
    extras: dict[str, np.ndarray]
    episodes: int = 0
    env_steps: int = 0
    """all decisions taken, learner and opponents"""
    episode_returns: list[float] = field(default_factory=list)
    """the learner team's reward sum per episode"""
    opponent_returns: dict[str, list[float]] = field(default_factory=dict)
    """the learner team's reward per episode, by opponent name"""
    declared: int = 0
    made: int = 0

    def __len__(self) -> int:
        return len(self.actions)


class _Game:
    """One game slot: state, encoder, controllers and the current episode's log."""

    def __init__(self, variant: Variant, seed: int, index: int):
        self.variant, self.index = variant, index
        self.rng = random.Random(seed)
        self.enc = ObservationEncoder(variant)
        self.state: State | None = None
        self.ctrl: list[Any] = []
        self.learner: tuple[int, ...] = ()
        self.movers: list[int] = []
        self.rewards: list[tuple[float, ...]] = []
        self.records: dict[int, list] = {}
        self.hands = self.redeals = 0
        self.active = False


ZERO = (0.0, 0.0, 0.0, 0.0)


class SelfPlayCollector:
    """Steps ``num_envs`` games; ``collect`` returns whole episodes of learner transitions."""

    def __init__(self, variant: Variant, num_envs: int, seed: int, episode: str = "hand", max_hands: int = 40):
        self.variant, self.episode, self.max_hands = variant, episode, max_hands
        self.games = [_Game(variant, seed * 7919 + i, i) for i in range(num_envs)]
        self.rng = random.Random(seed)
        self.num_actions = self.games[0].enc.actions.num_actions
        self.total = variant.total_points

    # ------------------------------------------------------------------ episodes
    def _start(self, i: int, assign: Assign) -> None:
        g = self.games[i]
        g.ctrl, g.learner = assign(i)
        g.state = State(self.variant, dealer=g.rng.randrange(NUM_SEATS))
        g.state.deal_random(g.rng)
        g.enc.reset(g.state)
        g.movers, g.rewards, g.records = [], [], {}
        g.hands = g.redeals = 0
        g.active = True
        for c in g.ctrl:
            if not c.batched:
                c.agent.reset(g.rng.randrange(2**62))

    def _after_move(self, g: _Game) -> bool:
        """Handle scoring and deals after a move; True when the episode is over."""
        st = g.state
        reward = ZERO
        over = False
        if st.phase is Phase.DEAL or st.phase is Phase.GAME_OVER:
            if st.hand_no > g.hands:  # a hand was scored
                g.hands = st.hand_no
                change = st.results[-1].score_change
                d = (change[0] - change[1]) / self.total
                reward = (d, -d, d, -d)
                over = self.episode == "hand" or st.phase is Phase.GAME_OVER or g.hands >= self.max_hands
                g.redeals = 0
            else:
                g.redeals += 1
                over = g.redeals >= MAX_REDEALS
            if not over:
                st.deal_random(g.rng)
                g.enc.reset(st)
        g.rewards.append(reward)
        return over

    def _finish(self, g: _Game, out: dict[str, list], stats: Rollout) -> None:
        r = attribute_rewards(g.movers, g.rewards)
        done = last_decisions(g.movers)
        stats.episodes += 1
        ret = 0.0
        for seat in g.learner:
            for t, (obs, mask, action, extra) in g.records.get(seat, []):
                out["obs"].append(obs)
                out["masks"].append(mask)
                out["actions"].append(action)
                out["rewards"].append(r[t])
                out["dones"].append(done[t])
                out["extras"].append(extra)
        lt = g.learner[0] % 2 if g.learner else 0
        ret = sum(rw[lt] for rw in g.rewards)
        stats.episode_returns.append(ret)
        opp = next((c.name for s, c in enumerate(g.ctrl) if s % 2 != lt), "?")
        stats.opponent_returns.setdefault(opp, []).append(ret)
        for res in g.state.results:
            if res.declarer % 2 == lt:
                stats.declared += 1
                stats.made += int(res.made)
        g.active = False

    # ------------------------------------------------------------------- collect
    def collect(self, assign: Assign, min_steps: int) -> Rollout:
        """Play episodes until ``min_steps`` learner transitions exist, finishing those begun."""
        out: dict[str, list] = {k: [] for k in ("obs", "masks", "actions", "rewards", "dones", "extras")}
        stats = Rollout(np.empty(0), np.empty(0), np.empty(0), np.empty(0), np.empty(0), {})
        for i in range(len(self.games)):
            self._start(i, assign)
        steps = 0
        while True:
            live = [g for g in self.games if g.active]
            if not live:
                break
            groups: dict[tuple[int, bool], tuple[Any, Any, list[_Game]]] = {}
            for g in live:
                c = orig = g.ctrl[g.state.to_move]
                teaching = isinstance(c, AuctionTeacher) and g.state.phase is Phase.AUCTION
                if isinstance(c, AuctionTeacher):
                    c = c.pick(g.state.phase)
                key = (id(orig), True) if teaching else (id(c), False)
                groups.setdefault(key, (c, orig if teaching else None, []))[2].append(g)
            for c, teacher, gs in groups.values():
                seats = [g.state.to_move for g in gs]
                record = c.batched or (teacher.record if teacher is not None else c.record)
                if c.batched:
                    obs, masks = self._inputs(gs, seats)
                    actions, extras = c.act(obs, masks)
                else:
                    actions = [c.agent.act(player_view(g.state, s)) for g, s in zip(gs, seats)]
                    obs = masks = None
                    extras = {}
                    if record:
                        obs, masks = self._inputs(gs, seats)
                        if teacher is not None and teacher.learner.score:
                            extras = teacher.learner.score(obs, masks, np.asarray(actions, dtype=np.int64))
                for j, (g, seat) in enumerate(zip(gs, seats)):
                    a = int(actions[j])
                    if record and seat in g.learner:
                        extra = {k: v[j] for k, v in extras.items()}
                        g.records.setdefault(seat, []).append((len(g.movers), (obs[j], masks[j], a, extra)))
                        steps += 1
                    g.movers.append(seat)
                    st = g.state
                    st.apply(a)
                    g.enc.step(st, seat, a)
                    stats.env_steps += 1
                    if self._after_move(g):
                        self._finish(g, out, stats)
                        if steps < min_steps:
                            self._start(g.index, assign)
        return _stack(out, stats, self.num_actions)

    def _inputs(self, gs: list[_Game], seats: list[int]) -> tuple[np.ndarray, np.ndarray]:
        obs = np.stack([g.enc.obs[s] for g, s in zip(gs, seats)])
        masks = np.stack([legal_to_mask(g.state.legal_mask(), self.num_actions) for g in gs])
        return obs, masks


def _stack(out: dict[str, list], stats: Rollout, num_actions: int) -> Rollout:
    n = len(out["actions"])
    stats.obs = np.stack(out["obs"]) if n else np.zeros((0, 0), np.float32)
    stats.masks = np.stack(out["masks"]) if n else np.zeros((0, num_actions), bool)
    stats.actions = np.asarray(out["actions"], dtype=np.int64)
    stats.rewards = np.asarray(out["rewards"], dtype=np.float32)
    stats.dones = np.asarray(out["dones"], dtype=np.float32)
    keys = out["extras"][0].keys() if n else ()
    stats.extras = {k: np.asarray([e[k] for e in out["extras"]], dtype=np.float32) for k in keys}
    return stats
