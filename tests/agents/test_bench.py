"""The benchmark: boards independent of the worker count, the cell cache, what a cell's key holds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

import agents.bench as bench
from agents.arena import run_round_robin
from agents.bench import REFERENCES, merge_board, plan_section, run_bench, without_timing
from agents.bench_cells import agent_files, code_version, file_sha256, play_closure
from agents.checkpoint import make_payload, write_checkpoint
from agents.deal_sets import get_deal_set, rule_set_variant
from agents.learned import shipped_policy
from agents.networks import build_model
from crowsnest_env.observation import observation_layout
from crowsnest_env.rules import get_variant, layout_for

SMOKE = get_deal_set("crowsnest-smoke-v1")
REFS = ("random", "heuristic")


def tiny_checkpoint(path: Path, variant: str = "crowsnest", seed: int = 0) -> str:
    """An untrained 8-unit PPO policy for ``variant``; ``checkpoint:PATH``."""
    rules = get_variant(variant)
    torch.manual_seed(seed)
    model = build_model("ppo", observation_layout(rules).size, layout_for(rules).num_actions, {"hidden": [8]})
    write_checkpoint(str(path), make_payload(algo="ppo", model=model, model_spec={"hidden": [8]}, variant=rules))
    return f"checkpoint:{path}"


class Plays:
    """Counts the arena pairings the benchmark plays (the cells not found in the cache)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch):
        self.cells: list[tuple[str, str]] = []
        real = bench.run_pairing

        def counted(a, b, **kw):  # type: ignore[no-untyped-def]
            self.cells.append((a, b))
            return real(a, b, **kw)

        monkeypatch.setattr(bench, "run_pairing", counted)


def test_the_board_is_the_same_with_1_and_2_workers(tmp_path):
    cands = {"crowsnest": ["random+heuristic"]}
    one = run_bench(SMOKE, cands, references=REFS, cache=tmp_path / "a", workers=1)
    two = run_bench(SMOKE, cands, references=REFS, cache=tmp_path / "b", workers=2)
    assert without_timing(one) == without_timing(two)
    crowsnest = one["rule_sets"]["crowsnest"]
    assert [c["a"] + " vs " + c["b"] for c in crowsnest["cells"]] == \
        ["random vs heuristic", "random+heuristic vs random", "random+heuristic vs heuristic"]
    assert crowsnest["deal_set_sha256"] == SMOKE.sha256["crowsnest"]
    assert [r["agent"] for r in crowsnest["rows"]] == ["heuristic", "random+heuristic", "random"]
    row = next(r for r in crowsnest["rows"] if r["agent"] == "random")
    cell = crowsnest["cells"][0]
    assert row["vs"]["heuristic"]["adp"] == cell["adp"] < -100  # random is team a of that cell
    assert next(r for r in crowsnest["rows"] if r["agent"] == "heuristic")["vs"]["random"]["adp_ci95"] == \
        [-cell["adp_ci95"][1], -cell["adp_ci95"][0]]


def test_ratings_are_the_arenas_round_robin_over_the_same_deals(tmp_path):
    board = run_bench(SMOKE, {"crowsnest": []}, references=REFS, cache=tmp_path, workers=1)
    arena = run_round_robin(list(REFS), deals=SMOKE.deals, seed=SMOKE.seed, max_redeals=SMOKE.max_redeals)
    rows = board["rule_sets"]["crowsnest"]["rows"]
    assert [{"agent": r["agent"], **r["rating"]} for r in rows] == arena["ratings"]
    assert rows[0]["vs"]["random"]["adp"] == arena["pairings"][0]["adp"] * -1


def test_a_finished_cell_is_not_played_again_and_a_changed_checkpoint_is(tmp_path, monkeypatch):
    spec = tiny_checkpoint(tmp_path / "ck.pt")
    cands = {"crowsnest": [spec]}
    first = run_bench(SMOKE, cands, references=REFS, cache=tmp_path / "cache")
    plays = Plays(monkeypatch)
    again = run_bench(SMOKE, cands, references=REFS, cache=tmp_path / "cache")
    assert plays.cells == [] and without_timing(again) == without_timing(first)
    assert again == first  # even the timings: they come from the cache

    tiny_checkpoint(tmp_path / "ck.pt", seed=1)  # the same path, other weights
    changed = run_bench(SMOKE, cands, references=REFS, cache=tmp_path / "cache")
    assert plays.cells == [(spec, "random"), (spec, "heuristic")]  # the reference cell stays cached
    row = next(r for r in changed["rule_sets"]["crowsnest"]["rows"] if r["agent"] == spec)
    assert row["files"] == {str(tmp_path / "ck.pt"): file_sha256(tmp_path / "ck.pt")}
    assert row["files"] != next(r for r in first["rule_sets"]["crowsnest"]["rows"] if r["agent"] == spec)["files"]


def test_a_corrupt_cache_file_is_reported_and_played_again(tmp_path, monkeypatch):
    cands = {"crowsnest": ["heuristic+random"]}
    first = run_bench(SMOKE, cands, references=REFS, cache=tmp_path)
    files = sorted(tmp_path.rglob("*.json"))
    assert len(files) == 3
    files[0].write_text('{"schema": "crowsnest-bench-cell/1", "key": ')  # a write cut short
    cell = json.loads(files[1].read_text())
    cell["pairing"]["deal_values"] = cell["pairing"]["deal_values"][:-1]
    files[1].write_text(json.dumps(cell))
    warnings: list[str] = []
    plays = Plays(monkeypatch)
    again = run_bench(SMOKE, cands, references=REFS, cache=tmp_path, warn=warnings.append)
    assert len(plays.cells) == 2 and len(warnings) == 2
    assert any(str(files[0]) in w and "unreadable" in w for w in warnings)
    assert any(str(files[1]) in w and "no list of 24 deal values" in w for w in warnings)
    assert without_timing(again) == without_timing(first)
    assert run_bench(SMOKE, cands, references=REFS, cache=tmp_path, warn=warnings.append) == again
    assert len(warnings) == 2 and len(plays.cells) == 2  # rewritten: no warning, no play the third time


def test_a_reference_that_cannot_play_a_rule_set_is_left_out_with_the_reason(tmp_path, no_nocrow_policies):
    nocrow = plan_section(SMOKE, "crowsnest_nocrow", [], ("random", "learned"), tmp_path)
    assert nocrow.references == ["random"] and "no shipped policy for variant 'crowsnest_nocrow'" in \
        nocrow.unavailable["learned"]
    crowsnest = plan_section(SMOKE, "crowsnest", [], ("random", "learned"), tmp_path)
    assert crowsnest.references == ["random", "learned"] and crowsnest.unavailable == {}
    policy = shipped_policy(get_variant("crowsnest"))
    assert crowsnest.files["learned"] == {"agents/policies/crowsnest.pt": file_sha256(policy)}
    assert crowsnest.cells[0][2]["files"] == crowsnest.files["learned"]
    with pytest.raises(ValueError, match="agent 'checkpoint:.*' cannot play rule set 'crowsnest': .*trained for "
                                         "'tournament'"):
        plan_section(SMOKE, "crowsnest", [tiny_checkpoint(tmp_path / "t.pt", "tournament")], REFS, tmp_path)


def test_the_reference_line_up_is_one_list(tmp_path):
    assert REFERENCES[:4] == ("random", "heuristic", "pimc", "learned")
    with pytest.raises(ValueError, match="references must be some of random, heuristic, pimc, learned"):
        run_bench(SMOKE, {"crowsnest": []}, references=("random", "expert?"), cache=tmp_path)


def test_agent_files_finds_checkpoints_inside_specs_and_the_shipped_policy(tmp_path):
    spec = tiny_checkpoint(tmp_path / "a+b.pt")
    rules = rule_set_variant("crowsnest")
    sha = file_sha256(tmp_path / "a+b.pt")
    assert agent_files(spec, rules) == {str(tmp_path / "a+b.pt"): sha}
    assert agent_files(f"pimc?policy={spec},samples=2", rules) == {str(tmp_path / "a+b.pt"): sha}
    both = agent_files(f"phase:base=heuristic;auction=learned;play={spec}", rules)
    assert set(both) == {str(tmp_path / "a+b.pt"), "agents/policies/crowsnest.pt"}
    assert agent_files("heuristic+random", rules) == {}


def _package(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def test_the_code_version_covers_what_the_arena_imports_and_nothing_else(tmp_path):
    _package(tmp_path, {
        "agents/__init__.py": "def make_agent():\n    from .strong import Strong\n",
        "agents/arena.py": "from . import make_agent\nfrom .arena_plot import draw\nfrom crowsnest_env import table\n",
        "agents/arena_plot.py": "from .strong import Strong\n",
        "agents/strong.py": "from ._fast import solve\n",
        "agents/_fast.c": "int solve(void) { return 1; }\n",
        "agents/bench.py": "from .arena import make_agent\n",
        "crowsnest_env/__init__.py": "from .env import env\n",
        "crowsnest_env/env.py": "",
        "crowsnest_env/table.py": "import numpy\n",
    })
    got = [p.relative_to(tmp_path).as_posix() for p in play_closure(root=tmp_path)]
    assert got == ["agents/__init__.py", "agents/_fast.c", "agents/arena.py", "agents/strong.py",
                   "crowsnest_env/table.py"]
    before = code_version(tmp_path)[0]
    (tmp_path / "agents" / "bench.py").write_text("# reporting only\n")
    (tmp_path / "crowsnest_env" / "env.py").write_text("x = 1\n")
    assert code_version.__wrapped__(tmp_path)[0] == before
    (tmp_path / "agents" / "_fast.c").write_text("int solve(void) { return 2; }\n")
    assert code_version.__wrapped__(tmp_path)[0] != before
    real = code_version()[1]
    assert {"agents/pimc.py", "agents/heuristic.py", "agents/learned.py", "crowsnest_env/rules/state.py",
            "crowsnest_env/table.py", "agents/arena.py"} <= set(real)
    assert not {"agents/bench.py", "agents/arena_plot.py", "crowsnest_env/vector.py"} & set(real)


def test_merge_keeps_the_rule_sets_a_run_did_not_touch():
    old = {"rule_sets": {"dixie": {"x": 1}, "crowsnest": {"x": 2}}}
    new = {"schema": "s", "rule_sets": {"crowsnest": {"x": 3}, "buckeye": {"x": 4}}}
    assert merge_board(old, new) == {"schema": "s", "rule_sets": {"crowsnest": {"x": 3}, "buckeye": {"x": 4},
                                                                  "dixie": {"x": 1}}}
    assert list(merge_board(old, new)["rule_sets"]) == ["crowsnest", "buckeye", "dixie"]  # RULE_SETS order


def test_the_shipped_board_and_its_markdown_agree():
    from agents.bench_report import markdown, plot_name

    folder = Path(__file__).resolve().parents[2] / "docs" / "results" / "bench"
    board = json.loads((folder / "crowsnest-v1.json").read_text())
    assert board["schema"] == "crowsnest-bench/1" and board["deal_set"]["name"] == "crowsnest-v1"
    for rs, sec in board["rule_sets"].items():
        assert sec["deal_set_sha256"] == get_deal_set("crowsnest-v1").sha256[rs]
        assert all(c["deals"] == 1000 for c in sec["cells"])
        assert (folder / plot_name(board, rs)).is_file()
    plots = {rs: plot_name(board, rs) for rs in board["rule_sets"]}
    assert (folder / "crowsnest-v1.md").read_text() == markdown(board, plots) + "\n"


def test_the_readme_leaderboard_is_generated_from_the_shipped_board():
    from agents.bench_report import README_TABLES, load_board, render_readme

    root = Path(__file__).resolve().parents[2]
    text = (root / "README.md").read_text(encoding="utf-8")
    assert render_readme(text, load_board(root / "docs" / "results" / "bench" / "crowsnest-v1.json")) == text, \
        "README.md's leaderboard differs from docs/results/bench/crowsnest-v1.json: run " \
        "python -m agents.bench --report-only --readme README.md"
    for name in README_TABLES:
        assert f"<!-- table:{name} -->" in text


def test_prune_removes_only_the_cells_the_board_does_not_use(tmp_path):
    board = run_bench(SMOKE, {"crowsnest": []}, references=REFS, cache=tmp_path)
    kept = sorted(tmp_path.rglob("*.json"))
    stale = tmp_path / "crowsnest-smoke-v1" / "dixie" / "0123.json"
    other = tmp_path / "crowsnest-v1" / "crowsnest" / "4567.json"
    for path in (stale, other):
        path.parent.mkdir(parents=True)
        path.write_text("{}")
    assert bench.prune_cache(board, tmp_path) == [stale]
    assert sorted(tmp_path.rglob("*.json")) == sorted([*kept, other])
