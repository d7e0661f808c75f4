"""Invariants over many seeded random hands in every variant (engine and environment)."""

from __future__ import annotations

import random

import numpy as np
import pytest

import crowsnest_env
from crowsnest_env.observation import ObservationEncoder
from crowsnest_env.rules import (
    NUM_SEATS,
    Phase,
    State,
    card_list,
    get_variant,
    iter_cards,
    player_view,
    step,
)
from tests.conftest import VARIANT_IDS, VARIANT_OPTIONS

HANDS_PER_VARIANT = 1500


def spec_legal_cards(state: State) -> set[int]:
    """RULES.md 2.5 written out independently: follow the led effective suit; the bird any time,
    except in 1-High Partnership, where it follows suit as the lowest trump (R10)."""
    t = state.cards
    hand = card_list(state.hands[state.to_move])
    if not state.trick:
        return set(hand)

    def eff(c: int) -> str:
        return "TRUMP" if t.colour[c] < 0 or t.colour[c] == state.trump else str(t.colour[c])

    led = eff(state.trick[0])
    same = [c for c in hand if eff(c) == led]
    if not same:
        return set(hand)
    any_time = state.variant.name != "one_high"
    return set(same) | {c for c in hand if any_time and t.names[c] in ("CROW", "ROOK")}


def check_conservation(state: State) -> None:
    everything = state.nest if state.phase is Phase.AUCTION else state.discards
    if state.phase is Phase.DISCARD:
        everything = state.discards  # the nest is in the declarer's hand now
    total = sum(h.bit_count() for h in state.hands) + sum(p.bit_count() for p in state.played)
    total += everything.bit_count()
    union = everything
    for h in state.hands + state.played:
        union |= h
    assert total == state.cards.deck_size and union == state.cards.full_deck


@pytest.mark.parametrize("variant,crow", VARIANT_OPTIONS, ids=VARIANT_IDS)
def test_engine_invariants_over_random_hands(variant, crow):
    v = get_variant(variant, crow)
    rng = random.Random(f"invariants-{variant}-{crow}")
    hands = redeals = 0
    state = State(v, dealer=0)
    while hands < HANDS_PER_VARIANT:
        if state.phase is Phase.DEAL:
            state = State(v, dealer=rng.randrange(4))
            state.deal_random(rng)
        check_conservation(state)
        assert 0 <= state.to_move < NUM_SEATS
        legal = state.legal_actions()
        assert legal, f"no legal action in phase {state.phase.name}"
        for seat in range(NUM_SEATS):  # only the seat to move has actions in its view
            assert bool(player_view(state, seat).legal) == (seat == state.to_move)
        if state.phase is Phase.PLAY:
            lay = state.layout
            assert {a - lay.play_offset for a in legal} == spec_legal_cards(state)
        action = rng.choice(legal)
        if rng.random() < 0.02:  # the pure step leaves its input untouched
            before = state.clone()
            after = step(state, action)
            assert state == before and after != before
            state = after
        else:
            deals_before = state.deal_no
            state.apply(action)
            if state.phase is Phase.DEAL and not state.results:
                redeals += 1
                assert state.deal_no == deals_before
        if state.results and state.phase in (Phase.DEAL, Phase.GAME_OVER) and state.hand_no:
            r = state.results[-1]
            hands += 1
            split = 2 * r.tricks[0] == v.num_tricks
            expected = v.total_points - (v.trick_bonus if split else 0)
            assert sum(r.points) == expected
            assert sum(r.tricks) == v.num_tricks
            assert r.made == (r.points[r.declarer % 2] >= r.bid)
            state = State(v, dealer=0)  # phase DEAL: a fresh hand next loop
    assert hands == HANDS_PER_VARIANT


@pytest.mark.parametrize("variant,crow", VARIANT_OPTIONS, ids=VARIANT_IDS)
def test_env_masked_random_play_and_rewards(variant, crow):
    env = crowsnest_env.raw_env(variant=variant, crow=crow, episode="hand")
    rng = np.random.default_rng(0)
    total = get_variant(variant, crow).total_points
    for episode in range(60):
        env.reset(seed=episode)
        returns = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            returns[agent] += reward
            mask = obs["action_mask"]
            assert mask.dtype == np.int8 and np.array_equal(mask, info["action_mask"])
            if term or trunc:
                env.step(None)
                continue
            assert mask.any()
            for other in env.agents:  # masks are all zeros off turn
                if other != agent:
                    assert not env.observe(other)["action_mask"].any()
            env.step(int(rng.choice(np.flatnonzero(mask))))
        change = env.unwrapped.game.results[-1].score_change
        assert returns["player_0"] == pytest.approx((change[0] - change[1]) / total)
        assert returns["player_0"] == returns["player_2"] == -returns["player_1"] == -returns["player_3"]


def _shuffle_hidden(state: State, seat: int, rng: random.Random) -> State:
    """The same public history with the cards ``seat`` cannot see dealt differently."""
    other = state.clone()
    hidden_sets = [s for s in range(NUM_SEATS) if s != seat]
    pool = [c for s in hidden_sets for c in iter_cards(state.hands[s])]
    hides_nest = seat != state.declarer
    nest_attr = "nest" if state.phase is Phase.AUCTION else "discards"
    if hides_nest:
        pool += card_list(getattr(state, nest_attr))
    rng.shuffle(pool)
    for s in hidden_sets:
        k = state.hands[s].bit_count()
        other.hands[s] = sum(1 << c for c in pool[:k])
        pool = pool[k:]
    if hides_nest:
        setattr(other, nest_attr, sum(1 << c for c in pool))
    return other


@pytest.mark.parametrize("variant,crow", VARIANT_OPTIONS, ids=VARIANT_IDS)
def test_no_hidden_card_reaches_an_observation(variant, crow):
    """A seat's observation is unchanged when every card it cannot see is dealt differently,
    and the incremental encoder agrees with one rebuilt from scratch."""
    env = crowsnest_env.raw_env(variant=variant, crow=crow, episode="hand")
    rng = random.Random(7)
    nprng = np.random.default_rng(7)
    fresh = ObservationEncoder(env.variant)
    checked = 0
    for episode in range(8):
        env.reset(seed=100 + episode)
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            game = env.unwrapped.game
            for seat in range(NUM_SEATS):
                fresh.reset(game)
                np.testing.assert_array_equal(fresh.obs[seat], env.observe(f"player_{seat}")["observation"])
                fresh.reset(_shuffle_hidden(game, seat, rng))
                np.testing.assert_array_equal(fresh.obs[seat], env.observe(f"player_{seat}")["observation"])
                checked += 1
            env.step(int(nprng.choice(np.flatnonzero(obs["action_mask"]))))
    assert checked > 8 * 4 * 30


def test_rules_engine_imports_stdlib_only():
    """ARCHITECTURE.md 1: the engine imports the standard library and itself, nothing else."""
    import ast
    import pathlib
    import sys

    folder = pathlib.Path(crowsnest_env.__file__).parent / "rules"
    imported = set()
    for path in folder.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                imported |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                imported.add(node.module.split(".")[0])
    allowed = set(sys.stdlib_module_names) | {"__future__"}
    assert imported and imported <= allowed, imported - allowed
