"""Where a value-fit student leaves its prior's card in real play, what is that departure worth?

Student (seats 0, 2) vs heuristic (1, 3), one_high, one hand per deal. At each student card decision
that departs from the prior's card, the hand is played out twice from a copy of the table (the
student's card, the prior's card) by the same four players, and the true deal is solved double-dummy
for both cards; the teacher's 4-sample estimate is kept too. Gains are in the mover team's points
(team score change minus the other team's), as pimc's values are.

    python realized.py FILE_OR_AGENT DEALS SEED [OUT.json]

FILE_OR_AGENT: a policy file, or an agent name with a colon (a phase agent). The run of this
folder: realized.py values_w3.pt 300 5 (the values.yaml network, exported) and
realized.py "phase:base=heuristic?margin=0.05;play=pimc?samples=4,nodes=5000,keep=10" 300 5.
The true deal is solved exactly at six tricks left or fewer, else to the deepest horizon within
200,000 nodes.
"""
import copy
import json
import sys

import numpy as np

from agents import make_agent
from agents.pimc import PIMCAgent, solve_world
from agents.prior import make_prior
from crowsnest_env.rules import Phase
from crowsnest_env.table import Table


def play_out(table, agents, team):
    while not table.done:
        seat = table.to_move
        table.step(agents[seat].act(table.view(seat)))
    s = table.scores
    return s[team] - s[1 - team]

def main():
    student_file, deals, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    student = make_agent(student_file if ":" in student_file else f"checkpoint:{student_file}")
    heur = make_agent("heuristic")
    prior = make_prior("heuristic?margin=0.05")
    teacher = PIMCAgent(seed=1, samples=4, nodes=5000)
    agents = [student, heur, student, heur]
    rows = []
    for d in range(deals):
        t = Table("one_high", episode="hand")
        t.reset(seed=seed * 100003 + d)
        while not t.done:
            seat = t.to_move
            view = t.view(seat)
            a = agents[seat].act(view)
            if seat % 2 == 0 and view.phase is Phase.PLAY:
                p = prior.act(view)
                if a != p:
                    team = seat % 2
                    # the outcome counts from here on: captured so far is common to both branches
                    gains = []
                    for card in (a, p):
                        c = copy.deepcopy(t)
                        c.step(card)
                        gains.append(play_out(c, agents, team))
                    st = t.state
                    nest_pts = view.cards.count_points(st.nest | st.discards)
                    dd = solve_world(view, list(st.hands), nest_pts, 200000, 6)
                    est = teacher.card_scores(view)
                    off = view.layout.play_offset
                    rows.append({"trick": view.trick_no, "real": gains[0] - gains[1],
                                 "dd": dd[a - off] - dd[p - off], "pimc4": est[a - off] - est[p - off]})
            t.step(a)
    real, dd, pi = (np.array([r[k] for r in rows]) for k in ("real", "dd", "pimc4"))
    n = len(rows)
    print(f"{deals} deals, {n} departures ({n / deals:.2f} a deal)")
    for name, x in (("realized (played out)", real), ("double-dummy, true deal", dd), ("pimc 4 samples", pi)):
        print(f"  {name:26s} mean {x.mean():+7.2f}  se {x.std() / max(1, n) ** 0.5:5.2f}")
    out = sys.argv[4] if len(sys.argv) > 4 else student_file + f".realized_s{seed}.json"
    json.dump(rows, open(out, "w"))

if __name__ == "__main__":
    main()
