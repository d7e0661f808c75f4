"""``python -m training.ensemble``: a product of several policies in one agent file, loaded like any other."""

from __future__ import annotations

import random

import pytest
import torch

from agents import make_agent
from agents.checkpoint import CheckpointError, make_payload, read_checkpoint, write_checkpoint
from agents.learned import PolicyAgent
from agents.networks import ActorCritic, PolicyEnsemble, QNet
from crowsnest_env.observation import observation_layout
from crowsnest_env.rules import get_variant, layout_for
from crowsnest_env.table import Table
from training.ensemble import ensemble, main

V = get_variant("crowsnest")
OBS, ACTS = observation_layout(V).size, layout_for(V).num_actions


def _member(path, hidden, seed, variant=V, prior="heuristic", weight=3.0):
    torch.manual_seed(seed)
    spec = {"hidden": hidden, **({"prior": prior, "prior_weight": weight} if prior else {})}
    obs, acts = observation_layout(variant).size, layout_for(variant).num_actions
    model = ActorCritic(obs, acts, hidden, weight if prior else 0.0)
    for p in model.parameters():  # far from the near-uniform initial policy head, so the members disagree
        torch.nn.init.normal_(p, std=0.3)
    write_checkpoint(path, make_payload(algo="ppo", model=model, model_spec=spec, variant=variant))
    return str(path)


@pytest.fixture
def members(tmp_path):
    return [_member(tmp_path / f"m{i}.pt", h, i) for i, h in enumerate(([16], [24, 8], [12]))]


def _views(n_games=3):
    """Views of every decision of a few random games."""
    rng = random.Random(0)
    for g in range(n_games):
        table = Table(V, episode="hand", observe=False, record=False)
        table.reset(g, dealer=g % 4)
        while not table.done:
            view = table.view()
            yield view
            table.step(rng.choice([a for a in range(view.legal.bit_length()) if view.legal >> a & 1]))


def test_the_ensemble_acts_on_the_mean_of_its_members_log_probabilities(members, tmp_path):
    out = tmp_path / "ens.pt"
    payload = ensemble(str(out), members, note="three members")
    assert payload["model_spec"] == {"members": [{"hidden": [16]}, {"hidden": [24, 8]}, {"hidden": [12]}],
                                     "prior": "heuristic", "prior_weight": 3.0}
    assert [m["file"] for m in payload["extra"]["members"]] == ["m0.pt", "m1.pt", "m2.pt"]
    agent = make_agent(f"checkpoint:{out}", seed=0)
    assert isinstance(agent, PolicyAgent) and isinstance(agent.model, PolicyEnsemble)
    singles = [PolicyAgent.from_checkpoint(m) for m in members]
    decisions = departures = 0
    for view in _views():
        if view.legal & (view.legal - 1) == 0:
            continue
        legal = torch.tensor([bool(view.legal >> a & 1) for a in range(ACTS)])
        obs = torch.from_numpy(agent.encode(view)).unsqueeze(0)
        with torch.no_grad():
            total = sum(torch.log_softmax(s.model(obs)[0][0].masked_fill(~legal, -1e9), -1) for s in singles)
        assert agent.act(view) == int(torch.argmax(total))  # the product, renormalised over the legal actions
        decisions += 1
        departures += len({s.act(view) for s in singles}) > 1
    assert decisions > 100 and departures > 10  # the members disagree, so the test tells a product from a member


def test_the_cli_writes_a_file_that_reads_back_and_names_bad_members_in_one_line(members, tmp_path, capsys):
    out = tmp_path / "ens.pt"
    assert main([str(out), *members]) == 0
    assert "3 members" in capsys.readouterr().out
    data = read_checkpoint(out, V)
    assert len(data["model_spec"]["members"]) == 3
    # a member with another prior, another rule set, a DMC network
    other_prior = _member(tmp_path / "np.pt", [16], 5, prior=None)
    other_rules = _member(tmp_path / "tn.pt", [16], 6, variant=get_variant("tournament"))
    qnet = tmp_path / "q.pt"
    write_checkpoint(qnet, make_payload(algo="dmc", model=QNet(OBS, ACTS, [16]), model_spec={"hidden": [16]},
                                        variant=V))
    for bad, message in ((other_prior, "same prior"),
                         (other_rules, "one rule set"), (str(qnet), "dmc network")):
        assert main([str(tmp_path / "x.pt"), members[0], bad]) == 2
        err = capsys.readouterr().err.strip()
        assert message in err and len(err.splitlines()) == 1, err
    assert not (tmp_path / "x.pt").exists()
    assert main([members[0], members[0], members[1]]) == 2  # never over a member
    assert "input checkpoint" in capsys.readouterr().err
    # --evaluate options that cannot be played are refused before the file is written
    for flag, value in (("--deals", "0"), ("--workers", "-1")):
        assert main([str(tmp_path / "y.pt"), *members, "--evaluate", str(tmp_path / "ev"), flag, value]) == 2
        err = capsys.readouterr().err.strip()
        assert f"{flag} must be positive" in err and len(err.splitlines()) == 1, err
    assert not (tmp_path / "y.pt").exists() and not (tmp_path / "ev").exists()


def test_a_crafted_ensemble_spec_is_a_checkpoint_error(members, tmp_path):
    out = tmp_path / "ens.pt"
    payload = ensemble(str(out), members)
    for spec, message in (({**payload["model_spec"], "hidden": [16]}, "an ensemble's model_spec keys"),
                          ({**payload["model_spec"], "members": []}, "1 to 16 member specs"),
                          ({**payload["model_spec"], "members": [{"hidden": [16], "prior": "x"}] * 3}, r"members\[0\]"),
                          ({**payload["model_spec"], "members": [{"hidden": [16]}] * 3}, "has shape|do not fit")):
        bad = tmp_path / "bad.pt"
        write_checkpoint(bad, {**payload, "model_spec": spec})
        with pytest.raises(CheckpointError, match=message):
            read_checkpoint(bad)
    with pytest.raises(CheckpointError, match="at least one member"):
        ensemble(str(tmp_path / "none.pt"), [])


def test_evaluate_writes_a_runs_evaluation_files_and_refuses_what_it_cannot_play(members, tmp_path):
    import dataclasses
    import json

    from training.ensemble import evaluate

    out = tmp_path / "ens.pt"
    ensemble(str(out), members)
    folder = tmp_path / "eval"
    verdicts = evaluate(str(out), str(folder), deals=2, seed=3, workers=1)
    assert sorted(p.name for p in folder.iterdir()) == ["arena.png", "baseline.json", "eval.json", "report.md"]
    results = json.loads((folder / "eval.json").read_text())
    assert sorted(results) == ["heuristic", "random"] and results["random"]["deals"] == 2
    assert json.loads((folder / "baseline.json").read_text())["deals"] == 2
    assert verdicts["strong"] in (True, False) and "3 members" in (folder / "report.md").read_text()
    with pytest.raises(ValueError, match="--deals must be positive"):
        evaluate(str(out), str(tmp_path / "none"), deals=0)
    own_rules = dataclasses.replace(V, target=500)  # a variant file's rules under a preset's name
    custom = _member(tmp_path / "custom.pt", [16], 7, variant=own_rules)
    with pytest.raises(CheckpointError, match="rules of its own"):
        evaluate(custom, str(tmp_path / "none"), deals=2)
    assert not (tmp_path / "none").exists()  # nothing written for a refused file


def test_an_ensemble_named_as_a_member_brings_its_members_one_vote_each(members, tmp_path, capsys):
    inner = tmp_path / "two.pt"
    ensemble(str(inner), members[:2])
    grown = tmp_path / "grown.pt"
    assert main([str(grown), str(inner), members[2]]) == 0
    assert "3 members" in capsys.readouterr().out
    flat = tmp_path / "flat.pt"
    ensemble(str(flat), members)
    a, b = read_checkpoint(grown, V), read_checkpoint(flat, V)
    assert a["model_spec"] == b["model_spec"]
    assert [m["file"] for m in a["extra"]["members"]] == ["two.pt/m0.pt", "two.pt/m1.pt", "m2.pt"]
    assert a["model"].keys() == b["model"].keys()
    assert all(torch.equal(a["model"][k], b["model"][k]) for k in a["model"])  # the same weights, the same votes
    many = [str(inner)] * 8 + [members[2]]  # 17 members in all: over the limit, nothing written
    with pytest.raises(CheckpointError, match="17 members in all"):
        ensemble(str(tmp_path / "big.pt"), many)
    assert not (tmp_path / "big.pt").exists()


def test_members_of_one_prior_keep_their_own_prior_weights(members, tmp_path):
    """A file exported at another prior weight joins one trained at 3: the spec records the weight where
    it differs, the loaded members carry it, and the agent still acts on the product."""
    light = _member(tmp_path / "w1.pt", [16], 7, weight=1.0)
    out = tmp_path / "mixed.pt"
    payload = ensemble(str(out), [members[0], light])
    assert payload["model_spec"] == {"members": [{"hidden": [16]}, {"hidden": [16], "prior_weight": 1.0}],
                                     "prior": "heuristic", "prior_weight": 3.0}
    agent = make_agent(f"checkpoint:{out}", seed=0)
    assert [m.prior_weight for m in agent.model.members] == [3.0, 1.0]
    singles = [PolicyAgent.from_checkpoint(m) for m in (members[0], light)]
    decisions = 0
    for view in _views(1):
        legal = torch.tensor([bool(view.legal >> a & 1) for a in range(ACTS)])
        obs = torch.from_numpy(agent.encode(view)).unsqueeze(0)
        with torch.no_grad():
            total = sum(torch.log_softmax(s.model(obs)[0][0].masked_fill(~legal, -1e9), -1) for s in singles)
        assert agent.act(view) == int(torch.argmax(total))
        decisions += 1
    assert decisions > 30
    # an ensemble joined again keeps each member's weight, whichever member comes first
    again = ensemble(str(tmp_path / "again.pt"), [light, str(out)])
    assert again["model_spec"] == {"members": [{"hidden": [16]}, {"hidden": [16], "prior_weight": 3.0},
                                               {"hidden": [16]}], "prior": "heuristic", "prior_weight": 1.0}
    # a member weight with no prior to weigh, or out of range, is refused on reading
    for spec, message in (({"members": [{"hidden": [16], "prior_weight": 1.0}]}, "no prior"),
                          ({**payload["model_spec"],
                            "members": [{"hidden": [16]}, {"hidden": [16], "prior_weight": -1}]}, "prior_weight")):
        bad = tmp_path / "bad.pt"
        write_checkpoint(bad, {**payload, "model_spec": spec})
        with pytest.raises(CheckpointError, match=message):
            read_checkpoint(bad)


def test_the_agents_pass_without_gradients_equals_the_members_own_modules(members):
    """Agents run an ensemble under ``torch.no_grad`` through a fused pass (the first layers as one
    matrix, no module dispatch); it gives the members' own modules' values, on one observation and a
    batch, with members of several shapes, prior weights and an oracle critic, and it follows new
    weights loaded into the ensemble."""
    torch.manual_seed(7)
    nets = [ActorCritic(OBS, ACTS, h, w, oracle) for h, w, oracle in
            (([16], 3.0, 0), ([24, 8], 1.5, 0), ([16], 3.0, 5), ([16], 2.0, 0))]
    for net in nets:
        for p in net.parameters():
            torch.nn.init.normal_(p, std=0.3)
    model = PolicyEnsemble(nets).eval()
    actor = nets[0].actor_size
    for shape in ((1, actor), (37, actor)):
        obs = torch.randn(*shape)
        with torch.enable_grad():
            want_logp, want_value = model(obs)
        with torch.no_grad():
            got_logp, got_value = model(obs)
        assert torch.allclose(got_logp, want_logp.detach(), atol=1e-5)
        assert torch.allclose(got_value, want_value.detach(), atol=1e-5, equal_nan=True)
        assert torch.isnan(got_value).all()  # an agent's input: the oracle critic has no value to give
    other = PolicyEnsemble([ActorCritic(OBS, ACTS, h, w, oracle) for h, w, oracle in
                            (([16], 3.0, 0), ([24, 8], 1.5, 0), ([16], 3.0, 5), ([16], 2.0, 0))])
    obs = torch.randn(5, actor)
    with torch.no_grad():
        before = model(obs)[0]
        model.load_state_dict(other.state_dict())
        after = model(obs)[0]
        assert not torch.allclose(before, after)
        assert torch.allclose(after, other(obs)[0], atol=1e-5)
        for net in model.members:  # weights changed in place by hand: the joined first layers follow too
            for p in net.parameters():
                p.mul_(0.5)
        halved = model(obs)[0]
    with torch.enable_grad():
        assert torch.allclose(halved, model(obs)[0].detach(), atol=1e-5)
    assert not torch.allclose(halved, after)


def test_the_policy_benchmark_times_an_ensemble_three_ways(tmp_path):
    """benchmarks/bench_policies.py: the fused pass, the member loop and one member, on the same decisions."""
    import json

    from tests._scripts import load_script

    bench = load_script("benchmarks/bench_policies.py")
    out = tmp_path / "bench.json"
    assert bench.main(["--hands", "1", "--rule-sets", "tournament,red_one", "--json", str(out)]) == 0
    rows = json.loads(out.read_text())["rule_sets"]
    assert rows["tournament"]["members"] == 2 and rows["red_one"]["members"] == 1
    t = rows["tournament"]
    assert t["decisions"] > 0 and min(t["us_per_decision"], t["member_loop_us"], t["one_member_us"]) > 0
    assert t["fused_speedup_over_loop"] == pytest.approx(t["member_loop_us"] / t["us_per_decision"], rel=0.01)
