"""Generate the README's figure tables from the JSON in ``docs/results/``, in place.

    python scripts/readme_tables.py            # rewrite every table block of README.md
    python scripts/readme_tables.py --check    # exit 1 (and show the diff) when README.md differs

A table block in the README is the text between ``<!-- table:NAME -->`` and ``<!-- /table:NAME -->``;
the function registered under NAME (``@table("NAME")``) writes it from the results folder. To add
a table, register one more function and put its markers where it belongs. Every figure comes from
a JSON file that the command quoted beside the table wrote (an arena ``--out`` file, a training
run's ``eval.json`` / ``baseline.json`` / ``config.yaml``); nothing here is measured or typed in.
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
RESULTS = ROOT / "docs" / "results"
MINUS = "\u2212"  # the README writes negative figures with a real minus sign

TableFn = Callable[[Path], list[str]]
TABLES: dict[str, TableFn] = {}
"""name -> function of the results folder giving the table's lines (header and separator included)."""

BLOCK = re.compile(r"(<!-- table:(?P<name>[\w-]+) -->\n)(?P<body>.*?)(<!-- /table:(?P=name) -->)", re.S)


def table(name: str) -> Callable[[TableFn], TableFn]:
    """Register ``fn`` as the writer of the README block ``name``."""
    def register(fn: TableFn) -> TableFn:
        if name in TABLES:
            raise ValueError(f"table {name!r} is registered twice")
        TABLES[name] = fn
        return fn
    return register


# --------------------------------------------------------------------------------- formatting
def signed(x: float, digits: int = 1) -> str:
    """``+182.5``, ``−3.8`` (a real minus sign)."""
    text = f"{x:+.{digits}f}"
    return text.replace("-", MINUS)


def interval(ci: list[float]) -> str:
    return f"[{signed(ci[0])}, {signed(ci[1])}]"


def rate(x: float) -> str:
    """A made rate: whole percent from 10% up, one decimal below (``97%``, ``1.6%``)."""
    return f"{x * 100:.0f}%" if round(x * 100) >= 10 else f"{x * 100:.1f}%"


def speed(x: float) -> str:
    """Decisions per second: to the hundred from 1,000 up (``56,100``), else whole (``29``)."""
    return f"{round(x, -2):,.0f}" if x >= 1000 else f"{x:.0f}"


def millions(n: float) -> str:
    return f"{n / 1e6:.1f}M"


def cells(*values: object) -> str:
    """One table row; an empty cell is written ``| |`` as in the hand-kept tables."""
    return "|" + "|".join(f" {v} " if v != "" else " " for v in values) + "|"


# ------------------------------------------------------------------------------------ sources
def load(results: Path, rel: str) -> Any:
    path = results / rel
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SystemExit(f"readme_tables: cannot read {path}: {exc.strerror or exc}") from None


def pairing(results: Path, rel: str, key: str | None = None) -> dict[str, Any]:
    """One pairing of a results file: an arena ``--out`` file (its only pairing) or a training run's
    ``eval.json`` (``key`` = the opponent) or ``baseline.json`` (a pairing itself)."""
    data = load(results, rel)
    if key is not None:
        return data[key]
    if "pairings" in data:
        if len(data["pairings"]) != 1:
            raise SystemExit(f"readme_tables: {rel} holds {len(data['pairings'])} pairings; name one")
        return data["pairings"][0]
    return data


def run_config(results: Path, run: str) -> dict[str, Any]:
    import yaml

    return yaml.safe_load((results / run / "config.yaml").read_text(encoding="utf-8"))


def adp(p: dict[str, Any]) -> str:
    return f"{signed(p['adp'])} {interval(p['adp_ci95'])}"


# ------------------------------------------------------------------------------------- tables
@table("standing")
def standing(results: Path) -> list[str]:
    """Where the agents stand (crowsnest): a over b, adp with its interval and arena seed."""
    main = run_config(results, "crowsnest_ppo")
    long = run_config(results, "crowsnest_ppo_long")
    rows = [
        ("`heuristic`", pairing(results, "heuristic_vs_random_crowsnest.json")),
        ("`pimc` (16 worlds x 20,000 nodes, bid margin 0)", pairing(results, "pimc_vs_heuristic_crowsnest_seed0.json")),
        (f"main job's policy ({millions(main['total_steps'])} decisions)",
         pairing(results, "crowsnest_ppo/eval.json", "heuristic")),
        (f"the long-config policy ({millions(long['total_steps'])} decisions; the distillation's auction teacher)",
         pairing(results, "crowsnest_ppo_long/eval.json", "heuristic")),
        ("one policy: that auction and PPO's tricks from the double-dummy-value student, distilled",
         pairing(results, "distill/eval.json", "heuristic")),
        ("`learned` (the shipped file: that policy and three students of the search, an ensemble)",
         pairing(results, "ensemble/eval.json", "heuristic")),
        ("`learned`", pairing(results, "ensemble/eval.json", "random")),
    ]
    for name, extra in (("`learned`", "learned_vs_pimc_crowsnest.json"),
                        ("`expert` (a best response to `pimc`'s auction bids and reads its partner's calls; the policy "
                         "plays the first three tricks)", "expert_vs_pimc_crowsnest_seed29.json"),
                        ("`expert?partner_calls=false` (the policy reads every seat's calls: `expert` before "
                         "2026-12-06 evening)", "expert_partner_calls_false_vs_pimc_crowsnest_seed29.json"),
                        ("`expert?auction=heuristic` (bidding as `pimc`: `expert` before its trained auction)",
                         "expert_pimc_auction_vs_pimc_crowsnest_seed29.json"),
                        ("`expert?auction=policy,from_trick=0` (the policy bids, every trick searched)",
                         "expert_policy_auction_vs_pimc_crowsnest_seed29.json")):
        if (results / extra).exists():
            rows.append((name, pairing(results, extra)))
    lines = ["| a | b | deals | seed | adp |", "|---|---|---:|---:|---|"]
    lines += [cells(a, f"`{p['b'].split('?')[0]}`", p["deals"], p["seed"], adp(p)) for a, p in rows]
    return lines


POLICY_RUNS = {"crowsnest": ("ensemble", "docs/results/ensemble/README.md")}
"""rule set -> (run folder under docs/results, config); the others: variants/<rule set> and
configs/policies/<rule set>.yaml. A folder without config.yaml is an ensemble's evaluation
(``python -m training.ensemble --evaluate``): no training of its own, its members counted in report.md.
A run folder with an ``exported/`` folder shipped its network with another prior weight
(``python -m training.export --prior-weight W --evaluate``), one with an ``ensemble/`` folder shipped an
ensemble of its network and others (``python -m training.ensemble --evaluate``, members named in its
report.md): the figures are that file's."""


@table("policies")
def policies(results: Path) -> list[str]:
    """The shipped policy of every rule set (agents/policies/<rule set>.pt): its training run's
    final evaluation (arena seed 12345) against the heuristic and random, the heuristic's own
    margin over random on the same deals, and the two verdicts of the main job's bar."""
    lines = ["| rule set | config | learner decisions (BC warm start) | training | deals | vs heuristic "
             "| its prior alone vs heuristic | vs random "
             "| heuristic vs random | beats heuristic (low end > +5) | robust (vs random ≥ heuristic's − 5) |",
             "|---|---|---:|---:|---:|---|---|---|---|---|---|"]
    for rs in rule_set_names():
        run, config = POLICY_RUNS.get(rs, (f"variants/{rs}", f"configs/policies/{rs}.yaml"))
        ensemble = not (results / run / "config.yaml").exists()
        cfg = {} if ensemble else run_config(results, run)
        # a shipped file other than the run's own network (RUN/ensemble: python -m training.ensemble --evaluate;
        # RUN/exported: python -m training.export --prior-weight W --evaluate): its own final evaluation; the
        # run's report still says what training cost
        ev = next((f"{run}/{sub}" for sub in ("ensemble", "exported") if (results / run / sub / "eval.json").exists()),
                  run)
        joined = ev.endswith("/ensemble")
        h, r = pairing(results, f"{ev}/eval.json", "heuristic"), pairing(results, f"{ev}/eval.json", "random")
        base = pairing(results, f"{ev}/baseline.json")
        report, own = ((results / folder / "report.md").read_text(encoding="utf-8") for folder in (run, ev))
        weight = re.search(r"prior weight ([\d.]+) \(set at export\)", own) if ev.endswith("/exported") else None
        minutes = None if ensemble else re.search(r"(?:about )?([\d.]+) min of training", report)
        members = re.search(r"^- (\d+) members", own, re.M)
        if ensemble and not members:
            raise SystemExit(f"readme_tables: {run}/report.md names no members and {run} has no config.yaml")
        strong, robust = h["adp_ci95"][0] > 5.0, r["adp"] >= base["adp"] - 5.0
        prior = cfg.get("ppo", {}).get("prior")  # a residual policy: what its rule agent does alone, same deals
        alone = (f"`{prior}` {adp(pairing(results, f'{run}/prior_alone.json'))}"
                 if prior and (results / run / "prior_alone.json").exists() else "—")
        if joined and not members:
            raise SystemExit(f"readme_tables: {ev}/report.md names no members")
        decisions = (f"an ensemble of {members.group(1)} policies" if (ensemble or joined) and members
                     else f"{millions(cfg['total_steps'])} ({millions(cfg['bc_decisions'])})")
        trained = ("its members'" if ensemble or joined
                   else f"{float(minutes.group(1)):.0f} min" if minutes else "")
        joined_with = (f", with {int(members.group(1)) - 1} more (`docs/results/{ev}/report.md`)"
                       if joined and members else "")
        lines.append(cells(rs, f"`{config}`" + joined_with
                           + (f", exported at prior weight {weight.group(1)}" if weight else ""),
                           decisions, trained, h["deals"], adp(h), alone, adp(r),
                           signed(base["adp"]), "**yes**" if strong else "no",
                           "yes" if robust else f"no ({signed(r['adp'] - base['adp'])})"))
    return lines


@table("bid-reading")
def bid_reading(results: Path) -> list[str]:
    """Issue 15 goal 4 in every rule set (``scripts/bid_reading.py``): each agent's first-call pass
    rate by fifth of hand strength, weakest first, and the correlation of its highest bid with strength."""
    data = load(results, "bid_reading.json")
    lines = ["| rule set | `learned`: first call passes, weakest → strongest fifth | `learned`: highest bid ~ strength "
             "| `heuristic`: first call passes | `heuristic`: highest bid ~ strength |",
             "|---|---|---:|---|---:|"]

    def fifths(row: dict[str, Any]) -> str:
        return " / ".join(f"{100 * x:.0f}" for x in row["pass_by_fifth"]) + "%"

    def corr(row: dict[str, Any]) -> str:
        c = row["corr_strength_top_bid"]
        return "—" if c is None else f"{c:+.2f}"

    for rs in rule_set_names():
        row = data["rule_sets"][rs]
        lines.append(cells(rs, fifths(row["learned"]), corr(row["learned"]), fifths(row["heuristic"]),
                           corr(row["heuristic"])))
    return lines


def stale_files(files: dict[str, str]) -> str:
    """A note for a result whose agent files (path -> SHA-256, as recorded) are not the ones in the
    tree now: it measured an earlier file of that name."""
    import hashlib

    old = [digest for path, digest in files.items()
           if not (ROOT / path).is_file() or hashlib.sha256((ROOT / path).read_bytes()).hexdigest() != digest]
    return f" (an earlier file, SHA-256 {old[0][:8]})" if old else ""


EXPLOIT_TARGETS = ("random", "heuristic", "learned", "pimc")
"""the exploitability table's rows, in this order, where docs/results/exploit/<target>_crowsnest/exploit.json exists"""


@table("exploit")
def exploit(results: Path) -> list[str]:
    """crowsnest-exploit's estimates (crowsnest): the BR against each target on held-out deals, the
    best plain reference against it, what the BR bid, and its edge by phase."""
    lines = ["| target | BR decisions (training min) | deals | BR vs target | best reference vs target "
             "| BR declares / makes | target declares / makes | BR's edge by phase: auction, discard+trump, play |",
             "|---|---:|---:|---|---|---|---|---|"]
    for target in EXPLOIT_TARGETS:
        path = results / "exploit" / f"{target}_crowsnest" / "exploit.json"
        if not path.exists():
            lines.append(cells(f"`{target}`", "—", "", "not measured", "", "", "", ""))
            continue
        d = json.loads(path.read_text(encoding="utf-8"))
        e, refs, bid = d["exploitability"], d["references"], d["bidding"]
        best = max(refs, key=lambda r: refs[r]["adp"])
        br, tg = bid["best_response"], bid["target_vs_best_response"]
        phases = d.get("by_phase") or {}
        split = ", ".join(signed(phases[g]["adp"]) for g in ("auction", "discard", "play") if g in phases)
        lines.append(cells(f"`{target}`{stale_files(d.get('target_files') or {})}",
                           f"{millions(d['budget']['trained_decisions'])} "
                           f"({d['budget']['training_seconds'] / 60:.0f})", e["deals"], f"**{adp(e)}**",
                           f"`{best}` {adp(refs[best])}", f"{rate(br['declare_rate'])} / {rate(br['made_rate'])}",
                           f"{rate(tg['declare_rate'])} / {rate(tg['made_rate'])}", split or "—"))
    return lines


AUCTION_EXPLOIT = "attempts/expert_br_auction{}", "attempts/expert_auction_exploitability{}"
"""issue 15 goal 4: per rule set (suffix ``_<rule set>``, none for crowsnest), the folders of the best response to
``pimc``'s auction (which became ``expert``'s auction) and of the one to ``expert``'s own auction; each folder's
``exploit/exploit.json`` at its recorded budget, the same at a longer budget in ``<folder>_8m`` and so on, and in
the second ``arena/x1_*.json``: the best response's calls inside ``expert``, against ``expert``"""


@table("auction-exploitability")
def auction_exploitability(results: Path) -> list[str]:
    """How much a best response's calls alone take from ``pimc``'s auction and from ``expert``'s, in the fast
    stand-in (the exploit tool's by-phase row "auction", its held-out deals), and inside ``expert``."""
    lines = ["| rule set | from `pimc`'s auction | from `expert`'s auction "
             "| the same calls inside `expert`, against `expert` |", "|---|---|---|---|"]

    def measured(base: Path) -> str:
        longer = sorted((f for f in base.parent.glob(f"{base.name}_*m")
                         if re.fullmatch(r"_\d+m", f.name[len(base.name):])),
                        key=lambda f: int(f.name[len(base.name) + 1:-1]))
        found = []
        for folder in (base, *longer):
            path = folder / "exploit" / "exploit.json"
            if path.exists():
                d = json.loads(path.read_text(encoding="utf-8"))
                found.append(f"{adp(d['by_phase']['auction'])} ({millions(d['budget']['decisions'])})"
                             f"{stale_files(d.get('target_files') or {})}")
        return "; ".join(found) or "not measured"

    for rs in rule_set_names():
        suffix = "" if rs == "crowsnest" else f"_{rs}"
        pimcs, experts = (results / pattern.format(suffix) for pattern in AUCTION_EXPLOIT)
        if not (ROOT / "agents" / "policies" / "expert" / f"{rs}_auction.pt").exists():
            own = "`expert` bids as `pimc`"
        else:
            own = measured(experts)
        games = sorted(experts.glob("arena/x1_*.json"))
        lines.append(cells(rs, measured(pimcs), own,
                           "; ".join(adp(pairing(results, str(g.relative_to(results)))) for g in games) or "—"))
    return lines


STANDING_AGENTS = ("random", "learned", "pimc", "expert", "double_dummy")
"""the columns: every agent against the heuristic; double_dummy sees all four hands (a cheating reference)"""
BOARD_AGENTS = ("random", "learned")
"""columns taken from the leaderboard (docs/results/bench/crowsnest-v1.json: the frozen deals, 1000 a rule
set); the search agents' cells are arena files, docs/results/standing/<rule set>_<agent>.json"""


def rule_set_names() -> tuple[str, ...]:
    """The nine rule sets, in the leaderboard's order: agents.deal_sets.RULE_SETS, the one list."""
    sys.path.insert(0, str(ROOT))
    from agents.deal_sets import RULE_SETS

    return RULE_SETS


def standing_cell(results: Path, rule_set: str, agent: str) -> str:
    """``adp [lo, hi]`` and deals of ``agent`` vs the heuristic in ``rule_set``: the leaderboard's cell
    for random and learned, ``standing/<rule set>_<agent>.json`` (an arena ``--out`` file) for the
    others; ``—`` where there is none."""
    if agent in BOARD_AGENTS:
        board = results / "bench" / "crowsnest-v1.json"
        section = json.loads(board.read_text(encoding="utf-8"))["rule_sets"].get(rule_set, {}) if board.exists() else {}
        for c in section.get("cells", []):
            if c["a"] == agent and c["b"] == "heuristic":
                return f"{adp(c)} (v1)"
            if c["a"] == "heuristic" and c["b"] == agent:  # the references' own cells: one orientation each
                return f"{adp({'adp': -c['adp'], 'adp_ci95': [-c['adp_ci95'][1], -c['adp_ci95'][0]]})} (v1)"
        return "—"
    path = results / "standing" / f"{rule_set}_{agent}.json"
    if not path.exists():
        return "—"
    p = json.loads(path.read_text(encoding="utf-8"))["pairings"][0]
    return f"{adp(p)} ({p['deals']})"


@table("rule-sets")
def rule_sets(results: Path) -> list[str]:
    """Where the agents stand in every rule set: adp against the heuristic with its interval (deals)."""
    head = ["rule set", *(f"`{a}`" + (" (cheating)" if a == "double_dummy" else "") for a in STANDING_AGENTS)]
    lines = ["| " + " | ".join(head) + " |", "|---" * len(head) + "|"]
    for rs in rule_set_names():
        lines.append(cells(rs, *(standing_cell(results, rs, a) for a in STANDING_AGENTS)))
    return lines


@table("solver")
def solver(results: Path) -> list[str]:
    """Exact double-dummy solves by rule set and trick (benchmarks/bench_solver.py --json), DDS the anchor."""
    data = json.loads((results / "bench_solver.json").read_text(encoding="utf-8"))
    dds = data["dds_median_ms"]
    lines = ["| rule set | trick (tricks left) | median ms | max ms | median nodes | nodes/s | median / DDS |",
             "|---|---|---:|---:|---:|---:|---:|"]
    for r in data["rows"]:
        def ms(x: float | None) -> str:
            return f"> {data['node_limit'] / 1e6:.0f}M nodes" if x is None else f"{x:,.1f}"
        ratio = "" if r["median_ms"] is None or not dds else f"{r['median_ms'] / dds:.2f}"
        lines.append(cells(r["rule_set"], f"{r['trick']} ({r['tricks_left']})", ms(r["median_ms"]), ms(r["max_ms"]),
                           f"{r['median_nodes']:,.0f}", f"{r['nodes_per_s'] / 1e6:.1f}M", ratio))
    return lines


@table("arena")
def arena(results: Path) -> list[str]:
    """The baselines against each other, per variant (``crowsnest-arena ... --out``)."""
    lines = ["| variant | a | b | deals | adp (a − b) | 95% CI | made rate a / b | decisions/s a / b |",
             "|---|---|---|---:|---:|---|---|---|"]
    for rel in ("heuristic_vs_random_crowsnest.json", "heuristic_vs_random_tournament.json",
                "pimc_vs_heuristic_crowsnest.json", "pimc_vs_heuristic_tournament.json"):
        p = pairing(results, rel)
        lines.append(cells(p["variant"], p["a"], p["b"], p["deals"], signed(p["adp"]), interval(p["adp_ci95"]),
                           f"{rate(p['made_rate_a'])} / {rate(p['made_rate_b'])}",
                           f"{speed(p['decisions_per_s_a'])} / {speed(p['decisions_per_s_b'])}"))
    return lines


@table("ppo")
def ppo(results: Path) -> list[str]:
    """The shipped runs: each run folder's final evaluation, the heuristic on the same deals, and
    the long run against PIMC (arena seed 7)."""
    def row(run: str, training: str, p: dict[str, Any], bold: bool = False, deals: str | None = None) -> str:
        figure = f"**{signed(p['adp'])}**" if bold else signed(p["adp"])
        return cells(run, training, p["b"], deals or p["deals"], figure, interval(p["adp_ci95"]),
                     f"{rate(p['made_rate_a'])} / {rate(p['made_rate_b'])}")

    main, long = run_config(results, "crowsnest_ppo"), run_config(results, "crowsnest_ppo_long")
    distill = run_config(results, "distill")
    vs_pimc = pairing(results, "learned_vs_pimc_crowsnest.json")
    return [
        "| run | training | b | deals | adp (learner − b) | 95% CI | made rate learner / b |",
        "|---|---|---|---:|---:|---|---|",
        row(f"default `configs/crowsnest_ppo.yaml` (main job): BC on {millions(main['bc_decisions'])} heuristic "
            "decisions, random kept in the pool, fixed budget", f"{millions(main['total_steps'])} learner decisions",
            pairing(results, "crowsnest_ppo/eval.json", "random")),
        row("", "", pairing(results, "crowsnest_ppo/eval.json", "heuristic"), bold=True),
        row("*the heuristic itself, same deals*", "", pairing(results, "crowsnest_ppo/baseline.json")),
        row("long `configs/crowsnest_ppo_long.yaml`: the main job's recipe, fixed budget",
            f"{millions(long['total_steps'])} decisions", pairing(results, "crowsnest_ppo_long/eval.json", "random")),
        row("", "", pairing(results, "crowsnest_ppo_long/eval.json", "heuristic"), bold=True),
        row("`configs/crowsnest_distill.yaml`: the long run's auction and the tricks of PPO from "
            "the double-dummy-value student, 8M decisions (`docs/results/dd_ppo_play8m/`), cloned into one network",
            f"{millions(distill['bc_decisions'])} cloned decisions", pairing(results, "distill/eval.json", "random")),
        row("", "", pairing(results, "distill/eval.json", "heuristic"), bold=True),
        row("shipped `learned`: that network and three students of the search joined by `python -m training.ensemble` "
            "(`docs/results/ensemble/`)", "its members'", pairing(results, "ensemble/eval.json", "random")),
        row("", "", pairing(results, "ensemble/eval.json", "heuristic"), bold=True),
        row("", "", vs_pimc, bold=True, deals=f"{vs_pimc['deals']} (seed {vs_pimc['seed']})"),
    ]


@table("levels")
def levels(results: Path) -> list[str]:
    """The play app's levels (agents/play/levels.py, the one table of level -> agent) with the
    measured strength of each agent: the level's own figure from its arena or training JSON."""
    sys.path.insert(0, str(ROOT))
    from agents.play.levels import LEVELS

    strength = {
        "easy": ("`heuristic`", pairing(results, "easy_vs_heuristic_crowsnest.json")),
        "normal": ("`random`", pairing(results, "heuristic_vs_random_crowsnest.json")),
        "hard": ("`heuristic`", pairing(results, "ensemble/eval.json", "heuristic")),
        "expert": ("`pimc`", pairing(results, "expert_vs_pimc_crowsnest_seed29.json")),  # with the shipped policy
    }
    if set(strength) != set(LEVELS):
        raise SystemExit(f"readme_tables: levels table knows {sorted(strength)}, the app has {sorted(LEVELS)}")
    lines = ["| level | agent | what it is | crowsnest: adp against | deals | adp |", "|---|---|---|---|---:|---|"]
    for name, lv in LEVELS.items():
        b, p = strength[name]
        lines.append(cells(lv.title, f"`{lv.agent}`", lv.about, b, p["deals"], adp(p)))
    return lines


def _register_leaderboard() -> None:
    """The benchmark's two blocks, written by agents.bench_report (also what crowsnest-bench --readme uses)."""
    sys.path.insert(0, str(ROOT))
    from agents.bench_report import README_TABLES

    for name, fn in README_TABLES.items():
        table(name)(fn)


_register_leaderboard()


# ------------------------------------------------------------------------------------- driver
def render(text: str, results: Path = RESULTS, tables: dict[str, TableFn] | None = None) -> str:
    """``text`` with every table block rewritten; SystemExit naming a block with no writer, or a
    registered table whose markers are missing."""
    tables = TABLES if tables is None else tables
    seen: set[str] = set()

    def fill(m: re.Match[str]) -> str:
        name = m.group("name")
        if name not in tables:
            raise SystemExit(f"readme_tables: README block {name!r} has no table function; "
                             f"registered: {', '.join(sorted(tables))}")
        seen.add(name)
        return m.group(1) + "\n".join(tables[name](results)) + "\n" + m.group(4)

    out = BLOCK.sub(fill, text)
    missing = sorted(set(tables) - seen)
    if missing:
        raise SystemExit(f"readme_tables: no <!-- table:NAME --> markers for {', '.join(missing)}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if the README differs")
    parser.add_argument("--readme", type=Path, default=README, help=f"default {README.relative_to(ROOT)}")
    parser.add_argument("--results", type=Path, default=RESULTS, help="the JSON folder (default docs/results)")
    args = parser.parse_args(argv)
    text = args.readme.read_text(encoding="utf-8")
    new = render(text, args.results)
    if args.check:
        if new != text:
            sys.stdout.writelines(difflib.unified_diff(text.splitlines(True), new.splitlines(True),
                                                       str(args.readme), "generated"))
            print(f"{args.readme} differs from its tables' JSON; run python scripts/readme_tables.py", file=sys.stderr)
            return 1
        return 0
    if new != text:
        sys.path.insert(0, str(ROOT))
        from crowsnest_env.atomic import atomic_write_text

        atomic_write_text(args.readme, new)
        print(f"rewrote {args.readme}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
