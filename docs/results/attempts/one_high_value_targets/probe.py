"""How well a value-fit network predicts its labels on fresh states (a held-out seed, 987).

    python probe.py FILE N SOURCE     SOURCE: teacher (pimc?samples=4,nodes=5000 values) | rollouts

Prints the correlation of the predicted and the labelled gain of each legal card over the prior's,
and, where the network predicts a gain above a threshold, the labels' mean gain there."""
import sys

import numpy as np
import torch

from agents.checkpoint import model_from_checkpoint
from crowsnest_env.rules import get_variant
from training.bc import collect_demonstrations


def main():
    f, n, source = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    data = torch.load(f, weights_only=False)
    model = model_from_checkpoint(data)
    model.eval()
    V = get_variant("one_high", True)
    d = collect_demonstrations(V, n, seed=987, num_envs=32, prior="heuristic?margin=0.05",
                               teacher="phase:base=heuristic?margin=0.05;play=pimc?samples=4,nodes=5000,keep=10"
                               if source == "teacher" else "", shards=2, workers=2, values=source)
    rows = np.isfinite(d.values).sum(1) >= 2
    obs, vals = torch.from_numpy(d.obs[rows]), d.values[rows]
    with torch.no_grad():
        logits, _ = model(obs)
        head = (logits - model.prior_bonus(obs)).numpy()
    A = d.masks.shape[1]
    prior = d.obs[rows][:, -A:].argmax(1)
    known = np.isfinite(vals)
    tgap = vals - vals[np.arange(len(vals)), prior][:, None]          # teacher: each card's gain over the prior's
    scale = float(data['config']['bc_value_scale'])
    pgap = (head - head[np.arange(len(head)), prior][:, None]) * scale  # predicted, in points
    others = known & (np.arange(A) != prior[:, None])  # every valued card but the prior's
    t, p = tgap[others], pgap[others]
    print("valued rows", len(vals), "pairs", len(t), f"corr(pred gap, teacher gap) {np.corrcoef(t, p)[0, 1]:.3f}")
    print(f"teacher gap sd {t.std():.1f}, pred gap sd {p.std():.1f}")
    pg = np.where(known, pgap, -1e9)
    best, bestgap = pg.argmax(1), pg.max(1)
    tg_best = tgap[np.arange(len(vals)), best]
    for thr in (10, 20, 40, 80):
        sel = bestgap > thr
        print(f"pred gain > {thr}: {sel.mean():.1%} of rows, teacher's gain there mean {tg_best[sel].mean():+.1f}")
    tbest = np.where(known, tgap, -1e9).max(1)
    for thr in (10, 60):
        print(f"teacher best gain > {thr}: {(tbest > thr).mean():.1%}")

if __name__ == "__main__":
    main()
