"""How often the shipped policy (``learned``, expert's guide) names the heuristic's trump and discards the
heuristic's cards, in hands bid by pimc's rule (table seeds 0-299, one hand each).

    python docs/results/attempts/expert_card_play_partnership/trump_check.py

Printed 2026-12-07 at code 556c77418e26:
    partnership trump same 299 of 300 discard steps same 0 of 0
    one_high trump same 300 of 300 discard steps same 1496 of 1500
    crowsnest trump same 295 of 300 discard steps same 1007 of 1500
"""

from __future__ import annotations

from agents import make_agent
from crowsnest_env.rules import Phase
from crowsnest_env.table import Table


def main() -> None:
    for variant in ("partnership", "one_high", "crowsnest"):
        learned, heur, bidder = (make_agent(n, seed=1) for n in ("learned", "heuristic", "pimc"))
        same = tot = disc_same = disc_tot = 0
        for s in range(300):
            t = Table(variant, episode="hand", observe=False)
            t.reset(s)
            while not t.done and t.phase is Phase.AUCTION:
                t.step(bidder.act(t.view()))
            if t.done:
                continue
            while t.phase is Phase.DISCARD:  # the heuristic's discards are played, each step compared
                v = t.view()
                a, b = learned.act(v), heur.act(v)
                disc_tot += 1
                disc_same += a == b
                t.step(b)
            if t.phase is Phase.TRUMP:
                v = t.view()
                tot += 1
                same += learned.act(v) == heur.act(v)
        print(variant, "trump same", same, "of", tot, "discard steps same", disc_same, "of", disc_tot)


if __name__ == "__main__":
    main()
