"""The duplicate arena: seat swapping, mirrors, statistics, worker independence, CLI, JSON."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from agents.arena import (
    derive_seed,
    main,
    parse_team,
    play_duplicate_deal,
    run_pairing,
    run_round_robin,
    seat_role,
    split_agent_list,
    write_json_atomic,
)
from agents.stats import student_t_ppf, t_interval, wilson_interval
from crowsnest_env.agent import RandomAgent
from crowsnest_env.rules import PASS, get_variant, iter_cards

REPO = Path(__file__).resolve().parents[2]


def _has_heuristic() -> bool:
    try:
        from agents import make_agent

        make_agent("heuristic")
        return True
    except (ImportError, ValueError):
        return False


needs_heuristic = pytest.mark.skipif(not _has_heuristic(), reason="agents.heuristic not available")


class SpyAgent(RandomAgent):
    """A random agent that records (seat, hand at its first view) of every hand it plays."""

    def __init__(self, name: str, seed_offset: int = 0):
        super().__init__()
        self.name, self.offset, self.seen = name, seed_offset, []
        self._fresh = False

    def reset(self, seed: int | None = None) -> None:
        super().reset(None if seed is None else seed + self.offset)
        self._fresh = True

    def act(self, view):  # type: ignore[no-untyped-def]
        if self._fresh:
            self.seen.append((view.seat, view.hand))
            self._fresh = False
        return super().act(view)


class PassAgent(RandomAgent):
    name = "pass"

    def act(self, view):  # type: ignore[no-untyped-def]
        return PASS if view.legal & 1 else super().act(view)


class IllegalAgent(RandomAgent):
    name = "cheater"

    def act(self, view):  # type: ignore[no-untyped-def]
        return view.layout.num_actions  # out of range, never legal


def _numbers(pairing: dict) -> dict:
    """A pairing without its machine-dependent timing fields."""
    return {k: v for k, v in pairing.items() if k != "speed" and not k.startswith("decisions_per_s")}


# ------------------------------------------------------------------ seeding and teams
def test_derive_seed_is_stable_and_label_sensitive():
    # golden values: the deals of a seed must not change between machines or Python versions
    assert derive_seed(0, "deal", 0) == 7296477241146329712
    assert derive_seed("x") == 2697552496229297191
    assert derive_seed(0, "deal", 1) != derive_seed(0, "deal", 0) != derive_seed(1, "deal", 0)
    assert 0 <= derive_seed(12345, "agent") < 2**63


def test_parse_team_and_agent_lists():
    assert parse_team("heuristic") == ("heuristic", "heuristic")
    assert parse_team("pimc+heuristic") == ("pimc", "heuristic")
    for bad in ("", "a+b+c", "a+", "+b"):
        with pytest.raises(ValueError, match="team"):
            parse_team(bad)
    assert split_agent_list("random, heuristic,pimc?samples=9,depth=2,x+y") == [
        "random", "heuristic", "pimc?samples=9,depth=2", "x+y"]


def test_seat_roles_swap_between_tables():
    assert [seat_role(s, 0) for s in range(4)] == [("a", 0), ("b", 0), ("a", 1), ("b", 1)]
    assert [seat_role(s, 1) for s in range(4)] == [("b", 0), ("a", 0), ("b", 1), ("a", 1)]


# ------------------------------------------------------------------ the duplicate format
def test_duplicate_tables_share_cards_and_dealer_with_teams_swapped():
    a = (SpyAgent("a_low"), SpyAgent("a_high"))
    b = (SpyAgent("b_low"), SpyAgent("b_high"))
    for index in range(6):
        for agent in (*a, *b):
            agent.seen.clear()
        rec = play_duplicate_deal(a, b, index, seed=3, record=True)
        t0, t1 = rec.tables
        assert t0.deals == t1.deals and len(t0.deals) == t0.redeals + 1
        hands = t0.deals[-1][0]
        # table 0: a in seats 0 and 2; table 1: a in seats 1 and 3 (first member lower seat)
        assert [s for s, _ in a[0].seen] == [0, 1] and [s for s, _ in a[1].seen] == [2, 3]
        assert [s for s, _ in b[0].seen] == [1, 0] and [s for s, _ in b[1].seen] == [3, 2]
        # ... and each sees the cards of the seat it sits in, so a's cards go to b at table 1
        for agent in (*a, *b):
            for seat, hand in agent.seen:
                assert hand == hands[seat]
        assert a[0].seen[0][1] == b[0].seen[1][1]
        assert rec.value == (t0.diff_a + t1.diff_a) / 2


def test_deals_come_from_the_seed_and_dealer_rotates():
    import random

    from crowsnest_env.rules import State

    rules = get_variant("crowsnest")
    rec = play_duplicate_deal("random", "random", 5, seed=11, record=True)
    ref = State(rules, dealer=5 % 4)
    ref.deal_random(random.Random(derive_seed(11, "deal", 5)))
    assert rec.tables[0].deals[0] == (tuple(ref.hands), ref.nest)
    other = play_duplicate_deal("random", "random", 5, seed=12, record=True)
    assert other.tables[0].deals[0] != rec.tables[0].deals[0]


def test_all_pass_redeals_are_the_same_sequence_at_both_tables():
    team = (PassAgent(), PassAgent())
    rec = play_duplicate_deal(team, team, 2, seed=0, max_redeals=3, record=True)
    t0, t1 = rec.tables
    # the table's redeal rule: three all-pass deals in a row pass the hand out
    assert t0.declarer_role is None and t0.redeals == 3 and t0.diff_a == 0
    assert t0.deals == t1.deals and len(t0.deals) == 3
    assert len({d[1] for d in t0.deals}) == 3  # three different deals, not one repeated
    deck = (1 << get_variant("crowsnest").deck_size) - 1
    assert all(sum(hands) + nest == deck for hands, nest in t0.deals)


def test_agent_against_itself_scores_exactly_zero_on_every_deal():
    specs = ["random", "random+random"] + (["heuristic", "random+heuristic"] if _has_heuristic() else [])
    for spec in specs:
        p = run_pairing(spec, spec, deals=30, seed=4, keep_deals=True)
        assert p["deal_values"] == [0.0] * 30, spec
        assert p["adp_ci95"] == [0.0, 0.0]
        assert p["contracts"]["a"] == p["contracts"]["b"]


def test_equal_but_unmirrored_random_agents_have_a_ci_around_zero():
    a = (SpyAgent("r1", 1), SpyAgent("r1", 1))
    b = (SpyAgent("r2", 2), SpyAgent("r2", 2))
    values = [play_duplicate_deal(a, b, i, seed=9).value for i in range(300)]
    low, high = t_interval(values)
    assert low < 0 < high
    assert high - low > 1.0  # the agents really played different cards


@needs_heuristic
def test_heuristic_beats_random_by_a_clear_margin():
    p = run_pairing("heuristic", "random", deals=60, seed=1)
    assert p["adp_ci95"][0] > 50
    assert p["made_rate_a"] > p["made_rate_b"]


def test_illegal_action_names_the_agent():
    team = (IllegalAgent(), IllegalAgent())
    with pytest.raises(RuntimeError, match="cheater"):
        play_duplicate_deal(team, "random", 0)


# ------------------------------------------------------------------ statistics
def test_t_interval_matches_a_hand_computed_case():
    # mean 5.5, s^2 = 82.5 / 9, se = s / sqrt(10) = 0.957427, t(0.975, 9) = 2.262157
    low, high = t_interval([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    assert low == pytest.approx(5.5 - 2.262157 * 0.957427, abs=1e-5)
    assert high == pytest.approx(5.5 + 2.262157 * 0.957427, abs=1e-5)
    assert t_interval([3.0, 3.0, 3.0]) == (3.0, 3.0)
    assert t_interval([1.0]) is None


@pytest.mark.parametrize("df, q", [(1, 12.706205), (2, 4.302653), (5, 2.570582), (29, 2.045230),
                                   (120, 1.979930), (10**6, 1.959966)])
def test_student_t_quantiles_match_tables(df, q):
    assert student_t_ppf(0.975, df) == pytest.approx(q, abs=2e-6)
    assert student_t_ppf(0.025, df) == pytest.approx(-q, abs=2e-6)


def test_wilson_interval_known_values():
    low, high = wilson_interval(7, 10)
    assert (low, high) == (pytest.approx(0.396778, abs=1e-6), pytest.approx(0.892209, abs=1e-6))
    assert wilson_interval(0, 4)[0] == 0.0 and wilson_interval(4, 4)[1] == 1.0
    assert wilson_interval(0, 0) is None


# ------------------------------------------------------------------ pairings, games, workers
def test_worker_count_does_not_change_any_number():
    kw = {"deals": 24, "games": 2, "max_hands": 8, "seed": 7, "keep_deals": True}
    one = run_pairing("random+heuristic" if _has_heuristic() else "random", "random", workers=1, **kw)
    two = run_pairing("random+heuristic" if _has_heuristic() else "random", "random", workers=2, **kw)
    assert json.dumps(_numbers(one), sort_keys=True) == json.dumps(_numbers(two), sort_keys=True)


def test_games_are_capped_and_decided_by_the_higher_score():
    p = run_pairing("random", "random", deals=2, games=3, max_hands=1, seed=0)
    assert p["games_capped"] == 6  # every table game stops after one hand
    assert p["games_won_a"] + p["games_won_b"] + p["games_drawn"] == 6
    assert p["game_win_rate_a"] == pytest.approx(0.5)  # mirrored agents: one win per table pair
    assert p["game_win_ci95"][0] < 0.5 < p["game_win_ci95"][1]
    assert p["mean_hands_per_game"] == 1.0


@needs_heuristic
def test_round_robin_rates_heuristic_above_random():
    rr = run_round_robin(["random", "heuristic", "random+heuristic"], deals=20, seed=2)
    assert rr["ratings"][0]["agent"] == "heuristic"
    assert rr["ratings"][-1]["agent"] == "random"
    assert all(r["matches"] == 40 for r in rr["ratings"])
    table = rr["adp_table"]
    assert table["agents"] == ["random", "heuristic", "random+heuristic"]
    assert table["adp"][1][0] == -table["adp"][0][1] > 0
    assert len(rr["pairings"]) == 3 and "deal_values" not in rr["pairings"][0]


# ------------------------------------------------------------------ output and CLI
def test_json_write_is_atomic(tmp_path, monkeypatch):
    path = tmp_path / "out.json"
    write_json_atomic(path, {"pairings": [1]})
    assert json.loads(path.read_text()) == {"pairings": [1]}

    import crowsnest_env.atomic

    def broken_fsync(fd):  # the new content is half on its way when the disk fills up
        raise OSError("disk full")

    monkeypatch.setattr(crowsnest_env.atomic.os, "fsync", broken_fsync)
    with pytest.raises(OSError):
        write_json_atomic(path, {"pairings": [2]})
    assert json.loads(path.read_text()) == {"pairings": [1]}  # the old file is untouched
    assert os.listdir(tmp_path) == ["out.json"]  # and no temp file is left behind


def test_cli_writes_json_with_the_documented_fields(tmp_path, capsys):
    out, png = tmp_path / "r.json", tmp_path / "r.png"
    assert main(["--a", "random", "--b", "random+random", "--deals", "6", "--games", "1",
                 "--max-hands", "5", "--seed", "3", "--workers", "1", "--no-progress",
                 "--out", str(out), "--plot", str(png)]) == 0
    report = json.loads(out.read_text())
    assert report["seed"] == 3 and report["crow"] is True and report["variant"] == "crowsnest"
    # provenance: the command, the playing code's version (the benchmark's key) and agent files
    from agents.bench_cells import code_version

    assert report["command"].startswith("crowsnest-arena --a random --b random+random --deals 6")
    assert report["code_version"] == code_version()[0] and report["files"] == {}
    (p,) = report["pairings"]
    for key in ("a", "b", "variant", "deals", "adp", "adp_ci95", "made_rate_a", "made_rate_b",
                "bids_a", "bids_b", "contracts", "game_win_rate_a", "game_win_ci95", "games_capped",
                "speed", "decisions_per_s_a", "decisions_per_s_b"):
        assert key in p, key
    assert (p["a"], p["b"], p["deals"]) == ("random", "random+random", 6)
    assert p["speed"]["a"]["random"]["decisions"] > 0
    assert png.stat().st_size > 1000
    assert "adp" in capsys.readouterr().out


def test_cli_round_robin_and_no_crow(tmp_path):
    out = tmp_path / "rr.json"
    main(["--round-robin", "random,random+random", "--no-crow", "--deals", "4", "--workers", "1",
          "--no-progress", "--out", str(out)])
    report = json.loads(out.read_text())
    assert report["crow"] is False and len(report["ratings"]) == 2
    assert "--round-robin random,random+random" in report["command"]
    assert report["pairings"][0]["crow"] is False


def test_module_entry_point_runs_with_two_workers(tmp_path):
    out = tmp_path / "m.json"
    proc = subprocess.run(
        [sys.executable, "-m", "agents.arena", "--a", "random", "--b", "random", "--deals", "8",
         "--workers", "2", "--no-progress", "--out", str(out)],
        cwd=REPO, capture_output=True, text=True, timeout=120, check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(out.read_text())["pairings"][0]["deals"] == 8


@pytest.mark.parametrize("argv, message", [
    (["--a", "nosuch", "--b", "random"], "unknown agent 'nosuch'"),
    (["--a", "random", "--b", "random", "--variant", "euchre"], "unknown variant 'euchre'"),
    (["--a", "random", "--b", "random", "--deals", "0"], "deals must be"),
    (["--a", "random", "--b", "random", "--variant", "partnership", "--no-crow"], "crow=False"),
    (["--a", "random"], "give --a and --b"),
    (["--a", "random", "--b", "random", "--round-robin", "x,y"], "not both"),
    (["--round-robin", "random"], "at least two"),
])
def test_cli_bad_input_exits_with_a_clear_message(argv, message, capsys):
    with pytest.raises(SystemExit) as exc:
        main([*argv, "--no-progress", "--workers", "1"])
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


def test_api_bad_input_raises_value_error():
    with pytest.raises(ValueError, match="unknown agent"):
        run_pairing("random", "bogus", deals=1)
    with pytest.raises(ValueError, match="workers"):
        run_pairing("random", "random", deals=1, workers=0)
    with pytest.raises(ValueError, match="games"):
        run_pairing("random", "random", deals=1, games=-1)


def test_every_card_is_dealt_once_per_recorded_deal():
    rules = get_variant("crowsnest", crow=False)
    rec = play_duplicate_deal("random", "random", 1, crow=False, variant="crowsnest", record=True)
    hands, nest = rec.tables[0].deals[0]
    cards = [c for h in (*hands, nest) for c in iter_cards(h)]
    assert sorted(cards) == list(range(rules.deck_size)) and len(list(iter_cards(nest))) == 4
    assert math.isfinite(rec.value)


def test_cli_result_names_the_policy_file_it_played(tmp_path):
    from agents.bench_cells import file_sha256
    from agents.learned import shipped_policy
    from crowsnest_env.rules import get_variant

    out = tmp_path / "l.json"
    assert main(["--a", "learned", "--b", "random", "--deals", "2", "--workers", "1", "--no-progress",
                 "--out", str(out)]) == 0
    files = json.loads(out.read_text())["files"]
    policy = shipped_policy(get_variant("crowsnest"))
    assert files == {"agents/policies/crowsnest.pt": file_sha256(policy)}
