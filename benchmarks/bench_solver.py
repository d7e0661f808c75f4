"""Milliseconds per exact double-dummy solve, by trick number and rule set, against DDS.

A solve values every legal card of the seat on lead exactly (``DoubleDummy.values``: team 0's
points to the end of the hand after each card, nest and trick bonus included). Positions are
fixed: deal ``seed`` of a rule set (``random.Random(seed)``, dealer ``seed % 4``), the heuristic's
auction, nest and trump, and its card play up to the start of the trick measured. The anchor is
DDS, the bridge double-dummy solver (PyPI ``endplay``, ``pip install -e ".[bench]"``): a
13-trick bridge deal, every opening lead valued (``solve_board``), timed in the same run,
interleaved with ours, so the ratio compares like with like on a shared machine. Pin it to
one core for steadier figures:

    taskset -c 1 python benchmarks/bench_solver.py [--deals 9] [--tricks 0,1,2,3] [--json out.json]

A solve that would take past ``--node-limit`` nodes is stopped and shown as ``>``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from agents._solver import solver_for  # noqa: E402
from agents.deal_sets import RULE_SETS  # noqa: E402  (the nine rule sets, one place)
from agents.heuristic import HeuristicAgent  # noqa: E402
from crowsnest_env.atomic import atomic_write_text  # noqa: E402
from crowsnest_env.rules import NUM_SEATS, Phase, State, get_variant, new_game, player_view  # noqa: E402


def position(rule_set: str, seed: int, trick_no: int) -> State | None:
    """Deal ``seed`` played by the heuristic to the start of trick ``trick_no`` (None if it never gets there)."""
    rng = random.Random(seed)
    state = new_game(get_variant(rule_set), rng=rng, dealer=seed % NUM_SEATS)
    agents = [HeuristicAgent(seed * NUM_SEATS + s) for s in range(NUM_SEATS)]
    while state.hand_no == 0:
        if state.phase is Phase.DEAL:
            state.deal_random(rng)
        elif state.phase is Phase.PLAY and state.trick_no == trick_no and not state.trick:
            return state
        else:
            state.apply(agents[state.to_move].act(player_view(state, state.to_move)))
    return None


def solve_ours(state: State, node_limit: int) -> tuple[float, int, bool]:
    """(seconds, nodes, finished) of one exact solve of every lead."""
    dd = solver_for(state.cards, state.trump)
    nest = state.cards.count_points(state.discards)
    start = time.perf_counter()
    out = dd.values(state.hands, state.leader, state.trick, state.trick_no, state.tricks_won[0], nest, 99, node_limit)
    return time.perf_counter() - start, dd.nodes, out is not None


def bridge_deals(n: int, seed: int = 0) -> list[str]:
    """``n`` random bridge deals as PBN strings."""
    rng = random.Random(seed)
    ranks, out = "AKQJT98765432", []
    for _ in range(n):
        deck = [(s, r) for s in range(4) for r in range(13)]
        rng.shuffle(deck)
        hands = []
        for h in range(4):
            cards = sorted(deck[13 * h:13 * h + 13])
            hands.append(".".join("".join(ranks[r] for s2, r in sorted(cards, key=lambda x: x[1]) if s2 == s)
                                  for s in range(4)))
        out.append("N:" + " ".join(hands))
    return out


def solve_dds(pbn: str) -> float | None:
    """Seconds for DDS to value every opening lead of a bridge deal (spades trump, west leads)."""
    try:
        from endplay.dds import solve_board
        from endplay.types import Deal, Denom, Player
    except ImportError:
        return None
    deal = Deal.from_pbn(pbn)
    deal.first, deal.trump = Player.west, Denom.spades
    start = time.perf_counter()
    list(solve_board(deal))
    return time.perf_counter() - start


def _show(x: float) -> str:
    return f"{x:10.1f}" if x != float("inf") else f"{'>':>10}"


def _finite(x: float) -> float | None:
    return None if x == float("inf") else x


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rule-sets", default=",".join(RULE_SETS))
    p.add_argument("--deals", type=int, default=9, help="deals (seeds 0..N-1) per rule set and trick")
    p.add_argument("--tricks", default="0,1,2,3", help="trick numbers (0 = the whole hand)")
    p.add_argument("--node-limit", type=int, default=200_000_000)
    p.add_argument("--json", help="write the figures here")
    args = p.parse_args(argv)
    tricks = [int(t) for t in args.tricks.split(",")]
    pbns = bridge_deals(args.deals)
    dds_times: list[float] = []
    rows = []
    print(f"{'rule set':18} {'trick':>5} {'tricks left':>11} {'median ms':>10} {'max ms':>9} "
          f"{'median nodes':>12} {'nodes/s':>9} {'vs DDS':>7}")
    for rule_set in args.rule_sets.split(","):
        for t in tricks:
            times, spent, nodes, unfinished = [], [], [], 0
            for seed in range(args.deals):
                state = position(rule_set, seed, t)
                if state is None:
                    continue
                secs, n, done = solve_ours(state, args.node_limit)
                unfinished += not done
                times.append(secs if done else float("inf"))
                spent.append(secs)
                nodes.append(n)
                d = solve_dds(pbns[seed % len(pbns)])  # interleaved: the anchor sees the same machine
                if d is not None:
                    dds_times.append(d)
            if not times:
                continue
            med = statistics.median(times)
            dds = statistics.median(dds_times) if dds_times else None
            rate = sum(nodes) / max(sum(spent), 1e-9)  # stopped solves count their nodes and time too
            row = dict(rule_set=rule_set, trick=t, tricks_left=get_variant(rule_set).num_tricks - t,
                       solves=len(times), unfinished=unfinished, median_ms=_finite(med * 1000),
                       max_ms=_finite(max(times) * 1000), median_nodes=statistics.median(nodes), nodes_per_s=rate,
                       vs_dds=_finite(med / dds) if dds else None)
            rows.append(row)
            print(f"{rule_set:18} {t:5d} {row['tricks_left']:11d} {_show(med * 1000)} {_show(max(times) * 1000)[1:]} "
                  f"{row['median_nodes']:12.0f} {rate / 1e6:8.1f}M "
                  f"{(f'{med / dds:6.1f}x') if dds and med != float('inf') else '     -'}", flush=True)
    dds = statistics.median(dds_times) if dds_times else None
    print(f"DDS (endplay), 13-trick bridge deal, every opening lead: "
          f"{f'{dds * 1000:.1f} ms median over {len(dds_times)} solves' if dds else 'not installed'}")
    if args.json:
        summary = {"rows": rows, "dds_median_ms": dds * 1000 if dds else None, "dds_solves": len(dds_times),
                   "deals": args.deals, "node_limit": args.node_limit,
                   "command": "python benchmarks/bench_solver.py " + " ".join(argv or sys.argv[1:])}
        atomic_write_text(args.json, json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
