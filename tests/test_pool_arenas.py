"""``scripts/pool_arenas.py``: one pairing's arena results over several seeds, pooled exactly."""

from __future__ import annotations

import json
import random

import pytest

from agents.stats import mean_std, t_interval
from tests._scripts import load_script


def _module():
    return load_script("scripts/pool_arenas.py")


def _pairing(values, seed, a="learned", b="pimc", variant="crowsnest"):
    mean, std = mean_std(values)
    return {"a": a, "b": b, "variant": variant, "crow": True, "seed": seed, "deals": len(values), "games": 0,
            "adp": mean, "adp_std": std, "adp_ci95": list(t_interval(values))}


def test_pooled_figures_equal_one_arena_over_all_the_deals(tmp_path, capsys):
    pool_arenas = _module()
    rng = random.Random(3)
    parts = [[rng.gauss(3.0, 60.0) for _ in range(n)] for n in (1000, 2000, 37)]
    pairings = [_pairing(v, seed) for v, seed in zip(parts, (7, 8080, 9191))]
    pooled = pool_arenas.pool(pairings)
    everything = [x for v in parts for x in v]
    assert pooled["deals"] == len(everything)
    assert pooled["adp"] == pytest.approx(mean_std(everything)[0], abs=1e-9)
    assert pooled["adp_ci95"] == pytest.approx(list(t_interval(everything)), abs=1e-9)
    files = []
    for i, p in enumerate(pairings):
        f = tmp_path / f"r{i}.json"
        f.write_text(json.dumps({"pairings": [p]}))
        files.append(str(f))
    assert pool_arenas.main(files) == 0
    out = capsys.readouterr().out
    lo, hi = pooled["adp_ci95"]
    assert f"{len(everything)} deals  {pooled['adp']:+7.2f} [{lo:+.2f}, {hi:+.2f}]" in out


def test_it_refuses_what_is_not_one_matchup_at_distinct_seeds(tmp_path, capsys):
    pool_arenas = _module()
    one, other = _pairing([1.0, 2.0, 3.0], 1), _pairing([4.0, 5.0], 2, a="heuristic")
    with pytest.raises(ValueError, match="not the pairing of the first file"):
        pool_arenas.pool([one, other])
    assert pool_arenas.pool([one, other], same_names=False)["deals"] == 5  # the caller vouches for the names
    with pytest.raises(ValueError, match="not the pairing"):
        pool_arenas.pool([one, _pairing([4.0, 5.0], 2, variant="tournament")], same_names=False)
    with pytest.raises(ValueError, match="repeat"):
        pool_arenas.pool([one, _pairing([4.0, 5.0], 1)])
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"rows": []}))
    assert pool_arenas.main([str(bad)]) == 2
    assert "not a one-pairing" in capsys.readouterr().err
    lacking = tmp_path / "lacking.json"
    lacking.write_text(json.dumps({"pairings": [{k: v for k, v in one.items() if k != "adp_std"}]}))
    assert pool_arenas.main([str(lacking)]) == 2
    assert "lacks adp_std" in capsys.readouterr().err
    garbled = tmp_path / "garbled.json"
    garbled.write_text("{not json")
    assert pool_arenas.main([str(garbled)]) == 2
    err = capsys.readouterr().err
    assert "garbled.json: not JSON" in err and len(err.strip().splitlines()) == 1
