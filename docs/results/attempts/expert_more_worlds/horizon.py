"""Does a deeper search change expert's card? The same weighted worlds solved within several node budgets, against a far deeper search
(exact when it fits), on the early-trick positions of seeded hands that expert plays in all four seats.

    python docs/results/attempts/expert_more_worlds/horizon.py one_high 2-8 2000000 0,1,2,3,4,5 20000,60000,200000

Arguments: rule set, hands (seeds lo-hi), the deep budget, the 0-based tricks, the budgets compared."""
import random, sys, time
import torch
torch.set_num_threads(1)
from agents import make_agent
from agents.pimc import solve_world
from crowsnest_env.rules import NUM_SEATS, Phase, get_variant, new_game, player_view, step
variant = sys.argv[1]; hands = sys.argv[2]; deep = int(sys.argv[3]); tricks = {int(t) for t in sys.argv[4].split(",")}
bases = [int(b) for b in sys.argv[5].split(",")]
lo, hi = (int(x) for x in hands.split("-"))
agent = make_agent("expert", seed=1)
n = 0; agree = {b: 0 for b in bases}; loss = {b: 0.0 for b in bases}; tm = {b: 0.0 for b in bases}; tdeep = 0.0
for seed in range(lo, hi):
    state = new_game(get_variant(variant), rng=random.Random(500 + seed), dealer=seed % NUM_SEATS)
    agent.reset(seed)
    while state.phase not in (Phase.DEAL, Phase.GAME_OVER):
        view = player_view(state, state.to_move)
        if state.phase == Phase.PLAY and view.trick_no in tricks and bin(view.legal).count("1") > 1:
            worlds, w = agent.weighted_worlds(view, random.Random(seed * 1000 + view.trick_no))
            np_ = view.cards.count_points
            def scores(nodes, try_exact):
                tot = {}
                for (h, nest), wi in zip(worlds, w):
                    vals = solve_world(view, h, np_(nest | view.discards), nodes, agent.exact, try_exact)
                    for c, v in vals.items(): tot[c] = tot.get(c, 0.0) + wi * v
                return tot
            t = time.perf_counter(); d = scores(deep, True); tdeep += time.perf_counter() - t
            cd = max(d, key=d.get); n += 1
            for b in bases:
                t = time.perf_counter(); a = scores(b, False); tm[b] += time.perf_counter() - t
                ca = max(a, key=a.get); agree[b] += ca == cd; loss[b] += d[cd] - d[ca]
        state = step(state, agent.act(view))
print(f"{variant} hands {hands} tricks {sorted(tricks)}: {n} positions; deep {deep} nodes {tdeep/n:.2f} s a position")
for b in bases:
    print(f"  nodes {b}: same card {agree[b]/n:.0%}, mean loss by deep values {loss[b]/n:.2f} pts, {tm[b]/n:.3f} s a position (24 worlds)")
