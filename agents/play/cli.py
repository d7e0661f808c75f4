"""``crowsnest-play``: the command line of the play app (play, autoplay, replay, web).

Bad input is one line, ``crowsnest-play: error: ...``, and exit status 2. Options given here
apply to this run only; the Settings screen (S) is what saves a choice for the next time.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import NoReturn

from crowsnest_env.rules import NO_CROW_SUFFIX, NUM_SEATS

from .levels import LEVELS
from .session import Game, first_line, load_record
from .settings import Settings, read_settings

PROG = "crowsnest-play"
AGENTS_HELP = ("random, heuristic, pimc[?samples=8,...], learned (the shipped policy of the rules played), "
               "expert (the strongest: PIMC with inference, a trained auction), pimc?policy=learned, checkpoint:PATH, "
               "phase:base=X;auction=Y")
SERVER_PID_ENV = "CROWSNEST_PLAY_SERVER_PID"
"""Set by ``--web`` for the app processes it starts: they end when that server is gone."""


class Parser(argparse.ArgumentParser):
    """An argparse parser whose errors are one line (no usage block), exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> Parser:
    p = Parser(prog=PROG, description="Play Rook with an AI partner against two AI opponents (Textual app). "
               "Options apply to this run; the Settings screen (S) saves your choices.")
    p.add_argument("--variant", help="crowsnest, tournament, partnership, one_high, red_one, buckeye, dixie "
                   "(<name>_nocrow for the 40-card option of crowsnest and tournament)")
    p.add_argument("--seat", type=int, choices=range(NUM_SEATS), help="your seat 0..3")
    p.add_argument("--level", choices=list(LEVELS), help="the computer players' level: " + ", ".join(
        f"{name} = {lv.agent}" for name, lv in LEVELS.items()) + " (default: your saved level, else normal)")
    p.add_argument("--partner", help=f"the partner's agent instead of the level's: {AGENTS_HELP}")
    p.add_argument("--opponents", help="the opponents' agent instead of the level's (same names)")
    p.add_argument("--speed", type=float, help="seconds each AI move stays on screen (0 = instant)")
    p.add_argument("--trick-pause", metavar="SECONDS", help="after each trick: wait this long (a key goes on "
                   "sooner), 0 = no pause, 'key' = until a key")
    p.add_argument("--no-keep", action="store_true", help="do not keep finished games in your record (this run)")
    p.add_argument("--seed", type=int, help="seed of the deals and agents")
    p.add_argument("--hands", type=int, help="stop after this many hands")
    p.add_argument("--save", metavar="FILE", help="where the W key (and the end of the game) saves the record")
    p.add_argument("--replay", metavar="FILE", help="step through a saved game record")
    p.add_argument("--autoplay", action="store_true", help="agents in every seat, headless; with --screenshot")
    p.add_argument("--screenshot", metavar="FILE.svg", help="with --autoplay: SVG of the final table")
    p.add_argument("--web", action="store_true", help="serve the app in the browser (textual-serve)")
    p.add_argument("--host", default="127.0.0.1", help="with --web: address to listen on")
    p.add_argument("--port", type=int, default=8000, help="with --web: port (default 8000)")
    return p


TABLE_OPTIONS = ("variant", "seat", "level", "partner", "opponents")


def settings_from(args: argparse.Namespace, base: Settings) -> Settings:
    """The saved settings overridden by the options given on the command line."""
    changes = {k: getattr(args, k) for k in ("seat", "level", "partner", "opponents", "speed")
               if getattr(args, k) is not None}
    if args.variant is not None:
        name = args.variant.lower()
        changes["variant"] = name.removesuffix(NO_CROW_SUFFIX)
        changes["crow"] = not name.endswith(NO_CROW_SUFFIX)
    if args.trick_pause is not None:
        try:
            changes["trick_pause"] = None if args.trick_pause == "key" else float(args.trick_pause)
        except ValueError:
            raise ValueError(f"--trick-pause takes seconds or 'key', got {args.trick_pause!r}") from None
    if args.no_keep:
        changes["keep_games"] = False
    return base.with_(**changes)


def first_game(args: argparse.Namespace, parser: Parser) -> tuple[Settings, Game, list[str]]:
    """The settings of this run and its first game, every agent built and checked on the rules.
    A bad option is an error; a saved setting that no longer works is reported and replaced."""
    saved, notices = read_settings()
    try:
        settings = settings_from(args, saved).check()
    except (ValueError, TypeError) as exc:
        parser.error(first_line(exc))
    try:
        return settings, Game(settings, seed=args.seed, max_hands=args.hands, autoplay=args.autoplay), notices
    except (ValueError, TypeError) as exc:
        if any(getattr(args, k) is not None for k in TABLE_OPTIONS):
            parser.error(first_line(exc))  # the table asked for on the command line cannot be laid
        problem = first_line(exc)
    # the saved computer players cannot play the saved rules (a policy or checkpoint gone): the defaults
    fallback = settings.with_(level=Settings.level, partner="", opponents="")
    try:
        game = Game(fallback, seed=args.seed, max_hands=args.hands, autoplay=args.autoplay)
    except (ValueError, TypeError):
        fallback = fallback.with_(variant=Settings.variant, crow=Settings.crow)
        game = Game(fallback, seed=args.seed, max_hands=args.hands, autoplay=args.autoplay)
    notices.append(f"your saved settings cannot be used ({problem}); playing {fallback.variant_name} at "
                   f"{LEVELS[fallback.level].title} instead (S: settings)")
    return fallback, game, notices


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.hands is not None and args.hands < 1:
        parser.error("--hands must be at least 1")
    if args.screenshot and not args.autoplay:
        parser.error("--screenshot needs --autoplay")
    if args.replay:
        try:
            record = load_record(args.replay)
        except ValueError as exc:
            parser.error(first_line(exc))
    elif args.web:
        first_game(args, parser)  # a table that cannot be laid is an error here, not in every browser tab
    if args.web:
        from .web import serve

        try:
            serve(argv, args.host, args.port, SERVER_PID_ENV)
        except ImportError as exc:
            parser.error(f"--web needs textual-serve ({exc})")
        return
    from .app import PlayApp

    server = os.environ.get(SERVER_PID_ENV)
    server_pid = int(server) if server and server.isdigit() else None
    if args.replay:
        players = record.get("players")
        seat = args.seat if args.seat is not None else players.get("human") if isinstance(players, dict) else 0
        seat = seat if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < NUM_SEATS else 0
        PlayApp(Settings(seat=seat), replay=record, persist=False, server_pid=server_pid).run()
        return
    settings, game, notices = first_game(args, parser)
    # a browser tab's choices do not rewrite the server's saved settings
    app = PlayApp(settings, seed=args.seed, max_hands=args.hands, autoplay=args.autoplay, game=game,
                  screenshot=args.screenshot, save_path=args.save, notices=notices, server_pid=server_pid,
                  persist=not args.autoplay and server_pid is None)
    if args.autoplay:
        app.run(headless=True, size=(120, 36))
    else:
        app.run()
