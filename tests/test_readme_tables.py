"""The README's figure tables are what ``scripts/readme_tables.py`` writes from ``docs/results/`` JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests._scripts import load_script as load_scripts

ROOT = Path(__file__).resolve().parents[1]


def load_script():
    return load_scripts("scripts/readme_tables.py")


def test_readme_tables_match_their_json():
    """Issue 17: the README said +182.5 for heuristic vs random while the JSON and the code gave +183.4."""
    tables = load_script()
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert tables.render(text) == text, "README tables drifted: run python scripts/readme_tables.py"
    assert {"standing", "arena", "ppo", "levels"} <= set(tables.TABLES)
    pairing = json.loads((ROOT / "docs/results/heuristic_vs_random_crowsnest.json").read_text())["pairings"][0]
    row = f"| crowsnest | heuristic | random | 2000 | {tables.signed(pairing['adp'])} |"
    assert row in text


def test_a_registered_table_is_regenerated_in_place_and_check_fails_on_drift(tmp_path, capsys):
    tables = load_script()
    results = tmp_path / "results"
    results.mkdir()
    (results / "x.json").write_text(json.dumps({"pairings": [{"a": "p", "b": "q", "adp": -3.84,
                                                              "adp_ci95": [-5.0, 1.25]}]}))

    @tables.table("extra")
    def extra(folder: Path) -> list[str]:
        p = tables.pairing(folder, "x.json")
        return ["| a | b | adp |", "|---|---|---|", tables.cells(p["a"], p["b"], tables.adp(p))]

    only = {"extra": extra}
    readme = tmp_path / "README.md"
    readme.write_text("intro\n<!-- table:extra -->\n| stale |\n<!-- /table:extra -->\nafter\n")
    assert tables.render(readme.read_text(), results, only) == (
        "intro\n<!-- table:extra -->\n| a | b | adp |\n|---|---|---|\n| p | q | \u22123.8 [\u22125.0, +1.2] |\n"
        "<!-- /table:extra -->\nafter\n")
    tables.TABLES = only  # the script's main() writes the registered tables
    args = ["--readme", str(readme), "--results", str(results)]
    assert tables.main([*args, "--check"]) == 1
    assert "-| stale |" in capsys.readouterr().out
    assert tables.main(args) == 0
    assert tables.main([*args, "--check"]) == 0
    with pytest.raises(SystemExit, match="has no table function"):
        tables.render("<!-- table:nope -->\n<!-- /table:nope -->", results, only)
    with pytest.raises(SystemExit, match="no <!-- table:NAME --> markers for extra"):
        tables.render("no markers", results, only)
    with pytest.raises(ValueError, match="registered twice"):
        tables.table("extra")(extra)


def test_the_auction_exploitability_table_reads_every_budget_and_game(tmp_path):
    """Issue 15 goal 4: each rule set's row holds the best response's calls against `pimc`'s auction and against
    `expert`'s, every budget in increasing order (``_8m`` after the recorded one, not ``_16m`` before it), and the
    same calls inside `expert` where that game exists."""
    tables = load_script()
    results = tmp_path / "results"

    def exploit(folder: str, adp: float, decisions: int) -> None:
        path = results / "attempts" / folder / "exploit" / "exploit.json"
        path.parent.mkdir(parents=True)
        path.write_text(json.dumps({"by_phase": {"auction": {"adp": adp, "adp_ci95": [adp - 2, adp + 2]}},
                                    "budget": {"decisions": decisions}, "target_files": {}}))

    exploit("expert_br_auction", 7.5, 4_000_000)
    exploit("expert_auction_exploitability", -1.5, 4_000_000)
    exploit("expert_auction_exploitability_16m", -3.0, 16_000_000)
    exploit("expert_auction_exploitability_8m", -2.0, 8_000_000)
    exploit("expert_auction_exploitability_tournament", 8.25, 6_000_000)  # another rule set's folder, not a budget
    exploit("expert_br_auction_tournament", 14.75, 4_000_000)
    game = results / "attempts" / "expert_auction_exploitability_tournament" / "arena" / "x1_g.json"
    game.parent.mkdir(parents=True)
    game.write_text(json.dumps({"pairings": [{"adp": 8.4, "adp_ci95": [2.1, 14.6]}]}))
    exploit("expert_br_auction_partnership", 1.0, 4_000_000)
    rows = {line.split(" | ")[0].strip("| "): line for line in tables.auction_exploitability(results)[2:]}
    assert rows["crowsnest"] == ("| crowsnest | +7.5 [+5.5, +9.5] (4.0M) | \u22121.5 [\u22123.5, +0.5] (4.0M); "
                                 "\u22122.0 [\u22124.0, +0.0] (8.0M); "
                                 "\u22123.0 [\u22125.0, \u22121.0] (16.0M) | \u2014 |")
    assert rows["tournament"].endswith("| +8.2 [+6.2, +10.2] (6.0M) | +8.4 [+2.1, +14.6] |")
    assert "`expert` bids as `pimc`" in rows["partnership"]  # no agents/policies/expert/partnership_auction.pt
    assert list(rows) == list(tables.rule_set_names())  # every rule set has a row, measured or not
    assert rows["dixie"] == "| dixie | not measured | not measured | \u2014 |"
