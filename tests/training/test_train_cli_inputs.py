"""Training's bad input, through the CLI: one ``crowsnest-train: error:`` line, exit status 2, and
nothing written or lost (a real subprocess per case)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
import yaml

from training.config import Config, load_config

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROG = "crowsnest-train"


def train(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": ROOT}
    return subprocess.run([sys.executable, "-m", "training.cli", *args], capture_output=True, text=True, env=env,
                          timeout=180)


def one_error_line(proc: subprocess.CompletedProcess, named: str) -> str:
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{PROG}: error: ") and named in lines[0], proc.stderr
    return lines[0]


def tiny(tmp_path, **over) -> str:  # type: ignore[no-untyped-def]
    with open(os.path.join(ROOT, "configs", "tiny_ppo.yaml"), encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    data.update({"total_steps": 100, "eval_interval": 0, "final_eval_deals": 0, **over})
    data["ppo"].update({"rollout_steps": 100, "num_envs": 2})
    path = tmp_path / "cfg.yaml"
    path.write_text(yaml.safe_dump(data))
    return str(path)


def snapshot(folder) -> dict[str, tuple[int, bytes]]:  # type: ignore[no-untyped-def]
    """Every file under ``folder``: (mtime in ns, contents)."""
    out = {}
    for dirpath, _, files in os.walk(folder):
        for name in files:
            path = os.path.join(dirpath, name)
            with open(path, "rb") as fh:
                out[os.path.relpath(path, folder)] = (os.stat(path).st_mtime_ns, fh.read())
    return out


@pytest.fixture(scope="module")
def finished(tmp_path_factory) -> tuple[str, str]:
    """(config, run folder) of a finished tiny run."""
    tmp = tmp_path_factory.mktemp("finished")
    cfg, out = tiny(tmp), str(tmp / "run")
    proc = train("--config", cfg, "--out", out)
    assert proc.returncode == 0, proc.stderr
    return cfg, out


UNREACHABLE = ["--set", "backend=ray", "--set", "address=127.0.0.1:1"]


@pytest.mark.timeout(180)
def test_unreachable_ray_address_writes_nothing(tmp_path):
    pytest.importorskip("ray")
    out = tmp_path / "run"
    proc = train("--config", tiny(tmp_path), "--out", str(out), *UNREACHABLE)
    one_error_line(proc, "cannot reach Ray cluster at 127.0.0.1:1")
    assert not out.exists()  # no config.yaml, snapshots/ or tb/


@pytest.mark.timeout(180)
@pytest.mark.parametrize("resume", [True, False], ids=["resume", "fresh"])
def test_a_finished_run_is_never_rewritten(finished, resume):
    pytest.importorskip("ray")
    cfg, out = finished
    before = snapshot(out)
    # resuming with an unreachable cluster, or a fresh run (any backend) into the finished run's folder
    args = ["--resume", *UNREACHABLE] if resume else []
    proc = train("--config", cfg, "--out", out, *args)
    one_error_line(proc, "cannot reach Ray cluster at 127.0.0.1:1" if resume else "holds a run already")
    assert snapshot(out) == before


@pytest.mark.timeout(180)
def test_an_empty_config_file_is_all_defaults_and_overrides_apply(tmp_path):
    empty = tmp_path / "empty.yaml"
    empty.write_text("")
    cfg = load_config(empty, ["total_steps=5000", "ppo.hidden=[16]"])
    assert cfg.total_steps == 5000 and cfg.ppo.hidden == [16] and cfg.variant == Config().variant
    proc = train("--config", str(empty), "--out", str(tmp_path / "run"), "--set", "total_step=5")
    line = one_error_line(proc, "unknown config key 'total_step'")
    assert "NoneType" not in line and not (tmp_path / "run").exists()
    listed = tmp_path / "list.yaml"
    listed.write_text("- algo\n- ppo\n")
    one_error_line(train("--config", str(listed), "--set", "seed=2"), "a config is a mapping of fields, got list")


def test_device_cuda_without_cuda_is_a_config_error_and_auto_is_cpu(tmp_path):
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has CUDA")
    from training.run import resolve_run

    assert resolve_run(load_config(tiny(tmp_path))).device == "cpu"  # device: auto (the default)
    assert Config().device == "auto"
    proc = train("--config", tiny(tmp_path, device="cuda"), "--out", str(tmp_path / "run"))
    one_error_line(proc, "device cuda: torch")
    assert "use device: auto or cpu" in proc.stderr and not (tmp_path / "run").exists()
    one_error_line(train("--config", tiny(tmp_path, device="tpu")), "device must be one of auto, cpu, cuda; got 'tpu'")


def test_a_yaml_alias_bomb_in_the_config_or_an_override_is_one_short_line(tmp_path):
    """The config reader bounds what it reads (no anchors/aliases), as the variant files' reader
    does: an 8-level bomb would otherwise expand into a message of hundreds of megabytes."""
    levels = ["l0: &l0 [x, x, x, x, x, x, x, x, x]"]
    levels += [f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]" for i in range(1, 8)]
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text("\n".join(levels) + "\nname: *l7\n")
    line = one_error_line(train("--config", str(bomb), "--out", str(tmp_path / "run")), "anchors and aliases")
    assert len(line) < 300
    line = one_error_line(train("--config", tiny(tmp_path), "--set", "name=&x [1]", "--out", str(tmp_path / "run")),
                          "override")
    assert "anchors and aliases" in line
    assert not (tmp_path / "run").exists()
