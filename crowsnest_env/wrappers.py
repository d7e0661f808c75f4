"""The PettingZoo conventions (order enforcement, action bounds, illegal moves) in one layer.

PettingZoo's standard stack, ``TerminateIllegalWrapper -> AssertOutOfBoundsWrapper ->
OrderEnforcingWrapper``, costs about 45 us a turn, more than our whole raw step: each layer
re-dispatches ``step``/``observe``/``last`` and resolves attributes through ``__getattr__``,
and TerminateIllegal keeps a copy of the last observation to find the mask. ``ConventionWrapper``
keeps the same behaviour (it *is* an ``OrderEnforcingWrapper``) in a single layer and reads the
legal set straight from the engine. ``wrap_standard`` builds the standard stack for comparison.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from .rules import IllegalActionError

ILLEGAL_REWARD = -1.0


class ActionSpaceError(IllegalActionError, AssertionError):
    """An action outside the action space (or None for a live agent). An AssertionError too, as
    PettingZoo's AssertOutOfBoundsWrapper raises, but raised explicitly so that ``python -O``
    (which strips asserts) keeps the check."""


class ConventionWrapper(wrappers.OrderEnforcingWrapper):
    """OrderEnforcing + AssertOutOfBounds + TerminateIllegal(-1) over a CrowsNest ``raw_env``."""

    def __init__(self, env, illegal_reward: float = ILLEGAL_REWARD):
        super().__init__(env)
        self._illegal_value = float(illegal_reward)
        self._num_actions = env.num_actions

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        super().reset(seed=seed, options=options)

    def last(self, observe: bool = True):
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.last(observe)

    def step(self, action) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        raw = self.env
        self._has_updated = True
        if not raw.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = raw.agent_selection
        dead = raw.terminations[agent] or raw.truncations[agent]
        # These checks are raises, not asserts: under ``python -O`` an assert vanishes, and step(None)
        # would then pass a live agent to _was_dead_step and drop it from the game.
        if action is None:
            if not dead:
                raise ActionSpaceError(action, raw.table.phase, raw.table.to_move, "action is not in action space: "
                                       f"{agent} is live (None is for a finished agent)", "None")
            raw._was_dead_step(action)
            return
        if not self._in_bounds(action):
            raise ActionSpaceError(action, raw.table.phase, raw.table.to_move,
                                     f"action is not in action space Discrete({self._num_actions})", "out of range")
        if dead:
            raw._was_dead_step(action)
        elif not (raw.game.legal_mask() >> int(action)) & 1:
            self._terminate_illegal(agent)
        else:
            raw.step(action)

    def _in_bounds(self, action) -> bool:
        if isinstance(action, (int, np.integer)) and not isinstance(action, bool):
            return 0 <= action < self._num_actions
        return self.env.action_space(self.env.agent_selection).contains(action)

    def _terminate_illegal(self, agent: str) -> None:
        """TerminateIllegalWrapper's convention: everyone is done; the mover gets the penalty."""
        raw = self.env
        EnvLogger.warn_on_illegal_move()
        raw._cumulative_rewards[agent] = 0
        raw.terminations = dict.fromkeys(raw.agents, True)
        raw.truncations = dict.fromkeys(raw.agents, True)
        raw.rewards = dict.fromkeys(raw.truncations, 0)
        raw.rewards[agent] = self._illegal_value
        raw._accumulate_rewards()
        raw._deads_step_first()

    def __str__(self) -> str:
        return str(self.env)


def wrap(env):
    """The conventions in one layer (what ``crowsnest_env.env()`` returns)."""
    return ConventionWrapper(env)


def wrap_standard(env):
    """PettingZoo's standard stack: TerminateIllegal -> AssertOutOfBounds -> OrderEnforcing."""
    env = wrappers.TerminateIllegalWrapper(env, illegal_reward=ILLEGAL_REWARD)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)
