"""How well the double-dummy-value student predicts its labels on fresh states (held-out seed 987).

    python docs/results/attempts/crowsnest_dd_values/probe.py FILE N

Collects N decisions of the config's teacher (crowsnest, the heuristic prior's columns), labels each
card with a choice by its double-dummy value on the true deal (``bc_target: double_dummy``), and
prints the correlation of the predicted and the labelled gain of each legal card over the prior's,
and, where the network predicts a gain above a threshold, the labels' mean gain there."""
import sys

import numpy as np
import torch

from agents.checkpoint import model_from_checkpoint
from crowsnest_env.rules import get_variant
from training.bc import collect_demonstrations

TEACHER = ("phase:base=checkpoint:docs/results/distill/crowsnest_auction_teacher.pt;"
           "play=checkpoint:docs/results/card_play/crowsnest_play.pt")


def main():
    f, n = sys.argv[1], int(sys.argv[2])
    data = torch.load(f, weights_only=False)
    model = model_from_checkpoint(data)
    model.eval()
    d = collect_demonstrations(get_variant("crowsnest", True), n, seed=987, num_envs=32, prior="heuristic",
                               teacher=TEACHER, shards=2, workers=2, values="double_dummy")
    rows = np.isfinite(d.values).sum(1) >= 2
    obs, vals = torch.from_numpy(d.obs[rows]), d.values[rows]
    with torch.no_grad():
        logits, _ = model(obs)
        head = (logits - model.prior_bonus(obs)).numpy()
    A = d.masks.shape[1]
    prior = d.obs[rows][:, -A:].argmax(1)
    known = np.isfinite(vals)
    tgap = vals - vals[np.arange(len(vals)), prior][:, None]          # labels: each card's gain over the prior's
    scale = float(data['config']['bc_value_scale'])
    pgap = (head - head[np.arange(len(head)), prior][:, None]) * scale  # predicted, in points
    others = known & (np.arange(A) != prior[:, None])
    t, p = tgap[others], pgap[others]
    print("valued rows", len(vals), "pairs", len(t), f"corr(pred gap, label gap) {np.corrcoef(t, p)[0, 1]:.3f}")
    print(f"label gap sd {t.std():.1f}, pred gap sd {p.std():.1f}")
    pg = np.where(known, pgap, -1e9)
    best, bestgap = pg.argmax(1), pg.max(1)
    tg_best = tgap[np.arange(len(vals)), best]
    for thr in (5, 10, 20, 40):
        sel = bestgap > thr
        print(f"pred gain > {thr}: {sel.mean():.1%} of rows, labels' gain there mean {tg_best[sel].mean():+.1f}")
    tbest = np.where(known, tgap, -1e9).max(1)
    for thr in (0, 10, 20):
        print(f"label best gain > {thr}: {(tbest > thr).mean():.1%}")


if __name__ == "__main__":
    main()
