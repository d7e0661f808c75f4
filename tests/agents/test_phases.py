"""The per-phase agent pairs the right agent with each phase; the by-phase pairings."""

from __future__ import annotations

import pytest

from agents import make_agent
from agents.arena import by_phase_pairs, run_pairing
from agents.phases import PHASE_GROUPS, PhaseAgent, parse_phase_spec, phase_spec
from crowsnest_env.rules import Phase
from crowsnest_env.table import Table


class Tag:
    """Plays the lowest legal action and notes the phases it was asked about."""

    def __init__(self):
        self.phases: set[Phase] = set()
        self.resets = 0

    def reset(self, seed=None):
        self.resets += 1

    def act(self, view):
        self.phases.add(view.phase)
        return view.legal.bit_length() - 1 if view.phase is Phase.AUCTION and view.seat == view.dealer \
            else (view.legal & -view.legal).bit_length() - 1


@pytest.mark.parametrize("variant", ["crowsnest", "partnership", "dixie"])
def test_each_phase_goes_to_its_agent(variant):
    parts = {g: Tag() for g in PHASE_GROUPS}
    agent = PhaseAgent(parts)
    table = Table(variant, episode="hand", observe=False)
    table.reset(3, dealer=0)
    agent.reset(1)
    while not table.done:
        table.step(agent.act(table.view()))
    assert parts["auction"].phases == {Phase.AUCTION}
    expected_discard = {Phase.DISCARD, Phase.TRUMP} if table.variant.nest_size else {Phase.TRUMP}
    assert parts["discard"].phases == expected_discard
    assert parts["play"].phases == {Phase.PLAY}
    assert all(p.resets == 1 for p in parts.values())


def test_explain_is_the_phase_agents_values_where_it_gives_them():
    """A phase agent explains with its phase's agent: pimc's card values in the play (its move the best
    mean), the move and None where the phase's agent has no ``explain``."""
    agent = make_agent("phase:base=heuristic;play=pimc?samples=2,nodes=300", seed=4)
    twin = make_agent("phase:base=heuristic;play=pimc?samples=2,nodes=300", seed=4)
    table = Table("crowsnest", episode="hand", observe=False)
    table.reset(5, dealer=0)
    agent.reset(2)
    twin.reset(2)
    searched = 0
    while not table.done:
        view = table.view()
        action, values = agent.explain(view)
        assert action == twin.act(view)  # explain and act agree, draw for draw
        if view.phase is not Phase.PLAY or view.legal & (view.legal - 1) == 0:
            assert values is None
        else:
            searched += 1
            off = view.layout.play_offset
            assert {a - off for a in values} == {c for c in range(64) if view.legal >> off >> c & 1}
            assert values[action] == max(values.values())
        table.step(action)
    assert searched > 5


def test_phase_spec_parsing_and_errors():
    assert parse_phase_spec("phase:base=heuristic;auction=pimc?samples=2") == {
        "auction": "pimc?samples=2", "discard": "heuristic", "play": "heuristic"}
    assert parse_phase_spec(phase_spec("random", play="heuristic"))["play"] == "heuristic"
    for bad, match in [("phase:auction=random", "names no agent"), ("phase:base=random;bidding=x", "unknown phase"),
                       ("phase:base=random;play", "phase=AGENT"), ("phase:base=a;base=b", "twice")]:
        with pytest.raises(ValueError, match=match):
            parse_phase_spec(bad)
    with pytest.raises(ValueError, match="unknown agent"):
        make_agent("phase:base=heuristic;play=nobody")
    agent = make_agent("phase:base=heuristic;play=random")
    assert agent.agents["auction"] is agent.agents["discard"] and agent.agents["play"] is not agent.agents["auction"]


def test_by_phase_pairs_and_a_swap_that_changes_nothing_scores_zero():
    pairs = by_phase_pairs("pimc", "heuristic")
    assert pairs[0] == ("pimc", "heuristic") and len(pairs) == 4
    assert [parse_phase_spec(a)[g] for (a, _), g in zip(pairs[1:], PHASE_GROUPS)] == ["pimc"] * 3
    with pytest.raises(ValueError, match="not a team"):
        by_phase_pairs("pimc+random", "heuristic")
    with pytest.raises(ValueError, match="not a team"):
        by_phase_pairs("pimc", "heuristic+random")
    # the heuristic's auction swapped in for the heuristic's own: the same agent, so exactly 0
    same = run_pairing(phase_spec("heuristic", auction="heuristic"), "heuristic", deals=20, seed=2, keep_deals=True)
    assert same["deal_values"] == [0.0] * 20
    # a random auction is a large loss against the heuristic
    worse = run_pairing(phase_spec("heuristic", auction="random"), "heuristic", deals=40, seed=2)
    assert worse["adp_ci95"][1] < 0


def test_by_phase_pairs_with_phase_agents_swap_one_phase_of_each():
    # a phase target keeps its own agents in the other phases; a phase agent gives its agent of the phase
    a, b = "phase:base=learned;auction=heuristic?margin=0", "phase:base=pimc;play=learned"
    pairs = by_phase_pairs(a, b)
    assert pairs[0] == (a, b) and all(target == b for _, target in pairs)
    swapped = [parse_phase_spec(x) for x, _ in pairs[1:]]
    assert swapped == [{"auction": "heuristic?margin=0", "discard": "pimc", "play": "learned"},
                       {"auction": "pimc", "discard": "learned", "play": "learned"},
                       {"auction": "pimc", "discard": "pimc", "play": "learned"}]
    # a single agent against a phase target, and a phase agent against a single one (the board's names)
    played = {"auction": "pimc", "discard": "pimc", "play": "random"}
    assert parse_phase_spec(by_phase_pairs("random", b)[3][0]) == played
    assert by_phase_pairs(a, "heuristic")[1][0] == "phase:base=heuristic;auction=heuristic?margin=0"
    for name, _ in pairs[1:]:
        make_agent(name)  # each swap is an agent the arena can build


def test_arena_cli_by_phase_writes_each_phase(tmp_path):
    import json

    from agents.arena import main

    out = tmp_path / "bp.json"
    assert main(["--a", "random", "--b", "heuristic", "--by-phase", "--deals", "6", "--workers", "1",
                 "--no-progress", "--out", str(out)]) == 0
    report = json.loads(out.read_text())
    assert [p["a"] for p in report["pairings"]][0] == "random" and len(report["pairings"]) == 4
    assert set(report["by_phase"]["phases"]) == set(PHASE_GROUPS)
    assert report["by_phase"]["whole"] == report["pairings"][0]["adp"]
