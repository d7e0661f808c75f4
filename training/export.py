"""Export a run's checkpoint as a small agent file (weights, rules, layout; no optimizer or RNG).

    python -m training.export runs/crowsnest_ppo/checkpoint.pt agents/policies/crowsnest.pt

The shipped policies (``agents/policies/<variant>.pt``, the agent name ``learned``) are made
this way from the project's own training runs; ``extra`` records where the file came from.

``--prior-weight W`` writes a residual policy (one trained with ``ppo.prior``) with another
prior weight: for a policy fitted on card values (``bc_target: values``, ``rollouts`` or
``double_dummy``) that is its departure threshold, ``W x bc_value_scale`` points, chosen at
export time without retraining.

``--evaluate DIR`` then plays the file as a training run's final evaluation does (against random
and the heuristic on the arena's duplicate deals, seed ``--seed``, and the heuristic against random
on the same deals: :func:`training.report.evaluate_file`) and writes a run folder's ``eval.json``,
``baseline.json``, ``arena.png`` and ``report.md`` there: a recalibrated prior weight is judged by
the same figures as the run it came from.

The output may not be the input (the same file by any path: a symlink, a hard link, another
spelling) nor any other full training checkpoint: an agent file written over it would leave the
run unable to resume.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

import torch

from agents.checkpoint import (
    FORMAT,
    CheckpointError,
    checkpoint_variant,
    make_payload,
    model_from_checkpoint,
    read_checkpoint,
    write_checkpoint,
)
from crowsnest_env.cli_errors import print_error

from .report import add_evaluate_arguments, check_evaluate_arguments, evaluate_file


def check_output(src: str, dst: str) -> None:
    """CheckpointError unless ``dst`` may be written: not a folder, not ``src`` itself, and not a
    training checkpoint (one that can resume a run: it has an optimizer state)."""
    if os.path.isdir(dst):
        raise CheckpointError(f"output {dst!r} is a folder; name the agent file to write")
    if not os.path.exists(dst):
        return
    if os.path.exists(src) and os.path.samefile(src, dst):
        raise CheckpointError(f"output {dst!r} is the input checkpoint {src!r}: the agent file would replace "
                              f"it (and the run could not resume); write it elsewhere")
    try:
        existing = torch.load(dst, map_location="cpu", weights_only=True)
    except Exception:  # not a checkpoint at all: an ordinary file the caller named
        return
    if isinstance(existing, dict) and existing.get("format") == FORMAT and "optimizer" in existing:
        raise CheckpointError(f"output {dst!r} is a training checkpoint (it can resume a run); an agent file "
                              f"would replace it: write it elsewhere")


def export(src: str, dst: str, note: str = "", prior_weight: float | None = None) -> dict:
    """Write the weights-only agent file of checkpoint ``src`` to ``dst``; returns its payload.

    ``prior_weight`` replaces a residual policy's prior weight (CheckpointError for a network
    without a prior)."""
    check_output(src, dst)
    data = read_checkpoint(src)
    if prior_weight is not None:
        spec = dict(data["model_spec"])
        if not spec.get("prior"):
            raise CheckpointError(f"{src!r} is not a residual policy (its model_spec has no prior): "
                                  f"--prior-weight does not apply")
        from agents.prior import check_prior_weight

        spec["prior_weight"] = check_prior_weight(prior_weight)
        data = {**data, "model_spec": spec}
    model = model_from_checkpoint(data)
    extra = {"source": os.path.basename(os.path.dirname(os.path.abspath(src))), "note": note,
             "global_step": int(data.get("global_step", 0)), "update": int(data.get("update", 0))}
    payload = make_payload(algo=data["algo"], model=model, model_spec=data["model_spec"],
                           variant=checkpoint_variant(data), config=data.get("config") or {},
                           global_step=data.get("global_step", 0), update=data.get("update", 0), extra=extra)
    write_checkpoint(dst, payload)
    return payload


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m training.export", description=__doc__.splitlines()[0])
    p.add_argument("src", help="a run's checkpoint.pt (or any CrowsNest checkpoint)")
    p.add_argument("dst", help="the agent file to write")
    p.add_argument("--note", default="", help="a line stored with the file (e.g. the command that trained it)")
    p.add_argument("--prior-weight", type=float, default=None,
                   help="a residual policy's prior weight in the file (a value-fitted policy's departure threshold "
                        "is this x bc_value_scale points); default: the checkpoint's")
    add_evaluate_arguments(p)
    args = p.parse_args(argv)
    try:
        check_evaluate_arguments(args)  # refused before anything is written
        payload = export(args.src, args.dst, args.note, args.prior_weight)
        print(f"wrote {args.dst} ({os.path.getsize(args.dst) / 1e6:.2f} MB)")
        if args.evaluate:
            spec = payload["model_spec"]
            about = [f"- exported from `{args.src}` (run `{payload['extra']['source']}`, "
                     f"{payload['extra']['global_step']:,} learner decisions) by `python -m training.export`"]
            if spec.get("prior"):
                about.append(f"- residual policy on `{spec['prior']}`, prior weight {spec['prior_weight']:g}"
                             + (" (set at export)" if args.prior_weight is not None else ""))
            verdict = evaluate_file(args.dst, args.evaluate, args.deals, args.seed, args.workers, about=about)
            print(json.dumps(verdict, indent=2))
    except (ValueError, OSError) as err:
        return print_error(p.prog, err)
    return 0


if __name__ == "__main__":
    sys.exit(main())
