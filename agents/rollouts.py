"""Policy rollouts in sampled worlds: each legal card's value when the policy plays the hand out.

PIMC (:mod:`agents.pimc`) values a card in a sampled world by solving that world double-dummy:
every seat then plays as if it saw all four hands, which credits the searcher with guesses it
cannot make (strategy fusion, Frank and Basin 1998). Here the world is played out instead by a
policy that acts on each seat's own view (:class:`agents.learned.PolicyAgent`, greedy), as
Tesauro and Galperin's rollouts did in backgammon: the card with the best mean is a one-step
improvement on the policy's own play, with no seat seeing more than its view.

All worlds and cards advance together: each step encodes every unfinished rollout's seat to
move and scores them in one batched forward pass.
"""

from __future__ import annotations

from typing import Any

from crowsnest_env.rules import CardSet, PlayerView, State, card_list, player_view

from .inference import world_state


def play_out(states: list[State], agent: Any) -> None:
    """Advance every state in place until no decision is due (its hand is over: the next deal, or
    the game's end), ``agent`` acting in every seat: a :class:`~agents.learned.PolicyAgent`
    greedily, all states in one batched forward pass a step
    (:meth:`~agents.learned.PolicyAgent.greedy_actions`); any other agent one view at a time."""
    active = [s for s in states if s.legal_mask()]
    batched = getattr(agent, "greedy_actions", None)
    while active:
        views = [player_view(s, s.to_move) for s in active]
        actions = batched(views) if batched is not None else [agent.act(v) for v in views]
        for s, a in zip(active, actions):
            s.advance(a)
        active = [s for s in active if s.legal_mask()]


def card_values(state: State, agent: Any) -> dict[int, float]:
    """Each legal card's (mover's team score change - other team's) for the hand when it is played
    in ``state`` and ``agent`` then plays every seat out (:func:`play_out`), by card id within the
    play block: the units and keys of :func:`agents.pimc.solve_world`."""
    off = state.layout.play_offset
    return rollout_values_of([state], state.to_move % 2, card_list(state.legal_mask() >> off), off, agent)[0]


def rollout_values_of(states: list[State], team: int, legal: list[int], off: int,
                      agent: Any) -> list[dict[int, float]]:
    """:func:`card_values` for several states with the same mover and legal cards (the worlds of
    one view), all played out together."""
    runs: list[tuple[int, int, State, int]] = []
    for w, state in enumerate(states):
        for c in legal:
            s = state.clone()
            s.advance(off + c)
            runs.append((w, c, s, len(state.results)))
    play_out([s for _, _, s, _ in runs], agent)
    values: list[dict[int, float]] = [{} for _ in states]
    for w, c, s, scored in runs:
        change = s.results[scored].score_change
        values[w][c] = float(change[team] - change[1 - team])
    return values


def rollout_values(view: PlayerView, worlds: list[tuple[list[CardSet], CardSet]],
                   policy: Any) -> list[dict[int, float]]:
    """For each sampled world (hands, nest), each legal card's value when ``policy`` plays the
    hand out from it (:func:`card_values`), every world and card advancing together."""
    off = view.layout.play_offset
    states = [world_state(view, hands, nest) for hands, nest in worlds]
    return rollout_values_of(states, view.team, card_list(view.legal >> off), off, policy)


__all__ = ["card_values", "play_out", "rollout_values"]
