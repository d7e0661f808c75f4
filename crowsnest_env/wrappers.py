"""The PettingZoo convention wrappers."""

from __future__ import annotations

from pettingzoo.utils import wrappers


def wrap(env):
    """The standard stack: TerminateIllegal -> AssertOutOfBounds -> OrderEnforcing."""
    env = wrappers.TerminateIllegalWrapper(env, illegal_reward=-1)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)
