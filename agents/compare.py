"""``crowsnest-compare``: two arena results on the same duplicate deals, compared deal by deal.

Two agents that each played the same opponent on the same deals (``crowsnest-arena --a X --b pimc
--seed 29 --keep-deals --out x.json``, then ``--a Y``) share every deal's luck: the cards, and the
opponent's seeded play. Subtracting their two results deal by deal removes that shared part, so the paired
interval of ``X - Y`` is narrower than the difference of two separate intervals (by how much, the
correlation between the two columns says). This is the comparison duplicate bridge makes between two
pairs who played the same boards.

    crowsnest-compare x.json y.json              # X's adp minus Y's, paired by deal
    crowsnest-compare x.json y.json --json       # the same as JSON

Both files must hold ``deal_values`` (``crowsnest-arena --keep-deals``), and agree on the rules, the seed,
the number of deals and the opponent (team b); otherwise a ValueError names what differs. Only a file's
first pairing is compared unless ``--pairing N`` picks another (a round robin or ``--by-phase`` run).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from typing import Any

from .stats import mean_std, t_interval

MATCH_KEYS = ("variant", "crow", "seed", "deals", "b")
"""the pairing fields two results must share to be compared deal by deal"""


def read_pairing(path: str, index: int | None = None) -> dict[str, Any]:
    """A pairing of a ``crowsnest-arena --out`` file: its only one (``index`` None: the file must hold exactly
    one) or its ``index``-th; ValueError naming the file and the problem (no such file, not JSON, not an arena
    result, no such pairing)."""
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except FileNotFoundError:
        raise ValueError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ValueError(f"{path}: not JSON, so not an arena result ({err})") from None
    pairings = data.get("pairings") if isinstance(data, dict) else None
    if index is None:
        if not isinstance(pairings, list) or len(pairings) != 1 or not isinstance(pairings[0], dict):
            raise ValueError(f"{path}: not a one-pairing crowsnest-arena --out file")
        return pairings[0]
    if not isinstance(pairings, list) or not pairings or not all(isinstance(p, dict) for p in pairings):
        raise ValueError(f"{path}: not an arena result (no pairings)")
    if not 0 <= index < len(pairings):
        raise ValueError(f"{path}: has {len(pairings)} pairing(s); --pairing {index} is out of range")
    return pairings[index]


def load_pairing(path: str, index: int = 0) -> dict[str, Any]:
    """:func:`read_pairing`'s ``index``-th pairing, which must hold its ``deal_values``
    (``crowsnest-arena --keep-deals``); ValueError naming the file and what is missing."""
    pairing = read_pairing(path, index)
    values = pairing.get("deal_values")
    if not isinstance(values, list) or not all(isinstance(v, (int, float)) for v in values):
        raise ValueError(f"{path}: pairing {index} kept no deal values; play it with crowsnest-arena --keep-deals")
    if len(values) != pairing.get("deals"):
        raise ValueError(f"{path}: pairing {index} has {len(values)} deal values for {pairing.get('deals')} deals")
    return pairing


def paired_difference(x: dict[str, Any], y: dict[str, Any]) -> dict[str, Any]:
    """``x``'s adp minus ``y``'s over the same deals: the mean of the per-deal differences with its 95%
    t-interval, each side alone, and the correlation of the two columns (what the pairing saved).
    ValueError when the two pairings were not played on the same deals against the same opponent."""
    for key in MATCH_KEYS:
        if x.get(key) != y.get(key):
            raise ValueError(f"not the same deals and opponent: {key} is {x.get(key)!r} in one and "
                             f"{y.get(key)!r} in the other")
    xs, ys = [float(v) for v in x["deal_values"]], [float(v) for v in y["deal_values"]]
    if len(xs) < 2:
        raise ValueError(f"a paired interval needs at least 2 deals, got {len(xs)}")
    diffs = [a - b for a, b in zip(xs, ys)]
    mean, std = mean_std(diffs)
    (mx, sx), (my, sy) = mean_std(xs), mean_std(ys)
    cov = math.fsum((a - mx) * (b - my) for a, b in zip(xs, ys)) / (len(xs) - 1)
    corr = cov / (sx * sy) if sx > 0 and sy > 0 else None
    ci = t_interval(diffs)
    half_paired = (ci[1] - ci[0]) / 2 if ci else None
    cx, cy = t_interval(xs), t_interval(ys)
    # the half-width of the same difference had the two games been played on independent deals
    half_unpaired = (math.hypot((cx[1] - cx[0]) / 2, (cy[1] - cy[0]) / 2) if cx and cy else None)
    return {
        "x": x["a"], "y": y["a"], "opponent": x["b"], "variant": x["variant"], "crow": x["crow"],
        "seed": x["seed"], "deals": len(diffs),
        "adp_x": mx, "adp_y": my, "adp_x_ci95": [round(v, 6) for v in cx] if cx else None,
        "adp_y_ci95": [round(v, 6) for v in cy] if cy else None,
        "diff": mean, "diff_ci95": [round(v, 6) for v in ci] if ci else None, "diff_std": std,
        "deals_x_better": sum(d > 0 for d in diffs), "deals_y_better": sum(d < 0 for d in diffs),
        "deals_same": sum(d == 0 for d in diffs),
        "correlation": corr, "half_width_paired": half_paired, "half_width_unpaired": half_unpaired,
    }


def format_comparison(c: dict[str, Any]) -> str:
    """A few lines a person reads: the paired difference first."""
    def ci(pair: list[float] | None) -> str:
        return "[n/a]" if pair is None else f"[{pair[0]:+.1f}, {pair[1]:+.1f}]"

    corr = "n/a" if c["correlation"] is None else f"{c['correlation']:.2f}"
    lines = [
        f"{c['variant']}{'' if c['crow'] else ' (no Crow)'}, seed {c['seed']}, {c['deals']} duplicate deals, "
        f"each against {c['opponent']}:",
        f"  x = {c['x']}: {c['adp_x']:+.2f} {ci(c['adp_x_ci95'])}",
        f"  y = {c['y']}: {c['adp_y']:+.2f} {ci(c['adp_y_ci95'])}",
        f"  x - y, paired by deal: {c['diff']:+.2f} {ci(c['diff_ci95'])}  "
        f"(x better on {c['deals_x_better']}, y on {c['deals_y_better']}, the same on {c['deals_same']})",
    ]
    if c["half_width_paired"] is not None and c["half_width_unpaired"] is not None:
        lines.append(f"  95% half-width {c['half_width_paired']:.1f} paired, {c['half_width_unpaired']:.1f} had "
                     f"the deals been independent (correlation of the two columns {corr})")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """The ``crowsnest-compare`` command."""
    p = argparse.ArgumentParser(prog="crowsnest-compare", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("x", help="an arena result (crowsnest-arena --keep-deals --out X.json)")
    p.add_argument("y", help="another, on the same deals against the same opponent")
    p.add_argument("--pairing", type=int, default=0, help="which pairing of each file (default 0, the first)")
    p.add_argument("--json", action="store_true", help="print the comparison as JSON")
    args = p.parse_args(argv)
    try:
        result = paired_difference(load_pairing(args.x, args.pairing), load_pairing(args.y, args.pairing))
    except ValueError as err:
        print(f"crowsnest-compare: error: {err}", file=sys.stderr)
        return 2
    print(json.dumps(result, indent=2) if args.json else format_comparison(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
