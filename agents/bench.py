"""crowsnest-bench: agents against a fixed reference line-up on a frozen deal set, as a leaderboard.

Usage::

    crowsnest-bench --add checkpoint:runs/x/checkpoint.pt     # one new row (its own rule set)
    crowsnest-bench --references random,heuristic,learned     # rebuild every rule set's board
    crowsnest-bench --variant crowsnest --add "pimc?samples=16" --workers 2
    crowsnest-bench --report-only --readme README.md          # redraw outputs from the JSON
    crowsnest-bench --export-deals deals.json --variant tournament --deal-set crowsnest-v1
    crowsnest-bench --prune                                   # also delete cells the board no longer uses

Every *entrant* (the reference line-up :data:`REFERENCES` plus the candidates added with
``--add``) plays every reference in an arena pairing on the deal set's deals (a *cell*,
:mod:`agents.bench_cells`); the references also play each other, candidates do not play each
other, so a new row costs one cell per reference. A finished cell is cached (by deal-set hash,
rule set, agents, their files and the code version) and not played again. The board is
rebuilt from the cells each run: adp of each entrant against each reference with its 95%
interval, and openskill ratings over all of a rule set's cells (one match per duplicate deal,
deal-major, as ``crowsnest-arena --round-robin``). Numbers do not depend on ``--workers`` or
``--backend``: every cell is an arena pairing, which guarantees that.

The board lives in ``OUT/<deal set>.json`` (with ``.md`` beside it and one
``<deal set>_<rule set>.png`` per rule set); a run updates the rule sets it selects and keeps
the others. ``--add X`` without ``--variant`` adds X to every rule set it can play (a checkpoint:
its own; ``learned``: those with a shipped policy). A reference that cannot play a rule set
(``learned`` without a shipped policy) is left out of that rule set's board, with the reason.
Each worker's torch uses one thread (``OMP_NUM_THREADS=1`` unless set): one worker per core.

Board JSON (``schema: crowsnest-bench/1``; ``rs`` is a rule set):

| field | meaning |
|---|---|
| ``deal_set`` | ``name``, ``deals``, ``seed``, ``max_redeals``, ``description`` |
| ``reference_lineup`` | :data:`REFERENCES` at the time of writing |
| ``rule_sets.<rs>.variant``, ``.crow`` | the arena's variant and crow option of the rule set |
| ``.deal_set_sha256`` | the hash of the deals' contents (:mod:`agents.deal_sets`) |
| ``.code_version`` | SHA-256 of the play code (:func:`agents.bench_cells.code_version`) |
| ``.references`` | the references played; ``.unavailable``: reference -> why it was left out |
| ``.candidates`` | the added agents, in the order added |
| ``.rows[]`` | one per entrant, best rating first (below) |
| ``.cells[]`` | the arena's pairing summaries (no ``deal_values``), with ``cache`` and ``timing`` |

- a row: ``agent``, ``rank``, ``reference`` (bool), ``files`` (path -> SHA-256 of what it loads),
  ``rating`` (openskill ``mu``, ``sigma``, ``ordinal``, ``matches``, ``wins``, ``draws``,
  ``losses``) and ``vs.<reference>``: ``adp``, ``adp_ci95``, ``deals``, ``won``, ``lost``,
  ``tied``, ``bids``, ``made_rate``, all from this agent's side.
- a cell's ``cache`` is its file, relative to the cache folder; its ``timing`` (decisions/s)
  holds the only machine-dependent numbers of the board (:func:`without_timing` drops them).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from crowsnest_env.cli_errors import exit_error, one_line, print_error
from crowsnest_env.rules import Variant
from crowsnest_env.table import Table

from . import make_agent, parse_team
from .arena import check_agents, check_writable, derive_seed, round_robin_matches, run_pairing, write_json_atomic
from .backends import BACKENDS, Backend, WorkerCrashError, make_backend
from .bench_cells import Warn, agent_files, cell_key, cell_path, code_version, read_cell, stderr_warning, write_cell
from .deal_sets import (
    DEFAULT_DEAL_SET,
    RULE_SETS,
    DealSet,
    get_deal_set,
    rule_set_options,
    rule_set_variant,
    verify_deal_set,
)
from .stats import fit_ratings

REFERENCES: tuple[str, ...] = ("random", "heuristic", "pimc", "learned", "expert")
"""the reference line-up, weakest first: every entrant plays each"""
BOARD_SCHEMA = "crowsnest-bench/1"
DEFAULT_OUT = os.path.join("docs", "results", "bench")
DEFAULT_CACHE = os.path.join(DEFAULT_OUT, "cache")


# ------------------------------------------------------------------------------ checks
def agent_problem(spec: str, rules: Variant, seed: int = 0) -> str | None:
    """Why team ``spec`` cannot play ``rules`` (None if it can): built with its options, a checkpoint
    trained for these rules, the files it loads present, and a legal first decision on deal 0."""
    try:
        check_agents([spec], rules)
        agent_files(spec, rules)
        table = Table(rules, episode="hand", observe=False, record=False)
        table.reset(random.Random(derive_seed(seed, "deal", 0)), dealer=0)
        view = table.view()
        for name in dict.fromkeys(parse_team(spec)):
            agent = make_agent(name)
            agent.reset(0)
            action = agent.act(view)
            if not (view.legal >> int(action)) & 1:
                return f"agent {name!r} chose an illegal first action ({action})"
    except (ValueError, OSError, RuntimeError) as err:
        return one_line(err)
    return None


@dataclass
class Section:
    """One rule set's board to build: who plays whom, and each cell's key and cache file."""

    rule_set: str
    deal_set: DealSet
    sha256: str
    version: str
    references: list[str]
    unavailable: dict[str, str]
    candidates: list[str]
    files: dict[str, dict[str, str]] = field(default_factory=dict)
    cells: list[tuple[str, str, dict[str, Any], Path]] = field(default_factory=list)

    @property
    def entrants(self) -> list[str]:
        return self.references + self.candidates


def plan_section(deal_set: DealSet, rule_set: str, candidates: Sequence[str], references: Sequence[str],
                 cache: str | os.PathLike[str]) -> Section:
    """Check everything for one rule set before anything plays; ValueError naming a candidate that
    cannot play it (references that cannot are left out with the reason)."""
    rules = rule_set_variant(rule_set)
    sha = verify_deal_set(deal_set, rule_set)
    version = code_version()[0]
    refs, unavailable = [], {}
    for ref in references:
        problem = agent_problem(ref, rules, deal_set.seed)
        if problem is None:
            refs.append(ref)
        else:
            unavailable[ref] = problem
    cands = [c for c in dict.fromkeys(candidates) if c not in refs]
    for cand in cands:
        problem = agent_problem(cand, rules, deal_set.seed)
        if problem is not None:
            raise ValueError(f"agent {cand!r} cannot play rule set {rule_set!r}: {problem}")
    section = Section(rule_set, deal_set, sha, version, refs, unavailable, cands)
    section.files = {name: agent_files(name, rules) for name in section.entrants}
    pairs = [(x, y) for i, x in enumerate(refs) for y in refs[i + 1:]] + [(c, r) for c in cands for r in refs]
    for a, b in pairs:
        key = cell_key(deal_set.as_dict(), sha, rule_set, a, b, {**section.files[a], **section.files[b]}, version)
        section.cells.append((a, b, key, cell_path(cache, key)))
    return section


# ------------------------------------------------------------------------------ running
def play_sections(sections: Sequence[Section], *, workers: int = 1, backend: str | Backend = "local",
                  address: str | None = None, progress: bool = False,
                  warn: Warn = stderr_warning) -> dict[str, list[dict[str, Any]]]:
    """Every cell of ``sections``, from the cache or played (and then cached): rule set -> cells."""
    found: dict[str, list[dict[str, Any] | None]] = {
        s.rule_set: [read_cell(path, key, warn) for _, _, key, path in s.cells] for s in sections}
    todo = [(s, i) for s in sections for i, cell in enumerate(found[s.rule_set]) if cell is None]
    total = sum(len(s.cells) for s in sections)
    if progress:
        print(f"crowsnest-bench: {total} cells, {total - len(todo)} cached, {len(todo)} to play", file=sys.stderr)
    if todo:
        runner = make_backend(backend, workers, address) if isinstance(backend, str) else backend
        try:
            for n, (s, i) in enumerate(todo, 1):
                a, b, key, path = s.cells[i]
                if progress:
                    print(f"[{n}/{len(todo)}] {s.rule_set}: {a} vs {b}, {s.deal_set.deals} deals", file=sys.stderr)
                variant, crow = rule_set_options(s.rule_set)
                pairing = run_pairing(a, b, variant=variant, crow=crow, deals=s.deal_set.deals, seed=s.deal_set.seed,
                                      max_redeals=s.deal_set.max_redeals, workers=workers, progress=progress,
                                      keep_deals=True, backend=runner)
                found[s.rule_set][i] = write_cell(path, key, pairing)
        finally:
            if isinstance(backend, str):
                runner.close()
    return {rs: [c for c in cells if c is not None] for rs, cells in found.items()}


def _side(pairing: dict[str, Any], flip: bool) -> dict[str, Any]:
    """A cell's result from one agent's side (``flip``: that agent is team b)."""
    role = "b" if flip else "a"
    ci = pairing["adp_ci95"]
    if ci is not None and flip:
        ci = [-ci[1], -ci[0]]
    won, lost = pairing["deals_won_a"], pairing["deals_won_b"]
    return {"adp": -pairing["adp"] if flip else pairing["adp"], "adp_ci95": ci, "deals": pairing["deals"],
            "won": lost if flip else won, "lost": won if flip else lost, "tied": pairing["deals_tied"],
            "bids": pairing["contracts"][role]["bids"], "made_rate": pairing["contracts"][role]["made_rate"]}


def section_board(section: Section, cells: Sequence[dict[str, Any]], cache: str | os.PathLike[str]) -> dict[str, Any]:
    """A rule set's board from its cells (in ``section.cells`` order): rows, ratings, cell summaries."""
    pairings = [c["pairing"] for c in cells]
    ratings = fit_ratings(section.entrants, round_robin_matches(pairings) if pairings else [])
    rows = []
    for rank, rating in enumerate(ratings, 1):
        name = rating["agent"]
        vs = {}
        for p in pairings:
            if name in (p["a"], p["b"]):
                vs[p["b"] if p["a"] == name else p["a"]] = _side(p, p["b"] == name)
        rows.append({"agent": name, "rank": rank, "reference": name in section.references,
                     "files": section.files[name], "rating": {k: v for k, v in rating.items() if k != "agent"},
                     "vs": {ref: vs[ref] for ref in section.references if ref in vs}})
    variant, crow = rule_set_options(section.rule_set)
    summaries = []
    for (_, _, _, path), cell in zip(section.cells, cells):
        summary = {k: v for k, v in cell["pairing"].items() if k != "deal_values"}
        summaries.append({**summary, "cache": path.relative_to(cache).as_posix(), "timing": cell["timing"]})
    return {"variant": variant, "crow": crow, "deal_set_sha256": section.sha256, "code_version": section.version,
            "references": section.references, "unavailable": section.unavailable, "candidates": section.candidates,
            "rows": rows, "cells": summaries}


def check_options(references: Sequence[str], workers: int) -> list[str]:
    """The references in line-up order; ValueError for one not in :data:`REFERENCES` or a bad worker count."""
    unknown = [r for r in references if r not in REFERENCES]
    if unknown or not references:
        raise ValueError(f"references must be some of {', '.join(REFERENCES)}; got {', '.join(references) or 'none'}")
    if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
        raise ValueError(f"workers must be an integer >= 1, got {workers!r}")
    return [r for r in REFERENCES if r in references]


def run_bench(deal_set: str | DealSet, candidates: Mapping[str, Sequence[str]], *,
              references: Sequence[str] = REFERENCES, cache: str | os.PathLike[str] = DEFAULT_CACHE,
              workers: int = 1, backend: str | Backend = "local", address: str | None = None, progress: bool = False,
              warn: Warn = stderr_warning) -> dict[str, Any]:
    """The leaderboard of ``candidates`` (rule set -> agent specs) on ``deal_set``: a board dict
    (see the module table) holding the given rule sets. Checks everything before playing."""
    ds = get_deal_set(deal_set) if isinstance(deal_set, str) else deal_set
    refs = check_options(references, workers)
    sections = [plan_section(ds, rs, candidates[rs], refs, cache) for rs in RULE_SETS if rs in candidates]
    bad = [rs for rs in candidates if rs not in RULE_SETS]
    if bad:
        raise ValueError(f"unknown rule set {bad[0]!r}; rule sets: {', '.join(RULE_SETS)}")
    cells = play_sections(sections, workers=workers, backend=backend, address=address, progress=progress, warn=warn)
    return new_board(ds, {s.rule_set: section_board(s, cells[s.rule_set], cache) for s in sections})


def new_board(deal_set: DealSet, sections: dict[str, dict[str, Any]]) -> dict[str, Any]:
    return {"schema": BOARD_SCHEMA, "deal_set": {**deal_set.as_dict(), "description": deal_set.description},
            "reference_lineup": list(REFERENCES), "rule_sets": {rs: sections[rs] for rs in RULE_SETS if rs in sections}}


def without_timing(board: dict[str, Any]) -> dict[str, Any]:
    """``board`` less its machine-dependent numbers (each cell's ``timing``): what must not change with
    the worker count, the backend or the machine."""
    out = json.loads(json.dumps(board))
    for section in out["rule_sets"].values():
        for cell in section["cells"]:
            cell.pop("timing", None)
    return out


def read_board(path: str | os.PathLike[str], deal_set: str) -> dict[str, Any] | None:
    """The board at ``path`` (None if there is none); ValueError if it is not a board of ``deal_set``."""
    if not os.path.exists(path):
        return None
    try:
        board = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as err:
        raise ValueError(f"cannot read the board {str(path)!r}: {one_line(err)}; move it away to start anew") from None
    if not isinstance(board, dict) or board.get("schema") != BOARD_SCHEMA or \
            not isinstance(board.get("rule_sets"), dict) or board.get("deal_set", {}).get("name") != deal_set:
        raise ValueError(f"{str(path)!r} is not a {BOARD_SCHEMA} board of deal set {deal_set!r}; "
                         f"move it away or choose another --out")
    return board


def merge_board(old: dict[str, Any] | None, new: dict[str, Any]) -> dict[str, Any]:
    """``new``'s rule sets replace ``old``'s; the others stay as they were."""
    sections = {**(old or {}).get("rule_sets", {}), **new["rule_sets"]}
    return {**new, "rule_sets": {rs: sections[rs] for rs in RULE_SETS if rs in sections}}


def prune_cache(board: dict[str, Any], cache: str | os.PathLike[str]) -> list[Path]:
    """Delete the cell files of ``board``'s deal set under ``cache`` that no cell of the board uses
    (cells of older code or files); returns them. Other deal sets' files are not touched."""
    used = {Path(cache) / c["cache"] for sec in board["rule_sets"].values() for c in sec["cells"]}
    stale = [p for p in sorted((Path(cache) / board["deal_set"]["name"]).glob("*/*.json")) if p not in used]
    for path in stale:
        path.unlink()
    return stale


# ------------------------------------------------------------------------------ command line
def parse_rule_sets(text: str | None) -> list[str]:
    """``crowsnest,red_one`` / ``all`` / None (all) -> rule sets; DealSetError naming an unknown one."""
    if text is None or text.strip() == "all":
        return list(RULE_SETS)
    names = [t.strip() for t in text.split(",") if t.strip()]
    for name in names:
        rule_set_options(name)
    return list(dict.fromkeys(names))


def plan_candidates(board: dict[str, Any] | None, selected: Sequence[str], explicit: bool, add: Sequence[str],
                    remove: Sequence[str], deal_set: DealSet, references: Sequence[str]) -> dict[str, list[str]]:
    """Rule set -> candidates for this run: the board's, less ``remove``, plus ``add`` (each where it can
    play, or, with an ``explicit`` ``--variant``, in every selected rule set it must then play)."""
    have = {rs: list(sec.get("candidates", [])) for rs, sec in (board or {}).get("rule_sets", {}).items()}
    out = {rs: have.get(rs, []) for rs in selected}
    touched: set[str] = set()
    for spec in remove:
        hits = [rs for rs in out if spec in out[rs]]
        if not hits and spec in REFERENCES:
            raise ValueError(f"--remove {spec!r}: a reference, not an added agent (--references plays fewer)")
        if not hits:
            raise ValueError(f"--remove {spec!r}: not a candidate of the board in {', '.join(selected)}")
        for rs in hits:
            out[rs].remove(spec)
        touched.update(hits)
    for spec in add:
        for name in parse_team(spec):
            make_agent(name)  # an unknown agent or option is named here
        problems = {rs: agent_problem(spec, rule_set_variant(rs), deal_set.seed) for rs in selected}
        bad = {rs: p for rs, p in problems.items() if p is not None}
        if explicit and bad:
            rs, why = next(iter(bad.items()))
            raise ValueError(f"agent {spec!r} cannot play rule set {rs!r}: {why}")
        if len(bad) == len(selected):
            rs, why = next(iter(bad.items()))
            raise ValueError(f"agent {spec!r} cannot play any rule set ({rs}: {why})")
        if spec in references:
            print(f"crowsnest-bench: {spec!r} is a reference: it is on every board already", file=sys.stderr)
            continue
        added = [rs for rs in selected if rs not in bad and spec not in out[rs]]
        for rs in added:
            out[rs].append(spec)
        touched.update(added)
        cannot = f" (it cannot play {', '.join(bad)})" if bad else ""
        print(f"crowsnest-bench: adding {spec!r} to {', '.join(added) or 'no rule set: it is there already'}{cannot}",
              file=sys.stderr)
    if (add or remove) and not explicit:
        out = {rs: c for rs, c in out.items() if rs in touched}
    return out


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="crowsnest-bench", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--add", action="append", default=[], metavar="AGENT",
                   help="add an agent (name, checkpoint:PATH, team a+b) to the board; repeatable")
    p.add_argument("--remove", action="append", default=[], metavar="AGENT", help="take an added agent off the board")
    p.add_argument("--deal-set", default=DEFAULT_DEAL_SET, help=f"frozen deal set (default {DEFAULT_DEAL_SET})")
    p.add_argument("--variant", metavar="RULE_SETS",
                   help=f"rule set(s), comma-separated, or all (default: all; with --add, those the agent can play): "
                        f"{', '.join(RULE_SETS)}")
    p.add_argument("--references", metavar="A,B,...",
                   help=f"play only these of the reference line-up (default all: {','.join(REFERENCES)})")
    p.add_argument("--out", default=DEFAULT_OUT, help=f"board folder (default {DEFAULT_OUT})")
    p.add_argument("--cache", help="cell cache folder (default OUT/cache)")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                   help="processes or Ray tasks (default: all cores)")
    p.add_argument("--backend", choices=BACKENDS, default="local", help="where deal chunks run (default local)")
    p.add_argument("--address", help="Ray cluster address (--backend ray only)")
    p.add_argument("--readme", metavar="README.md", help="also rewrite this file's leaderboard blocks from the board")
    p.add_argument("--report-only", action="store_true",
                   help="play nothing: redraw the Markdown and plots from the JSON")
    p.add_argument("--export-deals", metavar="FILE.json", help="write one rule set's deals (and their hash) and exit")
    p.add_argument("--list", action="store_true", help="list deal sets, rule sets and references, and exit")
    p.add_argument("--prune", action="store_true",
                   help="afterwards, delete the deal set's cache files that the board does not use (stale cells)")
    p.add_argument("--no-progress", action="store_true", help="hide the progress output")
    return p


def _listing() -> str:
    from .deal_sets import DEAL_SETS

    lines = [f"{name}: {ds.deals} deals per rule set, seed {ds.seed} ({ds.description})"
             for name, ds in DEAL_SETS.items()]
    lines += [f"rule sets: {', '.join(RULE_SETS)}", f"references: {', '.join(REFERENCES)}",
              f"code version: {code_version()[0]}"]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """The ``crowsnest-bench`` command."""
    os.environ.setdefault("OMP_NUM_THREADS", "1")  # before torch loads: one worker per core, one thread each
    parser = build_parser()
    args = parser.parse_args(argv)
    progress = not args.no_progress
    try:
        ds = get_deal_set(args.deal_set)
        selected = parse_rule_sets(args.variant)
        if args.list:
            print(_listing())
            return 0
        if args.export_deals:
            return _export(ds, selected, args.export_deals, args.variant)
        out = Path(args.out)
        board_path = out / f"{ds.name}.json"
        board = read_board(board_path, ds.name)
        if args.readme:
            check_readme(args.readme)
        if args.report_only:
            if board is None:
                raise ValueError(f"--report-only: there is no board at {str(board_path)!r} yet")
            _write_outputs(board, out, args.readme, progress)
            return 0
        references = [r.strip() for r in args.references.split(",")] if args.references else list(REFERENCES)
        check_options(references, args.workers)
        candidates = plan_candidates(board, selected, args.variant is not None, args.add, args.remove, ds, references)
        out.mkdir(parents=True, exist_ok=True)
        check_writable(str(board_path), "--out")
        new = run_bench(ds, candidates, references=references, cache=args.cache or out / "cache",
                        workers=args.workers, backend=args.backend, address=args.address, progress=progress)
    except (ValueError, OSError) as err:
        exit_error(parser, err)
    except WorkerCrashError as err:
        return print_error(parser.prog, err, status=1)
    if progress:
        for rs, sec in new["rule_sets"].items():
            for ref, why in sec["unavailable"].items():
                print(f"crowsnest-bench: {rs}: reference {ref!r} left out: {why}", file=sys.stderr)
    board = merge_board(board, new)
    try:
        write_json_atomic(board_path, board)
        _write_outputs(board, out, args.readme, progress)
        if args.prune:
            removed = prune_cache(board, args.cache or out / "cache")
            print(f"crowsnest-bench: --prune removed {len(removed)} cache files the board does not use",
                  file=sys.stderr)
    except (ValueError, OSError) as err:
        exit_error(parser, err)
    return 0


def _write_outputs(board: dict[str, Any], out: Path, readme: str | None, progress: bool) -> None:
    from .bench_report import print_board, render_readme, write_reports

    written = write_reports(board, out)
    if readme:
        from crowsnest_env.atomic import atomic_write_text

        text = Path(readme).read_text(encoding="utf-8")
        new = render_readme(text, board)
        if new != text:
            atomic_write_text(readme, new)
        written.append(Path(readme))
    print_board(board)
    if progress:
        print(f"crowsnest-bench: wrote {', '.join(str(p) for p in written)}", file=sys.stderr)


def check_readme(path: str) -> None:
    """OSError/ValueError unless ``path`` is a writable text file with the leaderboard blocks' markers."""
    from .bench_report import README_TABLES

    check_writable(path, "--readme")
    text = Path(path).read_text(encoding="utf-8")
    missing = [name for name in README_TABLES if f"<!-- table:{name} -->" not in text]
    if missing:
        raise ValueError(f"--readme {path!r} has no <!-- table:{missing[0]} --> ... <!-- /table:{missing[0]} --> "
                         f"markers for the leaderboard")


def _export(ds: DealSet, selected: list[str], path: str, variant: str | None) -> int:
    from .deal_sets import export_deals

    if variant is None or len(selected) != 1:
        raise ValueError("--export-deals writes one rule set: give --variant NAME")
    check_writable(path, "--export-deals")
    write_json_atomic(path, export_deals(ds, selected[0]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
