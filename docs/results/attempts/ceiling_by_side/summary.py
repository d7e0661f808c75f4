"""The table of README.md from the games' JSON files (arena/c_<rule set>_<arm>_s<seed>.json).

    python docs/results/attempts/ceiling_by_side/summary.py
"""

from __future__ import annotations

import json
from pathlib import Path

ARMS = ("both", "defence", "declarer")


def main() -> None:
    folder = Path(__file__).parent / "arena"
    games: dict[tuple[str, str], dict[str, dict]] = {}
    for path in sorted(folder.glob("c_*.json")):
        rule_set, arm, seed = path.stem[2:].rsplit("_", 2)
        games.setdefault((rule_set, seed), {})[arm] = json.loads(path.read_text())["pairings"][0]
    print("| rule set | seed | sees both sides | sees defending only | sees declaring only | defence's share | "
          "made, `pimc` declaring: `pimc` defends / sight defends | made, a declaring: as `pimc` / with sight |")
    print("|---|---:|---|---|---|---:|---|---|")
    for (rule_set, seed), arms in games.items():
        cells = []
        for arm in ARMS:
            p = arms.get(arm)
            cells.append(f"{p['adp']:+.1f} [{p['adp_ci95'][0]:+.1f}, {p['adp_ci95'][1]:+.1f}]" if p else "—")
        share = (f"{arms['defence']['adp'] / arms['both']['adp']:.0%}"
                 if "defence" in arms and "both" in arms else "—")
        made = "—"
        if "defence" in arms and "declarer" in arms:
            # pimc's contracts defended by pimc (the declarer arm's b) and by full sight (the defence arm's b)
            made = (f"{arms['declarer']['contracts']['b']['made_rate']:.1%} / "
                    f"{arms['defence']['contracts']['b']['made_rate']:.1%}")
        own = "—"
        if "defence" in arms and "declarer" in arms:
            # the a team's contracts played as pimc (defence arm) and seeing every hand (declarer arm)
            own = (f"{arms['defence']['contracts']['a']['made_rate']:.1%} / "
                   f"{arms['declarer']['contracts']['a']['made_rate']:.1%}")
        print(f"| {rule_set} | {seed[1:]} | {' | '.join(cells)} | {share} | {made} | {own} |")


if __name__ == "__main__":
    main()
