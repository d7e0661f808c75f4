"""Export a run's checkpoint as a small agent file (weights, rules, layout; no optimizer or RNG).

    python -m training.export runs/crowsnest_ppo/checkpoint.pt agents/policies/crowsnest.pt

The shipped policies (``agents/policies/<variant>.pt``, the agent name ``learned``) are made
this way from the project's own training runs; ``extra`` records where the file came from.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from agents.checkpoint import checkpoint_variant, make_payload, model_from_checkpoint, read_checkpoint, write_checkpoint


def export(src: str, dst: str, note: str = "") -> dict:
    """Write the weights-only agent file of checkpoint ``src`` to ``dst``; returns its payload."""
    data = read_checkpoint(src)
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
    args = p.parse_args(argv)
    try:
        export(args.src, args.dst, args.note)
    except (ValueError, OSError) as err:
        print(f"{p.prog}: error: {err}", file=sys.stderr)
        return 2
    print(f"wrote {args.dst} ({os.path.getsize(args.dst) / 1e6:.2f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
