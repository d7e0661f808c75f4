"""Join several policies of one rule set into one agent file: a product of experts.

    python -m training.ensemble OUT.pt A.pt B.pt C.pt [--note TEXT]

The file holds a :class:`agents.networks.PolicyEnsemble`: its policy is the mean of the members'
log-probabilities (their product, renormalised over the legal actions), its value the mean of
their values. It loads like any agent file (``checkpoint:OUT.pt``, a shipped ``learned`` file, a
``bc_teacher`` to distil it back into one network), and nothing trains it further.

The members must be actor-critic (PPO-format) files for the same rules and observation layout,
with the same prior (``ppo.prior``), since they share one input; each keeps its own prior weight
(a file exported with ``--prior-weight`` joins one trained at another). An ensemble
named as a member brings its own members, each one vote like any other (so ``OUT.pt SHIPPED.pt
NEW.pt`` adds one member to a shipped ensemble). ``extra.members`` records each member's file and
source run.

``--evaluate DIR`` then plays the file as a training run's final evaluation does (against random
and the heuristic on the arena's duplicate deals, seed ``--seed``, and the heuristic against random
on the same deals) and writes a run folder's ``eval.json``, ``baseline.json``, ``arena.png`` and
``report.md`` there, so the file's figures come from the same code as every trained policy's.
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Sequence
from typing import Any, cast

from agents.checkpoint import (
    MAX_MEMBERS,
    CheckpointError,
    checkpoint_variant,
    make_payload,
    model_from_checkpoint,
    read_checkpoint,
    write_checkpoint,
)
from agents.networks import ActorCritic, PolicyEnsemble
from crowsnest_env.cli_errors import print_error

from .export import check_output
from .report import add_evaluate_arguments, check_evaluate_arguments, evaluate_file


def ensemble(dst: str, members: Sequence[str], note: str = "") -> dict:
    """Write the ensemble of the agent files ``members`` to ``dst``; returns its payload."""
    if not members:
        raise CheckpointError("name at least one member file")
    if len(members) > MAX_MEMBERS:
        raise CheckpointError(f"{len(members)} members; an ensemble holds at most {MAX_MEMBERS}")
    for src in members:
        check_output(src, dst)
    datas = [read_checkpoint(src) for src in members]
    first, variant = datas[0], checkpoint_variant(datas[0])
    prior = {k: first["model_spec"][k] for k in ("prior", "prior_weight") if k in first["model_spec"]}
    shared = prior.get("prior_weight")

    def own_weight(net: ActorCritic) -> dict[str, Any]:
        """a member's spec entry for its prior weight: none where it is the shared one"""
        return {} if shared is None or net.prior_weight == float(shared) else {"prior_weight": net.prior_weight}

    specs: list[dict[str, Any]] = []
    nets: list[ActorCritic] = []
    records: list[dict[str, str]] = []
    for src, data in zip(members, datas):
        spec = data["model_spec"]
        if data["algo"] != "ppo":
            raise CheckpointError(f"member {src!r} is a {data['algo']} network; an ensemble joins actor-critic "
                                  f"(ppo) policies, whose probabilities it multiplies")
        if checkpoint_variant(data) != variant:
            raise CheckpointError(f"member {src!r} was trained for {checkpoint_variant(data).name!r}, "
                                  f"{members[0]!r} for {variant.name!r}: an ensemble plays one rule set")
        if spec.get("prior") != prior.get("prior"):
            raise CheckpointError(f"member {src!r} has prior {spec.get('prior') or 'none'}, {members[0]!r} "
                                  f"{prior.get('prior') or 'none'}: the members share one input, so they need "
                                  f"the same prior")
        net = model_from_checkpoint(data)
        if isinstance(net, PolicyEnsemble):  # an ensemble brings its members, one vote each
            inner = data.get("extra", {}).get("members") or []
            for i, member in enumerate(net.members):
                record = inner[i] if len(inner) == len(net.members) else {}
                nets.append(cast(ActorCritic, member))
                inner_spec = {k: v for k, v in spec["members"][i].items() if k != "prior_weight"}
                specs.append({**inner_spec, **own_weight(nets[-1])})
                records.append({"file": f"{os.path.basename(src)}/{record.get('file', i)}",
                                "source": str(record.get("source", ""))})
        else:
            nets.append(cast(ActorCritic, net))
            specs.append({**{k: spec[k] for k in ("hidden", "oracle_size") if k in spec}, **own_weight(nets[-1])})
            records.append({"file": os.path.basename(src), "source": str(data.get("extra", {}).get("source", ""))})
    if len(nets) > MAX_MEMBERS:
        raise CheckpointError(f"{len(nets)} members in all; an ensemble holds at most {MAX_MEMBERS}")
    model = PolicyEnsemble(nets)
    extra = {"source": "ensemble", "note": note, "members": records}
    payload = make_payload(algo="ppo", model=model, model_spec={"members": specs, **prior}, variant=variant,
                           extra=extra)
    model_from_checkpoint(payload)  # the file's spec and weights fit before anything is written
    write_checkpoint(dst, payload)
    return payload


def evaluate(path: str, out: str, deals: int = 1000, seed: int = 12345, workers: int = 2) -> dict[str, Any]:
    """A run's final evaluation of the agent file ``path`` (an ensemble or any other), written into
    the folder ``out``; returns the verdicts (:func:`training.report.evaluate_file`)."""
    members = read_checkpoint(path).get("extra", {}).get("members") or []
    about = ([f"- {len(members)} members (`python -m training.ensemble`): "
              + ", ".join(f"`{m['file']}` ({m['source']})" for m in members)]
             if members else [f"- agent file `{path}`"])
    return evaluate_file(path, out, deals, seed, workers,
                         about=[*about, "- no training of its own (its members were trained by their own runs)"])


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m training.ensemble", description=__doc__.splitlines()[0])
    p.add_argument("dst", help="the agent file to write")
    p.add_argument("members", nargs="+", help="the member agent files (or run checkpoints), same rules and prior")
    p.add_argument("--note", default="", help="a line stored with the file (e.g. the commands that made the members)")
    add_evaluate_arguments(p)
    args = p.parse_args(argv)
    try:
        check_evaluate_arguments(args)  # refused before anything is written
        payload = ensemble(args.dst, args.members, args.note)
        count = len(payload["model_spec"]["members"])
        print(f"wrote {args.dst} ({os.path.getsize(args.dst) / 1e6:.2f} MB, {count} members)")
        if args.evaluate:
            print(json.dumps(evaluate(args.dst, args.evaluate, args.deals, args.seed, args.workers), indent=2))
    except (ValueError, OSError) as err:
        return print_error(p.prog, err)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
