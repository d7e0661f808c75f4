"""Behaviour-cloning warm start: imitate a teacher (the heuristic by default) before PPO takes over.

PPO from scratch on a sparse hand-end reward learns to pass everything (no contract, no
loss); starting from the heuristic's policy gives it contracts and sensible card play
from the first update. The pieces, importable and tested on their own:

- :func:`collect_demonstrations`: the teacher's games (the heuristic, the prior or ``bc_teacher``
  in all four seats) on the rules engine and the incremental encoder (the rollout collector's
  path); every decision is kept with its legal mask, the teacher's action and the seat's
  Monte-Carlo return. A search teacher (``pimc``'s card play: expert iteration's imitation
  step) is slow, so its games can be split over worker processes.
- :func:`bc_loss`: masked cross-entropy of the policy head (illegal logits masked) plus,
  optionally, mean squared error of the value head against those returns. With action *values*
  (``values="teacher"``: a search teacher's ``explain``, e.g. ``pimc``'s mean score of each card
  over sampled deals; ``values="rollouts"``: :class:`RolloutValues`, each card's score when the
  true deal is played out by the teacher itself; ``values="double_dummy"``: :class:`DoubleDummyValues`,
  each card's double-dummy value on the true deal), the valued decisions are learnt by regression
  instead (:func:`value_regression`):
  the policy head's logits, less the prior's bonus, fit the teacher's values in units of
  ``value_scale`` points, so a residual policy leaves its prior's move where it predicts a gain
  of more than ``prior_weight x value_scale`` points, not wherever the teacher's argmax did.
- :func:`behaviour_clone`: the minibatch epochs (its own Adam), logging ``losses/bc_loss``,
  ``losses/bc_value_loss`` and ``charts/bc_accuracy``.
- :func:`masked_accuracy`: how often the greedy (masked argmax) action is the heuristic's.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch
from tqdm import tqdm

from agents.networks import ActorCritic
from crowsnest_env.rules import Phase, State, Variant, player_view

from .losses import MaskedCategorical, mc_returns
from .rollout import AgentController, SelfPlayCollector


@dataclass
class Demonstrations:
    """Teacher decisions: observation, legal mask, action and the deciding seat's return."""

    obs: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    returns: np.ndarray
    episodes: int = 0
    values: np.ndarray | None = None
    """(N, A) the teacher's value of each action where it gave them (NaN elsewhere), or None"""

    def __len__(self) -> int:
        return len(self.actions)


VALUE_SOURCES = ("teacher", "rollouts", "double_dummy")
"""where :func:`collect_demonstrations`'s action values come from"""
BC_VALUES = {"action": "", "values": "teacher", "rollouts": "rollouts", "double_dummy": "double_dummy"}
"""the values kept for each ``bc_target`` of a training config"""


def _card_choice(state: State) -> list[int] | None:
    """The legal cards where the mover has a choice of card (what the value labels value), else None."""
    if state.phase is not Phase.PLAY:
        return None
    legal = state.legal_actions()
    return legal if len(legal) >= 2 else None


class RolloutValues:
    """Oracle labels: each legal card's value in the game's true state, found by playing the hand
    out once per card with ``agent`` in all four seats (its Q on the true deal; the mover's team
    score change minus the other team's, the units of ``pimc``'s values).

    A student that regresses on them learns, for what its seat sees, the expected gain of each
    card over the agent's own play given the deals that really arise: a one-step policy
    improvement on ``agent`` (rollouts, as in Tesauro and Galperin's backgammon player), without
    a sampler's beliefs about the hidden hands or a double-dummy continuation. The agent must act
    on the view alone (the heuristic, or a prior); a deterministic one gives exact values. Only
    card play with a choice is valued (None elsewhere)."""

    def __init__(self, agent: Any):
        self.agent = agent

    def __call__(self, state: State) -> dict[int, float] | None:
        if _card_choice(state) is None:
            return None
        from agents.rollouts import card_values

        off = state.layout.play_offset
        return {off + c: v for c, v in card_values(state, self.agent).items()}


class DoubleDummyValues:
    """Oracle labels: each legal card's double-dummy value on the game's true deal (all four hands
    and the nest known), scored as ``pimc`` scores a world (the mover's team score change minus the
    other team's, so the bid being made or set counts).

    ``pimc`` averages such values over deals drawn from what its sampler believes (the voids);
    these are taken on the deals that really arise in the teacher's games. A student that regresses
    on them learns, for what its seat sees, the mean double-dummy value of each card over the true
    posterior of the hidden hands: PIMC with the players' real inference and unlimited samples,
    strategy fusion included (Frank and Basin). The solve is the one of ``double_dummy``
    (:func:`agents.pimc.solve_world`): exact when at most ``exact`` tricks are left or when it
    finishes within ``nodes`` search nodes, else the deepest trick horizon that fits. Only card
    play with a choice is valued (None elsewhere)."""

    def __init__(self, nodes: int = 2_000_000, exact: int = 7):
        self.nodes, self.exact = nodes, exact

    def __call__(self, state: State) -> dict[int, float] | None:
        if _card_choice(state) is None:
            return None
        from agents.pimc import solve_world

        view = player_view(state, state.to_move)
        off = view.layout.play_offset
        nest_points = state.cards.count_points(state.discards)
        scores = solve_world(view, list(state.hands), nest_points, self.nodes, self.exact, try_exact=True)
        return {off + c: float(v) for c, v in scores.items()}


BC_SHARDS = 8
"""fixed shards of a ``bc_teacher``'s demonstration games (seeds ``seed + k``): what the
processes play does not depend on how many there are"""


def collect_demonstrations(variant: Variant, decisions: int, seed: int, num_envs: int = 32,
                           gamma: float = 1.0, chunk: int = 8192, progress: bool = False, prior: str = "",
                           oracle: bool = False, teacher: str = "", shards: int = 1, workers: int = 1,
                           values: str = "", behaviour: str = "", share: float = 1.0,
                           **episode_options: Any) -> Demonstrations:
    """At least ``decisions`` teacher decisions (whole episodes), all four seats the teacher.

    The teacher is ``teacher`` (an agent name, e.g. ``phase:base=heuristic;play=pimc``), else the
    residual policy's ``prior`` (:mod:`agents.prior`), else the heuristic. Deterministic given
    ``seed`` (deals and the teacher's tie-breaks come from the collector's per-game generators).
    ``returns`` are undiscounted for ``gamma = 1``: the seat's team reward still to come, the value
    head's target. With a ``prior`` the observations carry its columns (whoever the teacher is),
    with ``oracle`` an oracle critic's columns too (:func:`training.rollout.oracle_columns`).

    ``values`` also keeps action values (:class:`training.rollout.AgentController`): ``teacher``
    the teacher's own (it must have an ``explain``, as ``pimc``), ``rollouts`` those of
    :class:`RolloutValues` with the teacher as the players, ``double_dummy`` those of
    :class:`DoubleDummyValues` (each card solved on the true deal).

    ``behaviour`` (an agent name, e.g. ``checkpoint:PATH`` of an earlier student) plays a ``share``
    of the decisions instead of the teacher, which still labels every decision: DAgger's
    collection (:class:`training.rollout.AgentController`). ``returns`` are then those of the mixed
    play.

    ``shards > 1`` splits the decisions over that many collectors (seeds ``seed + k``), run by
    ``workers`` processes (:class:`agents.backends.LocalBackend`) and joined in shard order, so
    the result depends on ``shards`` but not on ``workers``; ``shards = 1`` is one collector.
    """
    if shards < 1 or workers < 1:
        raise ValueError(f"shards and workers must be >= 1, got {shards} and {workers}")
    if values not in ("", *VALUE_SOURCES):
        raise ValueError(f"values must be one of {list(VALUE_SOURCES)} (or empty), got {values!r}")
    if shards == 1:
        return _collect(variant, decisions, seed, num_envs, gamma, chunk, progress, prior, oracle, teacher,
                        values, episode_options, behaviour, share)
    from agents.backends import LocalBackend

    per = -(-decisions // shards)
    tasks = [(k, (variant, per, seed + k, num_envs, gamma, chunk, False, prior, oracle, teacher, values,
                  episode_options, behaviour, share))
             for k in range(shards)]
    done: dict[int, Demonstrations] = {}
    backend = LocalBackend(min(workers, shards))
    try:
        with tqdm(total=shards, disable=not progress, unit="shard", desc="bc-collect", dynamic_ncols=True) as bar:
            for k, demos in backend.map_unordered(_collect_shard, tasks):
                done[k] = demos
                bar.update(1)
    finally:
        backend.close()
    parts = [done[k] for k in range(shards)]
    return Demonstrations(np.concatenate([p.obs for p in parts]), np.concatenate([p.masks for p in parts]),
                          np.concatenate([p.actions for p in parts]), np.concatenate([p.returns for p in parts]),
                          sum(p.episodes for p in parts),
                          np.concatenate([p.values for p in parts if p.values is not None]) if values else None)


def _collect_shard(task: tuple[int, tuple[Any, ...]]) -> tuple[int, Demonstrations]:
    from agents.backends import one_torch_thread

    one_torch_thread()
    k, args = task
    return k, _collect(*args)


def _collect(variant: Variant, decisions: int, seed: int, num_envs: int, gamma: float, chunk: int,
             progress: bool, prior: str, oracle: bool, teacher: str, values: str,
             episode_options: dict[str, Any], behaviour: str = "", share: float = 1.0) -> Demonstrations:
    from agents import make_agent
    from agents.heuristic import HeuristicAgent
    from agents.prior import make_prior

    if teacher:
        agent, name = make_agent(teacher, seed=seed), teacher
    else:
        agent, name = (make_prior(prior) if prior else HeuristicAgent(seed=seed)), prior or "heuristic"
    label: Any = (RolloutValues(agent) if values == "rollouts" else DoubleDummyValues() if values == "double_dummy"
                  else values == "teacher")
    controller = AgentController(agent, name, record=True, values=label,
                                 behaviour=make_agent(behaviour, seed=seed + 1) if behaviour else None, share=share,
                                 seed=seed)
    collector = SelfPlayCollector(variant, num_envs, seed, prior=prior, oracle=oracle, **episode_options)

    def assign(_: int) -> tuple[list[Any], tuple[int, ...]]:
        return [controller] * 4, (0, 1, 2, 3)

    parts: list[tuple[np.ndarray, ...]] = []
    valued: list[np.ndarray] = []
    total = episodes = 0
    with tqdm(total=decisions, disable=not progress, unit="dec", desc="bc-collect", dynamic_ncols=True) as bar:
        while total < decisions:
            ro = collector.collect(assign, min(chunk, decisions - total))
            rets = mc_returns(ro.rewards, ro.dones, gamma)
            parts.append((ro.obs, ro.masks, ro.actions, rets))
            if values and len(ro):
                valued.append(ro.extras["values"])
            total += len(ro)
            episodes += ro.episodes
            bar.update(len(ro))
    obs, masks, actions, returns = (np.concatenate([p[i] for p in parts]) for i in range(4))
    kept = np.concatenate(valued).astype(np.float32, copy=False) if values else None
    return Demonstrations(obs.astype(np.float32, copy=False), masks.astype(bool, copy=False),
                          actions.astype(np.int64, copy=False), returns.astype(np.float32, copy=False), episodes,
                          kept)


def value_regression(head: torch.Tensor, targets: torch.Tensor, scale: float) -> torch.Tensor:
    """Per-row mean squared error between the centred ``head`` logits and the centred ``targets``
    / ``scale`` over the entries where ``targets`` is finite (rows with fewer than two give 0).

    Centring on each row's mean leaves only differences between actions to fit: a logit gap of 1
    is a value gap of ``scale`` (the teacher's points)."""
    known = torch.isfinite(targets)
    count = known.sum(-1).clamp(min=1)
    t = torch.where(known, targets, torch.zeros_like(targets)) / scale
    h = torch.where(known, head, torch.zeros_like(head))
    err = (h - (h.sum(-1) / count).unsqueeze(-1)) - (t - (t.sum(-1) / count).unsqueeze(-1))
    return torch.where(known, err, torch.zeros_like(err)).pow(2).sum(-1) / count


def bc_loss(model: ActorCritic, obs: torch.Tensor, masks: torch.Tensor, actions: torch.Tensor,
            returns: torch.Tensor | None = None, vf_coef: float = 0.5, targets: torch.Tensor | None = None,
            value_scale: float = 10.0) -> tuple[torch.Tensor, dict[str, float]]:
    """Masked cross-entropy of ``actions`` (+ ``vf_coef`` * 0.5 MSE of the value when ``returns``).

    With ``targets`` (the teacher's action values, NaN where none), a row with at least two valued
    actions is fitted by :func:`value_regression` of the policy head less the prior's bonus instead
    of the cross-entropy; the other rows (the teacher gave no values) keep the cross-entropy."""
    logits, values = model(obs)
    dist = MaskedCategorical(logits, masks)
    nll = -dist.log_prob(actions)
    stats: dict[str, float] = {}
    if targets is None:
        ce = nll.mean()
        loss = ce
    else:
        valued = torch.isfinite(targets).sum(-1) >= 2
        plain = (~valued).float()
        ce = (nll * plain).sum() / plain.sum().clamp(min=1)
        reg = value_regression(logits - model.prior_bonus(obs), targets, value_scale)
        reg = (reg * valued.float()).sum() / valued.float().sum().clamp(min=1)
        loss = ce + reg
        stats["bc_regression_loss"] = reg.item()
    stats["bc_loss"] = ce.item()
    if returns is not None:
        v_loss = 0.5 * ((values - returns) ** 2).mean()
        loss = loss + vf_coef * v_loss
        stats["bc_value_loss"] = v_loss.item()
    with torch.no_grad():
        stats["bc_accuracy"] = (dist.logits.argmax(-1) == actions).float().mean().item()
    return loss, stats


@torch.no_grad()
def masked_accuracy(model: ActorCritic, obs: np.ndarray, masks: np.ndarray, actions: np.ndarray,
                    batch: int = 8192) -> float:
    """Share of decisions where the masked argmax of the policy equals the teacher's action."""
    was = model.training
    model.eval()
    device = next(model.parameters()).device
    hits = 0
    for s in range(0, len(actions), batch):
        logits, _ = model(torch.from_numpy(obs[s:s + batch]).to(device))
        logits = MaskedCategorical(logits, torch.from_numpy(masks[s:s + batch]).to(device)).logits
        hits += int((logits.argmax(-1).cpu() == torch.from_numpy(actions[s:s + batch])).sum())
    model.train(was)
    return hits / max(1, len(actions))


def behaviour_clone(model: ActorCritic, demos: Demonstrations, *, epochs: int, batch_size: int,
                    learning_rate: float, fit_value: bool = True, vf_coef: float = 0.5,
                    max_grad_norm: float = 0.5, log: Callable[[dict[str, float], int], None] | None = None,
                    progress: bool = False, value_scale: float = 10.0) -> dict[str, float]:
    """Minibatch epochs of :func:`bc_loss` with a fresh Adam; returns the last epoch's means.

    Demonstrations with ``values`` are fitted on them where given (``value_scale`` points a logit).

    Trains on the model's device; shuffles with torch's global generator (seeded by the trainer).
    ``log(scalars, step)`` is called once per epoch with ``step`` = the epoch number (1, 2, ...): the ``bc`` tags have
    their own x axis, before PPO's step 0.
    """
    opt = torch.optim.Adam(model.parameters(), lr=learning_rate, eps=1e-5)
    device = next(model.parameters()).device
    obs, masks = torch.from_numpy(demos.obs), torch.from_numpy(demos.masks)
    actions, returns = torch.from_numpy(demos.actions), torch.from_numpy(demos.returns)
    targets = torch.from_numpy(demos.values) if demos.values is not None else None
    n = len(demos)
    model.train()
    summary: dict[str, float] = {}
    steps_per_epoch = (n + batch_size - 1) // batch_size
    bar = tqdm(total=epochs * steps_per_epoch, disable=not progress, unit="batch", desc="bc", dynamic_ncols=True)
    for epoch in range(epochs):
        t0 = time.time()
        stats: dict[str, list[float]] = {}
        perm = torch.randperm(n)
        for start in range(0, n, batch_size):
            mb = perm[start:start + batch_size]
            loss, s = bc_loss(model, obs[mb].to(device), masks[mb].to(device), actions[mb].to(device),
                              returns[mb].to(device) if fit_value else None, vf_coef,
                              targets[mb].to(device) if targets is not None else None, value_scale)
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), max_grad_norm)
            opt.step()
            for k, v in s.items():
                stats.setdefault(k, []).append(v)
            bar.update(1)
        summary = {k: float(np.mean(v)) for k, v in stats.items()}
        bar.set_postfix(loss=f"{summary['bc_loss']:.3f}", acc=f"{summary['bc_accuracy']:.3f}")
        if log is not None:
            scalars = {f"losses/{k}": v for k, v in summary.items() if k != "bc_accuracy"}
            scalars["charts/bc_accuracy"] = summary["bc_accuracy"]
            scalars["charts/bc_epoch_seconds"] = time.time() - t0
            log(scalars, epoch + 1)
    bar.close()
    model.eval()
    return summary
