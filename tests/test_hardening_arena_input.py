"""Issue 18, arena: the plot format is checked before any deal, a Ray task's error is its cause in
one line, and a same-name custom variant says which rules differ.
"""

from __future__ import annotations

import os

import pytest
import yaml

from agents.checkpoint import CheckpointError, read_checkpoint
from crowsnest_env.variant_config import load_variant, variant_to_dict
from tests._bad_input import CROWSNEST, SHIPPED, assert_one_error_line, main_status, write_yaml


@pytest.mark.parametrize(("plot", "named"), [("r.xyz", "unknown image format 'xyz'"), ("r", "no image extension"),
                                             ("r.pgf", "unknown image format")])
def test_arena_plot_format_is_checked_before_playing(tmp_path, capsys, monkeypatch, plot, named):
    import agents.arena as arena

    played = []
    monkeypatch.setattr(arena, "run_task", lambda task: played.append(task))
    monkeypatch.chdir(tmp_path)
    status, err = main_status(arena.main, ["--a", "random", "--b", "random", "--deals", "1", "--workers", "1",
                                     "--no-progress", "--out", "r.json", "--plot", plot], capsys)
    assert status == 2 and played == []
    assert_one_error_line(err, "crowsnest-arena", "--plot", named)
    assert os.listdir(tmp_path) == []


def test_arena_plot_in_another_format_is_written(tmp_path, capsys):
    from agents.arena import main

    assert main(["--a", "random", "--b", "random", "--deals", "1", "--workers", "1", "--no-progress",
                 "--plot", str(tmp_path / "r.svg")]) == 0
    assert (tmp_path / "r.svg").read_text().lstrip().startswith("<?xml")


def test_same_name_custom_variant_says_which_rules_differ(tmp_path, capsys):
    from agents.arena import main, run_pairing

    rules = write_yaml(tmp_path, yaml.safe_dump({**variant_to_dict(CROWSNEST), "target": 500}))
    status, err = main_status(main, ["--variant", rules, "--a", f"checkpoint:{SHIPPED}", "--b", "random",
                                     "--deals", "1", "--workers", "1", "--no-progress"], capsys)
    assert status == 2
    assert_one_error_line(err, "crowsnest-arena", "same name, other rules: target 300 (trained) vs 500 (wanted)")
    with pytest.raises(CheckpointError, match=r"target 300 \(trained\) vs 500"):
        run_pairing("learned", "random", variant=rules, deals=1, workers=1)  # the shipped policy, found by name
    with pytest.raises(CheckpointError, match=r"target 300 \(trained\) vs 500"):
        read_checkpoint(SHIPPED, load_variant(rules))


def test_ray_task_error_is_its_cause_without_the_remote_traceback():
    exceptions = pytest.importorskip("ray.exceptions")
    from agents.backends import task_error_cause

    remote_tb = 'Traceback (most recent call last):\n  File "arena.py", line 1\nValueError: bad option'
    err = exceptions.RayTaskError("run_task", remote_tb, ValueError("agent 'x': bad option"))
    assert 'File "arena.py"' in str(err.as_instanceof_cause())  # the remote stack the CLI used to print
    cause = task_error_cause(err)
    assert type(cause) is ValueError and str(cause) == "agent 'x': bad option"
    nested = exceptions.RayTaskError("outer", remote_tb, exceptions.RayTaskError("inner", remote_tb, KeyError("k")))
    assert repr(task_error_cause(nested)) == "KeyError('k')"
    lost = exceptions.RayTaskError("f", remote_tb, exceptions.RayError("not serializable.\nOriginal:\n" + remote_tb))
    cause = task_error_cause(lost)
    assert isinstance(cause, RuntimeError) and "\n" not in str(cause) and "not serializable" in str(cause)
