"""crowsnest-compare: two arena results on the same deals, compared deal by deal."""

from __future__ import annotations

import json
import math

import pytest

from agents.arena import main as arena
from agents.compare import load_pairing, main, paired_difference


def _play(tmp_path, a: str, name: str, seed: int = 5, b: str = "heuristic", deals: int = 8) -> str:
    out = tmp_path / f"{name}.json"
    assert arena(["--a", a, "--b", b, "--deals", str(deals), "--seed", str(seed), "--workers", "1",
                  "--no-progress", "--keep-deals", "--out", str(out)]) == 0
    return str(out)


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("compare")
    return {"random": _play(tmp, "random", "random"), "heuristic": _play(tmp, "heuristic", "heuristic"),
            "random_s6": _play(tmp, "random", "random_s6", seed=6),
            "random_vs_random": _play(tmp, "random", "random_vs_random", b="random"), "tmp": tmp}


def test_keep_deals_writes_each_deals_value_and_they_average_to_the_adp(games):
    pairing = json.loads(open(games["random"]).read())["pairings"][0]
    values = pairing["deal_values"]
    assert len(values) == pairing["deals"] == 8
    assert math.isclose(sum(values) / len(values), pairing["adp"])


def test_the_paired_difference_is_the_mean_of_per_deal_differences(games):
    x, y = load_pairing(games["heuristic"]), load_pairing(games["random"])
    c = paired_difference(x, y)
    diffs = [a - b for a, b in zip(x["deal_values"], y["deal_values"])]
    assert math.isclose(c["diff"], sum(diffs) / len(diffs)) and math.isclose(c["diff"], x["adp"] - y["adp"])
    lo, hi = c["diff_ci95"]
    assert lo < c["diff"] < hi and c["diff"] > 0  # the heuristic beats random by far on every deal set
    assert c["deals_x_better"] + c["deals_y_better"] + c["deals_same"] == 8
    assert (c["x"], c["y"], c["opponent"], c["seed"]) == ("heuristic", "random", "heuristic", 5)
    assert c["half_width_paired"] > 0 and c["half_width_unpaired"] > 0


def test_a_result_against_itself_differs_by_nothing_on_every_deal(games):
    x = load_pairing(games["random"])
    c = paired_difference(x, x)
    assert c["diff"] == 0 and c["diff_ci95"] == [0, 0] and c["deals_same"] == 8


@pytest.mark.parametrize(("other", "match"), [("random_s6", "seed is 5 in one and 6"),
                                              ("random_vs_random", "b is 'heuristic' in one and 'random'")])
def test_results_on_other_deals_or_against_another_opponent_are_refused(games, other, match):
    with pytest.raises(ValueError, match=match):
        paired_difference(load_pairing(games["random"]), load_pairing(games[other]))


def test_the_command_prints_the_comparison_and_names_bad_files(games, capsys):
    assert main([games["heuristic"], games["random"]]) == 0
    out = capsys.readouterr().out
    assert "x - y, paired by deal:" in out and "against heuristic" in out
    assert main([games["heuristic"], games["random"], "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["deals"] == 8
    tmp = games["tmp"]
    plain = tmp / "plain.json"
    assert arena(["--a", "random", "--b", "heuristic", "--deals", "2", "--seed", "5", "--workers", "1",
                  "--no-progress", "--out", str(plain)]) == 0
    (tmp / "broken.json").write_text("{not json")
    for path, message in ((str(plain), "kept no deal values; play it with crowsnest-arena --keep-deals"),
                          (str(tmp / "broken.json"), "not an arena result"),
                          (str(tmp / "nosuch.json"), "no such file")):
        assert main([games["random"], path]) == 2
        assert message in capsys.readouterr().err
    assert main([games["random"], games["heuristic"], "--pairing", "3"]) == 2
    assert "--pairing 3 is out of range" in capsys.readouterr().err


def test_keep_deals_needs_an_out_file(capsys):
    with pytest.raises(SystemExit) as exc:
        arena(["--a", "random", "--b", "random", "--deals", "2", "--workers", "1", "--no-progress", "--keep-deals"])
    assert exc.value.code == 2 and "--keep-deals keeps the deals' values in the --out file" in capsys.readouterr().err


def test_the_module_runs_as_a_command(games):
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "agents.compare", games["heuristic"], games["random"], "--json"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["x"] == "heuristic"
