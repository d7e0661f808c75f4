"""Decisions per second of the CrowsNest engine and environments against their peers.

One loop for all, and it reads what a learner reads: at every decision the observation
(summed, so that every float of it is read) and the legal-action mask, from which it picks
a uniformly random legal action; then it steps, and resets when the episode ends.
``VectorEnv`` does the same for all its games at once: it reads the (N, D) observations and
(N, A) masks that each step returns (one sum; one random legal action per row from one numpy
op), then steps them together (its games reset themselves). The engine rows and OpenSpiel
without ``+ tensor`` build no observation: references for the rules alone.

Every target is built and warmed up once (a ``VectorEnv`` first plays ``--warm`` steps, so that
its games are spread over the phases of a hand as a trainer's are); then each round runs every
target for ``--steps`` decisions in turn, so that a shared machine's drifts hit all targets
alike. The clock is the thread's CPU time (time spent descheduled does not count). Reported:
per target the median of the rounds' rates, and ratios taken within each round (the median
over the rounds), so every ratio compares figures from the same run.

    taskset -c 1 python benchmarks/bench_env.py [--steps 20000] [--rounds 5] [--pick choice|lean]
        [--json out.json] [--only crowsnest,tictactoe]

``--pick`` is how an AEC loop draws its action (``VectorEnv`` draws for all games in one op
either way): the ratios of ``VectorEnv`` to ``raw_env`` depend on it, since a consumer's own
per-decision cost is what a batch saves, so it is written into the JSON.

Peers are measured when installed: PettingZoo classic (``pip install "pettingzoo[classic]"``),
OpenSpiel (``pip install open_spiel``).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from typing import Any, Protocol

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import crowsnest_env  # noqa: E402
from crowsnest_env.rules import Phase, card_list, new_game  # noqa: E402
from crowsnest_env.wrappers import wrap_standard  # noqa: E402

RAW, WRAPPED = "crowsnest raw_env", "crowsnest env()"
VECTOR_SIZES = (64, 1024)
VECTOR_AIMS = {64: 3.0, 1024: 2.0}  # issue 16: VectorEnv / raw_env decisions/s


class Runner(Protocol):
    def run(self, decisions: int) -> tuple[int, float]:
        """Play about ``decisions`` decisions; (decisions played, CPU seconds)."""
        ...


PICKS = ("choice", "lean")
"""How an AEC loop draws its random legal action: ``choice`` = numpy's ``Generator.choice`` over
the legal ids (what this benchmark has always done, ~8 us); ``lean`` = one stdlib random index
into them (~2 us), which leaves more of each decision's time to the env itself."""


class AecRunner:
    """Masked random play through the AEC API: ``last()`` (the observation and mask of the
    agent to act), read both, step."""

    def __init__(self, env: Any, pick: str = "choice", seed: int = 0, warm: int = 500):
        self.env, self.pick, self.checksum = env, pick, 0.0
        self.rng, self.rand = np.random.default_rng(seed), random.Random(seed).random
        env.reset(seed=seed)
        self.run(warm)

    def run(self, decisions: int) -> tuple[int, float]:
        env, rng, rand, lean = self.env, self.rng, self.rand, self.pick == "lean"
        total, n = 0.0, 0
        start = time.thread_time()
        while n < decisions:
            obs, _, term, trunc, info = env.last()
            if term or trunc:
                env.reset()
                continue
            if isinstance(obs, dict):
                observation, mask = obs["observation"], obs["action_mask"]
            else:
                observation, mask = obs, info["action_mask"]
            total += float(observation.sum())
            legal = np.flatnonzero(mask)
            env.step(int(legal[int(rand() * len(legal))]) if lean else int(rng.choice(legal)))
            n += 1
        self.checksum += total
        return n, time.thread_time() - start


class VectorRunner:
    """``VectorEnv``: read the batch's observations and masks, one random legal action per game
    (one numpy op), one batched step; every game's decision counts."""

    def __init__(self, num_envs: int, seed: int = 0, warm: int = 100):
        self.venv = crowsnest_env.VectorEnv(num_envs, episode="hand")
        self.obs, _ = self.venv.reset(seed=seed)
        self.rng, self.checksum = np.random.default_rng(seed), 0.0
        self.run(warm * num_envs)

    def run(self, decisions: int) -> tuple[int, float]:
        venv, rng, obs = self.venv, self.rng, self.obs
        steps = max(1, round(decisions / venv.num_envs))
        total = 0.0
        start = time.thread_time()
        for _ in range(steps):
            mask = obs["action_mask"]
            total += float(obs["observation"].sum())
            obs, *_ = venv.step(np.argmax(mask * rng.random(mask.shape), axis=1))
        elapsed = time.thread_time() - start
        self.obs, self.checksum = obs, self.checksum + total
        return steps * venv.num_envs, elapsed


class EngineRunner:
    """The rules engine alone: legal bitmask, random legal action, apply (no observation)."""

    def __init__(self, variant: str, seed: int = 0):
        self.variant, self.rng = variant, random.Random(seed)
        self.state = new_game(variant, rng=self.rng)

    def run(self, decisions: int) -> tuple[int, float]:
        rng, variant, state = self.rng, self.variant, self.state
        n = 0
        start = time.thread_time()
        while n < decisions:
            if state.phase >= Phase.DEAL:
                state = new_game(variant, rng=rng)
                continue
            state.apply(rng.choice(card_list(state.legal_mask())))
            n += 1
        self.state = state
        return n, time.thread_time() - start


class OpenSpielRunner:
    """An OpenSpiel game through pyspiel; ``tensor``: build the mover's observation tensor."""

    def __init__(self, game_name: str, tensor: bool, seed: int = 0):
        import pyspiel

        self.game = pyspiel.load_game(game_name)
        kind = self.game.get_type()
        self.encode = "observation_tensor" if kind.provides_observation_tensor else "information_state_tensor"
        self.tensor, self.rng = tensor, random.Random(seed)
        self.state = self.game.new_initial_state()

    def run(self, decisions: int) -> tuple[int, float]:
        rng, state, total = self.rng, self.state, 0.0
        n = 0
        start = time.thread_time()
        while n < decisions:
            if state.is_terminal():
                state = self.game.new_initial_state()
                continue
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
                continue
            if self.tensor:
                total += sum(getattr(state, self.encode)(state.current_player()))
            state.apply_action(rng.choice(state.legal_actions()))
            n += 1
        self.state = state
        return n, time.thread_time() - start


def targets(warm: int = 100, pick: str = "choice") -> dict[str, tuple[str, Callable[[], Runner]]]:
    """name -> (group, builder of its runner)."""
    # raw_env and the VectorEnvs run back to back in each round: their ratios are the aims
    t: dict[str, tuple[str, Callable[[], Runner]]] = {
        RAW: ("ours", lambda: AecRunner(crowsnest_env.raw_env(episode="hand"), pick)),
        **{f"crowsnest VectorEnv N={n}": ("ours", lambda n=n: VectorRunner(n, warm=warm)) for n in VECTOR_SIZES},
        WRAPPED: ("ours", lambda: AecRunner(crowsnest_env.env(episode="hand"), pick)),
        "crowsnest env() standard wrappers": (
            "ours", lambda: AecRunner(wrap_standard(crowsnest_env.raw_env(episode="hand")), pick)),
        "crowsnest engine (no obs)": ("ours", lambda: EngineRunner("crowsnest")),
    }
    try:
        from pettingzoo.classic import connect_four_v3, leduc_holdem_v4, texas_holdem_v4, tictactoe_v3

        for mod in (tictactoe_v3, connect_four_v3, leduc_holdem_v4, texas_holdem_v4):
            name = mod.__name__.rsplit(".", 1)[-1]
            t[f"pz {name} raw_env"] = ("pz_raw", lambda m=mod: AecRunner(m.raw_env(), pick))
            t[f"pz {name} env()"] = ("pz_env", lambda m=mod: AecRunner(m.env(), pick))
    except Exception as exc:  # noqa: BLE001 - optional peer
        print(f"PettingZoo classic peers skipped: {exc}", file=sys.stderr)
    try:
        import pyspiel  # noqa: F401

        for g in ("euchre", "hearts", "spades"):
            t[f"openspiel {g}"] = ("os", lambda g=g: OpenSpielRunner(g, tensor=False))
            t[f"openspiel {g} + tensor"] = ("os_tensor", lambda g=g: OpenSpielRunner(g, tensor=True))
    except Exception as exc:  # noqa: BLE001 - optional peer
        print(f"OpenSpiel peers skipped: {exc}", file=sys.stderr)
    return t


def run(steps: int, rounds: int, warm: int, pick: str, only: list[str] | None = None) -> dict[str, list[float]]:
    """Per target, its rate (decisions per CPU second) in each round, the rounds interleaved."""
    todo = {k: v for k, v in targets(warm, pick).items() if not only or any(o in k for o in only)}
    runners = {name: build() for name, (_, build) in todo.items()}
    gc.collect()
    gc.freeze()  # what the targets built is left out of the collections: one's heap does not slow another
    rates: dict[str, list[float]] = {name: [] for name in runners}
    for r in range(rounds):
        for name, runner in runners.items():
            done, seconds = runner.run(steps)
            rates[name].append(done / seconds)
            print(f"round {r + 1}/{rounds}  {name:40s} {rates[name][-1]:10.0f}/s", file=sys.stderr)
    return rates


def summary(rates: dict[str, list[float]]) -> dict[str, Any]:
    """Median rates, and for our raw_env and env() the median of the per-round ratios to every target."""
    out: dict[str, Any] = {"rates": {k: statistics.median(v) for k, v in rates.items()}}
    for ref in (RAW, WRAPPED):
        if ref in rates:
            out[f"{ref} / it"] = {k: statistics.median(a / b for a, b in zip(rates[ref], v))
                                  for k, v in rates.items()}
    if RAW in rates:
        out["it / raw_env"] = {k: statistics.median(b / a for a, b in zip(rates[RAW], v)) for k, v in rates.items()}
    return out


def table(rates: dict[str, list[float]]) -> str:
    s = summary(rates)
    med, groups = s["rates"], {name: g for name, (g, _) in targets().items()}
    raw_r, wrap_r = s.get(f"{RAW} / it", {}), s.get(f"{WRAPPED} / it", {})
    lines = ["| target | decisions/s | ours raw_env / it | ours env() / it |", "|---|---:|---:|---:|"]
    for name, rate in sorted(med.items(), key=lambda kv: -kv[1]):
        lines.append(f"| {name} | {rate:,.0f} | {raw_r.get(name, float('nan')):.2f} | "
                     f"{wrap_r.get(name, float('nan')):.2f} |")

    def fastest(group: str) -> str | None:
        cands = [n for n in med if groups.get(n) == group]
        return max(cands, key=med.__getitem__) if cands else None

    lines.append("")
    for bar, ref, group in (("bar 1", RAW, "pz_raw"), ("bar 2", WRAPPED, "pz_env")):
        peer = fastest(group)
        if peer and ref in med:
            ratio = s[f"{ref} / it"][peer]
            lines.append(f"{bar}: {ref} / fastest PettingZoo ({peer}) = {ratio:.2f} (>= 1 passes)")
    for n, aim in VECTOR_AIMS.items():
        key = f"crowsnest VectorEnv N={n}"
        if key in med and RAW in med:
            per_round = ", ".join(f"{b / a:.2f}" for a, b in zip(rates[RAW], rates[key]))
            lines.append(f"aim: VectorEnv N={n} / raw_env = {s['it / raw_env'][key]:.2f} (aim >= {aim:g}; "
                         f"rounds: {per_round})")
    if "openspiel euchre" in med and "crowsnest engine (no obs)" in med:
        ratio = statistics.median(a / b for a, b in zip(rates["crowsnest engine (no obs)"], rates["openspiel euchre"]))
        lines.append(f"aim: ours engine / OpenSpiel euchre (no tensor) = {ratio:.2f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20000, help="decisions per target and round")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds; medians are reported")
    parser.add_argument("--warm", type=int, default=100, help="VectorEnv steps played before timing")
    parser.add_argument("--pick", choices=PICKS, default="choice", help="an AEC loop's random legal action")
    parser.add_argument("--cpu", type=int, help="core to pin to (Linux; default: the lowest core allowed now)")
    parser.add_argument("--json", help="also write the figures to this JSON file")
    parser.add_argument("--only", help="comma-separated substrings: measure only matching targets")
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.cpu if args.cpu is not None else min(os.sched_getaffinity(0))})
    warnings.simplefilter("ignore")
    rates = run(args.steps, args.rounds, args.warm, args.pick, args.only.split(",") if args.only else None)
    if RAW in rates:
        print(table(rates))
    else:
        print("\n".join(f"{k:40s} {statistics.median(v):10,.0f}/s" for k, v in rates.items()))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"command": " ".join(["python", *sys.argv]), "clock": "thread CPU time",
                       "steps": args.steps, "rounds": args.rounds, "warm": args.warm, "pick": args.pick,
                       **summary(rates), "per_round": rates}, f, indent=1)


if __name__ == "__main__":
    main()
