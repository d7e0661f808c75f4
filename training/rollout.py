"""Self-play rollout collection on :class:`crowsnest_env.VectorEnv`: the env's own episodes.

Reward timing follows the AEC environment: a hand's reward lands when the last card is
played, while the other seats are mid-turn; each seat sees it at its next decision (or at
termination) and it belongs to that seat's *previous* transition. :func:`attribute_rewards`
is that rule as a function of the decision order, tested against the AEC env.

``SelfPlayCollector`` steps a ``VectorEnv`` of ``num_envs`` games. The four seats of each game are
driven by *controllers*: a batched network controller (the learner, or a past snapshot) or a
view agent (heuristic, random). Decisions of the same network are batched across games.
Only seats whose controller is the learner produce transitions; each seat's transitions are
emitted as one contiguous trajectory whose last step has ``done = 1``. An episode the env
*truncates* (``max_hands``, ``max_redeals``) is marked for bootstrapping: ``Rollout.bootstrap_index``
and ``bootstrap_obs`` let a trainer add ``gamma * V(s')`` to those last rewards.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from agents.prior import make_prior, prior_columns
from crowsnest_env.agent import Agent
from crowsnest_env.rules import NUM_SEATS, Phase, State, Variant
from crowsnest_env.table import DEFAULT_MAX_REDEALS
from crowsnest_env.vector import HOLD, VectorEnv

from .checkpoint import random_state

ORACLE_BLOCKS = 4
"""oracle columns per card of the deck: the hands of the seats to the mover's left, across and right,
then the nest (as dealt) and the declarer's discards"""


def oracle_size(num_cards: int) -> int:
    """Width of the oracle columns for a deck of ``num_cards`` cards."""
    return ORACLE_BLOCKS * num_cards


def oracle_columns(states: Any, seats: Any, num_cards: int) -> np.ndarray:
    """(B, oracle_size) float32: what seat ``seats[b]`` of game ``states[b]`` cannot see, as 0/1
    card flags, seat-relative like the observation (left, partner, right, then nest | discards)."""
    nbytes = (num_cards + 7) // 8
    parts = []
    for st, s in zip(states, seats):
        hands = st.hands
        for card_set in (hands[(s + 1) % 4], hands[(s + 2) % 4], hands[(s + 3) % 4], st.nest | st.discards):
            parts.append(card_set.to_bytes(nbytes, "little"))
    raw = b"".join(parts)
    bits = np.unpackbits(np.frombuffer(raw, np.uint8).reshape(-1, ORACLE_BLOCKS, nbytes), axis=2, bitorder="little")
    return bits[:, :, :num_cards].reshape(-1, ORACLE_BLOCKS * num_cards).astype(np.float32)


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


def seat_credit(movers: np.ndarray, rewards: np.ndarray, seat: int,
                steps: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """(reward, done) of each of ``seat``'s recorded decisions (at ``steps``, ascending), from the
    per-step ``rewards`` of :func:`attribute_rewards`: a reward credited to one of the seat's
    decisions that was not recorded (a teacher took it) goes to the seat's latest recorded
    decision before it (dropped if there is none), and the last recorded one ends the seat's
    trajectory (``done = 1``). With every decision recorded this is ``rewards[steps]``."""
    gain = np.zeros(len(steps))
    done = np.zeros(len(steps))
    if len(steps):
        own = np.flatnonzero(movers == seat)
        at = np.searchsorted(np.asarray(steps), own, side="right") - 1
        np.add.at(gain, at[at >= 0], rewards[own[at >= 0]])
        done[-1] = 1.0
    return gain, done


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

    With ``record`` its decisions in learner seats are kept as transitions: the demonstrations of
    behaviour cloning (:mod:`training.bc`). With ``values`` too, each transition keeps the extra
    ``values``: a value of every action (NaN where none was given: illegal actions, and whole rows
    where nothing was valued). ``values=True`` asks the agent's ``explain`` instead of ``act`` (a
    search's own estimates); a callable is given the game's true state and returns the values by
    action id, or None (an oracle label, e.g. :class:`training.bc.RolloutValues`).

    With ``behaviour`` (another view agent) the agent only labels: at each decision the
    behaviour's action is played instead with probability ``share`` (the agent's otherwise), while
    the agent's action is what is recorded. That is DAgger's collection (Ross, Gordon and Bagnell,
    2011): the teacher's choices on the positions a student (and, with ``share`` < 1, the teacher)
    reaches, so that the student learns to recover from its own departures.
    """

    batched = False

    def __init__(self, agent: Agent, name: str, record: bool = False,
                 values: bool | Callable[[State], dict[int, float] | None] = False,
                 behaviour: Agent | None = None, share: float = 1.0, seed: int = 0):
        if values is True and not callable(getattr(agent, "explain", None)):
            raise ValueError(f"agent {name!r} gives no action values (it has no explain)")
        if behaviour is not None and values:
            raise ValueError("a behaviour agent plays actions whose values nobody gave: use one or the other")
        if not 0.0 <= share <= 1.0:
            raise ValueError(f"share must be in [0, 1], got {share!r}")
        self.agent, self.name, self.record, self.values = agent, name, record, values
        self.behaviour, self.share = behaviour, share
        self.rng = random.Random(seed)

    def reset(self, seed: int) -> None:
        """A new episode: the agent (and the behaviour) reseeded."""
        self.agent.reset(seed)
        if self.behaviour is not None:
            self.behaviour.reset(seed ^ 0x5DEECE66D)

    def played(self, labels: np.ndarray, games: Sequence[int], view: Callable[[int], Any]) -> np.ndarray:
        """The actions played in ``games`` for the agent's ``labels`` there: the behaviour's (on
        ``view(game)``) where the draw says so."""
        if self.behaviour is None or self.share <= 0.0:
            return labels
        out = labels.copy()
        for j, i in enumerate(games):
            if self.rng.random() < self.share:
                out[j] = self.behaviour.act(view(i))
        return out


class PhaseTeacher:
    """A seat whose decisions in ``phases`` (default: the auction) are played by ``teacher`` (not
    recorded) and the rest by ``learner``.

    With the auction: used for a fraction of episodes (``teacher_auction``) so that contracts keep
    being formed, and card play keeps producing data, while the learner's own bidding is still too
    timid or too rash. With ``record`` the teacher's decisions are kept as learner transitions too,
    with the learner's own log-prob and value of them (``learner.score``): PPO then moves the
    policy towards the teacher's bids that paid off and away from those that did not, within its
    clip range. With ``train_phases`` the teacher takes every phase the learner does not train on
    (``[play]``: the teacher bids, discards and names trump, the learner plays the cards on the
    teacher's contracts; ``[auction]``: the learner's bids are judged by the teacher's play).
    """

    batched = False

    def __init__(self, teacher: AgentController, learner: NetController, record: bool = False,
                 phases: frozenset[Phase] = frozenset({Phase.AUCTION})):
        self.teacher, self.learner, self.record, self.phases = teacher, learner, record, phases
        self.name = learner.name
        self.agent = teacher.agent

    def reset(self, seed: int) -> None:
        """A new episode: the teacher reseeded (the learner is a batched network)."""
        self.teacher.reset(seed)

    def pick(self, phase: Phase) -> Any:
        return self.teacher if phase in self.phases else self.learner


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
    truncated: int = 0
    """episodes that ended by a cap (max_hands, max_redeals) rather than by the rules"""
    bootstrap_index: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    """transitions that end a *truncated* trajectory: their return continues past the cut"""
    bootstrap_obs: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    """the seat's observation at the cut, one row per ``bootstrap_index`` (for V(s') bootstrapping)"""

    def __len__(self) -> int:
        return len(self.actions)


class _Episode:
    """The controllers and the log of the episode running in one game slot of the VectorEnv."""

    __slots__ = ("ctrl", "learner", "movers", "rewards", "records", "active")

    def __init__(self) -> None:
        self.ctrl: list[Any] = []
        self.learner: tuple[int, ...] = ()
        self.movers: list[int] = []
        self.rewards: list[Any] = []
        self.records: dict[int, list] = {}
        self.active = False


class SelfPlayCollector:
    """Steps a :class:`~crowsnest_env.VectorEnv` of ``num_envs`` games; ``collect`` returns whole
    episodes of learner transitions. The episodes are the env's (same driver, same options)."""

    def __init__(self, variant: Variant, num_envs: int, seed: int, episode: str = "hand",
                 max_hands: int | None = None, reward: str = "score",
                 max_redeals: int | None = DEFAULT_MAX_REDEALS, prior: str = "", oracle: bool = False):
        self.variant = variant
        # An oracle critic's columns (what the mover cannot see) follow, in training only.
        self.num_cards = variant.deck_size if oracle else 0
        # A residual policy's rule agent (agents.prior): its action's one-hot follows every observation
        # that a network reads or a transition keeps.
        self.prior = make_prior(prior) if prior else None
        self.venv = VectorEnv(num_envs, variant, episode=episode, reward=reward, max_hands=max_hands,
                              max_redeals=max_redeals, record=False)
        self.venv.set_generator_states([random.Random(seed * 7919 + i).getstate() for i in range(num_envs)])
        self.rng = random.Random(seed)
        self.num_actions = self.venv.num_actions
        self.episodes = [_Episode() for _ in range(num_envs)]

    # ------------------------------------------------------------------ episodes
    def _start(self, i: int, assign: Assign) -> None:
        e = self.episodes[i]
        e.ctrl, e.learner = assign(i)
        e.movers, e.rewards, e.records = [], [], {}
        e.active = True
        for c in e.ctrl:
            if not c.batched:
                c.reset(self.rng.randrange(2**62))

    def _finish(self, e: _Episode, final: dict[str, Any], out: dict[str, list], stats: Rollout) -> None:
        r = attribute_rewards(e.movers, e.rewards)
        stats.episodes += 1
        movers = np.asarray(e.movers)
        for seat in e.learner:
            recs = e.records.get(seat, [])
            gain, done = seat_credit(movers, r, seat, [t for t, _ in recs])
            for j, (_t, (obs, mask, action, extra)) in enumerate(recs):
                out["obs"].append(obs)
                out["masks"].append(mask)
                out["actions"].append(action)
                out["rewards"].append(gain[j])
                out["dones"].append(done[j])
                out["extras"].append(extra)
            if final["truncated"] and recs:
                out["bootstrap_index"].append(len(out["actions"]) - 1)
                # no decision at a cut: a prior's columns stay zero, and so do an oracle's (its
                # critic values the cut from the seat's own view)
                cut = final["observation"][seat]
                pad = (self.num_actions if self.prior is not None else 0) + oracle_size(self.num_cards)
                out["bootstrap_obs"].append(np.concatenate([cut, np.zeros(pad, cut.dtype)]) if pad else cut)
        lt = e.learner[0] % 2 if e.learner else 0
        ret = float(sum(rw[lt] for rw in e.rewards))
        stats.episode_returns.append(ret)
        stats.truncated += bool(final["truncated"])
        opp = next((c.name for s, c in enumerate(e.ctrl) if s % 2 != lt), "?")
        stats.opponent_returns.setdefault(opp, []).append(ret)
        for res in final["results"]:
            if res.declarer % 2 == lt:
                stats.declared += 1
                stats.made += int(res.made)
        e.active = False

    # ------------------------------------------------------------------- collect
    def collect(self, assign: Assign, min_steps: int) -> Rollout:
        """Play episodes until ``min_steps`` learner transitions exist, finishing those begun.

        Every call starts new games in all slots (``VectorEnv.reset`` continues each game's
        generator), so nothing carries over between calls and a checkpoint needs only the
        generators' states."""
        keys = ("obs", "masks", "actions", "rewards", "dones", "extras", "bootstrap_index", "bootstrap_obs")
        out: dict[str, list] = {k: [] for k in keys}
        stats = Rollout(np.empty(0), np.empty(0), np.empty(0), np.empty(0), np.empty(0), {})
        venv, episodes = self.venv, self.episodes
        obs, info = venv.reset()
        for i in range(venv.num_envs):
            self._start(i, assign)
        steps = 0
        while True:
            live = [i for i, e in enumerate(episodes) if e.active]
            if not live:
                break
            seats = info["seat"].tolist()
            observations, masks = obs["observation"], obs["action_mask"].view(bool)
            actions = np.full(venv.num_envs, HOLD, dtype=np.int64)
            groups: dict[tuple[int, bool], tuple[Any, Any, list[int]]] = {}
            for i in live:
                c = orig = episodes[i].ctrl[seats[i]]
                teaching = False
                if isinstance(c, PhaseTeacher):
                    phase = venv.phase(i)
                    teaching = phase in c.phases
                    c = c.pick(phase)
                key = (id(orig), True) if teaching else (id(c), False)
                groups.setdefault(key, (c, orig if teaching else None, []))[2].append(i)
            for c, teacher, idx in groups.values():
                record = c.batched or (teacher.record if teacher is not None else c.record)
                extras: dict[str, np.ndarray] = {}
                if c.batched or record:  # view agents that are not recorded need no arrays
                    g_obs, g_masks = observations[idx], masks[idx]
                    if self.prior is not None:
                        hint = prior_columns([self.prior.act(venv.view(i)) for i in idx], self.num_actions)
                        g_obs = np.concatenate([g_obs, hint], axis=1)
                    if self.num_cards:
                        hidden = oracle_columns([venv.tables[i].state for i in idx], [seats[i] for i in idx],
                                                self.num_cards)
                        g_obs = np.concatenate([g_obs, hidden], axis=1)
                if c.batched:
                    acts, extras = c.act(g_obs, g_masks)
                elif record and getattr(c, "values", False):
                    label = c.values
                    picks = ([c.agent.explain(venv.view(i)) for i in idx] if label is True else
                             [(c.agent.act(venv.view(i)), label(venv.tables[i].state)) for i in idx])
                    acts = np.asarray([a for a, _ in picks], dtype=np.int64)
                    extras = {"values": value_rows([v for _, v in picks], self.num_actions)}
                else:
                    acts = np.asarray([c.agent.act(venv.view(i)) for i in idx], dtype=np.int64)
                    if record and teacher is not None and teacher.learner.score:
                        extras = teacher.learner.score(g_obs, g_masks, acts)
                actions[idx] = c.played(acts, idx, venv.view) if isinstance(c, AgentController) else acts
                if not record:
                    continue
                for j, i in enumerate(idx):
                    e, seat = episodes[i], seats[i]
                    if seat in e.learner:
                        extra = {k: v[j] for k, v in extras.items()}
                        e.records.setdefault(seat, []).append(
                            (len(e.movers), (g_obs[j], g_masks[j], int(acts[j]), extra)))
                        steps += 1
            obs, rewards, _, _, info = venv.step(actions)
            stats.env_steps += len(live)
            landed = rewards.tolist()
            for i in live:
                e = episodes[i]
                e.movers.append(seats[i])
                e.rewards.append(landed[i])
            for final in info.get("final", ()):
                i = final["index"]
                self._finish(episodes[i], final, out, stats)
                if steps < min_steps:
                    self._start(i, assign)
        return _stack(out, stats, self.num_actions)

    # ------------------------------------------------------------------ resume
    def get_state(self) -> dict[str, Any]:
        """The generators' states: all a checkpoint needs between two ``collect`` calls."""
        return {"rng": self.rng.getstate(), "games": self.venv.generator_states()}

    def set_state(self, state: dict[str, Any]) -> None:
        self.rng.setstate(random_state(state["rng"]))
        self.venv.set_generator_states([random_state(s) for s in state["games"]])


def value_rows(values: Sequence[dict[int, float] | None], num_actions: int) -> np.ndarray:
    """(B, num_actions) float32 of ``explain``'s values by action id, NaN where none was given."""
    out = np.full((len(values), num_actions), np.nan, dtype=np.float32)
    for j, v in enumerate(values):
        if v:
            out[j, list(v)] = list(v.values())
    return out


def _stack(out: dict[str, list], stats: Rollout, num_actions: int) -> Rollout:
    n = len(out["actions"])
    stats.obs = np.stack(out["obs"]) if n else np.zeros((0, 0), np.float32)
    stats.masks = np.stack(out["masks"]) if n else np.zeros((0, num_actions), bool)
    stats.actions = np.asarray(out["actions"], dtype=np.int64)
    stats.rewards = np.asarray(out["rewards"], dtype=np.float32)
    stats.dones = np.asarray(out["dones"], dtype=np.float32)
    keys = out["extras"][0].keys() if n else ()
    stats.extras = {k: np.asarray([e[k] for e in out["extras"]], dtype=np.float32) for k in keys}
    stats.bootstrap_index = np.asarray(out["bootstrap_index"], dtype=np.int64)
    if out["bootstrap_obs"]:
        stats.bootstrap_obs = np.stack(out["bootstrap_obs"])
    return stats


def merge_rollouts(parts: Sequence[Rollout]) -> Rollout:
    """One rollout of several workers' (their trajectories stay contiguous; indices shifted)."""
    nonempty = [p for p in parts if len(p)]
    if not nonempty:
        return parts[0]
    out = Rollout(
        obs=np.concatenate([p.obs for p in nonempty]), masks=np.concatenate([p.masks for p in nonempty]),
        actions=np.concatenate([p.actions for p in nonempty]), rewards=np.concatenate([p.rewards for p in nonempty]),
        dones=np.concatenate([p.dones for p in nonempty]),
        extras={k: np.concatenate([p.extras[k] for p in nonempty]) for k in nonempty[0].extras},
    )
    offset = 0
    index, boot = [], []
    for p in parts:
        out.episodes += p.episodes
        out.env_steps += p.env_steps
        out.episode_returns += p.episode_returns
        for k, v in p.opponent_returns.items():
            out.opponent_returns.setdefault(k, []).extend(v)
        out.declared += p.declared
        out.made += p.made
        out.truncated += p.truncated
        if len(p.bootstrap_index):
            index.append(p.bootstrap_index + offset)
            boot.append(p.bootstrap_obs)
        offset += len(p)
    if index:
        out.bootstrap_index, out.bootstrap_obs = np.concatenate(index), np.concatenate(boot)
    return out


def rollout_scalars(r: Rollout) -> dict[str, float | None]:
    """The ``charts/`` scalars of one rollout (both trainers log them)."""
    out: dict[str, float | None] = {
        "charts/episodic_return": float(np.mean(r.episode_returns)) if r.episode_returns else None,
        "charts/episodes": r.episodes,
        "charts/made_rate": r.made / r.declared if r.declared else None,
        "charts/truncated_episodes": r.truncated,
    }
    for opp, rets in r.opponent_returns.items():
        out[f"charts/return_vs_{opp}"] = float(np.mean(rets))
    return out
