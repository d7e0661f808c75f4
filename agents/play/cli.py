"""``crowsnest-play``: the command line of the play app (play, autoplay, replay, web)."""

from __future__ import annotations

import argparse
import shlex
import sys

from crowsnest_env.rules import NO_CROW_SUFFIX, NUM_SEATS

from .session import Game, load_record
from .settings import Settings, load_settings, save_settings


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="crowsnest-play",
                                description="Play Rook with an AI partner against two AI opponents (Textual app).")
    p.add_argument("--variant", help="crowsnest, tournament, partnership, one_high, red_one, buckeye, dixie "
                   "(<name>_nocrow for the 40-card option of crowsnest and tournament)")
    p.add_argument("--seat", type=int, choices=range(NUM_SEATS), help="your seat 0..3")
    p.add_argument("--partner", help="the partner's agent: random, heuristic, pimc[?samples=8,...], checkpoint:PATH")
    p.add_argument("--opponents", help="the opponents' agent (same names)")
    p.add_argument("--speed", type=float, help="seconds each AI move stays on screen (0 = instant)")
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


def settings_from(args: argparse.Namespace, base: Settings) -> Settings:
    """The saved settings overridden by the options given on the command line."""
    changes = {k: getattr(args, k) for k in ("seat", "partner", "opponents", "speed") if getattr(args, k) is not None}
    if args.variant is not None:
        name = args.variant.lower()
        changes["variant"] = name.removesuffix(NO_CROW_SUFFIX)
        changes["crow"] = not name.endswith(NO_CROW_SUFFIX)
    return base.with_(**changes)


def first_line(exc: Exception) -> str:
    """An error as one line (torch's unpickling errors run to a dozen)."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.hands is not None and args.hands < 1:
        parser.error("--hands must be at least 1")
    if args.screenshot and not args.autoplay:
        parser.error("--screenshot needs --autoplay")
    if args.web:
        serve(argv, args.host, args.port)
        return
    from .app import PlayApp

    if args.replay:
        try:
            record = load_record(args.replay)
        except ValueError as exc:
            parser.error(first_line(exc))
        PlayApp(Settings(seat=args.seat or 0), replay=record, persist=False).run()
        return
    try:
        settings = settings_from(args, load_settings()).check()
        Game(settings, seed=0, autoplay=args.autoplay)  # builds the agents: bad names fail here, not in the app
    except (ValueError, TypeError) as exc:
        parser.error(first_line(exc))
    if not args.autoplay and any(getattr(args, k) is not None for k in ("variant", "seat", "partner", "opponents",
                                                                      "speed")):
        save_settings(settings)
    app = PlayApp(settings, seed=args.seed, max_hands=args.hands, autoplay=args.autoplay,
                  screenshot=args.screenshot, save_path=args.save, persist=not args.autoplay)
    if args.autoplay:
        app.run(headless=True, size=(120, 36))
    else:
        app.run()


def serve(argv: list[str], host: str, port: int) -> None:
    """Serve the same app through textual-serve: each browser tab runs ``crowsnest-play`` without --web."""
    try:
        from textual_serve.server import Server
    except ImportError:
        sys.exit("crowsnest-play: error: --web needs textual-serve (pip install textual-serve)")
    rest, skip = [], False
    for a in argv:
        if skip:
            skip = False
        elif a in ("--web",):
            continue
        elif a in ("--port", "--host"):
            skip = True
        elif not a.startswith(("--port=", "--host=")):
            rest.append(a)
    command = " ".join(shlex.quote(x) for x in [sys.executable, "-m", "agents.play", *rest])
    Server(command, host=host, port=port, title="CrowsNest").serve()
