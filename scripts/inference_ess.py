"""How many of ``expert``'s sampled worlds does policy-based inference leave? Effective sample size by trick.

``expert`` (:mod:`agents.expert`) samples ``samples`` worlds at each card decision and, with inference
(:mod:`agents.inference`), weighs each by ``exp(temperature * log-likelihood)`` of what the other seats
were seen to do. Weights that pile onto a few worlds make the search's mean a mean over those few. This
reports the effective sample size ``1 / sum(w^2)`` of those weights (``samples`` when every world weighs
the same), averaged over ``--hands`` seeded hands per rule set, at the first card of each trick in
``--tricks``. The hands are played by the heuristic in every seat up to that trick (a diagnostic of the
weighting, not of a game); the worlds, policy, temperature and partner model are ``expert``'s own.

    python scripts/inference_ess.py [--rule-sets crowsnest,partnership,one_high] [--hands 30] [--tricks 1,4,7]
        [--agent expert] [--out FILE.json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
from collections.abc import Iterator

from tqdm import tqdm

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from agents import make_agent  # noqa: E402
from agents.deal_sets import RULE_SETS  # noqa: E402
from agents.pimc import PIMCAgent  # noqa: E402
from crowsnest_env.atomic import atomic_write_text  # noqa: E402
from crowsnest_env.rules import Phase, PlayerView  # noqa: E402
from crowsnest_env.table import Table  # noqa: E402


def leads(rule_set: str, hands: int, trick: int) -> Iterator[tuple[int, PlayerView]]:
    """(hand seed, the view of the seat to lead ``trick`` (0-based)) for each of ``hands`` seeded
    hands, the heuristic playing every seat."""
    heuristic = make_agent("heuristic", seed=0)
    for seed in range(hands):
        table = Table(rule_set, episode="hand", observe=False)
        table.reset(seed)
        while True:
            view = table.view()
            if view.phase is Phase.PLAY and view.trick_no == trick and not view.trick:
                yield seed, view
                break
            if not view.legal:
                break
            table.step(heuristic.act(view))


def inference_agent(name: str) -> PIMCAgent:
    """The search agent ``name`` (``expert``, ``pimc?policy=learned,inference=true``, ...), which must weigh worlds."""
    agent = make_agent(name, seed=0)
    if not isinstance(agent, PIMCAgent) or not agent.inference:
        raise SystemExit(f"agent {name!r} does not weigh its worlds (no inference)")
    return agent


def effective_sizes(agent_name: str, rule_set: str, hands: int, trick: int) -> list[float]:
    """``1 / sum(w^2)`` of the agent's world weights at the lead of ``trick``, one per hand."""
    agent = inference_agent(agent_name)
    out = []
    for seed, view in leads(rule_set, hands, trick):
        _, weights = agent.weighted_worlds(view, random.Random(seed * 100 + trick))
        out.append(1.0 / sum(w * w for w in weights))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rule-sets", default="crowsnest,partnership,one_high")
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--tricks", default="1,4,7", help="0-based tricks, comma-separated")
    parser.add_argument("--agent", default="expert", help="an agent with inference (default expert)")
    parser.add_argument("--out", help="write the figures to this JSON file")
    args = parser.parse_args(argv)
    rule_sets = [r.strip() for r in args.rule_sets.split(",") if r.strip()]
    unknown = [r for r in rule_sets if r not in RULE_SETS]
    if unknown:
        parser.error(f"unknown rule set(s) {unknown}; known: {list(RULE_SETS)}")
    tricks = [int(t) for t in args.tricks.split(",")]
    result: dict[str, dict[str, dict[str, float]]] = {}
    for rule_set in tqdm(rule_sets, desc="rule sets"):
        result[rule_set] = {}
        for trick in tricks:
            sizes = effective_sizes(args.agent, rule_set, args.hands, trick)
            result[rule_set][str(trick)] = {"mean": statistics.mean(sizes), "median": statistics.median(sizes),
                                            "hands": len(sizes)}
    samples = inference_agent(args.agent).samples
    print(f"effective worlds of {samples} ({args.agent}), by trick (0-based), mean / median over hands:")
    for rule_set, by_trick in result.items():
        cells = ", ".join(f"trick {t}: {c['mean']:.1f} / {c['median']:.1f} ({c['hands']})" for t, c in by_trick.items())
        print(f"  {rule_set}: {cells}")
    if args.out:
        command = " ".join(["python scripts/inference_ess.py", *(sys.argv[1:] if argv is None else argv)])
        atomic_write_text(args.out, json.dumps({"agent": args.agent, "samples": samples, "hands": args.hands,
                                                "command": command, "effective_worlds": result}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
