"""DMC learner decisions per second against the number of actors, local processes versus Ray.

Each run trains the same config for ``--seconds`` of wall time (no evaluation) and reports
the steady-state rate: learner decisions between the first and the last logged update,
over the wall time between them (actor start-up, Ray start-up and the first batch excluded).

    python benchmarks/bench_dmc_actors.py [--config configs/crowsnest_dmc.yaml] [--seconds 45]
        [--actors 1,2,4] [--backends local,ray] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile

import yaml

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from training.config import config_from_dict  # noqa: E402


def steady_rate(tb_dir: str) -> tuple[float, int]:
    """(learner decisions per second between the first and last logged update, updates)."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    acc = EventAccumulator(tb_dir, size_guidance={"scalars": 0})
    acc.Reload()
    events = acc.Scalars("charts/SPS")
    if len(events) < 2:
        return float("nan"), len(events)
    first, last = events[0], events[-1]
    return (last.step - first.step) / (last.wall_time - first.wall_time), len(events)


def run_one(base: dict, backend: str, actors: int, seconds: float) -> dict:
    from training.dmc import train

    data = {**base, "name": f"bench_{backend}_{actors}", "max_wall_time": seconds, "total_steps": 10**9,
            "eval_interval": 0, "final_eval_deals": 0, "progress": False, "checkpoint_interval": 10**6,
            "backend": backend, "dmc": {**base["dmc"], "num_actors": actors}}
    with tempfile.TemporaryDirectory() as tmp:
        summary = train(config_from_dict(data), tmp)
        rate, updates = steady_rate(os.path.join(tmp, "tb"))
    return {"backend": backend, "actors": actors, "decisions_per_s": rate, "updates": updates,
            "global_step": summary["global_step"], "restarts": summary["actor_restarts"]}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--config", default="configs/crowsnest_dmc.yaml")
    p.add_argument("--seconds", type=float, default=45.0)
    p.add_argument("--actors", default="1,2,4")
    p.add_argument("--backends", default="local,ray")
    p.add_argument("--json")
    args = p.parse_args()
    with open(args.config, encoding="utf-8") as fh:
        base = yaml.safe_load(fh)
    rows = []
    for backend in args.backends.split(","):
        for n in args.actors.split(","):
            rows.append(run_one(base, backend, int(n), args.seconds))
            print(json.dumps(rows[-1]), flush=True)
    ref = {b: next((r["decisions_per_s"] for r in rows if r["backend"] == b and r["actors"] == 1), None)
           for b in ("local", "ray")}
    print(f"{'backend':8} {'actors':>6} {'dec/s':>8} {'vs 1 actor':>10} {'vs local':>9} {'updates':>7}")
    for r in rows:
        local = next((x["decisions_per_s"] for x in rows if x["backend"] == "local" and x["actors"] == r["actors"]),
                     None)
        vs1 = r["decisions_per_s"] / ref[r["backend"]] if ref[r["backend"]] else float("nan")
        vsl = r["decisions_per_s"] / local if local else float("nan")
        print(f"{r['backend']:8} {r['actors']:>6} {r['decisions_per_s']:>8.0f} {vs1:>10.2f} {vsl:>9.2f} "
              f"{r['updates']:>7}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(rows, fh, indent=2)


if __name__ == "__main__":
    main()
