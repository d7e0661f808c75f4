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
