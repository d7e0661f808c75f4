"""Decisions per second of the CrowsNest engine and environments against their peers.

One loop for all: read the legal set (mask), pick a uniformly random legal action, step; reset
when the episode ends (``VectorEnv`` picks for all its games with one numpy op and steps them
together; its games reset themselves). Everything runs in this process, pinned to one core, in interleaved
rounds (best round kept), so the ratios compare like with like on a shared, noisy machine.

    python benchmarks/bench_env.py [--steps 20000] [--rounds 3] [--json out.json]

Peers are measured when installed: PettingZoo classic (``pip install "pettingzoo[classic]"``),
OpenSpiel (``pip install open_spiel``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
import warnings
from collections.abc import Callable

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import crowsnest_env  # noqa: E402
from crowsnest_env.rules import Phase, card_list, new_game  # noqa: E402
from crowsnest_env.wrappers import wrap_standard  # noqa: E402


def aec_loop(env, steps: int, seed: int = 0) -> float:
    """Masked random play through the AEC API; returns decisions per second."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    n = 0
    start = time.perf_counter()
    while n < steps:
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            env.reset()
            continue
        mask = obs["action_mask"] if isinstance(obs, dict) else info["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
        n += 1
    return n / (time.perf_counter() - start)


def vector_loop(num_envs: int, steps: int, seed: int = 0) -> float:
    """VectorEnv: the same masked random choice for every game at once (one numpy op), then one
    batched step; decisions per second counts every game's decision (construction not timed)."""
    venv = crowsnest_env.VectorEnv(num_envs, episode="hand")
    obs, _ = venv.reset(seed=seed)
    rng = np.random.default_rng(seed)
    n = 0
    start = time.perf_counter()
    while n < steps:
        mask = obs["action_mask"]
        obs, *_ = venv.step(np.argmax(mask * rng.random(mask.shape), axis=1))
        n += num_envs
    return n / (time.perf_counter() - start)


def engine_loop(variant: str, steps: int, seed: int = 0) -> float:
    """The rules engine alone: legal bitmask, random legal action, apply (no observation)."""
    rng = random.Random(seed)
    state = new_game(variant, rng=rng)
    n = 0
    start = time.perf_counter()
    while n < steps:
        if state.phase >= Phase.DEAL:
            state = new_game(variant, rng=rng)
            continue
        state.apply(rng.choice(card_list(state.legal_mask())))
        n += 1
    return n / (time.perf_counter() - start)


def openspiel_loop(game_name: str, steps: int, tensor: bool, seed: int = 0) -> float:
    import pyspiel

    game = pyspiel.load_game(game_name)
    kind = game.get_type()
    encode = ("observation_tensor" if kind.provides_observation_tensor else "information_state_tensor")
    rng = random.Random(seed)
    state = game.new_initial_state()
    n = 0
    start = time.perf_counter()
    while n < steps:
        if state.is_terminal():
            state = game.new_initial_state()
            continue
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
            continue
        if tensor:
            getattr(state, encode)(state.current_player())
        state.apply_action(rng.choice(state.legal_actions()))
        n += 1
    return n / (time.perf_counter() - start)


def targets() -> dict[str, tuple[str, Callable[[int], float]]]:
    """name -> (group, function of steps)."""
    t: dict[str, tuple[str, Callable[[int], float]]] = {
        "crowsnest engine (no obs)": ("ours", lambda s: engine_loop("crowsnest", s)),
        "crowsnest raw_env": ("ours", lambda s: aec_loop(crowsnest_env.raw_env(episode="hand"), s)),
        "crowsnest env()": ("ours", lambda s: aec_loop(crowsnest_env.env(episode="hand"), s)),
        "crowsnest env() standard wrappers": (
            "ours", lambda s: aec_loop(wrap_standard(crowsnest_env.raw_env(episode="hand")), s)),
        "crowsnest VectorEnv N=64": ("ours", lambda s: vector_loop(64, s)),
        "crowsnest VectorEnv N=1024": ("ours", lambda s: vector_loop(1024, max(s, 1024 * 20))),
    }
    try:
        from pettingzoo.classic import connect_four_v3, leduc_holdem_v4, texas_holdem_v4, tictactoe_v3

        for mod in (tictactoe_v3, connect_four_v3, leduc_holdem_v4, texas_holdem_v4):
            name = mod.__name__.rsplit(".", 1)[-1]
            t[f"pz {name} raw_env"] = ("pz_raw", lambda s, m=mod: aec_loop(m.raw_env(), s))
            t[f"pz {name} env()"] = ("pz_env", lambda s, m=mod: aec_loop(m.env(), s))
    except Exception as exc:  # noqa: BLE001 - optional peer
        print(f"PettingZoo classic peers skipped: {exc}", file=sys.stderr)
    try:
        import pyspiel  # noqa: F401

        for g in ("euchre", "hearts", "spades"):
            t[f"openspiel {g}"] = ("os", lambda s, g=g: openspiel_loop(g, s, tensor=False))
            t[f"openspiel {g} + tensor"] = ("os_tensor", lambda s, g=g: openspiel_loop(g, s, tensor=True))
    except Exception as exc:  # noqa: BLE001 - optional peer
        print(f"OpenSpiel peers skipped: {exc}", file=sys.stderr)
    return t


def run(steps: int, rounds: int, only: list[str] | None = None) -> dict[str, float]:
    best: dict[str, float] = {}
    todo = {k: v for k, v in targets().items() if not only or any(o in k for o in only)}
    for r in range(rounds):
        for name, (_, fn) in todo.items():
            rate = fn(steps)
            best[name] = max(best.get(name, 0.0), rate)
            print(f"round {r + 1}/{rounds}  {name:40s} {rate:10.0f}/s", file=sys.stderr)
    return best


def table(best: dict[str, float]) -> str:
    groups = {name: g for name, (g, _) in targets().items()}
    raw, wrapped = best["crowsnest raw_env"], best["crowsnest env()"]
    lines = ["| target | decisions/s | ours raw_env / it | ours env() / it |", "|---|---:|---:|---:|"]
    for name, rate in sorted(best.items(), key=lambda kv: -kv[1]):
        lines.append(f"| {name} | {rate:,.0f} | {raw / rate:.2f} | {wrapped / rate:.2f} |")

    def fastest(group: str) -> tuple[str, float]:
        cands = [(n, r) for n, r in best.items() if groups.get(n) == group]
        return max(cands, key=lambda kv: kv[1]) if cands else ("-", float("nan"))

    pz_raw, pz_env = fastest("pz_raw"), fastest("pz_env")
    lines += [
        "",
        f"bar 1: ours raw_env / fastest PettingZoo raw_env ({pz_raw[0]}) = {raw / pz_raw[1]:.2f} (>= 1 passes)",
        f"bar 2: ours env() / fastest PettingZoo env() ({pz_env[0]}) = {wrapped / pz_env[1]:.2f} (>= 1 passes)",
    ]
    for n in (64, 1024):
        key = f"crowsnest VectorEnv N={n}"
        if key in best:
            lines.append(f"aim: VectorEnv N={n} / ours raw_env = {best[key] / raw:.2f} (aim >= 2)")
    if "openspiel euchre" in best:
        lines.append(f"aim: ours engine / OpenSpiel euchre (no tensor) = "
                     f"{best['crowsnest engine (no obs)'] / best['openspiel euchre']:.2f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20000, help="decisions per target and round")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds; the best is kept")
    parser.add_argument("--cpu", type=int, default=0, help="core to pin to (Linux)")
    parser.add_argument("--json", help="also write the figures to this JSON file")
    parser.add_argument("--only", help="comma-separated substrings: measure only matching targets")
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.cpu})
    warnings.simplefilter("ignore")
    best = run(args.steps, args.rounds, args.only.split(",") if args.only else None)
    if args.only:
        print("\n".join(f"{k:40s} {v:10,.0f}/s" for k, v in best.items()))
    else:
        print(table(best))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(best, f, indent=1)


if __name__ == "__main__":
    main()
