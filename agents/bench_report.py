"""Presenting a benchmark board: Markdown, terminal tables, one plot per rule set, the README blocks.

Everything here is a function of the board JSON (:mod:`agents.bench`), so the outputs can be
redrawn from it (``crowsnest-bench --report-only``) and a test can hold the README equal to it.
The README blocks sit between ``<!-- table:NAME -->`` and ``<!-- /table:NAME -->`` markers
(``leaderboard``: the crowsnest board; ``leaderboard-rule-sets``: every rule set against the
heuristic); :data:`README_TABLES` maps each name to a function of the ``docs/results`` folder
giving its lines, the signature of a README-table generator's registry.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from crowsnest_env.atomic import atomic_write, atomic_write_text

MINUS = "\u2212"
README_BOARD = Path("bench") / "crowsnest-v1.json"
"""the board the README shows, relative to ``docs/results``"""
README_RULE_SET = "crowsnest"
README_BASELINE = "heuristic"
BLOCK = re.compile(r"(<!-- table:(?P<name>[\w-]+) -->\n)(?P<body>.*?)(<!-- /table:(?P=name) -->)", re.S)


# ------------------------------------------------------------------------------ formatting
def signed(x: float, digits: int = 1) -> str:
    """``+182.5``, ``−3.8`` (a real minus sign, as the README writes it)."""
    return f"{x:+.{digits}f}".replace("-", MINUS)


def adp_text(vs: dict[str, Any] | None) -> str:
    """``+12.3 [+9.0, +15.6]``, or ``·`` for an agent against itself / no cell."""
    if vs is None:
        return "·"
    ci = vs["adp_ci95"]
    return signed(vs["adp"]) + ("" if ci is None else f" [{signed(ci[0])}, {signed(ci[1])}]")


def half_width(vs: dict[str, Any]) -> str:
    ci = vs["adp_ci95"]
    return signed(vs["adp"]) + ("" if ci is None else f" ±{(ci[1] - ci[0]) / 2:.1f}")


def rating_text(rating: dict[str, Any]) -> str:
    return f"{rating['ordinal']:.1f} ({rating['mu']:.1f} ± {rating['sigma']:.2f})".replace("-", MINUS)


def short(name: str, width: int = 36) -> str:
    """A long agent spec (a checkpoint path) cut from the left: ``…/runs/x/checkpoint.pt``."""
    return name if len(name) <= width else "…" + name[-(width - 1):]


def _row(*cells: object) -> str:
    return "| " + " | ".join(str(c) for c in cells) + " |"


# ------------------------------------------------------------------------------ Markdown
def section_lines(board: dict[str, Any], rule_set: str) -> list[str]:
    """A rule set's leaderboard as a Markdown table: rank, agent, rating, adp against each reference."""
    sec = board["rule_sets"][rule_set]
    refs = sec["references"]
    lines = [_row("#", "agent", "rating: ordinal (mu ± sigma)", *(f"vs {r}" for r in refs)),
             "|---:|---|---:|" + "---:|" * len(refs)]
    for row in sec["rows"]:
        name = f"`{row['agent']}`" + ("" if row["reference"] else " (added)")
        lines.append(_row(row["rank"], name, rating_text(row["rating"]), *(adp_text(row["vs"].get(r)) for r in refs)))
    return lines


def _section_note(board: dict[str, Any], rule_set: str) -> str:
    sec = board["rule_sets"][rule_set]
    missing = "".join(f"; `{r}` left out: {why}" for r, why in sec["unavailable"].items())
    skipped = [r for r in board["reference_lineup"] if r not in sec["references"] and r not in sec["unavailable"]]
    not_run = f"; not run this time: {', '.join(f'`{r}`' for r in skipped)}" if skipped else ""
    return (f"deals sha256 `{sec['deal_set_sha256'][:16]}`, code version `{sec['code_version'][:12]}`, "
            f"{len(sec['cells'])} cell{'s' if len(sec['cells']) != 1 else ''}{missing}{not_run}")


def rule_sets_lines(board: dict[str, Any], baseline: str = README_BASELINE) -> list[str]:
    """Every rule set in one table: each agent's adp against ``baseline`` (the baseline's own row:
    against the weakest reference), ``±`` the 95% interval's half width."""
    names = list(dict.fromkeys(r["agent"] for sec in board["rule_sets"].values() for r in sec["rows"]))
    order = {n: i for i, n in enumerate(board["reference_lineup"])}
    names.sort(key=lambda n: order.get(n, len(order)))  # stable: candidates as added
    sets = list(board["rule_sets"])
    lines = [_row("agent", *sets), "|---|" + "---:|" * len(sets)]
    weakest = next((r for r in board["reference_lineup"] if r != baseline), None)
    for name in names:
        other = baseline if name != baseline else weakest
        cells = []
        for rs in sets:
            row = next((r for r in board["rule_sets"][rs]["rows"] if r["agent"] == name), None)
            vs = row["vs"].get(other) if row is not None and other is not None else None
            cells.append("–" if vs is None else half_width(vs))
        lines.append(_row(f"`{short(name)}`" + ("" if name != baseline else f" (vs {other})"), *cells))
    return lines


def markdown(board: dict[str, Any], plots: dict[str, str] | None = None) -> str:
    """The whole board as a Markdown page (one section per rule set)."""
    ds = board["deal_set"]
    out = [f"# CrowsNest benchmark `{ds['name']}`", "",
           f"Deal set `{ds['name']}` ({ds['description']}): {ds['deals']} duplicate deals per rule set, seed "
           f"{ds['seed']}, a hand passed out after {ds['max_redeals']} all-pass redeals. Written by "
           f"`crowsnest-bench` from `{ds['name']}.json`; do not edit. adp: mean points difference per deal "
           "(the agent's team minus the reference's), 95% interval; ratings: openskill Plackett-Luce over all "
           "of a rule set's cells, one match per duplicate deal.", ""]
    if board["rule_sets"]:
        out += [f"## Against the {README_BASELINE}, every rule set", "", *rule_sets_lines(board), ""]
    for rs in board["rule_sets"]:
        out += [f"## {rs}", "", _section_note(board, rs), "", *section_lines(board, rs), ""]
        if plots and rs in plots:
            out += [f"![{rs}]({plots[rs]})", ""]
    return "\n".join(out)


# ------------------------------------------------------------------------------ terminal
def print_board(board: dict[str, Any]) -> None:
    """One rich table per rule set of the board."""
    from rich.console import Console
    from rich.table import Table

    console = Console()
    if not console.is_terminal:
        console = Console(width=160)
    for rs, sec in board["rule_sets"].items():
        t = Table(title=f"{rs}: {board['deal_set']['name']} ({board['deal_set']['deals']} deals)")
        for col in ("#", "agent", "ordinal", *(f"vs {r}" for r in sec["references"])):
            t.add_column(col, justify="left" if col == "agent" else "right")
        for row in sec["rows"]:
            t.add_row(str(row["rank"]), short(row["agent"], 48), f"{row['rating']['ordinal']:.1f}",
                      *(adp_text(row["vs"].get(r)).replace(MINUS, "-") for r in sec["references"]))
        console.print(t)


# ------------------------------------------------------------------------------ plot
def plot_section(board: dict[str, Any], rule_set: str, path: str | os.PathLike[str]) -> None:
    """One panel per reference (each entrant's adp against it, 95% interval) and one of ratings, to ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sec = board["rule_sets"][rule_set]
    rows, refs = sec["rows"], sec["references"]
    labels = [short(r["agent"]) for r in rows]
    ys = list(range(len(rows)))
    fig, axes = plt.subplots(1, len(refs) + 1, figsize=(2.2 + 3.0 * (len(refs) + 1), 1.3 + 0.45 * max(len(rows), 3)),
                             sharey=True, squeeze=False)
    for ax, ref in zip(axes[0], refs):
        for y, row in zip(ys, rows):
            vs = row["vs"].get(ref)
            if vs is None:
                continue
            lo, hi = (vs["adp_ci95"] or [vs["adp"], vs["adp"]])
            color = "C0" if row["reference"] else "C3"
            ax.errorbar([vs["adp"]], [y], xerr=[[vs["adp"] - lo], [hi - vs["adp"]]], fmt="o", capsize=4, color=color)
            ax.annotate(signed(vs["adp"]), (vs["adp"], y), textcoords="offset points", xytext=(0, 7), ha="center",
                        fontsize=8, color=color)
        ax.axvline(0.0, color="grey", lw=0.8, ls="--")
        ax.margins(x=0.12)  # room for the value labels at the ends
        ax.set_title(f"vs {ref}")
        ax.set_xlabel("adp (points per deal), 95% CI")
    ax = axes[0][-1]
    ax.errorbar([r["rating"]["mu"] for r in rows], ys, xerr=[r["rating"]["sigma"] for r in rows], fmt="s", capsize=4,
                color="C2")
    ax.set_title("openskill rating")
    ax.set_xlabel("mu ± sigma")
    axes[0][0].set_yticks(ys, labels)
    axes[0][0].set_ylim(len(rows) - 0.6, -0.7)  # best first, room above the top row's label
    added = " (red: added agents)" if sec["candidates"] else ""
    fig.suptitle(f"{board['deal_set']['name']}, {rule_set}: {board['deal_set']['deals']} duplicate deals{added}",
                 fontsize=10)
    fig.tight_layout()

    def write(fh: IO[Any]) -> None:
        fig.savefig(fh, format=Path(path).suffix[1:] or "png", dpi=110)

    try:
        atomic_write(path, write, binary=True)
    finally:
        plt.close(fig)


def plot_name(board: dict[str, Any], rule_set: str) -> str:
    return f"{board['deal_set']['name']}_{rule_set}.png"


def write_reports(board: dict[str, Any], out: str | os.PathLike[str]) -> list[Path]:
    """Write ``OUT/<deal set>.md`` and a plot per rule set beside the JSON; the paths written."""
    out = Path(out)
    plots = {rs: plot_name(board, rs) for rs in board["rule_sets"]}
    written = []
    for rs, name in plots.items():
        plot_section(board, rs, out / name)
        written.append(out / name)
    md = out / f"{board['deal_set']['name']}.md"
    atomic_write_text(md, markdown(board, plots) + "\n")
    return [md, *written]


# ------------------------------------------------------------------------------ README
def readme_blocks(board: dict[str, Any]) -> dict[str, list[str]]:
    """The README's blocks from a board: ``leaderboard`` (its crowsnest rule set) and
    ``leaderboard-rule-sets`` (every rule set against the heuristic)."""
    if README_RULE_SET not in board["rule_sets"]:
        raise ValueError(f"the board has no {README_RULE_SET!r} rule set for the README's leaderboard")
    return {"leaderboard": section_lines(board, README_RULE_SET), "leaderboard-rule-sets": rule_sets_lines(board)}


def load_board(path: str | os.PathLike[str]) -> dict[str, Any]:
    import json

    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise ValueError(f"cannot read the board {str(path)!r}: {err}") from None


def readme_leaderboard(results: Path) -> list[str]:
    """README block ``leaderboard`` from the ``docs/results`` folder (a README-table generator's signature)."""
    return readme_blocks(load_board(results / README_BOARD))["leaderboard"]


def readme_rule_sets(results: Path) -> list[str]:
    """README block ``leaderboard-rule-sets`` from the ``docs/results`` folder."""
    return readme_blocks(load_board(results / README_BOARD))["leaderboard-rule-sets"]


README_TABLES: dict[str, Callable[[Path], list[str]]] = {
    "leaderboard": readme_leaderboard, "leaderboard-rule-sets": readme_rule_sets}
"""block name -> function of ``docs/results``: ready to register with a README-table generator"""


def render_readme(text: str, board: dict[str, Any]) -> str:
    """``text`` with its leaderboard blocks rewritten from ``board`` (other blocks left as they are);
    ValueError if one of them has no markers."""
    blocks = readme_blocks(board)
    seen: set[str] = set()

    def fill(m: re.Match[str]) -> str:
        name = m.group("name")
        if name not in blocks:
            return m.group(0)
        seen.add(name)
        return m.group(1) + "\n".join(blocks[name]) + "\n" + m.group(4)

    out = BLOCK.sub(fill, text)
    missing = sorted(set(blocks) - seen)
    if missing:
        raise ValueError(f"the README has no <!-- table:NAME --> markers for {', '.join(missing)}")
    return out


__all__ = ["README_TABLES", "load_board", "markdown", "plot_section", "print_board", "readme_blocks",
           "readme_leaderboard", "readme_rule_sets", "render_readme", "rule_sets_lines", "section_lines",
           "write_reports"]
