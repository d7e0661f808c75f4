"""Microseconds per decision of each shipped policy (``learned``), and what an ensemble costs.

For every rule set the decisions with a choice of a few seeded hands that the policy plays in all
four seats are timed through ``PolicyAgent.act`` (encoding, prior, forward pass, mask, argmax),
``--passes`` passes (default 5), the fastest kept, on one torch thread. An ensemble file is timed three ways in the
same run, interleaved on the same decisions: its fused pass (what agents run,
``agents.networks._Fused``), the loop over its members' own modules that ran before the fused pass,
and its first member alone (one network, the peer an ensemble is compared with). Ratios compare like
with like on a shared machine; absolute times drift with its load.

    python benchmarks/bench_policies.py [--hands 20] [--json docs/results/bench_policies.json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from agents.deal_sets import RULE_SETS  # noqa: E402  (the nine rule sets, one place)
from agents.learned import LearnedAgent, PolicyAgent  # noqa: E402
from agents.networks import PolicyEnsemble  # noqa: E402
from crowsnest_env.atomic import atomic_write_text  # noqa: E402
from crowsnest_env.rules import NUM_SEATS, Phase, PlayerView, get_variant, new_game, player_view  # noqa: E402


def decisions(agent: PolicyAgent, rule_set: str, hands: int) -> list[PlayerView]:
    """The views of every decision with a choice in ``hands`` seeded hands the policy plays."""
    views = []
    for seed in range(hands):
        state = new_game(get_variant(rule_set), rng=random.Random(seed), dealer=seed % NUM_SEATS)
        while state.phase not in (Phase.DEAL, Phase.GAME_OVER):
            view = player_view(state, state.to_move)
            if view.legal & (view.legal - 1):
                views.append(view)
            state.apply(agent.act(view))
    return views


class MemberLoop(torch.nn.Module):
    """An ensemble's forward pass as it ran before the fused pass: each member's own modules."""

    def __init__(self, ensemble: PolicyEnsemble):
        super().__init__()
        self.ensemble = ensemble

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        logps, values = [], []
        for member in self.ensemble.members:
            logits, value = member(obs)
            logps.append(torch.log_softmax(logits, -1))
            values.append(value)
        return torch.stack(logps).mean(0), torch.stack(values).mean(0)


def time_models(agent: PolicyAgent, views: list[PlayerView], models: dict[str, torch.nn.Module],
                passes: int = 3) -> dict[str, float]:
    """Fastest of ``passes`` mean microseconds per ``act`` with each model in the agent, interleaved."""
    best = dict.fromkeys(models, float("inf"))
    original = agent.model
    try:
        for _ in range(passes):
            for name, model in models.items():
                agent.model = model
                start = time.perf_counter()
                for view in views:
                    agent.act(view)
                best[name] = min(best[name], 1e6 * (time.perf_counter() - start) / len(views))
    finally:
        agent.model = original
    return best


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=20, help="seeded hands per rule set (default 20)")
    p.add_argument("--rule-sets", default=",".join(RULE_SETS), help="comma-separated (default: all nine)")
    p.add_argument("--passes", type=int, default=5, help="timed passes over the decisions, fastest kept (default 5)")
    p.add_argument("--json", help="write the figures here (atomically)")
    args = p.parse_args(argv)
    if args.hands < 1 or args.passes < 1:
        p.error("--hands and --passes must be at least 1")
    torch.set_num_threads(1)
    out: dict[str, dict[str, float | int]] = {}
    print(f"{'rule set':18s} {'members':>7s} {'us/decision':>11s} {'member loop':>11s} {'one member':>10s} "
          f"{'fused/loop':>10s} {'vs one':>7s}")
    for rule_set in args.rule_sets.split(","):
        learned = LearnedAgent(seed=0, variant=rule_set)
        agent = learned.agent
        assert agent is not None
        model = agent.model
        views = decisions(agent, rule_set, args.hands)
        if isinstance(model, PolicyEnsemble):
            t = time_models(agent, views, {"fused": model, "loop": MemberLoop(model), "one": model.members[0]},
                            args.passes)
            row: dict[str, float | int] = {
                "members": len(model.members), "decisions": len(views), "us_per_decision": round(t["fused"], 1),
                "member_loop_us": round(t["loop"], 1), "one_member_us": round(t["one"], 1),
                "fused_speedup_over_loop": round(t["loop"] / t["fused"], 3),
                "speed_vs_one_member": round(t["one"] / t["fused"], 3),
                "loop_speed_vs_one_member": round(t["one"] / t["loop"], 3)}
            print(f"{rule_set:18s} {row['members']:7d} {t['fused']:11.0f} {t['loop']:11.0f} {t['one']:10.0f} "
                  f"{row['fused_speedup_over_loop']:9.2f}x {row['speed_vs_one_member']:6.2f}x")
        else:
            t = time_models(agent, views, {"one": model}, args.passes)
            row = {"members": 1, "decisions": len(views), "us_per_decision": round(t["one"], 1)}
            print(f"{rule_set:18s} {1:7d} {t['one']:11.0f} {'':>11s} {'':>10s} {'':>10s} {'':>7s}")
        out[rule_set] = row
    if args.json:
        atomic_write_text(args.json, json.dumps({"hands": args.hands, "passes": args.passes, "torch_threads": 1,
                                                 "rule_sets": out},
                                                indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
