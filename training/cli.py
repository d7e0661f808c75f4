"""``crowsnest-train``: train, evaluate in the arena and write the report of one run.

    crowsnest-train --config configs/crowsnest_ppo.yaml [--out runs/NAME] [--resume]
    python -m training.cli --config configs/tiny_ppo.yaml --out /tmp/tiny

The algorithm is the config's ``algo`` (ppo | dmc). ``--resume`` continues from
``<out>/checkpoint.pt`` with its step count, optimizer and RNG state.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

from crowsnest_env.atomic import atomic_write_text

from .config import load_config


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="crowsnest-train", description=__doc__.split("\n")[0])
    p.add_argument("--config", required=True, help="YAML config (configs/*.yaml)")
    p.add_argument("--out", default=None, help="run folder (default runs/<name>)")
    p.add_argument("--resume", action="store_true", help="continue from <out>/checkpoint.pt")
    p.add_argument("--no-eval", action="store_true", help="skip the final arena evaluation and report")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="override a config field (dotted for sections: ppo.learning_rate=1e-4); repeatable")
    return p


def run(config: str, out: str | None = None, resume: bool = False, evaluate: bool = True,
        overrides: Sequence[str] = ()) -> dict[str, Any]:
    """Train as the config says (with ``key=value`` overrides), then evaluate and write
    report.md; returns a summary."""
    cfg = load_config(config, overrides)
    out = out or os.path.join("runs", cfg.name)
    if cfg.algo == "ppo":
        from .ppo import train
    else:
        from .dmc import train
    summary = train(cfg, out, resume=resume)  # checks the run folder (and reaches Ray) before writing to it
    if evaluate and cfg.final_eval_deals > 0:
        from .evaluate import baseline_reference, final_evaluation, verdicts
        from .report import write_report

        results = final_evaluation(cfg, summary["checkpoint"])
        atomic_write_text(os.path.join(out, "eval.json"), json.dumps(results, indent=2))
        reference = baseline_reference(cfg)
        atomic_write_text(os.path.join(out, "baseline.json"), json.dumps(reference, indent=2))
        summary["eval"] = {k: {"adp": v["adp"], "adp_ci95": v["adp_ci95"], "made_rate_a": v["made_rate_a"],
                               "made_rate_b": v["made_rate_b"]} for k, v in results.items()}
        summary["baseline"] = {"heuristic_vs_random": {"adp": reference["adp"], "adp_ci95": reference["adp_ci95"]}}
        summary["verdicts"] = verdicts(results, reference)
        summary["report"] = write_report(out, cfg, results, summary, reference)
    return summary


def main(argv: Sequence[str] | None = None) -> int:
    """The ``crowsnest-train`` command: exit status 2 and ``crowsnest-train: error: ...`` (no
    traceback) for a bad config, checkpoint, action or path."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        summary = run(args.config, args.out, args.resume, evaluate=not args.no_eval, overrides=args.set)
    except (ValueError, OSError) as err:  # ConfigError, CheckpointError, IllegalActionError are ValueErrors
        print(f"{parser.prog}: error: {err}", file=sys.stderr)
        return 2
    print(json.dumps({k: v for k, v in summary.items() if k != "report"}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
