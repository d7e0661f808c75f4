"""Policy rollouts as pimc's evaluator (``value=rollouts``, :mod:`agents.rollouts`): batched play
equals one-view-at-a-time play, a world replays to the view, the true world's values are the
policy's own outcomes, and the option plays legally and refuses what it cannot use."""

from __future__ import annotations

import random

import pytest

from agents import make_agent
from agents._sampler import sample_world
from agents.inference import world_state
from agents.pimc import PIMCAgent
from agents.rollouts import card_values, rollout_values
from crowsnest_env.rules import Phase, State, get_variant, new_game, player_view
from crowsnest_env.table import Table


class OneAtATime:
    """The policy without its batched method: play_out then asks it one view at a time."""

    def __init__(self, policy):
        self.policy = policy

    def act(self, view):
        return self.policy.act(view)


def play_states(name: str, seed: int, policy, every: int = 3) -> list[State]:
    """Card-play states with a choice from ``policy``'s own games (every ``every``-th one)."""
    rng = random.Random(seed)
    state = new_game(get_variant(name), rng=rng, dealer=seed % 4)
    out, n = [], 0
    while not state.results:
        view = player_view(state, state.to_move)
        if state.phase is Phase.PLAY and len(state.legal_actions()) > 1:
            n += 1
            if n % every == 0:
                out.append(state.clone())
        state.apply(policy.act(view))
    return out


@pytest.fixture(scope="module")
def policy():
    return make_agent("learned", seed=0).policy_for(get_variant("tournament"))


def test_greedy_actions_are_what_act_plays(policy):
    views = [player_view(s, s.to_move) for s in play_states("tournament", 1, policy, every=1)]
    assert len(views) > 10
    assert policy.greedy_actions(views) == [policy.act(v) for v in views]


def test_a_world_replays_to_the_view_and_the_true_world_gives_the_policys_own_outcome(policy):
    """world_state rebuilds the state from the view and a world; in the true world, the value of
    the card the policy plays is what the hand then really gives the mover's team, and batched
    rollouts equal one-view-at-a-time ones."""
    checked = 0
    for state in play_states("tournament", 2, policy):
        seat = state.to_move
        view = player_view(state, seat)
        others = list(state.hands)
        hidden_nest = state.discards if seat != state.declarer else state.nest
        rebuilt = world_state(view, others, hidden_nest)
        assert player_view(rebuilt, seat) == view
        [values] = rollout_values(view, [(others, hidden_nest)], policy)
        before = state.clone()
        assert values == card_values(state, OneAtATime(policy))
        assert state == before  # card_values plays out copies
        own = policy.act(view) - view.layout.play_offset
        final = state.clone()
        while not final.results:
            final.apply(policy.act(player_view(final, final.to_move)))
        change = final.results[0].score_change
        assert values[own] == change[seat % 2] - change[1 - seat % 2]
        checked += 1
    assert checked >= 3


def test_rollouts_cover_every_legal_card_in_every_sampled_world(policy):
    state = play_states("tournament", 3, policy)[0]
    view = player_view(state, state.to_move)
    rng = random.Random(0)
    worlds = [sample_world(view, rng) for _ in range(5)]
    values = rollout_values(view, worlds, policy)
    legal = sorted(c - view.layout.play_offset for c in state.legal_actions())
    assert len(values) == 5 and all(sorted(v) == legal for v in values)


@pytest.mark.parametrize("name", ["tournament", "crowsnest_nocrow"])
def test_pimc_with_rollout_values_plays_legally_and_picks_its_best_mean(name):
    agent = make_agent("pimc?policy=learned,value=rollouts,samples=3", seed=1)
    table = Table(name, episode="hand", observe=False)
    table.reset(7)
    searched = 0
    while not table.done:
        view = table.view(table.to_move)
        action, scores = agent.explain(view)
        assert view.legal >> action & 1
        if scores is not None:
            searched += 1
            assert scores[action] == max(scores.values())
        table.step(action)
    assert searched > 5


def test_value_option_is_checked():
    assert PIMCAgent().value == "double_dummy"
    assert make_agent("expert?value=rollouts").value == "rollouts"
    with pytest.raises(ValueError, match="value must be one of"):
        make_agent("pimc?value=oracle")
    with pytest.raises(ValueError, match="value=rollouts needs policy"):
        make_agent("pimc?value=rollouts")


def test_a_card_that_ends_the_hand_is_valued_by_the_hand_it_ends(policy):
    """The last card of a hand leaves no decision: its value is that hand's result, and play_out does
    not go on into the next deal."""
    state = new_game(get_variant("tournament"), rng=random.Random(4))
    while True:
        before = state.clone()
        state.apply(policy.act(player_view(state, state.to_move)))
        if state.results:
            break
    [card] = before.legal_actions()
    values = card_values(before, policy)
    change = state.results[0].score_change
    team = before.to_move % 2
    assert values == {card - before.layout.play_offset: change[team] - change[1 - team]}
