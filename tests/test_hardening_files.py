"""Issue 8: checkpoints, run folders and the atomic writer under crafted files, moves and full disks."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys

import pytest
import torch
import yaml

from agents.checkpoint import CheckpointError, model_from_checkpoint, read_checkpoint
from crowsnest_env import atomic
from crowsnest_env.atomic import atomic_write, atomic_write_text, remove_stale_temps
from training import cli
from training.config import ConfigError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(autouse=True)
def _threads():
    before = torch.get_num_threads()
    yield
    torch.set_num_threads(before)


def tiny(tmp_path, algo="ppo", name="cfg.yaml", **over):
    with open(os.path.join(ROOT, "configs", f"tiny_{algo}.yaml"), encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    data.update({"total_steps": 100, "eval_interval": 0, "final_eval_deals": 0})
    data[algo].update({"rollout_steps": 100, "num_envs": 2})
    for k, v in over.items():
        if isinstance(v, dict):
            data[k].update(v)
        else:
            data[k] = v
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data))
    return str(path)


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("trained")
    out = tmp / "run"
    cli.run(tiny(tmp), str(out), evaluate=False)
    return tmp, out


# ------------------------------------------------------------------ crafted checkpoints
def _crafted(trained, tmp_path, change):
    data = torch.load(trained[1] / "checkpoint.pt", weights_only=True)
    change(data)
    path = tmp_path / "crafted.pt"
    torch.save(data, path)
    return path


@pytest.mark.parametrize(("change", "named"), [
    (lambda d: d.update(model_spec={"hidden": [0]}), r"hidden\[0\]"),
    (lambda d: d.update(model_spec={"hidden": [-4]}), r"hidden\[0\]"),
    (lambda d: d.update(model_spec={"hidden": ["32"]}), "integer"),
    (lambda d: d.update(model_spec={"hidden": [2**33]}), r"hidden\[0\]"),
    (lambda d: d.update(model_spec={"hidden": [60000, 60000]}), "parameters"),
    (lambda d: d.update(model_spec={"hidden": []}), "non-empty"),
    (lambda d: d.update(model_spec=[32]), "mapping"),
    (lambda d: d.update(model_spec={"hidden": [32], "depth": 2}), "keys"),
    (lambda d: d.update(model_spec={"hidden": [64]}), "shape"),
    (lambda d: d["model"].pop("value.bias"), "missing"),
    (lambda d: d["model"].update(extra=torch.zeros(1)), "unexpected"),
    (lambda d: d["model"].update({"value.bias": torch.zeros(2)}), "shape"),
    (lambda d: d["model"].update({"value.bias": torch.zeros(1, dtype=torch.int64)}), "float"),
    (lambda d: d.update(algo="sac"), "algo"),
])
def test_crafted_checkpoints_are_refused_before_torch_builds(trained, tmp_path, change, named):
    path = _crafted(trained, tmp_path, change)
    with pytest.raises(CheckpointError, match=named):
        model_from_checkpoint(read_checkpoint(path))
    data = torch.load(path, weights_only=True)
    with pytest.raises(CheckpointError, match=named):
        model_from_checkpoint(data)


# ------------------------------------------------------------------ resume
def test_resume_after_moving_the_run_folder_and_from_another_cwd(trained, tmp_path, monkeypatch):
    tmp, out = trained
    rel_start = tmp_path / "start"
    rel_start.mkdir()
    monkeypatch.chdir(rel_start)
    first = cli.run(tiny(tmp_path, total_steps=100, snapshot_interval=1), "runs/a", evaluate=False)
    stored = torch.load("runs/a/checkpoint.pt", weights_only=True)["extra"]["pool"]
    assert stored and all(not os.path.isabs(p) and p.startswith("snapshots/") for p in stored)
    moved = tmp_path / "elsewhere" / "moved"
    shutil.move(str(rel_start / "runs" / "a"), str(moved))
    monkeypatch.chdir(tmp_path)  # another working directory, and the old location is gone
    summary = cli.run(tiny(tmp_path, total_steps=300, snapshot_interval=1), str(moved), resume=True,
                      evaluate=False)
    assert summary["update"] > first["update"] and summary["global_step"] >= 300
    pool = torch.load(moved / "checkpoint.pt", weights_only=True)["extra"]["pool"]
    assert all(os.path.isfile(moved / p) for p in pool) and len(pool) == summary["update"]


@pytest.mark.parametrize(("over", "error", "named"), [
    ({"ppo": {"hidden": [64]}}, ConfigError, "network"),
    ({"ppo": {"num_envs": 3}}, ConfigError, "num_envs"),
    ({"algo": "dmc", "dmc": {"hidden": [32], "num_envs": 2, "rollout_steps": 100, "batch_size": 64}},
     CheckpointError, "ppo"),
    ({"variant": "tournament"}, CheckpointError, "tournament"),
])
def test_resume_mismatch_fails_before_writing_anything(trained, tmp_path, over, error, named):
    _, out = trained
    run = tmp_path / "copy"
    shutil.copytree(out, run)
    before = {p: (run / p).read_bytes() for p in ("config.yaml", "checkpoint.pt")}
    listing = sorted(os.listdir(run))
    with pytest.raises(error, match=named):
        cli.run(tiny(tmp_path, **over), str(run), resume=True, evaluate=False)
    assert {p: (run / p).read_bytes() for p in before} == before and sorted(os.listdir(run)) == listing


def test_invalid_config_creates_no_run_folder(tmp_path):
    with pytest.raises(ConfigError, match="ppo.learning_rate"):
        cli.run(tiny(tmp_path, ppo={"learning_rate": -1.0}), str(tmp_path / "never"))
    assert not (tmp_path / "never").exists()


# ------------------------------------------------------------------ the atomic writer
def _temps(folder):
    return [f for f in os.listdir(folder) if ".tmp-" in f]


def test_disk_full_is_named_and_the_temp_file_removed(tmp_path):
    target = tmp_path / "ck.pt"

    def full(_fh):
        raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(OSError, match=r"ck\.pt.*no space left") as info:
        atomic_write(target, full, binary=True)
    assert info.value.errno == errno.ENOSPC
    assert _temps(tmp_path) == [] and not target.exists()


def test_torch_writer_failure_is_named(tmp_path):
    def torch_like(_fh):
        raise RuntimeError("[enforce fail at inline_container.cc:778] . PytorchStreamWriter failed writing file")

    with pytest.raises(OSError, match=r"x\.pt"):
        atomic_write(tmp_path / "x.pt", torch_like, binary=True)
    assert _temps(tmp_path) == []

    def bug(_fh):  # not an I/O failure: passes through unchanged, temp file still removed
        raise RuntimeError("a bug")

    with pytest.raises(RuntimeError, match="a bug"):
        atomic_write(tmp_path / "x.pt", bug, binary=True)
    assert _temps(tmp_path) == []


def test_stale_temp_of_a_dead_writer_is_removed_on_the_next_write(tmp_path):
    target = tmp_path / "config.yaml"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead_pid = int(dead.stdout)
    stale = tmp_path / f".config.yaml.tmp-{dead_pid}-0123abcd"
    stale.write_text("half")
    live = tmp_path / f".config.yaml.tmp-{os.getppid()}-0123abcd"  # a live process: left alone
    live.write_text("in progress")
    other = tmp_path / f".other.yaml.tmp-{dead_pid}-0123abcd"  # another target: left alone
    other.write_text("half")
    atomic_write_text(target, "a: 1\n")
    assert target.read_text() == "a: 1\n"
    assert not stale.exists() and live.exists() and other.exists()
    assert remove_stale_temps(str(tmp_path / "other.yaml")) == [str(other)]


def test_importing_atomic_leaves_the_umask_alone():
    code = ("import os; os.umask(0o027); import crowsnest_env.atomic as a; "
            "assert a._UMASK is None; m = os.umask(0); print(oct(m))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": ROOT})
    assert out.stdout.strip() == "0o27"


def test_written_files_get_the_umask_mode(tmp_path, monkeypatch):
    monkeypatch.setattr(atomic, "_UMASK", None)
    old = os.umask(0o027)
    try:
        atomic_write_text(tmp_path / "f.txt", "x")
    finally:
        os.umask(old)
        monkeypatch.setattr(atomic, "_UMASK", None)
    assert (os.stat(tmp_path / "f.txt").st_mode & 0o777) == 0o640


def test_resume_mismatch_through_the_python_api_writes_nothing(trained, tmp_path):
    """The trainer itself (not only the CLI) checks a resume before touching the run folder."""
    from training.config import load_config
    from training.ppo import train

    _, out = trained
    run = tmp_path / "api"
    shutil.copytree(out, run)
    before = (run / "config.yaml").read_bytes()
    cfg = load_config(tiny(tmp_path, ppo={"hidden": [64]}))
    with pytest.raises(ConfigError, match="network"):
        train(cfg, str(run), resume=True)
    assert (run / "config.yaml").read_bytes() == before
