"""Presenting arena results: rich tables on the terminal and a matplotlib PNG (Agg backend)."""

from __future__ import annotations

import os
from typing import Any

from rich.console import Console
from rich.table import Table


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _ci(ci: list[float] | None, scale: float = 1.0, fmt: str = "{:+.2f}") -> str:
    if ci is None:
        return "-"
    return f"[{fmt.format(ci[0] * scale)}, {fmt.format(ci[1] * scale)}]"


def _rate(x: float | None) -> str:
    return "-" if x is None else f"{x:,.0f}"


def _contract_cell(p: dict[str, Any], role: str) -> str:
    return f"{p[f'bids_{role}']} / {_pct(p[f'made_rate_{role}'])}"


def pairings_table(report: dict[str, Any]) -> Table:
    """One row per pairing: adp with its CI, contracts bid and made rate, decisions per second."""
    crow = "" if report.get("crow", True) else " (no crow)"
    t = Table(title=f"{report.get('variant', '')}{crow}: duplicate deals, seed {report.get('seed')}")
    for col in ("team a", "team b", "deals", "adp a-b", "95% CI", "a bids/made", "b bids/made",
                "dec/s a", "dec/s b"):
        t.add_column(col, justify="left" if col.startswith("team") else "right")
    for p in report["pairings"]:
        t.add_row(p["a"], p["b"], str(p["deals"]), f"{p['adp']:+.2f}", _ci(p["adp_ci95"]),
                  _contract_cell(p, "a"), _contract_cell(p, "b"),
                  _rate(p.get("decisions_per_s_a")), _rate(p.get("decisions_per_s_b")))
    return t


def by_phase_table(report: dict[str, Any]) -> Table:
    """Which phase an edge comes from: b with one phase played by a, against b."""
    bp = report["by_phase"]
    t = Table(title=f"where {bp['a']}'s edge over {bp['b']} comes from (each phase swapped alone)")
    for col in ("phase played by a", "adp vs b", "95% CI"):
        t.add_column(col, justify="left" if col.startswith("phase") else "right")
    whole = report["pairings"][0]
    t.add_row("all phases", f"{whole['adp']:+.2f}", _ci(whole["adp_ci95"]))
    for phase, row in bp["phases"].items():
        t.add_row(phase, f"{row['adp']:+.2f}", _ci(row["adp_ci95"]))
    return t


def games_table(report: dict[str, Any]) -> Table:
    """One row per pairing that played whole games: win rate of a with its Wilson interval."""
    t = Table(title=f"whole games to {report.get('target', 'the target')} (duplicate), "
                    f"capped at {report.get('max_hands')} hands")
    for col in ("team a", "team b", "games", "win a", "95% CI", "W-D-L", "capped", "hands/game"):
        t.add_column(col, justify="left" if col.startswith("team") else "right")
    for p in report["pairings"]:
        if p.get("games"):
            t.add_row(p["a"], p["b"], f"2x{p['games']}", _pct(p["game_win_rate_a"]),
                      _ci(p["game_win_ci95"], 100, "{:.1f}"),
                      f"{p['games_won_a']}-{p['games_drawn']}-{p['games_won_b']}",
                      str(p["games_capped"]), f"{p['mean_hands_per_game']:.1f}")
    return t


def ratings_table(report: dict[str, Any]) -> Table:
    t = Table(title="openskill Plackett-Luce ratings (one match per duplicate deal)")
    for col in ("agent", "mu", "sigma", "ordinal", "W", "D", "L"):
        t.add_column(col, justify="left" if col == "agent" else "right")
    for r in report["ratings"]:
        t.add_row(r["agent"], f"{r['mu']:.2f}", f"{r['sigma']:.2f}", f"{r['ordinal']:.2f}",
                  str(r["wins"]), str(r["draws"]), str(r["losses"]))
    return t


def adp_matrix_table(report: dict[str, Any]) -> Table:
    names = report["adp_table"]["agents"]
    t = Table(title="pairwise adp (row minus column, points per hand)")
    t.add_column("")
    for n in names:
        t.add_column(n, justify="right")
    for n, row in zip(names, report["adp_table"]["adp"]):
        t.add_row(n, *(f"{x:+.2f}" if m != n else "·" for m, x in zip(names, row)))
    return t


def print_report(report: dict[str, Any], console: Console | None = None) -> None:
    """Print the pairings table, and ratings plus the adp matrix in round-robin mode."""
    if console is None:
        console = Console()
        if not console.is_terminal:  # piped or logged: no width to fit, keep rows whole
            console = Console(width=140)
    console.print(pairings_table(report))
    if any(p.get("games") for p in report["pairings"]):
        console.print(games_table(report))
    if "by_phase" in report:
        console.print(by_phase_table(report))
    if "ratings" in report:
        console.print(ratings_table(report))
        console.print(adp_matrix_table(report))


def plot_report(report: dict[str, Any], path: str) -> None:
    """Save adp per pairing with 95% CI error bars (and ratings mu +/- sigma) to ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pairings = report["pairings"]
    panels = 2 if "ratings" in report else 1
    labels = [f"{p['a']} vs {p['b']}" for p in pairings]
    label_in = 0.075 * max(len(s) for s in labels)  # the y labels' width: the plot keeps its own 5 in
    fig, axes = plt.subplots(1, panels, figsize=(5 * panels + label_in, 1.4 + 0.5 * max(len(pairings), 4)),
                             squeeze=False)
    ax = axes[0][0]
    ys = list(range(len(pairings)))
    adp = [p["adp"] for p in pairings]
    lo = [p["adp"] - p["adp_ci95"][0] if p["adp_ci95"] else 0.0 for p in pairings]
    hi = [p["adp_ci95"][1] - p["adp"] if p["adp_ci95"] else 0.0 for p in pairings]
    ax.errorbar(adp, ys, xerr=[lo, hi], fmt="o", capsize=4)
    ax.axvline(0.0, color="grey", lw=0.8, ls="--")
    ax.set_yticks(ys, labels)
    ax.invert_yaxis()
    ax.set_xlabel("mean points difference per hand (a - b), 95% CI")
    ax.set_title(f"{report.get('variant', '')}: duplicate adp")
    if panels == 2:
        ax = axes[0][1]
        ratings = report["ratings"]
        ys = list(range(len(ratings)))
        ax.errorbar([r["mu"] for r in ratings], ys, xerr=[r["sigma"] for r in ratings], fmt="o", capsize=4)
        ax.set_yticks(ys, [r["agent"] for r in ratings])
        ax.invert_yaxis()
        ax.set_xlabel("openskill mu +/- sigma")
        ax.set_title("ratings")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


PLOT_FORMATS = ("png", "pdf", "svg", "jpg", "jpeg", "webp", "tif", "tiff", "eps", "ps")
"""image formats ``--plot`` writes (matplotlib's, less those that need extra tools: pgf needs LaTeX)"""


def check_plot_path(path: str) -> None:
    """ValueError unless ``path`` ends in an image extension :func:`plot_report` can write (checked
    before any deal is played: the plot is the last thing written)."""
    ext = os.path.splitext(path)[1][1:].lower()
    if ext not in PLOT_FORMATS:
        got = f"unknown image format {ext!r}" if ext else "no image extension"
        raise ValueError(f"--plot {path!r}: {got}; the file name must end in one of "
                         f"{', '.join('.' + f for f in PLOT_FORMATS)}")
