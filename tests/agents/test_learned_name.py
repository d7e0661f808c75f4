"""The agent name ``learned``: a shipped policy per variant, legal play, clear refusals."""

from __future__ import annotations

import shutil

import pytest

from agents import make_agent
from agents.arena import run_pairing
from agents.checkpoint import CheckpointError, read_checkpoint
from agents.deal_sets import RULE_SETS
from agents.learned import POLICY_DIR, LearnedAgent, shipped_policy
from crowsnest_env.rules import get_variant
from crowsnest_env.table import Table


@pytest.mark.parametrize("name", RULE_SETS)
def test_every_rule_set_ships_a_small_policy_for_itself(name):
    path = shipped_policy(get_variant(name))
    data = read_checkpoint(path, get_variant(name))  # the file is for this variant's rules
    assert "optimizer" not in data and "rng" not in data  # weights only
    import os

    assert os.path.getsize(path) < 8_000_000  # one network is 1-3 MB; crowsnest's ensemble of four 5.7 MB


@pytest.mark.parametrize("name", RULE_SETS)
def test_learned_plays_legal_moves_in_every_variant(name):
    agent = make_agent("learned", seed=0)
    table = Table(name, episode="hand", observe=False)
    table.reset(7)
    agent.reset(1)
    while not table.done:
        view = table.view()
        action = agent.act(view)
        assert view.legal >> action & 1
        table.step(action)


def test_learned_against_random_in_the_arena():
    p = run_pairing("learned", "random", deals=20, seed=3)
    assert p["adp"] > 50


def test_learned_refuses_a_variant_without_a_policy_and_a_mismatch(tmp_path, monkeypatch, no_nocrow_policies):
    bare = get_variant("crowsnest", crow=False)
    with pytest.raises(CheckpointError, match="no shipped policy for variant 'crowsnest_nocrow'"):
        shipped_policy(bare)
    table = Table(bare, episode="hand", observe=False)
    table.reset(0)
    with pytest.raises(CheckpointError, match="crowsnest_nocrow"):
        make_agent("learned").act(table.view())
    pinned = make_agent("learned?variant=crowsnest")
    tour = Table("tournament", episode="hand", observe=False)
    tour.reset(0)
    with pytest.raises(ValueError, match="cannot play 'tournament'"):
        pinned.act(tour.view())
    # a file under another variant's name is refused, not played
    monkeypatch.setenv("CROWSNEST_POLICY_DIR", str(tmp_path))
    shutil.copy(f"{POLICY_DIR}/crowsnest.pt", tmp_path / "tournament.pt")
    with pytest.raises(CheckpointError, match="trained for 'crowsnest', not 'tournament'"):
        LearnedAgent(variant="tournament")
