"""``report.md`` of a run: the arena table, the training curves and the arena figure (PNG, Agg)."""

from __future__ import annotations

import json
import os
from typing import Any

from crowsnest_env.atomic import atomic_write_text

from .config import Config, warm_start_teacher

CURVES = (
    ("Learner team return per episode", ("charts/episodic_return", "charts/return_vs_heuristic",
                                         "charts/return_vs_snapshot", "charts/return_vs_self_play")),
    ("Arena: points per duplicate deal", ("eval/adp_vs_random", "eval/adp_vs_heuristic")),
    ("Losses", ("losses/policy_loss", "losses/value_loss", "losses/entropy", "losses/loss")),
    ("Value fit / made rate", ("losses/explained_variance", "charts/made_rate", "eval/made_rate_vs_heuristic")),
)


def read_scalars(tb_dir: str) -> dict[str, list[tuple[int, float]]]:
    """Every scalar logged in ``tb_dir`` as ``tag -> [(step, value), ...]``."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    acc = EventAccumulator(tb_dir, size_guidance={"scalars": 0})
    acc.Reload()
    return {tag: [(e.step, e.value) for e in acc.Scalars(tag)] for tag in acc.Tags().get("scalars", [])}


Curves = tuple[tuple[str, tuple[str, ...]], ...]


def plot_training(scalars: dict[str, list[tuple[int, float]]], path: str, curves: Curves = CURVES) -> None:
    """Four panels of TensorBoard scalars (``curves``: title and tags of each), a tag's 95% interval as a band."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 2, figsize=(12, 8))
    for ax, (title, tags) in zip(axes.flat, curves):
        for tag in tags:
            pts = scalars.get(tag)
            if not pts:
                continue
            xs, ys = zip(*pts)
            ax.plot(xs, ys, label=tag.split("/", 1)[1], marker="o" if len(pts) < 30 else None)
            low, high = scalars.get(tag + "_ci_low"), scalars.get(tag + "_ci_high")
            if low and high and len(low) == len(high):
                ax.fill_between([p[0] for p in low], [p[1] for p in low], [p[1] for p in high], alpha=0.2)
        ax.set_title(title)
        ax.set_xlabel("learner decisions")
        ax.grid(alpha=0.3)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def plot_arena(results: dict[str, dict[str, Any]], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(results)
    adp = [results[n]["adp"] for n in names]
    ci = [results[n].get("adp_ci95") or [a, a] for n, a in zip(names, adp)]
    err = [[a - c[0] for a, c in zip(adp, ci)], [c[1] - a for a, c in zip(adp, ci)]]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    ax1.bar(names, adp, yerr=err, capsize=6, color=["tab:green" if a > 0 else "tab:red" for a in adp])
    ax1.axhline(0, color="black", lw=0.8)
    ax1.set_title("learner - opponent, points per duplicate deal (95% CI)")
    width = 0.35
    xs = range(len(names))
    ax2.bar([x - width / 2 for x in xs], [results[n].get("made_rate_a") or 0 for n in names], width, label="learner")
    ax2.bar([x + width / 2 for x in xs], [results[n].get("made_rate_b") or 0 for n in names], width,
            label="opponent")
    ax2.set_xticks(list(xs), names)
    ax2.set_ylim(0, 1)
    ax2.set_title("made rate of contracts")
    ax2.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def _fmt_ci(ci: list[float] | None) -> str:
    return "-" if not ci else f"[{ci[0]:+.1f}, {ci[1]:+.1f}]"


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _yes(flag: bool | None) -> str:
    return "n/a" if flag is None else ("**yes**" if flag else "**no**")


def verdict_lines(results: dict[str, dict[str, Any]], reference: dict[str, Any] | None) -> list[str]:
    """The policy beside the heuristic's own margin over random: strong, and robust?"""
    from .evaluate import verdicts

    if not reference or "random" not in results:
        return []
    v = verdicts(results, reference)
    r, h = results["random"], results.get("heuristic")
    lines = [
        "## Strong and robust?", "",
        "| team a | vs random | vs heuristic |", "|---|---|---|",
        f"| final policy | {r['adp']:+.1f} {_fmt_ci(r.get('adp_ci95'))} | "
        + (f"{h['adp']:+.1f} {_fmt_ci(h.get('adp_ci95'))} |" if h else "- |"),
        f"| heuristic (same deals) | {reference['adp']:+.1f} {_fmt_ci(reference.get('adp_ci95'))} | - |",
        "",
    ]
    if v["strong"] is not None:
        lines.append(f"- beats the heuristic (95% interval's low end {v['vs_heuristic_low']:+.1f} > "
                     f"+{v['strong_low']:.0f}): {_yes(v['strong'])}")
    lines.append(f"- robust (margin over random {v['vs_random']:+.1f} >= the heuristic's "
                 f"{v['heuristic_vs_random']:+.1f} - {v['robust_slack']:.0f}): {_yes(v['robust'])}")
    return lines + [""]


def bc_line(cfg: Config, bc: dict[str, Any]) -> str:
    """The report's line on the behaviour-cloning warm start (empty without one); its time is
    part of the training time above."""
    if not bc.get("decisions"):
        return ""
    teacher = warm_start_teacher(cfg)
    dagger = (f" labelled by `{teacher}` in games where `{cfg.bc_behaviour}` played {cfg.bc_behaviour_share:.0%} of "
              f"the decisions (DAgger)" if cfg.bc_behaviour else f" of `{teacher}`")
    return (f"- behaviour cloning first: {int(bc['decisions']):,} decisions{dagger} "
            f"({int(bc.get('episodes', 0)):,} episodes; {bc.get('collect_seconds', 0.0) / 60:.1f} min to collect, "
            f"{bc.get('seconds', 0.0) / 60:.1f} min in all), accuracy {bc.get('bc_accuracy', 0.0):.1%}")


def arena_table(results: dict[str, dict[str, Any]]) -> list[str]:
    """The report's arena table: one row per opponent of the policy (team a)."""
    lines = ["| opponent | deals | points/deal (a - b) | 95% CI | made rate learner | made rate opponent "
             "| contracts learner / opponent |",
             "|---|---:|---:|---|---:|---:|---|"]
    for opp, r in results.items():
        lines.append(f"| {opp} | {r['deals']} | {r['adp']:+.1f} | {_fmt_ci(r.get('adp_ci95'))} | "
                     f"{_pct(r.get('made_rate_a'))} | {_pct(r.get('made_rate_b'))} | "
                     f"{r.get('bids_a')} / {r.get('bids_b')} |")
    return lines


def write_report(run_dir: str, cfg: Config, results: dict[str, dict[str, Any]], summary: dict[str, Any],
                 reference: dict[str, Any] | None = None) -> str:
    """Write ``report.md`` (and its PNGs) into ``run_dir``; returns the report's path.
    ``reference``: the heuristic vs random on the same deals (:func:`training.evaluate.baseline_reference`)."""
    scalars = read_scalars(os.path.join(run_dir, "tb"))
    plot_training(scalars, os.path.join(run_dir, "training_curves.png"))
    if results:
        plot_arena(results, os.path.join(run_dir, "arena.png"))
    sps = [v for _, v in scalars.get("charts/SPS", [])]
    lines = [
        f"# {cfg.name}: {cfg.algo.upper()} on {cfg.variant}{'' if cfg.crow else ' (no crow)'}",
        "",
        (f"- learner decisions: {summary.get('global_step', 0):,} in {summary.get('update', 0)} updates, "
         f"{summary.get('elapsed', 0.0) / 60:.1f} min of training"),
        f"- learner decisions per second: {sum(sps) / len(sps):,.0f} (mean over updates)" if sps else "",
        bc_line(cfg, summary.get("bc") or {}),
        f"- checkpoint: `{summary.get('checkpoint', '')}` (load with `make_agent('checkpoint:PATH')`)",
        "",
        "## Arena (duplicate deals, final policy as team a)",
        "",
        *arena_table(results),
    ]
    if not results:
        lines.append("| (no final evaluation) | | | | | | |")
    lines += ["", f"Arena seed {cfg.eval_seed}; each deal is played at two tables with the teams swapped.", ""]
    lines += verdict_lines(results, reference)
    if results:
        lines += ["![arena](arena.png)", ""]
    lines += ["## Training curves", "", "![training curves](training_curves.png)", ""]
    ratings_path = os.path.join(run_dir, "ratings.json")
    if os.path.exists(ratings_path):
        with open(ratings_path, encoding="utf-8") as fh:
            ratings = json.load(fh)["ratings"]
        lines += ["## Snapshot ratings (openskill over interval-evaluation deals)", "",
                  "| agent | ordinal | mu | sigma | deals |", "|---|---:|---:|---:|---:|"]
        lines += [f"| {r['agent']} | {r['ordinal']:.2f} | {r['mu']:.2f} | {r['sigma']:.2f} | {r['matches']} |"
                  for r in ratings]
        lines.append("")
    path = os.path.join(run_dir, "report.md")
    atomic_write_text(path, "\n".join(line for line in lines if line is not None) + "\n")
    return path


def add_evaluate_arguments(p: Any) -> None:
    """``--evaluate DIR`` and its ``--deals``, ``--seed`` and ``--workers``: the options of the commands
    that write an agent file and may then play it through :func:`evaluate_file`."""
    p.add_argument("--evaluate", metavar="DIR", default=None,
                   help="then play the file as a run's final evaluation and write eval.json, baseline.json, "
                        "arena.png and report.md into DIR")
    p.add_argument("--deals", type=int, default=1000, help="--evaluate's duplicate deals per opponent (default 1000)")
    p.add_argument("--seed", type=int, default=12345, help="--evaluate's arena seed (default 12345, the runs')")
    p.add_argument("--workers", type=int, default=2, help="--evaluate's arena processes (default 2)")


def check_evaluate_arguments(args: Any) -> None:
    """ValueError for ``--evaluate`` options that cannot be played, before the command writes anything."""
    if args.evaluate and args.deals <= 0:
        raise ValueError(f"--deals must be positive, got {args.deals}")
    if args.evaluate and args.workers <= 0:
        raise ValueError(f"--workers must be positive, got {args.workers}")


def evaluate_file(path: str, out: str, deals: int = 1000, seed: int = 12345, workers: int = 2,
                  about: list[str] | None = None) -> dict[str, Any]:
    """A training run's final evaluation of the agent file ``path`` (against random and the
    heuristic on the arena's duplicate deals of ``seed``, and the heuristic against random on the
    same deals), written into the folder ``out`` as a run's ``eval.json``, ``baseline.json``,
    ``arena.png`` and ``report.md`` (``about``: the report's lines on where the file came from);
    returns the verdicts. ``python -m training.ensemble --evaluate`` and ``python -m
    training.export --evaluate`` play their files through it, so a file made without training has
    its figures from the same code as every trained policy's."""
    from agents.checkpoint import CheckpointError, checkpoint_variant, read_checkpoint
    from crowsnest_env.rules import get_variant

    from .evaluate import baseline_reference, final_evaluation, verdicts

    if deals <= 0:
        raise ValueError(f"--deals must be positive, got {deals}")
    data = read_checkpoint(path)
    variant = checkpoint_variant(data)
    try:
        preset = get_variant(data["variant"])  # the name says it all: crowsnest_nocrow is the 40-card preset
    except ValueError:
        preset = None
    if preset != variant:  # the arena is given a rule set by name: a variant file's rules have none
        raise CheckpointError(f"{path!r} was trained for rules of its own named {variant.name!r}, not a preset; "
                              f"--evaluate plays the presets (evaluate it with crowsnest-arena --variant FILE)")
    cfg = Config(name=os.path.basename(os.path.normpath(out)), variant=data["variant"],
                 final_eval_deals=deals, eval_seed=seed, eval_workers=workers)
    os.makedirs(out, exist_ok=True)
    results = final_evaluation(cfg, path)
    atomic_write_text(os.path.join(out, "eval.json"), json.dumps(results, indent=2))
    reference = baseline_reference(cfg)
    atomic_write_text(os.path.join(out, "baseline.json"), json.dumps(reference, indent=2))
    plot_arena(results, os.path.join(out, "arena.png"))
    lines = [f"# {cfg.name}: {path} on {variant.name}", "", *(about or [f"- agent file `{path}`"]), "",
             "## Arena (duplicate deals, the file as team a)", "", *arena_table(results)]
    lines += ["", f"Arena seed {seed}; each deal is played at two tables with the teams swapped.", ""]
    lines += verdict_lines(results, reference)
    lines += ["![arena](arena.png)", ""]
    atomic_write_text(os.path.join(out, "report.md"), "\n".join(lines) + "\n")
    return verdicts(results, reference)
