"""Issue 18, agent specs: yes/no options, a bound on nesting, a ``+`` or ``,`` inside a checkpoint
path, and ``phase:`` agents in a round robin.
"""

from __future__ import annotations

import json
import shutil

import pytest

from agents import MAX_SPEC_DEPTH, make_agent, parse_bool, parse_team, split_agent_list
from tests._bad_input import CROWSNEST, MAX_MESSAGE, SHIPPED, main_status


def test_yes_no_agent_options_are_parsed_as_booleans(tmp_path):
    for text, value in (("false", False), ("no", False), ("0", False), ("FALSE", False), ("true", True),
                        ("yes", True), ("1", True)):
        assert make_agent(f"learned?greedy={text}").greedy is value
    for bad in ("maybe", "2", "1.0", "", "none"):
        with pytest.raises(ValueError, match="greedy must be true or false"):
            make_agent(f"learned?greedy={bad}")
    from agents.learned import PolicyAgent

    assert PolicyAgent.from_checkpoint(SHIPPED, greedy="no").greedy is False
    with pytest.raises(ValueError, match="greedy"):
        PolicyAgent.from_checkpoint(SHIPPED, greedy="sometimes")
    assert parse_bool("x", True) is True and parse_bool("x", 0) is False


def test_deeply_nested_agent_specs_are_refused_not_a_recursion_error():
    assert make_agent("phase:base=phase:base=random").name == "phase:base=phase:base=random"
    for spec in ("phase:base=" * 2000 + "random", "pimc?policy=phase:base=" * 200 + "random"):
        with pytest.raises(ValueError, match=f"nest more than {MAX_SPEC_DEPTH} deep") as info:
            make_agent(spec)
        assert len(str(info.value)) < 8 * MAX_MESSAGE


def test_a_checkpoint_path_with_plus_or_comma_stays_a_path(tmp_path):
    folder = tmp_path / "a+b,c"
    folder.mkdir()
    path = str(folder / "ck.pt")
    shutil.copy(SHIPPED, path)
    odd = str(tmp_path / "x+random")  # a file whose name reads like a team: the existing file wins
    shutil.copy(SHIPPED, odd)
    one = f"checkpoint:{path}"
    assert parse_team(one) == (one, one)
    assert parse_team(f"{one}+random") == (one, "random")
    assert parse_team(f"heuristic+{one}") == ("heuristic", one)
    assert parse_team(f"{one}+{one}") == (one, one)
    assert parse_team(f"pimc?policy={one}+heuristic") == (f"pimc?policy={one}", "heuristic")
    assert parse_team(f"checkpoint:{odd}") == (f"checkpoint:{odd}",) * 2
    assert parse_team("pimc+heuristic") == ("pimc", "heuristic")
    for bad in ("a+b+c", "a+", "+b", "random+heuristic+pimc"):
        with pytest.raises(ValueError, match="team"):
            parse_team(bad)
    assert split_agent_list(f"random,{one},pimc?samples=2,nodes=50") == ["random", one, "pimc?samples=2,nodes=50"]
    agent = make_agent(parse_team(f"{one}+random")[0])
    assert agent.variant == CROWSNEST
    from agents.arena import by_phase_pairs

    assert by_phase_pairs(one, "random")[1] == (f"phase:base=random;auction={one}", "random")


def test_round_robin_and_a_team_with_phase_agents_and_plus_paths(tmp_path, capsys):
    from agents.arena import main

    folder = tmp_path / "run+1"
    folder.mkdir()
    shutil.copy(SHIPPED, folder / "ck.pt")
    phase = "phase:base=heuristic;auction=random"
    assert split_agent_list(f"random,{phase},pimc?samples=2,nodes=50") == ["random", phase, "pimc?samples=2,nodes=50"]
    out = tmp_path / "rr.json"
    status, err = main_status(main, ["--round-robin", f"random,{phase},checkpoint:{folder / 'ck.pt'}+random",
                               "--deals", "1", "--workers", "1", "--no-progress", "--out", str(out)], capsys)
    assert status == 0, err
    agents = json.loads(out.read_text())["adp_table"]["agents"]
    assert agents == ["random", phase, f"checkpoint:{folder / 'ck.pt'}+random"]
