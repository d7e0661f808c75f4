"""``VectorEnv``: N games stepped together, with batched numpy arrays, for trainers and anyone
who wants throughput. Each game is a :class:`~crowsnest_env.table.Table`, the same driver as the
AEC env, so its episodes, rewards and records are the env's.

```python
venv = crowsnest_env.VectorEnv(64, variant="crowsnest")
obs, info = venv.reset(seed=0)               # obs["observation"] (N, D) float32, obs["action_mask"] (N, A) int8
while True:
    actions = pick(obs["observation"], obs["action_mask"])       # (N,) ints, legal for info["seat"]
    obs, rewards, terminated, truncated, info = venv.step(actions)
```

| array | shape | meaning |
|---|---|---|
| ``obs["observation"]`` | (N, D) float32 | each row: the observation of the seat to move in that game |
| ``obs["action_mask"]`` | (N, A) int8 | that seat's legal actions |
| ``info["seat"]`` | (N,) int | the seat to move in each game (0..3) |
| ``rewards`` | (N, 4) float32 | what landed for each seat of each game at this step: the amounts the AEC env hands out through ``last()`` |
| ``terminated``, ``truncated`` | (N,) bool | the game's episode ended at this step (see :mod:`crowsnest_env.table`) |
| ``info["final"]`` | list | the games that ended at this step: ``{"index": i, "record": <save_record JSON dict>, "terminated": bool, "truncated": bool, "scores": [a, b], "observation": (4, D) float32 (every seat's last observation), "results": [HandResult, ...] (the hands scored)}`` |

- Same-step autoreset: a finished game starts the next one at once; its row of ``obs`` is
  already the new game's first decision. Its record replays with :func:`crowsnest_env.replay`.
- ``reset(seed=s)`` seeds game i with ``s + i``; ``reset()`` without a seed continues each game's
  generator (the autoreset does the same).
- An action of :data:`HOLD` (-1) leaves that game as it is this step (a trainer that has
  collected enough holds the games whose episode ended).
- ``phase(i)`` is game i's phase; ``generator_states()`` / ``set_generator_states(states)`` read
  and restore every game's deal generator (what a trainer's checkpoint keeps between episodes).
- An illegal action raises :class:`~crowsnest_env.rules.IllegalActionError` naming the game
  index, the seat and the action, before any game is stepped: nothing of the others is lost.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces

from .rules import IllegalActionError, Phase, PlayerView, Variant
from .table import DEFAULT_MAX_HANDS, DEFAULT_MAX_REDEALS, ZERO_REWARDS, Table

HOLD = -1


class VectorEnv:
    """``num_envs`` Rook games stepped together (see the module docstring)."""

    metadata = {"autoreset_mode": "same-step"}

    def __init__(self, num_envs: int, variant: str | Variant = "crowsnest", crow: bool = True,
                 episode: str = "hand", reward: str = "score", max_hands: int | None = DEFAULT_MAX_HANDS,
                 max_redeals: int | None = DEFAULT_MAX_REDEALS, record: bool = True):
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        self.num_envs = n = int(num_envs)
        self.tables = [Table(variant, crow, episode=episode, reward=reward, max_hands=max_hands,
                             max_redeals=max_redeals, record=record) for _ in range(n)]
        first = self.tables[0]
        self.variant = first.variant
        self.observation_layout = first.observer().layout
        self.action_layout = first.observer().actions
        self.num_actions = a = first.num_actions
        d = self.observation_layout.size
        low, high = self.observation_layout.bounds()
        self.single_observation_space = spaces.Dict({
            "observation": spaces.Box(low, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (a,), dtype=np.int8)})
        self.single_action_space = spaces.Discrete(a)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(np.tile(low, (n, 1)), np.tile(high, (n, 1)), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (n, a), dtype=np.int8)})
        self.action_space = spaces.MultiDiscrete(np.full(n, a))
        self._rows = np.zeros((n, 4, d), np.float32)  # every seat's row of every game, kept by the encoders
        for i, t in enumerate(self.tables):
            t.observer().bind(self._rows[i])
        self._index = np.arange(n)
        self._seat_rows = self._rows.reshape(n * 4, d)  # a view: row 4 i + s is game i's seat s
        self._nbytes = (a + 7) // 8
        # per game, filled by reset() (empty until then: step() refuses to run) and refreshed in
        # the one pass of step() over the games: the seat to move and its legal bitmask as
        # little-endian bytes (unpacked into _mask, against which the next step's actions are
        # checked)
        self._seats: list[int] = []
        self._legal: list[bytes] = []
        self._mask = np.zeros((n, a), np.int8)
        self._flat = self._index * a  # where each game's row of _mask starts, flattened
        self._flat4 = self._index * 4

    # ------------------------------------------------------------------------------ api
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """New games in every slot; ``seed`` seeds game i with ``seed + i``. ``options`` may hold
        ``dealer`` and ``scores`` (applied to every game)."""
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))):
            raise ValueError(f"seed must be an int or None, got {seed!r}")
        opts = dict(options or {})
        unknown = set(opts) - {"dealer", "scores"}
        if unknown:
            raise ValueError(f"unknown VectorEnv reset option(s) {sorted(unknown)}; valid: dealer, scores")
        seats, legal, nbytes = [0] * self.num_envs, [b""] * self.num_envs, self._nbytes
        for i, t in enumerate(self.tables):
            t.reset(None if seed is None else int(seed) + i, **opts)
            seats[i], legal[i] = t.state.to_move, t.state.legal_mask().to_bytes(nbytes, "little")
        self._seats, self._legal = seats, legal
        obs, seat = self._out()
        return obs, {"seat": seat}

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        acts = self._check(actions)
        n = self.num_envs
        rewards = np.zeros((n, 4), np.float32)
        terminated = np.zeros(n, bool)
        truncated = np.zeros(n, bool)
        final: list[dict[str, Any]] = []
        seats, legal, nbytes = self._seats, self._legal, self._nbytes
        # One pass over the games: at large N a game's objects and rows fall out of the cache
        # between two passes, so everything per game is done while they are loaded.
        for i, (t, a) in enumerate(zip(self.tables, acts)):
            if a == HOLD:
                continue
            r = t.step_legal(a)  # checked against the masks above, all games at once
            if r is not ZERO_REWARDS:
                rewards[i] = r
            if t.terminated or t.truncated:
                terminated[i], truncated[i] = t.terminated, t.truncated
                final.append(self._final(i, t))
                t.reset()
            st = t.state
            seats[i], legal[i] = st.to_move, st.legal_mask().to_bytes(nbytes, "little")
        obs, seat = self._out()
        info: dict[str, Any] = {"seat": seat}
        if final:
            info["final"] = final
        return obs, rewards, terminated, truncated, info

    def close(self) -> None:
        pass

    # ------------------------------------------------------------------------- helpers
    def view(self, index: int, seat: int | None = None) -> PlayerView:
        """What ``seat`` (default: the seat to move) of game ``index`` may know."""
        return self.tables[index].view(seat)

    def phase(self, index: int) -> Phase:
        """The phase of game ``index`` (a collector routing the auction to a teacher asks it)."""
        return self.tables[index].phase

    def generator_states(self) -> list[Any]:
        """Each game's deal generator state (``random.Random.getstate()``, one per game): between
        episodes, all a checkpoint needs to deal the same games again."""
        return [t.rng.getstate() for t in self.tables]

    def set_generator_states(self, states: Sequence[Any]) -> None:
        """Give game i the deal generator state ``states[i]`` (as :meth:`generator_states` returns
        them); the next ``reset()`` (no seed) deals from there."""
        if len(states) != self.num_envs:
            raise ValueError(f"set_generator_states needs {self.num_envs} states (one per game), got {len(states)}")
        for t, state in zip(self.tables, states):
            t.rng.setstate(state)

    def action_name(self, action: int) -> str:
        return self.action_layout.name(action)

    def _check(self, actions: Any) -> list[int]:
        if not self._legal:
            raise RuntimeError("VectorEnv.step() called before reset()")
        arr = np.asarray(actions)
        if arr.shape != (self.num_envs,) or arr.dtype.kind not in "iu":  # signed or unsigned integers
            raise ValueError(f"actions must be {self.num_envs} integers (shape ({self.num_envs},)), "
                             f"got {arr.dtype} array of shape {arr.shape}")
        # every game's action against the last step's mask, in a few numpy calls (no per-game Python)
        legal = self._mask.reshape(-1).take(self._flat + arr.astype(np.int64, copy=False), mode="clip")
        if arr.min() < HOLD or arr.max() >= self.num_actions:
            legal &= (arr >= 0) & (arr < self.num_actions)  # out of range: never legal
        if not legal.all() and (bad := np.flatnonzero((legal == 0) & (arr != HOLD))).size:
            i = int(bad[0])
            a = int(arr[i])
            try:
                self.tables[i].state.clone().apply(a)  # the engine's own message (action, phase, reason)
            except IllegalActionError as err:
                raise IllegalActionError(a, err.phase, err.seat, err.reason, err.name, game=i) from None
        return arr.tolist()

    def _out(self) -> tuple[dict[str, np.ndarray], np.ndarray]:
        """The batch and the seats to move: the mover's row of every game gathered with one numpy
        index, the legal bitmasks unpacked in one call."""
        bits = np.frombuffer(b"".join(self._legal), np.uint8).reshape(self.num_envs, self._nbytes)
        self._mask = np.unpackbits(bits, axis=1, count=self.num_actions, bitorder="little").view(np.int8)
        seat = np.array(self._seats, np.int64)
        # one index on the first axis gathers fastest (rather than a pair of index arrays); the
        # caller gets a copy of the mask, since the next step's actions are checked against ours
        rows = self._seat_rows[self._flat4 + seat]
        return {"observation": rows, "action_mask": self._mask.copy()}, seat

    def _final(self, i: int, t: Table) -> dict[str, Any]:
        out: dict[str, Any] = {"index": i, "terminated": t.terminated, "truncated": t.truncated,
                               "scores": t.scores, "observation": t.observer().obs.copy(),
                               "results": t.state.results}
        if t.keep_record:
            out["record"] = t.record()
        return out


__all__ = ["HOLD", "VectorEnv"]
