"""How well a value-fit network predicts its labels on fresh states (a held-out seed, 987).

    python probe.py FILE N SOURCE [--variant V --teacher AGENT --prior AGENT]
        SOURCE: teacher (pimc?samples=4,nodes=5000 values) | rollouts | double_dummy

Prints the correlation of the predicted and the labelled gain of each legal card over the prior's,
and, where the network predicts a gain above a threshold, the labels' mean gain there. The
defaults are one_high's runs; ``docs/results/dd_values/README.md`` gives the crowsnest run's flags."""
import argparse

import numpy as np
import torch

from agents.checkpoint import model_from_checkpoint
from crowsnest_env.rules import get_variant
from training.bc import collect_demonstrations


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("n", type=int)
    ap.add_argument("source", choices=("teacher", "rollouts", "double_dummy"))
    ap.add_argument("--variant", default="one_high")
    ap.add_argument("--prior", default="heuristic?margin=0.05")
    ap.add_argument("--teacher", default=None,
                    help="default: the keep=10 pimc teacher for SOURCE teacher, else the prior")
    args = ap.parse_args()
    source = args.source
    data = torch.load(args.file, weights_only=False)
    model = model_from_checkpoint(data)
    model.eval()
    V = get_variant(args.variant, True)
    teacher = args.teacher
    if teacher is None:
        keep10 = "phase:base=heuristic?margin=0.05;play=pimc?samples=4,nodes=5000,keep=10"
        teacher = keep10 if source == "teacher" else ""
    d = collect_demonstrations(V, args.n, seed=987, num_envs=32, prior=args.prior,
                               teacher=teacher, shards=2, workers=2, values=source)
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
    for thr in (5, 10, 20, 40, 80):
        sel = bestgap > thr
        print(f"pred gain > {thr}: {sel.mean():.1%} of rows, teacher's gain there mean {tg_best[sel].mean():+.1f}")
    tbest = np.where(known, tgap, -1e9).max(1)
    for thr in (0, 10, 20, 60):
        print(f"teacher best gain > {thr}: {(tbest > thr).mean():.1%}")

if __name__ == "__main__":
    main()
