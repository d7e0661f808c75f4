"""scripts/bid_reading.py: first calls by hand strength, the figures README's bid-reading table reads."""

from __future__ import annotations

import json

import pytest

from tests._scripts import load_script


def test_reading_counts_passes_by_fifth_and_the_top_bid():
    script = load_script("scripts/bid_reading.py")
    # ten calls, strength 0..9: the weakest fifth (0, 1) passes, the rest bid more with strength
    calls = [(float(i), 0 if i < 2 else 70, 0 if i < 2 else 70 + 5 * i) for i in range(10)]
    row = script.reading(calls)
    assert row["calls"] == 10 and row["pass_by_fifth"] == [1.0, 0.0, 0.0, 0.0, 0.0] and row["pass_rate"] == 0.2
    assert row["top_bid_by_fifth"][0] == 0.0 and row["top_bid_by_fifth"][4] == 112.5
    assert row["corr_strength_top_bid"] > 0.8
    opens = script.reading([(float(i), 70, 70) for i in range(10)])  # every seat opens at the lowest bid
    assert opens["pass_by_fifth"] == [0.0] * 5 and opens["corr_strength_first_call"] is None


def test_the_script_writes_every_rule_set_asked_and_refuses_bad_input(tmp_path, capsys):
    script = load_script("scripts/bid_reading.py")
    out = tmp_path / "reading.json"
    assert script.main(["--hands", "5", "--rule-sets", "red_one", "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert set(data["rule_sets"]) == {"red_one"} and set(data["rule_sets"]["red_one"]) == {"learned", "heuristic"}
    assert data["rule_sets"]["red_one"]["heuristic"]["calls"] == 20  # four first calls a hand
    with pytest.raises(SystemExit):
        script.main(["--hands", "2"])
    with pytest.raises(ValueError, match="unknown"):
        script.main(["--hands", "5", "--rule-sets", "bridge"])


def test_the_script_reads_the_agents_asked(tmp_path):
    """--agents names any arena agents, e.g. a phase agent with another bidder in a policy's place."""
    script = load_script("scripts/bid_reading.py")
    out = tmp_path / "reading.json"
    bold = "phase:base=learned;auction=heuristic?margin=-0.3"
    assert script.main(["--hands", "5", "--rule-sets", "tournament", "--agents", f"heuristic,{bold}",
                        "--out", str(out)]) == 0
    row = json.loads(out.read_text())["rule_sets"]["tournament"]
    assert set(row) == {"heuristic", bold}
    assert row[bold]["calls"] == 20 and row[bold] != row["heuristic"]  # the bolder bidder really bid
    with pytest.raises(SystemExit):
        script.main(["--hands", "5", "--agents", " , "])
    with pytest.raises(ValueError, match="nobody"):  # an unknown agent, before any game
        script.main(["--hands", "5", "--rule-sets", "tournament", "--agents", "heuristic,nobody",
                     "--out", str(tmp_path / "never.json")])
    assert not (tmp_path / "never.json").exists()

