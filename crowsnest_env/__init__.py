"""CrowsNest: Rook, the American partnership trick-taking game, as a PettingZoo AEC environment.

```python
import crowsnest_env
env = crowsnest_env.env(variant="crowsnest")      # or pettingzoo.make("aec", "crowsnest/Rook-v1")
env.reset(seed=0)
for agent in env.agent_iter():
    obs, reward, terminated, truncated, info = env.last()
    action = None if terminated or truncated else env.action_space(agent).sample(obs["action_mask"])
    env.step(action)
```

| | |
|---|---|
| Import | ``crowsnest_env.env(variant=..., crow=True, episode="game", reward="score", render_mode=None, max_hands=100, max_redeals=100)`` |
| Actions | Discrete (98 in crowsnest; per variant, see Actions) |
| Parallel API | No |
| Manual control | ``crowsnest-play`` |
| Agents | ``player_0 .. player_3`` (seat k; teams: player_0+player_2 = team 0, player_1+player_3 = team 1) |
| Observation shape | ``Dict(observation=Box(float32, (D,)), action_mask=Box(int8, (A,)))``; D = 560 in crowsnest |
| Variants | ``crowsnest`` (default), ``tournament`` (alias ``kentucky_discard``), ``partnership``, ``one_high``, ``red_one``, ``buckeye``, ``dixie``; ``crow=False`` (40 cards) for the first two |

## Arguments

- ``variant``: one of :data:`VARIANTS` (or ``kentucky_discard``); unknown names raise ``ValueError``
  listing the valid ones. Rules: ``RULES.md`` (shared spec).
- ``crow``: ``False`` plays without the bird (40 cards, nest 4, 100 points); crowsnest and
  tournament only, ``ValueError`` elsewhere.
- ``episode``: ``"game"`` plays hands until a team reaches the target (300; a tie at or above
  it plays another hand); ``"hand"`` ends after one scored hand.
- ``reward``: ``"score"`` (see Rewards) or ``"win"``.
- ``max_hands``: scored hands before the episode is *truncated* (default 100, :data:`DEFAULT_MAX_HANDS`;
  ``None``: no cap). Totals have no floor (RULES R7), so random bidding drives both teams far below
  zero and such a game would never reach 300; games between players that mean to win end within
  20 hands. All-pass redeals are not hands (``max_redeals`` caps them).
- ``max_redeals``: all-pass deals in a row before the episode is *truncated* (default 100;
  ``None``: unlimited, as RULES R4 allows).
- ``render_mode``: ``"ansi"`` returns a text table (all four hands face up), ``"human"`` prints it.

## Actions

One flat ``Discrete(A)`` space; each id has one name in every phase (``env.unwrapped.action_name(a)``,
``env.unwrapped.action_id("bid 85")``, case-insensitive). ``N`` = deck size, ``B`` = bid levels.

| ids | name | phase |
|---|---|---|
| 0 | ``pass`` | auction |
| 1 .. B | ``bid 70`` .. ``bid <max>`` by 5 | auction |
| B+1 .. B+N | ``discard <card>`` (one card per step, nest-size steps) | declarer's discard |
| B+N+1 .. B+N+4 | ``trump Black``/``Green``/``Red``/``Yellow`` (also ``trump R``) | trump |
| B+N+5 .. B+2N+4 | ``play <card>`` | tricks |

Cards are colour letter + rank (``R5``, ``Y14``, ``G1``, ``B10``); the bird is ``CROW`` in crowsnest
and ``ROOK`` elsewhere (both accepted); the Red 1 of red_one is ``R1``.

## Observations

``observation`` is the seat-relative float32 vector documented piece by piece in
:mod:`crowsnest_env.observation` (``env.unwrapped.observation_layout``: name, offset, shape);
``action_mask`` is int8, all zeros for agents not on turn, and is also in ``infos[agent]["action_mask"]``.
``state()`` returns all four seats' vectors plus the nest, for centralized critics.

## Rewards

Rewards land when a hand is scored, while other seats may be acting; each seat receives them
through ``last()`` at its next turn or at termination.

- ``reward="score"``: every seat gets (its team's score change - the other team's) / the variant's
  total points per hand (120 in crowsnest, 100 without the Crow, 180 in buckeye). Partners get the
  same reward, opponents its negative.
- ``reward="win"``: +1 / -1 to the winning / losing team at game end (``episode="hand"``: the sign
  of the hand's score difference, 0 on a tie).

When a hand is scored, ``infos[agent]["hand"]`` holds ``declarer`` (seat 0..3), ``bid``, ``trump``
(colour index into ``crowsnest_env.rules.COLOURS``), ``points``, ``tricks``, ``made``,
``score_change``, ``nest_points``, ``hand_no`` (plain numbers; kept until that agent next acts).
``env.unwrapped.scores`` holds the game scores.

## Reset options

``reset(seed=..., options={"deal": {"hands": [[...] * 4], "nest": [...]}, "dealer": 0, "scores": [a, b]})``
starts from a given position; bad options raise ``ValueError`` saying what is wrong.

## Version history

- v1, later: ``max_hands`` defaults to 100 (was ``None``), so every episode on the defaults ends,
  also under random play (truncated at hand 100); an episode that ended within 100 hands is unchanged.
  :func:`replay` also takes the path of a record file.
- v1: one game driver (:class:`Table`) under every face; ``max_redeals`` (all-pass deals in a row
  before a truncation, default 100); ``infos[agent]["hand"]`` holds numbers only (declarer seat,
  trump colour index); rule corrections from RULES.md: the bird follows suit in ``one_high``,
  ``buckeye`` opens at 100 (its action space has 17 bids, and its observation's ``bids`` and
  ``high_bid`` pieces shrink with them); the no-Crow variants are named
  ``<name>_nocrow``; ``variant`` also takes a :class:`Variant` or a YAML file.
  :class:`VectorEnv` for batched stepping.
- v0: initial release.
"""

from __future__ import annotations

from typing import Any

from .agent import Agent, RandomAgent
from .env import AGENTS, hand_info, raw_env
from .record import replay
from .rules import VARIANTS, IllegalActionError, PlayerView, Variant, get_variant
from .table import DEFAULT_MAX_HANDS, DEFAULT_MAX_REDEALS, Table
from .vector import HOLD, VectorEnv
from .wrappers import wrap

ENV_ID = "crowsnest/Rook-v1"


def env(**kwargs: Any):
    """The environment wrapped with the PettingZoo conventions (order, bounds, illegal moves)."""
    return wrap(raw_env(**kwargs))


def _register() -> None:
    import warnings

    import pettingzoo

    register = getattr(pettingzoo, "register", None)
    if register is None:  # PettingZoo releases before the registry
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        register("aec", ENV_ID, entry_point="crowsnest_env:env")


_register()


def __getattr__(name: str) -> Any:
    if name == "SingleSeatEnv":
        from .single_seat import SingleSeatEnv

        return SingleSeatEnv
    raise AttributeError(f"module 'crowsnest_env' has no attribute {name!r}")


__all__ = [
    "AGENTS", "DEFAULT_MAX_HANDS", "DEFAULT_MAX_REDEALS", "ENV_ID", "HOLD", "VARIANTS", "Agent", "IllegalActionError", "PlayerView",
    "RandomAgent", "SingleSeatEnv", "Table", "Variant", "VectorEnv", "env", "get_variant", "hand_info", "raw_env",
    "replay",
]
