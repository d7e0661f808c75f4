"""crowsnest-bench on the command line: a row in one command, bad input as one error line before any play."""

from __future__ import annotations

import json
import os

import pytest

from agents.bench import without_timing
from agents.deal_sets import DEAL_SETS
from tests._bad_input import assert_one_error_line, run
from tests.agents.test_bench import tiny_checkpoint

PROG = "crowsnest-bench"
SMOKE = ["--deal-set", "crowsnest-smoke-v1", "--workers", "1", "--no-progress"]


def bench(*args: str, out) -> tuple[int, str, str]:
    res = run("-m", "agents.bench", *SMOKE, "--out", str(out), *args)
    return res.returncode, res.stdout, res.stderr


def test_a_new_checkpoint_is_one_command_and_a_corrupt_cache_file_a_warning(tmp_path):
    spec = tiny_checkpoint(tmp_path / "ck.pt")
    out = tmp_path / "board"
    status, stdout, err = bench("--references", "random,heuristic", "--add", spec, out=out)
    assert status == 0, err
    board = json.loads((out / "crowsnest-smoke-v1.json").read_text())
    assert list(board["rule_sets"]) == ["crowsnest"]  # a crowsnest checkpoint: its own rule set only
    sec = board["rule_sets"]["crowsnest"]
    assert sec["candidates"] == [spec] and sec["references"] == ["random", "heuristic"]
    assert {r["agent"] for r in sec["rows"]} == {"random", "heuristic", spec} and len(sec["cells"]) == 3
    assert (out / "crowsnest-smoke-v1_crowsnest.png").stat().st_size > 10_000
    assert f"`{spec}` (added)" in (out / "crowsnest-smoke-v1.md").read_text()
    assert "vs heuristic" in stdout

    cell = out / "cache" / sec["cells"][1]["cache"]
    cell.write_text("{not json")
    status, _, err = bench("--references", "random,heuristic", "--variant", "crowsnest", out=out)
    assert status == 0, err
    assert f"crowsnest-bench: warning: ignoring cache file {str(cell)!r}: unreadable" in err and "Traceback" not in err
    assert without_timing(json.loads((out / "crowsnest-smoke-v1.json").read_text())) == without_timing(board)
    assert json.loads(cell.read_text())["key"]["a"] == spec  # the cell played again and rewritten

    from agents.bench import main  # in this process: the same code, seconds less

    assert main([*SMOKE, "--out", str(out), "--references", "random,heuristic", "--remove", spec]) == 0
    sec = json.loads((out / "crowsnest-smoke-v1.json").read_text())["rule_sets"]["crowsnest"]
    assert sec["candidates"] == [] and [r["agent"] for r in sec["rows"]] == ["heuristic", "random"]


def test_export_deals_writes_the_set_with_its_hash(tmp_path):
    res = run("-m", "agents.bench", "--deal-set", "crowsnest-smoke-v1", "--variant", "dixie",
              "--export-deals", str(tmp_path / "d.json"))
    assert res.returncode == 0, res.stderr
    doc = json.loads((tmp_path / "d.json").read_text())
    assert doc["sha256"] == DEAL_SETS["crowsnest-smoke-v1"].sha256["dixie"] and len(doc["deals"]) == 24


@pytest.mark.parametrize(("args", "named"), [
    (["--deal-set", "crowsnest-v9"], ["unknown deal set 'crowsnest-v9'", "crowsnest-v1"]),
    (["--add", "expertt"], ["unknown agent 'expertt'"]),
    (["--add", "learned", "--variant", "crowsnest_nocrow"],
     ["agent 'learned' cannot play rule set 'crowsnest_nocrow'", "no shipped policy"]),
    (["--add", "CHECKPOINT_OF_TOURNAMENT", "--variant", "crowsnest"],
     ["cannot play rule set 'crowsnest'", "trained for 'tournament'"]),
    (["CORRUPT_BOARD", "--add", "heuristic+random"], ["cannot read the board", "move it away"]),
])
def test_bad_input_is_one_error_line_before_anything_plays(tmp_path, args, named, no_nocrow_policies):
    out = tmp_path / "board"
    if "CHECKPOINT_OF_TOURNAMENT" in args:
        args = [tiny_checkpoint(tmp_path / "t.pt", "tournament") if a == "CHECKPOINT_OF_TOURNAMENT" else a
                for a in args]
    if "CORRUPT_BOARD" in args:
        args.remove("CORRUPT_BOARD")
        out.mkdir()
        (out / "crowsnest-smoke-v1.json").write_text("{")
    status, _, err = bench(*args, out=out)
    assert status == 2
    assert_one_error_line(err, PROG, *named)
    assert not out.exists() or sorted(os.listdir(out)) in ([], ["crowsnest-smoke-v1.json"])  # nothing played


@pytest.mark.parametrize(("args", "named"), [
    (["--variant", "kentucky"], ["unknown rule set 'kentucky'"]),
    (["--add", "checkpoint:nowhere.pt"], ["no checkpoint file at 'nowhere.pt'"]),
    (["--add", "pimc?samples=0"], ["pimc option samples must be an integer >= 1"]),
    (["--references", "random,double_dummy"], ["references must be some of"]),
    (["--remove", "heuristic"], ["--remove 'heuristic': a reference"]),
    (["--remove", "checkpoint:x.pt"], ["--remove 'checkpoint:x.pt': not a candidate of the board"]),
    (["--workers", "0"], ["workers must be an integer >= 1"]),
    (["--export-deals", "d.json"], ["--export-deals writes one rule set: give --variant NAME"]),
    (["--report-only"], ["--report-only: there is no board at"]),
    (["--readme", "/no/such/dir/README.md"], ["--readme '/no/such/dir/README.md': folder"]),
    (["--readme", "NO_MARKERS"], ["has no <!-- table:leaderboard --> ... <!-- /table:leaderboard --> markers"]),
])
def test_more_bad_input_in_process(tmp_path, capsys, args, named):
    """The same families through ``main`` in this process (each a subprocess above costs seconds)."""
    from agents.bench import main
    from tests._bad_input import main_status

    out = tmp_path / "board"
    if "NO_MARKERS" in args:
        (tmp_path / "README.md").write_text("# a README without the leaderboard\n")
        args = [str(tmp_path / "README.md") if a == "NO_MARKERS" else a for a in args]
    status, err = main_status(main, [*SMOKE, "--out", str(out), *args], capsys)
    assert status == 2
    assert_one_error_line(err, PROG, *named)
    assert not out.exists()
