"""scripts/inference_ess.py: how many of expert's sampled worlds inference's weights leave."""

from __future__ import annotations

import json

import pytest

from tests._scripts import load_script


def test_effective_worlds_lie_between_one_and_the_samples(tmp_path, capsys):
    script = load_script("scripts/inference_ess.py")
    out = tmp_path / "ess.json"
    agent = "expert?samples=6,nodes=200"
    assert script.main(["--hands", "2", "--rule-sets", "red_one", "--tricks", "2", "--agent", agent,
                        "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    cell = data["effective_worlds"]["red_one"]["2"]
    assert data["samples"] == 6 and cell["hands"] == 2
    assert 1.0 <= cell["mean"] <= 6.0 + 1e-9 and 1.0 <= cell["median"] <= 6.0 + 1e-9
    assert "effective worlds of 6" in capsys.readouterr().out
    # equal weights (temperature 0) leave every world
    sizes = script.effective_sizes("expert?samples=6,temperature=0", "red_one", 1, 2)
    assert sizes == pytest.approx([6.0])


def test_the_script_refuses_bad_input():
    script = load_script("scripts/inference_ess.py")
    with pytest.raises(SystemExit):
        script.main(["--rule-sets", "bridge"])
    with pytest.raises(SystemExit, match="does not weigh"):
        script.main(["--hands", "1", "--rule-sets", "red_one", "--agent", "pimc"])
