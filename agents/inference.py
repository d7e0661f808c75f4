"""Policy-based inference: weigh each sampled world by how likely a policy makes what was seen.

Rebstock, Solinas, Buro and Sturtevant, "Policy-Based Inference in Trick-Taking Card Games"
(2019): a world (the hidden hands and nest a search samples) is as plausible as the other
seats' observed actions are under a model of how they play. Here the model is a trained policy
(:class:`agents.learned.PolicyAgent`), and the actions weighed are every other seat's cards
this hand and, for the seats whose whole hand the world fixes, their calls in the auction. A
declarer who is not the viewer bid on a hand the world does not fix (which of the cards it holds
and put back came from the nest is not known): its calls are weighed only with ``declarer_calls``
= N, as the mean likelihood over N draws of which of them were the nest (every split is equally
likely before the calls, and its discard saw the whole of them either way). Each world is
replayed on the rules engine from its deal; every weighed decision is encoded from that seat's
view (the reference encoder) and scored in one batched forward pass over all worlds.

A world's weight is ``exp(temperature * sum(log p))``, each ``p`` mixed with a uniform choice
over the legal actions (``floor``) so that one surprising card cannot zero a world out.

A seat's calls may be modelled by another agent than the policy (``callers``): a trained policy
(scored like the policy), or a deterministic rule such as the heuristic's auction, whose call has
``p = 1`` and every other call ``p = 0`` before the same mix with ``floor``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from functools import partial

import numpy as np
import torch

from crowsnest_env.agent import Agent
from crowsnest_env.observation import action_mask
from crowsnest_env.rules import NUM_SEATS, CardSet, Phase, PlayerView, State, player_view

from .learned import PolicyAgent
from .networks import masked_logits


def replay_world(view: PlayerView, hands: list[CardSet], nest: CardSet,
                 nest_in: CardSet | None = None) -> tuple[State, list[tuple[int, int]]]:
    """The deal this world implies, and the hand's actions so far as (seat, action id).

    ``hands`` are the world's current hands and ``nest`` its hidden nest (the discards, for a
    declarer other than the viewer). A declarer's pre-nest hand is not known to the viewer: with
    ``nest_in`` (the cards it picked up, some of what it holds, played and put back) it is the rest;
    without, it is taken to be what it kept (the nest it picked up = the cards it put back), so that
    only its card play, not its calls, is weighed (see :func:`decisions_to_weigh`).
    """
    played = view.played
    discards = view.discards if view.seat == view.declarer else nest
    start = [hands[s] | played[s] for s in range(NUM_SEATS)]
    nest0 = discards
    if view.declarer >= 0:
        if view.seat == view.declarer:
            nest0 = view.nest_seen
        elif nest_in is not None:
            nest0 = nest_in
        start[view.declarer] = (start[view.declarer] | discards) & ~nest0
    state = State(view.variant, dealer=view.dealer, scores=view.scores)
    state.deal_given(start, nest0)
    actions: list[tuple[int, int]] = list(view.auction)
    lay = view.layout
    if view.declarer >= 0 and view.phase is not Phase.AUCTION:
        actions += [(view.declarer, lay.discard_offset + c) for c in _cards(discards)]
        if view.trump >= 0:
            actions.append((view.declarer, lay.trump_offset + view.trump))
    for leader, _, cards in view.tricks:
        actions += [((leader + i) % NUM_SEATS, lay.play_offset + c) for i, c in enumerate(cards)]
    actions += [((view.leader + i) % NUM_SEATS, lay.play_offset + c) for i, c in enumerate(view.trick)]
    return state, actions


def world_state(view: PlayerView, hands: list[CardSet], nest: CardSet,
                visit: Callable[[State, int, int], None] | None = None) -> State:
    """The game's state in one world at ``view``'s decision: the world's deal
    (:func:`replay_world`) with the hand's actions so far applied, ``visit(state, seat, action)``
    called before each. ValueError if the world does not replay (a seat out of turn)."""
    state, actions = replay_world(view, hands, nest)
    for seat, action in actions:
        if state.to_move != seat:
            raise ValueError(f"the world does not replay: seat {state.to_move} to move, {seat} acted")
        if visit is not None:
            visit(state, seat, action)
        state.apply(action)
    return state


def _cards(cards: CardSet) -> list[int]:
    out = []
    while cards:
        low = cards & -cards
        out.append(low.bit_length() - 1)
        cards ^= low
    return out


def decisions_to_weigh(view: PlayerView, seat: int, phase: Phase) -> bool:
    """Whether another seat's decision in ``phase`` says something the world must explain."""
    if seat == view.seat:
        return False
    if phase is Phase.PLAY:
        return True
    # calls: only where the world fixes the caller's whole hand (not a declarer the viewer isn't,
    # whose calls :func:`declarer_call_log_likelihoods` weighs)
    return phase is Phase.AUCTION and (seat != view.declarer or view.declarer < 0)


def splits_declarer_hand(view: PlayerView) -> bool:
    """Whether the viewer faces a declarer whose calls a world does not explain alone (see
    :func:`replay_world`). Without a nest the world fixes that hand too, and one split is exact."""
    return 0 <= view.declarer != view.seat and view.phase is not Phase.AUCTION


class _Batch:
    """The weighed decisions one policy scores: encoded views, legal masks, actions taken, their worlds."""

    def __init__(self, policy: PolicyAgent) -> None:
        self.policy = policy
        self.obs: list[np.ndarray] = []
        self.masks: list[np.ndarray] = []
        self.taken: list[int] = []
        self.owner: list[int] = []

    def add(self, w: int, v: PlayerView, action: int) -> None:
        self.obs.append(self.policy.encode(v))
        self.masks.append(action_mask(v.legal, self.policy.num_actions).view(bool).copy())
        self.taken.append(action)
        self.owner.append(w)

    def log_likelihoods(self, out: list[float], floor: float) -> None:
        """Add each decision's log p (mixed with ``floor`` of a uniform legal choice) to its world's entry."""
        if not self.obs:
            return
        o = torch.from_numpy(np.stack(self.obs))
        m = torch.from_numpy(np.stack(self.masks))
        with torch.no_grad():
            probs = torch.softmax(masked_logits(self.policy.model(o)[0], m), -1)
        legal_n = m.sum(-1).to(probs.dtype)
        p = probs[torch.arange(len(self.taken)), torch.tensor(self.taken)]
        p = (1 - floor) * p + floor / legal_n
        for w, lp in zip(self.owner, torch.log(p).tolist()):
            out[w] += lp


class _Rule:
    """The weighed decisions a deterministic agent (an ``act(view)`` rule, e.g. the heuristic's
    auction) scores: p = 1 for the action it takes in that view, 0 for the others."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.scored: list[tuple[int, bool, int]] = []  # (world, the rule's action was taken, legal count)

    def add(self, w: int, v: PlayerView, action: int) -> None:
        self.scored.append((w, self.agent.act(v) == action, v.legal.bit_count()))

    def log_likelihoods(self, out: list[float], floor: float) -> None:
        for w, taken, legal_n in self.scored:
            out[w] += math.log((1 - floor) * taken + floor / legal_n)


def _batch(model: PolicyAgent | Agent) -> _Batch | _Rule:
    return _Batch(model) if isinstance(model, PolicyAgent) else _Rule(model)


def declarer_call_log_likelihoods(view: PlayerView, worlds: list[tuple[list[CardSet], CardSet]],
                                  model: PolicyAgent | Agent, splits: int, rng: random.Random,
                                  floor: float = 0.05) -> list[float]:
    """Per world, log of the mean over ``splits`` draws of the nest the declarer (not the viewer)
    picked up of p(its calls | the hand it then held), under ``model``. Only the auction is
    replayed; without a nest the one hand there is counts once, whatever ``splits`` is."""
    decl, k = view.declarer, view.variant.nest_size
    draws = splits if k else 1
    batch = _batch(model)
    calls = list(view.auction)
    for w, (hands, nest) in enumerate(worlds):
        held = hands[decl] | view.played[decl] | nest
        pool = _cards(held)
        for j in range(draws):
            nest_in = sum(1 << c for c in rng.sample(pool, k)) if k else 0
            state, _ = replay_world(view, hands, nest, nest_in)
            for seat, action in calls:
                if seat == decl and state.legal_mask() & (state.legal_mask() - 1):
                    batch.add(w * draws + j, player_view(state, seat), action)
                state.apply(action)
    sub = [0.0] * (len(worlds) * draws)
    batch.log_likelihoods(sub, floor)
    out = []
    for w in range(len(worlds)):
        lls = sub[w * draws:(w + 1) * draws]
        top = max(lls)
        out.append(top + math.log(sum(math.exp(ll - top) for ll in lls) / draws))
    return out


def world_log_likelihoods(view: PlayerView, worlds: list[tuple[list[CardSet], CardSet]], policy: PolicyAgent,
                          floor: float = 0.05, callers: Mapping[int, PolicyAgent | Agent] | None = None,
                          declarer_calls: int = 0, rng: random.Random | None = None) -> list[float]:
    """Sum of log p(observed action) over the other seats' weighed decisions, per world. ``callers``:
    the seats whose auction calls another model weighs (``expert``'s partner bids with its auction):
    a trained policy, or a deterministic rule (any other agent). ``declarer_calls`` = N > 0 weighs
    a declarer's calls too where the viewer is not the declarer, over N draws of its nest (drawn
    with ``rng``; :func:`declarer_call_log_likelihoods`)."""
    batches: dict[int, _Batch | _Rule] = {id(policy): _Batch(policy)}
    for p in (callers or {}).values():
        batches.setdefault(id(p), _batch(p))
    models = dict(callers or {})

    def weigh(w: int, state: State, seat: int, action: int) -> None:  # world w's replay, before each action
        if decisions_to_weigh(view, seat, state.phase) and state.legal_mask() & (state.legal_mask() - 1):
            model = models.get(seat, policy) if state.phase is Phase.AUCTION else policy
            batches[id(model)].add(w, player_view(state, seat), action)

    for w, (hands, nest) in enumerate(worlds):
        world_state(view, hands, nest, partial(weigh, w))
    out = [0.0] * len(worlds)
    for batch in batches.values():
        batch.log_likelihoods(out, floor)
    if declarer_calls and splits_declarer_hand(view):
        extra = declarer_call_log_likelihoods(view, worlds, models.get(view.declarer, policy), declarer_calls,
                                              rng if rng is not None else random.Random(0), floor)
        out = [a + b for a, b in zip(out, extra)]
    return out


def world_weights(log_likelihoods: list[float], temperature: float) -> list[float]:
    """Normalised weights ``exp(temperature * ll)`` (summing to 1)."""
    if not log_likelihoods:
        return []
    top = max(log_likelihoods)
    raw = [math.exp(temperature * (ll - top)) for ll in log_likelihoods]
    total = sum(raw)
    return [r / total for r in raw]


__all__ = ["declarer_call_log_likelihoods", "decisions_to_weigh", "replay_world", "splits_declarer_hand",
           "world_log_likelihoods", "world_state", "world_weights"]
