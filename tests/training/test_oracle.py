"""Oracle critics (``ppo.oracle_critic``): the columns, the network, checkpoints, configs, a run."""

from __future__ import annotations

import os
import random

import numpy as np
import pytest
import torch
import yaml

from agents.checkpoint import CheckpointError, make_payload, read_checkpoint, validate_model_spec, write_checkpoint
from agents.heuristic import HeuristicAgent
from agents.learned import PolicyAgent
from agents.networks import build_model
from crowsnest_env.observation import observation_layout
from crowsnest_env.rules import Phase, get_variant, layout_for
from crowsnest_env.rules.state import new_game
from crowsnest_env.rules.view import player_view
from training import cli
from training.config import ConfigError, config_from_dict
from training.rollout import ORACLE_BLOCKS, AgentController, SelfPlayCollector, oracle_columns, oracle_size

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VARIANT = get_variant("partnership")
N = VARIANT.deck_size
SIZE, A = observation_layout(VARIANT).size, layout_for(VARIANT).num_actions
SPEC = {"hidden": [32], "prior": "heuristic?margin=0.05", "prior_weight": 3.0, "oracle_size": oracle_size(N)}


def _blocks(row: np.ndarray, n: int = N) -> list[int]:
    """The card sets of one row of oracle columns."""
    return [sum(1 << int(c) for c in np.flatnonzero(b)) for b in row.reshape(ORACLE_BLOCKS, n)]


def _states(n: int, seed: int, variant=VARIANT):
    """(state copy, seat to move) along random hands, every phase."""
    rng = random.Random(seed)
    actions = layout_for(variant).num_actions
    out = []
    while len(out) < n:
        state = new_game(variant, rng=rng)
        while state.phase < Phase.DEAL and len(out) < n:
            out.append((state.clone(), state.to_move))
            v = player_view(state, state.to_move)
            state.apply(rng.choice([a for a in range(actions) if v.legal >> a & 1]))
    return out


@pytest.mark.parametrize("rule_set", ["crowsnest", "partnership"])  # with a nest, and without
def test_oracle_columns_are_the_other_hands_then_the_nest_seat_relative(rule_set):
    variant = get_variant(rule_set)
    n = variant.deck_size
    states = _states(300, seed=1, variant=variant)
    assert {st.phase for st, _ in states} >= {Phase.AUCTION, Phase.TRUMP, Phase.PLAY} | \
        ({Phase.DISCARD} if variant.nest_size else set())
    cols = oracle_columns([st for st, _ in states], [s for _, s in states], n)
    assert cols.shape == (len(states), oracle_size(n)) and cols.dtype == np.float32
    assert set(np.unique(cols)) <= {0.0, 1.0}
    for (st, seat), row in zip(states, cols):
        left, partner, right, nest = _blocks(row, n)
        assert (left, partner, right) == (st.hands[(seat + 1) % 4], st.hands[(seat + 2) % 4], st.hands[(seat + 3) % 4])
        assert nest == st.nest | st.discards
        if st.phase is Phase.AUCTION:  # nothing of the mover's own hand, every hidden card once
            assert not (left | partner | right | nest) & st.hands[seat]
            assert left.bit_count() + partner.bit_count() + right.bit_count() + nest.bit_count() + \
                st.hands[seat].bit_count() == n


def test_the_policy_never_reads_the_oracle_columns_and_an_agents_input_has_no_value():
    torch.manual_seed(0)
    model = build_model("ppo", SIZE, A, SPEC).eval()
    x = torch.rand(16, SIZE + A + oracle_size(N))
    y = x.clone()
    y[:, SIZE + A:] = torch.rand(16, oracle_size(N))  # other hands, same own view
    with torch.no_grad():
        (lx, vx), (ly, vy), (la, va) = model(x), model(y), model(x[:, :SIZE + A])
    assert torch.equal(lx, ly) and torch.equal(lx, la)
    assert not torch.allclose(vx, vy)  # the critic reads them
    assert torch.isnan(va).all()  # an agent's input (own view only) gets no value
    assert {k.split(".")[0] for k in model.state_dict()} == {"trunk", "policy", "critic", "value"}


def test_an_oracle_checkpoint_loads_and_plays_from_the_agents_view(tmp_path):
    torch.manual_seed(1)
    model = build_model("ppo", SIZE, A, SPEC).eval()
    path = str(tmp_path / "o.pt")
    write_checkpoint(path, make_payload(algo="ppo", model=model, model_spec=SPEC, variant=VARIANT))
    agent = PolicyAgent.from_checkpoint(path)
    for st, seat in _states(80, seed=4):
        v = player_view(st, seat)
        assert v.legal >> agent.act(v) & 1
    data = read_checkpoint(path)
    data["model_spec"] = {k: v for k, v in SPEC.items() if k != "oracle_size"}  # the critic's weights left over
    write_checkpoint(path, data)
    with pytest.raises(CheckpointError, match="unexpected"):
        PolicyAgent.from_checkpoint(path)


@pytest.mark.parametrize("bad", [0, -4, 2.5, True, "224"])
def test_a_bad_oracle_size_is_refused_by_name(bad):
    with pytest.raises(ValueError, match="oracle_size"):
        validate_model_spec("ppo", {**SPEC, "oracle_size": bad}, SIZE, A)


def test_config_oracle_critic_is_checked_and_sets_the_model_spec():
    from training.run import resolve_run

    cfg = config_from_dict({"variant": "partnership", "ppo": {"oracle_critic": True}})
    assert resolve_run(cfg).model_spec == {"hidden": [256, 256], "oracle_size": 4 * N}
    assert "oracle_size" not in resolve_run(config_from_dict({"variant": "partnership"})).model_spec
    with pytest.raises(ConfigError, match="oracle_critic"):
        config_from_dict({"ppo": {"oracle_critic": "yes"}})
    with pytest.raises(ConfigError, match="oracle_critic is for algo ppo"):
        config_from_dict({"algo": "dmc", "ppo": {"oracle_critic": True}})


def test_the_collector_appends_oracle_columns_after_the_priors():
    col = SelfPlayCollector(VARIANT, 3, seed=2, prior="heuristic", oracle=True)
    teacher = AgentController(HeuristicAgent(seed=0), "heuristic", record=True)
    ro = col.collect(lambda _: ([teacher] * 4, (0, 1, 2, 3)), 150)
    assert ro.obs.shape[1] == SIZE + A + oracle_size(N)
    hint, hidden = ro.obs[:, SIZE:SIZE + A], ro.obs[:, SIZE + A:]
    assert np.array_equal(hint.argmax(1), ro.actions)
    cards = hidden.reshape(len(ro), ORACLE_BLOCKS, N).sum(1)
    assert cards.max() <= 2  # a nest card may also sit in the declarer's hand; no card thrice
    held = hidden[:, :3 * N].sum(1)  # the other seats' cards: all three hands at the deal, fewer as tricks go
    assert held[0] == 3 * VARIANT.hand_size and held.min() >= 0 and np.any(held < held[0])


def test_an_oracle_run_trains_exports_and_plays(tmp_path):
    with open(os.path.join(ROOT, "configs", "tiny_ppo.yaml"), encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    data["ppo"] = {**data.get("ppo", {}), "prior": "heuristic?margin=0.05", "oracle_critic": True}
    data.update(variant="partnership", total_steps=300, eval_interval=0, bc_decisions=300, bc_epochs=1,
                bc_batch_size=64)
    cfg = tmp_path / "o.yaml"
    cfg.write_text(yaml.safe_dump(data))
    cli.run(str(cfg), str(tmp_path / "run"), evaluate=False)
    ckpt = str(tmp_path / "run" / "checkpoint.pt")
    assert read_checkpoint(ckpt)["model_spec"]["oracle_size"] == 4 * N
    from training.export import export

    export(ckpt, str(tmp_path / "agent.pt"))
    agent = PolicyAgent.from_checkpoint(str(tmp_path / "agent.pt"))
    for st, seat in _states(60, seed=9):
        v = player_view(st, seat)
        assert v.legal >> agent.act(v) & 1
