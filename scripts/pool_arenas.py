"""Pool one pairing's arena results over several seeds: the mean points difference per deal over all
their deals, with a 95% t interval from the pooled per-deal spread.

    python scripts/pool_arenas.py docs/results/ensemble/learned_vs_pimc_s*.json ...

Each file is a ``crowsnest-arena --out`` JSON. The files must hold the same pairing (team a, team b,
rule set) at different seeds, since deals of one seed played twice are not new evidence. Each
seed's deals count by their number: a file's mean and standard deviation give its sum and sum of
squares exactly, so the pooled figure is the one a single arena over all those deals would print.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agents.compare import read_pairing as read_one_pairing  # noqa: E402
from agents.stats import student_t_ppf  # noqa: E402


def pool(pairings: Sequence[dict[str, Any]], same_names: bool = True) -> dict[str, Any]:
    """The pooled ``deals``, ``adp`` and ``adp_ci95`` of arena pairings of one matchup at distinct seeds;
    ``same_names=False`` lets the teams' names differ (one agent named by two specs: the caller vouches)."""
    if not pairings:
        raise ValueError("name at least one arena result")
    first = pairings[0]

    def key(p: dict[str, Any]) -> tuple[Any, ...]:
        rules = (p["variant"], p.get("crow", True))
        return (p["a"], p["b"], *rules) if same_names else rules

    seeds = [p["seed"] for p in pairings]
    for p in pairings:
        if key(p) != key(first):
            raise ValueError(f"{p['a']} vs {p['b']} ({p['variant']}) is not the pairing of the first file, "
                             f"{first['a']} vs {first['b']} ({first['variant']}): pool one matchup")
        if p.get("games"):
            raise ValueError(f"seed {p['seed']} scores whole games; pool deal results only")
    if len(set(seeds)) != len(seeds):
        raise ValueError(f"seeds {sorted(seeds)} repeat: the same deals twice are not new evidence")
    n = sum(p["deals"] for p in pairings)
    total = sum(p["deals"] * p["adp"] for p in pairings)
    squares = sum((p["deals"] - 1) * p["adp_std"] ** 2 + p["deals"] * p["adp"] ** 2 for p in pairings)
    mean = total / n
    if n < 2:
        return {"deals": n, "adp": mean, "adp_ci95": None, "seeds": seeds}
    sd = math.sqrt(max(0.0, (squares - n * mean * mean) / (n - 1)))
    half = student_t_ppf(0.975, n - 1) * sd / math.sqrt(n)
    return {"deals": n, "adp": mean, "adp_ci95": [mean - half, mean + half], "adp_std": sd, "seeds": seeds}


FIELDS = ("a", "b", "variant", "seed", "deals", "adp", "adp_std", "adp_ci95")
"""what pooling reads of each pairing"""


def read_pairing(path: str) -> dict[str, Any]:
    """The one pairing of a ``crowsnest-arena --out`` file (:func:`agents.compare.read_pairing`), with the
    fields pooling reads; ValueError naming the file if it is not one."""
    pairing = read_one_pairing(path)
    missing = [k for k in FIELDS if k not in pairing]
    if missing:
        raise ValueError(f"{path}: its pairing lacks {', '.join(missing)}")
    return pairing


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="pool_arenas.py", description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", help="crowsnest-arena --out JSON files of one pairing")
    parser.add_argument("--any-names", action="store_true",
                        help="pool files whose teams are named differently (the same agent under another spec, "
                             "e.g. a file and the scratch spec it was made from); the rule set must still match")
    args = parser.parse_args(argv)
    try:
        pairings = [read_pairing(f) for f in args.files]
        pooled = pool(pairings, same_names=not args.any_names)
    except (OSError, ValueError) as err:
        print(f"pool_arenas.py: error: {err}", file=sys.stderr)
        return 2
    for f, p in zip(args.files, pairings):
        lo, hi = p["adp_ci95"]
        print(f"seed {p['seed']:>8}  {p['deals']:>6} deals  {p['adp']:+7.2f} [{lo:+.2f}, {hi:+.2f}]  {f}")
    ci = pooled["adp_ci95"]
    span = f"[{ci[0]:+.2f}, {ci[1]:+.2f}]" if ci else "(one deal: no interval)"
    print(f"{'pooled':>13}  {pooled['deals']:>6} deals  {pooled['adp']:+7.2f} {span}  "
          f"{pairings[0]['a']} vs {pairings[0]['b']}, {pairings[0]['variant']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
