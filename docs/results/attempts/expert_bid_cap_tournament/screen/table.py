"""The screen's table: each cap's adp against each opponent, and its difference from no cap on the same deals.

    python docs/results/attempts/expert_bid_cap_tournament/screen/table.py
"""

from __future__ import annotations

import os

from agents.compare import load_pairing, paired_difference

HERE = os.path.dirname(os.path.abspath(__file__))
CAPS = ("none", "0", "5", "10", "-5")
OPPONENTS = ("br", "pimc", "heuristic")


def main() -> None:
    print("| bid_cap | " + " | ".join(f"vs {o}: adp | minus no cap" for o in OPPONENTS) + " |")
    print("|---|" + "---|---|" * len(OPPONENTS))
    for cap in CAPS:
        cells = []
        for opp in OPPONENTS:
            path = os.path.join(HERE, f"cap_{cap}_vs_{opp}.json")
            base = os.path.join(HERE, f"cap_none_vs_{opp}.json")
            if not os.path.exists(path):
                cells += ["", ""]
                continue
            x = load_pairing(path)
            lo, hi = x["adp_ci95"]
            cells.append(f"{x['adp']:+.1f} [{lo:+.1f}, {hi:+.1f}]")
            if cap == "none" or not os.path.exists(base):
                cells.append("")
            else:
                d = paired_difference(x, load_pairing(base))
                cells.append(f"{d['diff']:+.1f} [{d['diff_ci95'][0]:+.1f}, {d['diff_ci95'][1]:+.1f}]")
        print(f"| {cap} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
