"""``expert`` and ``double_dummy`` (issue 15, goals 5 and 6): legal play in every rule set, and
``double_dummy`` seated only by a driver that hands it the whole state."""

from __future__ import annotations

import inspect

import pytest

from agents import make_agent
from agents.arena import run_pairing
from agents.deal_sets import RULE_SETS
from agents.expert import ExpertAgent
from agents.pimc import PIMCAgent
from crowsnest_env.rules import Phase, get_variant, player_view
from crowsnest_env.table import Table

# small budgets: the point is legality and the plumbing (policy, inference, exact tail), not strength
EXPERT = "expert?samples=3,nodes=400,exact=2,min_samples=1"
DOUBLE_DUMMY = "double_dummy?nodes=3000,exact=3"


@pytest.mark.parametrize("name", RULE_SETS)
def test_expert_and_double_dummy_play_legally_in_every_rule_set(name):
    variant = get_variant(name)
    expert, dd = make_agent(EXPERT, seed=1), make_agent(DOUBLE_DUMMY, seed=2)
    table = Table(variant, episode="hand", observe=False)
    table.reset(11)
    expert.reset(3)
    dd.reset(4)
    phases = set()
    while not table.done:
        seat = table.to_move
        if seat % 2 == 0:  # team 0: expert from its seat's view
            view = table.view(seat)
            action = expert.act(view)
        else:  # team 1: double_dummy sees the whole state
            view = player_view(table.state, seat)
            action = dd.act_seeing_all(table.state)
        assert view.legal >> action & 1, f"{view.layout.name(action)} illegal for seat {seat} in {view.phase.name}"
        phases.add(view.phase)
        table.step(action)
    assert Phase.PLAY in phases


def test_the_arena_seats_double_dummy_and_it_refuses_a_view():
    dd = make_agent("double_dummy", seed=0)
    assert dd.sees_all_hands
    table = Table("crowsnest", episode="hand", observe=False)
    table.reset(0)
    with pytest.raises(ValueError, match="sees all four hands"):
        dd.act(table.view())
    p = run_pairing(DOUBLE_DUMMY, "heuristic", deals=3, seed=5)
    assert p["deals"] == 3 and p["a"] == DOUBLE_DUMMY


def test_expert_plays_with_the_policy_of_the_rules():
    """expert's auction is the shipped policy of the rule set played, as learned's is."""
    expert = make_agent("expert?samples=2,nodes=200,min_samples=1", seed=0)
    learned = make_agent("learned", seed=0)
    for name in ("tournament", "crowsnest_nocrow"):
        table = Table(name, episode="hand", observe=False)
        table.reset(3)
        view = table.view()
        assert view.phase is Phase.AUCTION
        assert expert.act(view) == learned.act(view)


def test_expert_takes_every_pimc_option():
    """agents/expert.py promises that every option of pimc can be set on expert: hold the two
    signatures together, so a new pimc option is not silently refused by expert."""
    pimc = set(inspect.signature(PIMCAgent.__init__).parameters)
    expert = set(inspect.signature(ExpertAgent.__init__).parameters)
    assert pimc == expert
    assert make_agent("expert?keep=5").keep == 5.0
