"""Issue 8: the entry points answer bad input with ``<prog>: error: ...``, exit status 2 and no
traceback; and the env's checks hold under ``python -O``. Each case is a real subprocess."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(*args: str, cwd=None, optimize: bool = False) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": ROOT}
    flags = ["-O"] if optimize else []
    return subprocess.run([sys.executable, *flags, *args], capture_output=True, text=True, env=env, cwd=cwd,
                          timeout=120)


def tiny(tmp_path, **over) -> str:
    with open(os.path.join(ROOT, "configs", "tiny_ppo.yaml"), encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    data.update({"total_steps": 100, "eval_interval": 0, "final_eval_deals": 0})
    data["ppo"].update({"rollout_steps": 100, "num_envs": 2})
    for k, v in over.items():
        data[k] = {**data[k], **v} if isinstance(v, dict) else v
    path = tmp_path / "cfg.yaml"
    path.write_text(yaml.safe_dump(data))
    return str(path)


def assert_usage_error(proc: subprocess.CompletedProcess, prog: str, named: str) -> None:
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    assert f"{prog}: error:" in proc.stderr and named in proc.stderr, proc.stderr


def _main_error(main, argv, capsys) -> tuple[int, str]:
    try:
        status = main(argv)
    except SystemExit as exit_:  # argparse's parser.error
        status = exit_.code
    return status, capsys.readouterr().err


@pytest.mark.parametrize(("case", "named"), [
    ("bad_value", "ppo.learning_rate"), ("unknown_key", "total_step"), ("not_yaml", "YAML"),
    ("missing_file", "No such file"), ("out_is_a_file", "not a folder"), ("resume_nothing", "no checkpoint"),
])
def test_train_cli_errors(tmp_path, capsys, case, named):
    from training.cli import main

    out = str(tmp_path / "run")
    cfg = tiny(tmp_path)
    if case == "bad_value":
        cfg = tiny(tmp_path, ppo={"learning_rate": -1.0})
    elif case == "unknown_key":
        (tmp_path / "cfg.yaml").write_text("algo: ppo\ntotal_step: 5\n")
    elif case == "not_yaml":
        (tmp_path / "cfg.yaml").write_text("algo: [ppo\n")
    elif case == "missing_file":
        cfg = str(tmp_path / "absent.yaml")
    elif case == "out_is_a_file":
        (tmp_path / "run").write_text("")
    extra = ["--resume"] if case == "resume_nothing" else []
    status, err = _main_error(main, ["--config", cfg, "--out", out, "--no-eval", *extra], capsys)
    assert status == 2 and "crowsnest-train: error:" in err and named in err, err
    if case != "out_is_a_file":
        assert not os.path.exists(out)


def test_train_cli_subprocess_exit_status_and_no_traceback(tmp_path):
    proc = run("-m", "training.cli", "--config", tiny(tmp_path, ppo={"minibatch_size": 0}), "--no-eval")
    assert_usage_error(proc, "crowsnest-train", "ppo.minibatch_size")


def test_train_cli_resume_with_another_network(tmp_path):
    from training import cli

    out = tmp_path / "run"
    cli.run(tiny(tmp_path), str(out), evaluate=False)
    config_before = (out / "config.yaml").read_text()
    proc = run("-m", "training.cli", "--config", tiny(tmp_path, ppo={"hidden": [64, 64]}), "--out", str(out),
               "--resume", "--no-eval")
    assert_usage_error(proc, "crowsnest-train", "network")
    assert (out / "config.yaml").read_text() == config_before


@pytest.mark.parametrize(("args", "named"), [
    (["--a", "pimc?samples=0", "--b", "random"], "samples"),
    (["--a", "heuristic", "--b", "pimc?bogus=1"], "bogus"),
    (["--a", "heuristic", "--b", "nobody"], "nobody"),
    (["--a", "heuristic", "--b", "random", "--out", "/nonexistent-dir/r.json"], "--out"),
    (["--a", "heuristic", "--b", "random", "--plot", "."], "--plot"),
    (["--a", "heuristic", "--b", "checkpoint:/nonexistent.pt"], "nonexistent"),
    (["--a", "heuristic", "--b", "random", "--deals", "0"], "deals"),
    (["--a", "heuristic", "--b", "random", "--variant", "nope"], "nope"),
])
def test_arena_cli_checks_before_playing(tmp_path, capsys, monkeypatch, args, named):
    import agents.arena as arena

    played = []
    monkeypatch.setattr(arena, "run_task", lambda task: played.append(task))  # no deal may start
    monkeypatch.chdir(tmp_path)
    status, err = _main_error(arena.main, ["--deals", "2", "--workers", "1", "--no-progress", *args], capsys)
    assert status == 2 and "crowsnest-arena: error:" in err and named in err, err
    assert played == []


def test_arena_cli_subprocess_exit_status_and_no_traceback(tmp_path):
    proc = run("-m", "agents.arena", "--a", "pimc?samples=0", "--b", "random", "--deals", "2", "--workers", "1",
               "--out", str(tmp_path / "r.json"), cwd=tmp_path)
    assert_usage_error(proc, "crowsnest-arena", "samples")
    assert not (tmp_path / "r.json").exists()


OPTIMIZED_CHECKS = """
import crowsnest_env
from crowsnest_env.rules import IllegalActionError
env = crowsnest_env.env()
env.reset(seed=0)
for bad in (None, 10_000, 1.5):
    try:
        env.step(bad)
    except IllegalActionError as err:
        assert "action space" in str(err)
    else:
        raise SystemExit(f"step({bad!r}) was accepted under -O")
    if len(env.agents) != 4 or any(env.terminations.values()):
        raise SystemExit(f"step({bad!r}) changed the game under -O")
raw = crowsnest_env.raw_env()
raw.reset(seed=0)
try:
    raw.step(1.5)
except IllegalActionError:
    pass
else:
    raise SystemExit("raw_env.step(1.5) accepted")
print("checked", __debug__)
"""


def test_checks_hold_under_python_O():
    proc = run("-c", OPTIMIZED_CHECKS, optimize=True)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    assert proc.stdout.strip() == "checked False"  # asserts really were off


def test_train_cli_under_python_O_still_rejects_bad_configs(tmp_path):
    proc = run("-m", "training.cli", "--config", tiny(tmp_path, total_steps=0), "--no-eval",
               optimize=True, cwd=tmp_path)
    assert_usage_error(proc, "crowsnest-train", "total_steps")
