"""Sit down and play: you and an AI partner against two AI opponents, in the terminal.

    crowsnest-play [--variant crowsnest] [--partner heuristic] [--opponents pimc] [--seat 0]

You play ``player_<seat>``; your partner sits opposite. At each turn you see your hand, the
auction or the trick, and the legal actions; type an action name (``bid 85``, ``pass``,
``discard G7``, ``trump Red``, ``play CROW``), its number from the list, or ``?`` for help.
Agents are named as everywhere else: ``random``, ``heuristic``, ``pimc``, ``checkpoint:PATH``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TextIO

from crowsnest_env.render import contract_text, hand_text, result_text
from crowsnest_env.rules import NUM_SEATS, Phase, State, player_view

from . import make_agent


def describe_turn(state: State, seat: int) -> str:
    """What a seat sees at its turn: scores, contract, its hand, the trick, its legal actions."""
    t, lay = state.cards, state.layout
    lines = [f"scores: you+partner {state.scores[seat % 2]}, opponents {state.scores[1 - seat % 2]}",
             contract_text(state), f"your hand: {hand_text(state, state.hands[seat])}"]
    if state.phase is Phase.AUCTION and state.auction:
        lines.append("auction: " + ", ".join(f"p{s} {lay.name(a)}" for s, a in state.auction))
    if state.phase is Phase.PLAY:
        played = [f"p{(state.leader + i) % NUM_SEATS} {t.names[c]}" for i, c in enumerate(state.trick)]
        lines.append(f"trick {state.trick_no + 1}: " + (", ".join(played) or "you lead"))
    legal = state.legal_actions()
    lines.append("legal: " + "  ".join(f"[{i}] {lay.name(a)}" for i, a in enumerate(legal)))
    return "\n".join(lines)


def parse_choice(state: State, text: str) -> int:
    """An action from a typed name or list number; ValueError saying why it is not legal."""
    legal = state.legal_actions()
    text = text.strip()
    if text.isdigit():
        k = int(text)
        if k >= len(legal):
            raise ValueError(f"choose a number 0..{len(legal) - 1}")
        return legal[k]
    action = state.layout.action_id(text)
    if action not in legal:
        raise ValueError(f"{state.layout.name(action)!r} is not legal now")
    return action


def play_game(
    human_seat: int, agents: dict, rng_seed: int, ask: Callable[[str], str], out: TextIO,
    variant: str = "crowsnest", max_hands: int | None = None,
) -> State:
    """Play one game; the human answers through ``ask`` (input() in the terminal)."""
    import random

    rng = random.Random(rng_seed)
    state = State(_variant(variant), dealer=rng.randrange(NUM_SEATS))
    while state.phase is not Phase.GAME_OVER:
        if state.phase is Phase.DEAL:
            if max_hands is not None and state.hand_no >= max_hands:
                break
            _announce_hand(state, out)
            state.deal_random(rng)
            continue
        seat = state.to_move
        if seat == human_seat:
            action = _ask_human(state, seat, ask, out)
        else:
            action = agents[seat].act(player_view(state, seat))
            out.write(f"player_{seat}: {state.layout.name(action)}\n")
        state.apply(action)
    _announce_hand(state, out)
    return state


def _ask_human(state: State, seat: int, ask: Callable[[str], str], out: TextIO) -> int:
    out.write("\n" + describe_turn(state, seat) + "\n")
    while True:
        text = ask("your action> ")
        if text.strip() in ("?", "help"):
            out.write(__doc__ + "\n")
            continue
        try:
            return parse_choice(state, text)
        except ValueError as exc:
            out.write(f"  {exc}\n")


def _announce_hand(state: State, out: TextIO) -> None:
    if not state.results or state.results[-1].hand_no != state.hand_no - 1:
        return
    r = state.results[-1]
    out.write(f"\nhand {r.hand_no + 1}: {result_text(r)}; "
              f"scores now {state.scores[0]} (team 0) - {state.scores[1]} (team 1)\n")
    if state.phase is Phase.GAME_OVER:
        out.write(f"game over: team {state.winner} wins\n")


def _variant(name: str):
    from crowsnest_env.rules import get_variant

    return get_variant(name)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Play Rook with an AI partner against two AI opponents.")
    parser.add_argument("--variant", default="crowsnest")
    parser.add_argument("--seat", type=int, default=0, choices=range(NUM_SEATS))
    parser.add_argument("--partner", default="heuristic")
    parser.add_argument("--opponents", default="heuristic")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    partner = (args.seat + 2) % NUM_SEATS
    try:
        agents = {s: make_agent(args.partner if s == partner else args.opponents, seed=s)
                  for s in range(NUM_SEATS) if s != args.seat}
        _variant(args.variant)
    except ValueError as exc:
        parser.error(str(exc))
    import random

    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    try:
        play_game(args.seat, agents, seed, input, sys.stdout, variant=args.variant)
    except (EOFError, KeyboardInterrupt):
        print("\nbye")


if __name__ == "__main__":
    main()
