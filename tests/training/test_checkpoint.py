"""Checkpoints round-trip, are written atomically, and every bad file gives a clear CheckpointError."""

from __future__ import annotations

import os

import pytest
import torch

from agents import make_agent
from agents.checkpoint import CheckpointError, read_checkpoint
from agents.learned import PolicyAgent
from agents.networks import ActorCritic
from crowsnest_env.observation import observation_layout
from crowsnest_env.rules import get_variant, layout_for
from training.checkpoint import load_checkpoint, make_payload, save_checkpoint
from training.config import Config

V = get_variant("crowsnest")


def _payload(**over):
    model = ActorCritic(observation_layout(V).size, layout_for(V).num_actions, [16])
    opt = torch.optim.Adam(model.parameters())
    payload = make_payload(algo="ppo", model=model, model_spec={"hidden": [16]}, variant=V, cfg=Config(),
                           optimizer=opt, global_step=123, update=4)
    payload.update(over)
    return payload, model


@pytest.fixture
def ckpt(tmp_path):
    payload, model = _payload()
    path = tmp_path / "ck.pt"
    save_checkpoint(path, payload)
    return path, model


def test_round_trip_with_weights_only(ckpt):
    path, model = ckpt
    data = torch.load(path, weights_only=True)
    assert data["global_step"] == 123 and data["update"] == 4 and data["variant"] == "crowsnest"
    loaded = load_checkpoint(path, V, "ppo")
    for k, v in model.state_dict().items():
        assert torch.equal(loaded["model"][k], v)
    assert [f for f in os.listdir(path.parent) if ".tmp" in f] == []
    agent = make_agent(f"checkpoint:{path}", seed=0)
    assert isinstance(agent, PolicyAgent) and agent.algo == "ppo"


def test_other_variant(ckpt):
    path, _ = ckpt
    with pytest.raises(CheckpointError, match="trained for variant 'crowsnest'.*expected 'tournament'"):
        load_checkpoint(path, get_variant("tournament"))
    with pytest.raises(CheckpointError, match="trained for variant .crowsnest.; expected .crowsnest_nocrow."):
        PolicyAgent.from_checkpoint(str(path), variant="crowsnest", crow=False)


def test_other_layout(tmp_path):
    payload, _ = _payload()
    payload["layout"][3][2] = [5, 41]  # the 'played' piece with another shape
    path = tmp_path / "layout.pt"
    save_checkpoint(path, payload)
    with pytest.raises(CheckpointError, match="another observation layout.*played"):
        read_checkpoint(path)


def test_other_action_count_and_algo(tmp_path):
    payload, _ = _payload(num_actions=99)
    save_checkpoint(tmp_path / "a.pt", payload)
    with pytest.raises(CheckpointError, match="99 actions"):
        read_checkpoint(tmp_path / "a.pt")
    payload, _ = _payload()
    save_checkpoint(tmp_path / "b.pt", payload)
    with pytest.raises(CheckpointError, match="written by the 'ppo' trainer, not 'dmc'"):
        load_checkpoint(tmp_path / "b.pt", V, "dmc")


def test_truncated(ckpt, tmp_path):
    path, _ = ckpt
    raw = path.read_bytes()
    bad = tmp_path / "cut.pt"
    bad.write_bytes(raw[: len(raw) // 2])
    with pytest.raises(CheckpointError, match="truncated or corrupt"):
        read_checkpoint(bad)


def test_foreign_files(tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("hello, not a checkpoint\n")
    with pytest.raises(CheckpointError, match="foreign file"):
        read_checkpoint(text)
    other = tmp_path / "other.pt"
    torch.save({"state_dict": {"w": torch.zeros(2)}}, other)
    with pytest.raises(CheckpointError, match="not a CrowsNest checkpoint"):
        read_checkpoint(other)
    torch.save(torch.zeros(3), tmp_path / "tensor.pt")
    with pytest.raises(CheckpointError, match="not a CrowsNest checkpoint"):
        read_checkpoint(tmp_path / "tensor.pt")
    with pytest.raises(CheckpointError, match="no checkpoint file"):
        read_checkpoint(tmp_path / "missing.pt")


def test_future_format_version(tmp_path):
    payload, _ = _payload(format_version=99)
    save_checkpoint(tmp_path / "f.pt", payload)
    with pytest.raises(CheckpointError, match="format version 99"):
        read_checkpoint(tmp_path / "f.pt")


def test_failed_write_keeps_previous_checkpoint(ckpt, monkeypatch):
    path, _ = ckpt
    before = path.read_bytes()

    def boom(*a, **k):
        raise OSError("disk full")

    monkeypatch.setattr(torch, "save", boom)
    with pytest.raises(OSError):
        save_checkpoint(path, {"x": 1})
    assert path.read_bytes() == before
    assert [f for f in os.listdir(path.parent) if ".tmp" in f] == []
