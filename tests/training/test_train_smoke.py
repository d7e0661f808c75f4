"""Tiny end-to-end runs: event file, checkpoint -> agent playing legal moves, resume, reproducibility."""

from __future__ import annotations

import glob
import json
import os

import numpy as np
import pytest
import torch
import yaml

import crowsnest_env
from agents import make_agent
from agents.learned import PolicyAgent
from training import cli
from training.report import read_scalars

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TINY = {"ppo": os.path.join(ROOT, "configs", "tiny_ppo.yaml"), "dmc": os.path.join(ROOT, "configs", "tiny_dmc.yaml")}


@pytest.fixture(autouse=True)
def _one_thread():
    before = torch.get_num_threads()
    yield
    torch.set_num_threads(before)


def _config(tmp_path, algo: str, **over) -> str:
    with open(TINY[algo], encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    data.update(over)
    path = tmp_path / f"{algo}.yaml"
    path.write_text(yaml.safe_dump(data))
    return str(path)


def _play_aec_with(agent: PolicyAgent, seed: int) -> None:
    env = crowsnest_env.env(variant="crowsnest", episode="hand")
    env.reset(seed=seed)
    for name in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        action = agent.act(env.unwrapped.view(name))
        assert obs["action_mask"][action] == 1
        env.step(action)
    assert env.unwrapped.game.hand_no == 1  # the hand was scored, not cut short by an illegal move


@pytest.mark.parametrize("algo", ["ppo", "dmc"])
def test_tiny_run_writes_events_checkpoint_and_report(tmp_path, algo):
    out = tmp_path / "run"
    summary = cli.run(_config(tmp_path, algo), str(out))
    assert glob.glob(str(out / "tb" / "events.out.tfevents.*"))
    scalars = read_scalars(str(out / "tb"))
    assert "charts/SPS" in scalars and "eval/adp_vs_random" in scalars
    assert ("losses/entropy" in scalars) == (algo == "ppo")
    assert (out / "report.md").exists() and (out / "training_curves.png").exists()
    assert set(summary["eval"]) == {"random", "heuristic"}
    # the heuristic's own margin over random on the same deals, and the verdicts beside it
    ref = json.loads((out / "baseline.json").read_text())
    assert (ref["a"], ref["b"], ref["deals"]) == ("heuristic", "random", 4)  # tiny configs: final_eval_deals 4
    assert summary["baseline"]["heuristic_vs_random"]["adp"] == ref["adp"] > 0
    v = summary["verdicts"]
    assert v["robust"] == (summary["eval"]["random"]["adp"] >= ref["adp"] - 5)
    assert v["strong"] == (summary["eval"]["heuristic"]["adp_ci95"][0] > 5)
    report = (out / "report.md").read_text()
    assert "## Strong and robust?" in report and f"| heuristic (same deals) | {ref['adp']:+.1f}" in report
    assert yaml.safe_load((out / "config.yaml").read_text())["algo"] == algo

    agent = make_agent(f"checkpoint:{summary['checkpoint']}", seed=1)
    assert isinstance(agent, PolicyAgent) and agent.algo == algo
    _play_aec_with(agent, seed=2)
    if algo == "ppo":  # sampling mode and the single-seat env
        sampler = PolicyAgent.from_checkpoint(summary["checkpoint"], seed=3, greedy=False)
        _play_aec_with(sampler, seed=4)
        env = crowsnest_env.SingleSeatEnv(variant="crowsnest", seat=1, others=[agent, agent, agent])
        _, info = env.reset(seed=5)
        done = False
        while not done:
            action = int(np.flatnonzero(info["action_mask"])[0])
            _, _, term, trunc, info = env.step(action)
            done = term or trunc


def test_resume_continues_from_saved_step(tmp_path):
    out = tmp_path / "run"
    short = cli.run(_config(tmp_path, "ppo", total_steps=200, eval_interval=0), str(out), evaluate=False)
    first = torch.load(out / "checkpoint.pt", weights_only=True)
    assert first["update"] == 1 and first["global_step"] == short["global_step"] >= 200
    resumed = cli.run(_config(tmp_path, "ppo", total_steps=400, eval_interval=0), str(out), resume=True,
                      evaluate=False)
    assert resumed["update"] == 2 and resumed["global_step"] > first["global_step"]
    # the resumed run's training time includes the first part's (its report said 0.5 min for a
    # 33-minute run killed at 95%)
    assert resumed["elapsed"] >= first["extra"]["elapsed"] > 0
    # the same as a run that was never interrupted: same steps, weights and optimizer state
    straight = cli.run(_config(tmp_path, "ppo", total_steps=400, eval_interval=0), str(tmp_path / "straight"),
                       evaluate=False)
    assert straight["global_step"] == resumed["global_step"]
    a = torch.load(out / "checkpoint.pt", weights_only=True)
    b = torch.load(tmp_path / "straight" / "checkpoint.pt", weights_only=True)
    for k in a["model"]:
        assert torch.equal(a["model"][k], b["model"][k]), k
    assert torch.equal(a["optimizer"]["state"][0]["exp_avg"], b["optimizer"]["state"][0]["exp_avg"])
    steps = [c["optimizer"]["state"][0]["step"] for c in (a, b, first)]
    assert steps[0] == steps[1] > steps[2]


def test_resume_without_checkpoint_is_an_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="no checkpoint"):
        cli.run(_config(tmp_path, "ppo"), str(tmp_path / "nothing"), resume=True)
    bad = tmp_path / "bad.yaml"
    bad.write_text("algo: ppo\ntotal_step: 5\n")
    assert cli.main(["--config", str(bad), "--out", str(tmp_path / "x")]) == 2


@pytest.mark.parametrize("algo", ["ppo", "dmc"])
def test_seeded_runs_are_reproducible(tmp_path, algo):
    cfg = _config(tmp_path, algo, eval_interval=0)
    for name in ("a", "b"):
        cli.run(cfg, str(tmp_path / name), evaluate=False)
    a = torch.load(tmp_path / "a" / "checkpoint.pt", weights_only=True)
    b = torch.load(tmp_path / "b" / "checkpoint.pt", weights_only=True)
    assert a["global_step"] == b["global_step"]
    for k in a["model"]:
        assert torch.equal(a["model"][k], b["model"][k]), k
    la = read_scalars(str(tmp_path / "a" / "tb"))["losses/value_loss"]
    lb = read_scalars(str(tmp_path / "b" / "tb"))["losses/value_loss"]
    assert la == lb and len(la) == 2


def _pairing(adp: float, low: float, high: float) -> dict:
    return {"adp": adp, "adp_ci95": [low, high], "deals": 2000, "made_rate_a": 0.8, "made_rate_b": 0.8,
            "bids_a": 1, "bids_b": 1}


def test_verdicts_weigh_the_policy_against_the_heuristics_own_margin_over_random():
    from training.evaluate import verdicts
    from training.report import verdict_lines

    ref = _pairing(182.5, 181.2, 183.8)
    strong_robust = {"random": _pairing(178.0, 176.0, 180.0), "heuristic": _pairing(8.0, 5.2, 10.7)}
    v = verdicts(strong_robust, ref)
    assert (v["strong"], v["robust"]) == (True, True)
    assert verdicts({"random": _pairing(176.4, 174.7, 178.0), "heuristic": _pairing(8.0, 4.9, 10.7)},
                    ref)["strong"] is False  # low end 4.9: not above +5
    assert verdicts({"random": _pairing(176.4, 174.7, 178.0)}, ref)["robust"] is False  # 176.4 < 182.5 - 5
    assert verdicts({"random": _pairing(176.4, 174.7, 178.0)}, None)["robust"] is None
    lines = "\n".join(verdict_lines(strong_robust, ref))
    assert "| heuristic (same deals) | +182.5 [+181.2, +183.8] | - |" in lines
    assert "low end +5.2 > +5): **yes**" in lines
    assert "(margin over random +178.0 >= the heuristic's +182.5 - 5): **yes**" in lines
    assert verdict_lines(strong_robust, None) == []


@pytest.mark.parametrize("agent", ["random", "heuristic?margin=0.1"])
def test_a_fixed_opponent_agent_is_trained_against_and_evaluated(tmp_path, agent):
    out = tmp_path / "run"
    cli.run(_config(tmp_path, "ppo", opponents={"self_play": 0.0, "snapshot": 0.0, "heuristic": 0.0, "agent": 1.0},
                    opponent_agent=agent), str(out), evaluate=False)
    scalars = read_scalars(str(out / "tb"))
    assert "charts/return_vs_agent" in scalars and "charts/return_vs_self_play" not in scalars  # every episode
    assert len(scalars["eval/adp_vs_agent"]) == 1 and "eval/declare_rate_vs_agent" in scalars
    if agent == "random":  # the same pairing on the same deals as the random baseline: played once
        assert scalars["eval/adp_vs_agent"] == scalars["eval/adp_vs_random"]
    ratings = json.loads((out / "ratings.json").read_text())["ratings"]
    assert {r["agent"] for r in ratings} == {"update_000002", "random", "heuristic"} | (
        set() if agent == "random" else {"agent"})


def test_more_opponent_agents_are_trained_against(tmp_path):
    """A run whose agent episodes go to two fixed opponents collects, trains and writes its checkpoint, and the
    checkpoint's config keeps both names (a resumed or audited run knows what it was trained against)."""
    from agents.checkpoint import read_checkpoint

    out = tmp_path / "run"
    cli.run(_config(tmp_path, "ppo", opponents={"self_play": 0.0, "snapshot": 0.0, "heuristic": 0.0, "agent": 1.0},
                    opponent_agent="random", more_opponent_agents=["heuristic?margin=0.1"], eval_deals=0),
            str(out), evaluate=False)
    scalars = read_scalars(str(out / "tb"))
    assert "charts/return_vs_agent" in scalars and "charts/return_vs_self_play" not in scalars
    saved = read_checkpoint(str(out / "checkpoint.pt"))["config"]
    assert (saved["opponent_agent"], saved["more_opponent_agents"]) == ("random", ["heuristic?margin=0.1"])
