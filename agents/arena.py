"""Duplicate arena: play agents against each other on fixed, seeded deals.

Usage::

    crowsnest-arena --a heuristic --b random --deals 2000 --seed 0 --out results.json
    crowsnest-arena --round-robin random,heuristic,pimc --deals 500 --games 50 --plot rr.png
    crowsnest-arena --a pimc --b heuristic --backend ray --address HEAD:6379 --workers 64

A *team* is one agent spec for both seats or two joined by ``+`` (``pimc+heuristic``); the
first sits in the team's lower seat. Every deal is played at two *tables* with the same
cards and the same dealer: at table 0 team a holds seats 0 and 2, at table 1 seats 1 and 3.
The deal's value for team a is the average over both tables of
``score_change[a's team] - score_change[b's team]``; its mean over deals is the ``adp``.

Determinism (the same numbers on every machine, with any ``--workers`` and ``--backend``):

- Every seed is :func:`derive_seed` of the run seed and labels (a blake2b hash, never
  ``hash()``). Deal ``i`` draws its cards from ``Random(derive_seed(seed, "deal", i))``; the
  dealer is ``i % 4``. Each table builds its own generator from that seed, so after an
  all-pass redeal both tables see the same *sequence* of deals as long as the agents pass
  alike (they differ only if the auction at one table passes out and not at the other).
- Before each hand an agent is ``reset(derive_seed(seed, "agent", ..., seat))``: the seed
  depends on the deal (or game and hand) and the *physical seat*, not on the table. The
  agent at seat s therefore draws the same random numbers at both tables, and an agent
  played against itself scores exactly 0 on every deal when it is a function of its view
  and seed.
- Work is split into chunks of deals; results are gathered by deal index and aggregated in
  deal order. Timings (``speed``, ``elapsed_s``) are the only machine-dependent numbers.
- Chunks are generated lazily (at most 2 x workers in flight) and run on a backend
  (:mod:`agents.backends`): local processes, or Ray tasks with ``--backend ray``. A worker
  that dies has its unfinished chunks run again (same seeds, so the same results); if
  workers keep dying the run stops with an error (exit 1) instead of hanging.
- Redeals follow the table's rule (:class:`~crowsnest_env.table.Table`): after ``max_redeals``
  all-pass deals in a row (default :data:`~crowsnest_env.table.DEFAULT_MAX_REDEALS`) the hand
  counts as *passed out*: no contract, score change 0 (the rules allow endless redeals; agents
  that never bid would hang the arena).

``--games N`` also plays N whole games to the variant's target, in duplicate: hand k of
game g draws from ``derive_seed(seed, "game", g, "hand", k)`` at both tables. A game still
running after ``--max-hands`` hands is decided by the higher score (equal: a draw) and
counted in ``games_capped``.

``--by-phase`` also plays team b with one phase (auction, discard and trump, play) played by
team a's agent (:func:`by_phase_pairs`, agents from :mod:`agents.phases`), on the same deals,
to show which phase a's edge comes from.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shlex
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from crowsnest_env.agent import Agent
from crowsnest_env.atomic import atomic_write_text
from crowsnest_env.cli_errors import exit_error, print_error
from crowsnest_env.rules import NUM_SEATS, HandResult, IllegalActionError, Variant
from crowsnest_env.table import DEFAULT_MAX_REDEALS, Table, resolve_variant

from . import make_agent, parse_team, split_agent_list
from .arena_records import DealRecord, GameRecord, TableGame, TableHand, summarise_pairing
from .backends import BACKENDS, Backend, LocalBackend, WorkerCrashError, make_backend, one_torch_thread
from .phases import PHASE_GROUPS, PREFIX, parse_phase_spec, phase_spec
from .stats import fit_ratings

SCHEMA = "crowsnest-arena/1"
DEFAULT_MAX_HANDS = 60
ROLES = ("a", "b")

TeamSpec = str | Sequence[Agent]


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from labels, stable across machines and Python versions."""
    text = ":".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


def seat_role(seat: int, table: int) -> tuple[str, int]:
    """(team role, member index) of ``seat`` at ``table``: team a holds team number ``table``."""
    return ("a" if seat % 2 == table else "b"), seat // 2


@dataclass
class Clock:
    """Decisions and seconds spent in ``act`` per (team role, agent name)."""

    totals: dict[tuple[str, str], list[float]] = field(default_factory=dict)

    def add(self, role: str, name: str, calls: int, seconds: float) -> None:
        entry = self.totals.setdefault((role, name), [0, 0.0])
        entry[0] += calls
        entry[1] += seconds

    def merge(self, other: Clock) -> None:
        for (role, name), (calls, secs) in other.totals.items():
            self.add(role, name, int(calls), secs)


class Lineup:
    """The four agents of a pairing, by team role and member, with their names."""

    def __init__(self, a: TeamSpec, b: TeamSpec):
        self.agents: dict[str, tuple[Agent, Agent]] = {}
        self.names: dict[str, tuple[str, str]] = {}
        for role, spec in zip(ROLES, (a, b)):
            if isinstance(spec, str):
                names = parse_team(spec)
                self.agents[role] = (make_agent(names[0]), make_agent(names[1]))
                self.names[role] = names
            else:
                if len(spec) != 2:
                    raise ValueError(f"team {role} needs two agents, got {len(spec)}")
                self.agents[role] = (spec[0], spec[1])
                self.names[role] = tuple(getattr(x, "name", type(x).__name__) for x in spec)  # type: ignore[assignment]

    def seat(self, seat: int, table: int) -> tuple[str, str, Agent]:
        role, member = seat_role(seat, table)
        return role, self.names[role][member], self.agents[role][member]


def play_hand(
    table: Table, lineup: Lineup, table_no: int, agent_seeds: Sequence[int], clock: Clock,
) -> tuple[HandResult | None, int]:
    """Play the table's dealt hand (and its all-pass redeals) to its score.

    Returns (the hand's result, or None if the table's redeal cap passed it out; the all-pass
    deals before it). ``agent_seeds`` reset the four agents first."""
    seats = [lineup.seat(s, table_no) for s in range(NUM_SEATS)]
    for s, (_, _, agent) in enumerate(seats):
        agent.reset(agent_seeds[s])
    redeals = 0
    while not table.done:
        seat = table.to_move
        role, name, agent = seats[seat]
        t0 = time.perf_counter()
        # a cheating reference (double_dummy) is handed the whole state; every other agent its seat's view
        sees_all = getattr(agent, "act_seeing_all", None) if getattr(agent, "sees_all_hands", False) else None
        action = sees_all(table.state) if sees_all is not None else agent.act(table.view(seat))
        clock.add(role, name, 1, time.perf_counter() - t0)
        try:
            table.step(action)
        except IllegalActionError as err:
            raise RuntimeError(f"agent {name!r} (team {role}, seat {seat}) chose an illegal action: {err}") from err
        if table.scored is not None:
            return table.scored, redeals
        redeals += table.passed_out
    return None, redeals


def _arena_table(rules: Variant, episode: str, max_redeals: int, max_hands: int | None = None,
                 record: bool = False) -> Table:
    return Table(rules, episode=episode, max_hands=max_hands, max_redeals=max_redeals, observe=False, record=record)


@dataclass(frozen=True)
class PairingConfig:
    """Everything a worker needs to play a pairing's deals and games (picklable)."""

    a: str
    b: str
    variant: str = "crowsnest"
    crow: bool = True
    seed: int = 0
    max_redeals: int = DEFAULT_MAX_REDEALS
    max_hands: int = DEFAULT_MAX_HANDS

    def rules(self) -> Variant:
        return resolve_variant(self.variant, self.crow)


def _table_hand(result: HandResult | None, table: int, redeals: int, deals: list | None) -> TableHand:
    if result is None:
        return TableHand(diff_a=0, declarer_role=None, bid=0, made=False, redeals=redeals, deals=deals)
    a_team = table
    change = result.score_change
    role = "a" if result.declarer % 2 == a_team else "b"
    return TableHand(diff_a=change[a_team] - change[a_team ^ 1], declarer_role=role, bid=result.bid,
                     made=result.made, redeals=redeals, deals=deals)


def play_duplicate_deal(
    a: TeamSpec, b: TeamSpec, index: int, *, variant: str | Variant = "crowsnest", crow: bool = True,
    seed: int = 0, max_redeals: int = DEFAULT_MAX_REDEALS, record: bool = False,
    lineup: Lineup | None = None, clock: Clock | None = None,
) -> DealRecord:
    """Play deal ``index`` at both tables (teams swap seats; same cards, same dealer).

    ``a``/``b`` are team specs (``"heuristic"``, ``"pimc+random"``) or pairs of agents.
    With ``record`` each table keeps the (hands, nest) of every deal it saw. A prebuilt
    ``lineup`` (and ``clock``) lets a caller reuse agents over many deals.
    """
    rules = resolve_variant(variant, crow)
    lineup = lineup or Lineup(a, b)
    clock = clock if clock is not None else Clock()
    agent_seeds = [derive_seed(seed, "agent", "deal", index, s) for s in range(NUM_SEATS)]
    tables = []
    for table_no in range(2):
        table = _arena_table(rules, "hand", max_redeals, record=record)
        table.reset(random.Random(derive_seed(seed, "deal", index)), dealer=index % NUM_SEATS)
        result, redeals = play_hand(table, lineup, table_no, agent_seeds, clock)
        deals = [(hands, nest) for _, hands, nest in table.deals()] if record else None
        tables.append(_table_hand(result, table_no, redeals, deals))
    return DealRecord(index=index, tables=(tables[0], tables[1]))


def play_duplicate_game(cfg: PairingConfig, index: int, lineup: Lineup, clock: Clock) -> GameRecord:
    """Play game ``index`` to the target at both tables, the same deals hand by hand.

    Hand k of the game is dealt from ``derive_seed(seed, "game", index, "hand", k)`` (the table's
    ``hand_rng`` hook) and the agents are reset per hand, so both tables see the same cards."""
    rules = cfg.rules()
    tables = []
    for table_no in range(2):
        table = _arena_table(rules, "game", cfg.max_redeals, max_hands=cfg.max_hands)
        table.hand_rng = lambda k: random.Random(derive_seed(cfg.seed, "game", index, "hand", k))
        table.reset(dealer=index % NUM_SEATS)
        hands = 0
        while not table.done:
            seeds = [derive_seed(cfg.seed, "agent", "game", index, hands, s) for s in range(NUM_SEATS)]
            play_hand(table, lineup, table_no, seeds, clock)
            hands += 1
        score_a, score_b = table.scores[table_no], table.scores[table_no ^ 1]
        tables.append(TableGame(score_a=score_a, score_b=score_b, hands=hands, capped=not table.terminated))
    return GameRecord(index=index, tables=(tables[0], tables[1]))


# ------------------------------------------------------------------ tasks and workers
@dataclass(frozen=True)
class Task:
    """A chunk of deals (kind "deal") or games (kind "game") of one pairing."""

    pairing: int
    cfg: PairingConfig
    kind: str
    indices: tuple[int, ...]


def run_task(task: Task) -> tuple[int, str, list[DealRecord | GameRecord], Clock]:
    """Worker entry point: build the agents from their names and play the chunk."""
    cfg, clock = task.cfg, Clock()
    lineup = Lineup(cfg.a, cfg.b)
    if task.kind == "deal":
        records: list = [
            play_duplicate_deal(cfg.a, cfg.b, i, variant=cfg.variant, crow=cfg.crow, seed=cfg.seed,
                                max_redeals=cfg.max_redeals, lineup=lineup, clock=clock)
            for i in task.indices
        ]
    else:
        records = [play_duplicate_game(cfg, i, lineup, clock) for i in task.indices]
    return task.pairing, task.kind, records, clock


def _chunks(pairing: int, cfg: PairingConfig, kind: str, n: int, size: int) -> Iterator[Task]:
    for start in range(0, n, size):
        yield Task(pairing, cfg, kind, tuple(range(start, min(n, start + size))))


def _execute(tasks: Iterable[Task], n_tasks: int, backend: Backend,
             progress: Callable[[int], None]) -> Iterator[tuple]:
    """Run the tasks on ``backend`` (in this process when there is one task or one local worker)."""
    if n_tasks <= 1 and backend.name == "local":
        backend = LocalBackend(1)
    for out in backend.map_unordered(run_task, tasks, 2 * backend.workers):
        progress(len(out[2]))
        yield out


def _validate(specs: Sequence[str], variant: str, crow: bool, deals: int, games: int,
              workers: int, max_hands: int, max_redeals: int) -> None:
    resolve_variant(variant, crow)
    for name, value, low in (("deals", deals, 1), ("games", games, 0), ("workers", workers, 1),
                             ("max_hands", max_hands, 1), ("max_redeals", max_redeals, 1)):
        if not isinstance(value, int) or isinstance(value, bool) or value < low:
            raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
    for spec in specs:
        for name in parse_team(spec):
            make_agent(name)  # raises ValueError naming an unknown agent


def run_pairings(
    pairs: Sequence[tuple[str, str]], *, variant: str = "crowsnest", crow: bool = True,
    deals: int = 2000, seed: int = 0, workers: int = 1, games: int = 0,
    max_hands: int = DEFAULT_MAX_HANDS, max_redeals: int = DEFAULT_MAX_REDEALS,
    progress: bool = False, keep_deals: bool = False, backend: str | Backend = "local",
    address: str | None = None,
) -> list[dict[str, Any]]:
    """Play several pairings on one backend; one summary dict per pairing, in order.

    ``backend`` is ``"local"`` (processes on this machine, the default), ``"ray"`` (Ray tasks;
    ``address`` names the cluster, default a local Ray) or a :class:`~agents.backends.Backend`
    the caller owns. The numbers do not depend on the backend or the worker count. A bad
    backend or an unreachable address is a ValueError naming it."""
    _validate([s for p in pairs for s in p], variant, crow, deals, games, workers, max_hands, max_redeals)
    cfgs = [PairingConfig(a, b, variant, crow, seed, max_redeals, max_hands) for a, b in pairs]
    size = max(1, min(25, deals // (4 * workers)))
    n_tasks = len(cfgs) * (-(-deals // size) + games)

    def tasks() -> Iterator[Task]:  # lazily: a long run never holds its whole task list
        for p, cfg in enumerate(cfgs):
            yield from _chunks(p, cfg, "deal", deals, size)
        for p, cfg in enumerate(cfgs):
            yield from _chunks(p, cfg, "game", games, 1)

    found: list[dict[str, dict[int, Any]]] = [{"deal": {}, "game": {}} for _ in cfgs]
    clocks = [Clock() for _ in cfgs]
    owned = isinstance(backend, str)
    runner = make_backend(backend, workers, address) if isinstance(backend, str) else backend
    bar = _progress_bar(len(cfgs) * (deals + games), progress)
    try:
        for p, kind, records, clock in _execute(tasks(), n_tasks, runner, bar.update):
            found[p][kind].update((r.index, r) for r in records)
            clocks[p].merge(clock)
    finally:
        bar.close()
        if owned:
            runner.close()
    return [
        summarise_pairing(cfg, [found[p]["deal"][i] for i in range(deals)],
                          [found[p]["game"][i] for i in range(games)], clocks[p], keep_deals)
        for p, cfg in enumerate(cfgs)
    ]


def _progress_bar(total: int, enabled: bool) -> Any:
    from tqdm import tqdm

    return tqdm(total=total, disable=not enabled, unit="deal", desc="arena", dynamic_ncols=True)


def run_pairing(a: str, b: str, **kwargs: Any) -> dict[str, Any]:
    """Play team ``a`` against team ``b`` (see :func:`run_pairings` for the options)."""
    return run_pairings([(a, b)], **kwargs)[0]


def round_robin_matches(pairings: Sequence[dict[str, Any]]) -> Iterator[tuple[str, str, float]]:
    """One openskill match per duplicate deal, deal-major so no pairing is rated last."""
    n = min(len(p["deal_values"]) for p in pairings)
    for i in range(n):
        for p in pairings:
            v = p["deal_values"][i]
            yield p["a"], p["b"], 1.0 if v > 0 else 0.0 if v < 0 else 0.5


def run_round_robin(entrants: Sequence[str], **kwargs: Any) -> dict[str, Any]:
    """All pairings of ``entrants`` (each a team spec), their adp table and openskill ratings."""
    if len(entrants) < 2 or len(set(entrants)) != len(entrants):
        raise ValueError(f"a round robin needs at least two distinct agents, got {list(entrants)}")
    pairs = [(x, y) for i, x in enumerate(entrants) for y in entrants[i + 1:]]
    keep = kwargs.pop("keep_deals", False)
    pairings = run_pairings(pairs, keep_deals=True, **kwargs)
    ratings = fit_ratings(entrants, round_robin_matches(pairings))
    adp = [[0.0] * len(entrants) for _ in entrants]
    for p in pairings:
        i, j = entrants.index(p["a"]), entrants.index(p["b"])
        adp[i][j], adp[j][i] = p["adp"], -p["adp"]
        if not keep:
            del p["deal_values"]
    return {"pairings": pairings, "ratings": ratings, "adp_table": {"agents": list(entrants), "adp": adp}}


def _phase_agents(spec: str) -> dict[str, str]:
    """Each phase group's agent name: a phase agent's parts, or one agent for every group
    (ValueError for a team, which has no one agent per phase)."""
    if spec.startswith(PREFIX):
        return parse_phase_spec(spec)
    if parse_team(spec) != (spec.strip(), spec.strip()):  # a '+' in a path is no team
        raise ValueError(f"by-phase comparisons take one agent a side (a phase agent is one), not a team, got {spec!r}")
    return dict.fromkeys(PHASE_GROUPS, spec.strip())


def by_phase_pairs(a: str, b: str) -> list[tuple[str, str]]:
    """The pairings that split ``a``'s edge over ``b`` by phase: a vs b, then for each phase
    ``b`` with only that phase played by ``a``'s agent of it, vs ``b``. Either may be a phase agent
    (``phase:base=pimc;play=learned``); ``b`` then keeps its own agents in the other phases."""
    own, other = _phase_agents(a), _phase_agents(b)
    pairs = [(a, b)]
    for group in PHASE_GROUPS:
        if not b.startswith(PREFIX):  # the names the board and earlier records use
            pairs.append((phase_spec(b.strip(), **{group: own[group]}), b))
        else:
            mixed = {**other, group: own[group]}
            pairs.append((PREFIX + ";".join(f"{g}={mixed[g]}" for g in PHASE_GROUPS), b))
    return pairs


def run_by_phase(a: str, b: str, **kwargs: Any) -> dict[str, Any]:
    """Arena pairings of :func:`by_phase_pairs` on the same deals; ``phases`` maps each phase to
    the adp its swap alone gains (the sum need not equal the whole: phases interact)."""
    pairings = run_pairings(by_phase_pairs(a, b), **kwargs)
    phases = {group: {"adp": p["adp"], "adp_ci95": p["adp_ci95"], "a": p["a"]}
              for group, p in zip(PHASE_GROUPS, pairings[1:])}
    return {"pairings": pairings, "by_phase": {"a": a, "b": b, "whole": pairings[0]["adp"], "phases": phases}}


# ------------------------------------------------------------------ output
def write_json_atomic(path: str | os.PathLike[str], data: Any) -> None:
    """Write JSON to a temp file beside ``path``, then ``os.replace`` it into place."""
    atomic_write_text(path, json.dumps(data, indent=2) + "\n")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="crowsnest-arena", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--a", help="team a: an agent name, or two joined by '+' (e.g. pimc+heuristic)")
    p.add_argument("--b", help="team b, as --a")
    p.add_argument("--round-robin", metavar="A,B,...", help="play every pairing of these teams and rate them")
    p.add_argument("--by-phase", action="store_true",
                   help="also play --b with one phase (auction, discard+trump, play) swapped to --a's agent, "
                        "to show which phase --a's edge comes from")
    p.add_argument("--variant", default="crowsnest", help="rules variant (default crowsnest)")
    p.add_argument("--crow", action=argparse.BooleanOptionalAction, default=True,
                   help="--no-crow plays the 40-card option (crowsnest and tournament)")
    p.add_argument("--deals", type=int, default=2000, help="duplicate deals per pairing (default 2000)")
    p.add_argument("--games", type=int, default=0, help="duplicate whole games per pairing (default 0)")
    p.add_argument("--max-hands", type=int, default=DEFAULT_MAX_HANDS,
                   help=f"cap on hands per game; capped games go to the higher score (default {DEFAULT_MAX_HANDS})")
    p.add_argument("--max-redeals", type=int, default=DEFAULT_MAX_REDEALS,
                   help=f"all-pass deals in a row before a hand counts as passed out (the table's redeal cap; "
                        f"default {DEFAULT_MAX_REDEALS})")
    p.add_argument("--seed", type=int, default=0, help="run seed; fixes every deal (default 0)")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                   help="processes, or Ray tasks in parallel (default: all cores)")
    p.add_argument("--backend", choices=BACKENDS, default="local",
                   help="where deal chunks run: local processes (default) or ray tasks")
    p.add_argument("--address", help="Ray cluster address (HOST:PORT, ray://HOST:PORT, auto); "
                   "default starts a local Ray (--backend ray only)")
    p.add_argument("--out", help="write the results as JSON (atomically)")
    p.add_argument("--plot", metavar="FILE.png", help="draw adp with 95%% CIs (and ratings) to a PNG")
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    p.add_argument("--keep-deals", action="store_true",
                   help="keep every duplicate deal's value in --out (deal_values), so that two results on the same "
                        "deals can be compared deal by deal (crowsnest-compare)")
    return p


def arena_provenance(argv: Sequence[str] | None, teams: Sequence[str], rules: Variant) -> dict[str, Any]:
    """What a result file needs to be reproduced: the command, the version of the code that plays
    (:func:`agents.bench_cells.code_version`, the benchmark's cache key) and the SHA-256 of every
    agent file the teams load (checkpoints, the shipped policies that ``learned`` names)."""
    from .bench_cells import agent_files, code_version

    files: dict[str, str] = {}
    for team in teams:
        files.update(agent_files(team, rules))
    args = list(sys.argv[1:] if argv is None else argv)
    return {"command": shlex.join(["crowsnest-arena", *args]), "code_version": code_version()[0],
            "files": dict(sorted(files.items()))}


def main(argv: Sequence[str] | None = None) -> int:
    """The ``crowsnest-arena`` command."""
    one_torch_thread()  # this process plays too when --workers 1
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.round_robin and (args.a or args.b):
        parser.error("give either --a/--b or --round-robin, not both")
    if not args.round_robin and not (args.a and args.b):
        parser.error("give --a and --b (or --round-robin A,B,...)")
    if args.by_phase and args.round_robin:
        parser.error("--by-phase compares --a with --b, not a round robin")
    opts = {"variant": args.variant, "crow": args.crow, "deals": args.deals, "seed": args.seed,
            "workers": args.workers, "games": args.games, "max_hands": args.max_hands,
            "max_redeals": args.max_redeals, "progress": not args.no_progress, "backend": args.backend,
            "address": args.address, "keep_deals": args.keep_deals}
    if args.keep_deals and not args.out:
        parser.error("--keep-deals keeps the deals' values in the --out file: give --out")
    # everything that can be checked is checked before the first deal: hours of play must not
    # end in a bad output path or an agent option that fails mid-game
    try:
        for flag, path in (("--out", args.out), ("--plot", args.plot)):
            if path is not None:
                check_writable(path, flag)
        if args.plot is not None:
            from .arena_plot import check_plot_path

            check_plot_path(args.plot)
        teams = split_agent_list(args.round_robin) if args.round_robin else [args.a, args.b]
        if args.by_phase:
            teams = [t for pair in by_phase_pairs(args.a, args.b) for t in pair]
        rules = resolve_variant(args.variant, args.crow)
        check_agents(teams, rules)
        provenance = arena_provenance(argv, teams, rules)
    except (ValueError, OSError) as err:
        exit_error(parser, err)
    t0 = time.perf_counter()
    try:
        if args.round_robin:
            report = run_round_robin(teams, **opts)
        elif args.by_phase:
            report = run_by_phase(args.a, args.b, **opts)
        else:
            report = {"pairings": [run_pairing(args.a, args.b, **opts)]}
    except (ValueError, OSError) as err:
        exit_error(parser, err)
    except WorkerCrashError as err:
        return print_error(parser.prog, err, status=1)
    report = {"schema": SCHEMA, "variant": args.variant, "crow": args.crow, "seed": args.seed,
              "target": resolve_variant(args.variant, args.crow).target, "deals": args.deals, "games": args.games,
              "max_hands": args.max_hands, "max_redeals": args.max_redeals, "workers": args.workers,
              "elapsed_s": round(time.perf_counter() - t0, 3), **provenance, **report}
    from .arena_plot import plot_report, print_report

    print_report(report)
    try:
        if args.out:
            write_json_atomic(args.out, report)
        if args.plot:
            plot_report(report, args.plot)
    except OSError as err:
        exit_error(parser, err)
    return 0


def check_writable(path: str, flag: str) -> None:
    """OSError unless ``path`` can be written later: its folder exists and is writable, and it is
    not itself a folder. Nothing is created."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise IsADirectoryError(f"{flag} {path!r} is a folder, not a file")
    if not os.path.isdir(folder):
        raise FileNotFoundError(f"{flag} {path!r}: folder {folder!r} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise PermissionError(f"{flag} {path!r}: folder {folder!r} is not writable")


def check_agents(teams: Sequence[str], rules: Variant) -> None:
    """Build every agent of ``teams`` once (options checked by their constructors); a learned
    agent must have been trained for ``rules``. ValueError naming the agent."""
    for team in teams:
        for name in parse_team(team):
            agent = make_agent(name)
            own = getattr(agent, "variant", None)
            if own is not None and own != rules:
                from .checkpoint import other_rules

                raise ValueError(f"agent {name!r} was trained for {own.name!r}, not the arena's {rules.name!r}"
                                 f"{other_rules(own, rules)}")


if __name__ == "__main__":
    raise SystemExit(main())
