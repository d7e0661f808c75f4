"""Learned agents: the policy/Q networks, the view encoder and checkpoint-backed :class:`PolicyAgent`.

The networks live here (not in ``training/``) so that agents never import the trainers;
``training`` builds, trains and saves them. A checkpoint is a ``torch.save``'d dict of
tensors and primitive containers only, read back with ``torch.load(weights_only=True)``:

| key              | content                                                          |
|------------------|------------------------------------------------------------------|
| format           | ``"crowsnest-checkpoint"``                                       |
| format_version   | :data:`FORMAT_VERSION`                                           |
| algo             | ``"ppo"`` (actor-critic, :class:`ActorCritic`) or ``"dmc"`` (:class:`QNet`) |
| model_spec       | ``{"hidden": [..], "action_embed": int}`` to rebuild the network |
| model            | the network's ``state_dict``                                     |
| variant, crow    | rules the network was trained for                                |
| layout           | ``ObservationLayout.describe()`` as lists                        |
| num_actions      | size of the flat action space                                    |
| config, global_step, update, optimizer, rng, extra | trainer state (see ``training.checkpoint``) |

:func:`encode_view` rebuilds a seat's observation row from its :class:`PlayerView`; it equals
the incremental :class:`~crowsnest_env.observation.ObservationEncoder` row for that seat.
"""

from __future__ import annotations

import itertools
import os
from typing import Any

import numpy as np
import torch
from torch import nn

from crowsnest_env.observation import SCORE_CLIP, observation_layout
from crowsnest_env.rules import (
    NUM_COLOURS,
    NUM_SEATS,
    PASS,
    Phase,
    PlayerView,
    Variant,
    get_variant,
    layout_for,
)

FORMAT = "crowsnest-checkpoint"
FORMAT_VERSION = 1
ALGOS = ("ppo", "dmc")
MASKED_LOGIT = -1e9  # finite, so masked entries give 0 probability without NaNs in the entropy


class CheckpointError(ValueError):
    """A checkpoint that cannot be used: unreadable, foreign, or for other rules/layout."""


# ---------------------------------------------------------------------------------- encoding
def _bits(cards: int, nbytes: int) -> np.ndarray:
    raw = np.frombuffer(cards.to_bytes(nbytes, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")


class _ViewEncoder:
    """Per-variant offsets for :func:`encode_view` (built once per variant)."""

    def __init__(self, variant: Variant):
        self.layout = observation_layout(variant)
        self.actions = layout_for(variant)
        self.n = self.actions.cards.deck_size
        self.nbytes = (self.n + 7) // 8
        self.o = {p.name: p.offset for p in self.layout.pieces}
        self.nb = self.actions.num_bids

    def cards(self, cards: int) -> np.ndarray:
        return _bits(cards, self.nbytes)[: self.n]


_ENCODERS: dict[int, tuple[Variant, _ViewEncoder]] = {}


def _encoder_for(variant: Variant) -> _ViewEncoder:
    hit = _ENCODERS.get(id(variant))
    if hit is None or hit[0] is not variant:
        hit = (variant, _ViewEncoder(variant))
        _ENCODERS[id(variant)] = hit
    return hit[1]


def encode_view(view: PlayerView) -> np.ndarray:
    """The seat's float32 observation (same vector as the encoder's row for ``view.seat``)."""
    e = _encoder_for(view.variant)
    v, o, n, me = view.variant, e.o, e.n, view.seat
    obs = np.zeros(e.layout.size, dtype=np.float32)
    obs[o["hand"]:o["hand"] + n] = e.cards(view.hand)
    if view.nest_seen and view.phase is not Phase.AUCTION:
        obs[o["nest_seen"]:o["nest_seen"] + n] = e.cards(view.nest_seen)
    if view.discards:
        obs[o["discards"]:o["discards"] + n] = e.cards(view.discards)
    for s in range(NUM_SEATS):
        if view.played[s]:
            off = o["played"] + ((s - me) % NUM_SEATS) * n
            obs[off:off + n] = e.cards(view.played[s])
    for i, c in enumerate(view.trick):
        obs[o["trick"] + ((view.leader + i - me) % NUM_SEATS) * n + c] = 1.0
    deciding = view.phase <= Phase.PLAY
    if deciding:
        obs[o["phase"] + int(view.phase)] = 1.0
        if view.to_move >= 0:
            obs[o["to_move"] + (view.to_move - me) % NUM_SEATS] = 1.0
    obs[o["dealer"] + (view.dealer - me) % NUM_SEATS] = 1.0
    if view.phase is Phase.PLAY and view.leader >= 0:
        obs[o["leader"] + (view.leader - me) % NUM_SEATS] = 1.0
    for seat, a in view.auction:
        rel = (seat - me) % NUM_SEATS
        if a == PASS:
            obs[o["passed"] + rel] = 1.0
        else:
            blk = o["bids"] + rel * e.nb
            obs[blk:blk + e.nb] = 0.0
            obs[blk + a - e.actions.bid_offset] = 1.0
    if view.high_bid:
        obs[o["high_bid"] + (view.high_bid - v.min_bid) // v.bid_step] = 1.0
    for piece, seat in (("high_bidder", view.high_bidder), ("declarer", view.declarer)):
        if seat >= 0:
            obs[o[piece] + (seat - me) % NUM_SEATS] = 1.0
    if view.trump >= 0:
        obs[o["trump"] + view.trump] = 1.0
    for s in range(NUM_SEATS):
        if view.voids[s]:
            blk = o["voids"] + ((s - me) % NUM_SEATS) * NUM_COLOURS
            for k in range(NUM_COLOURS):
                obs[blk + k] = (view.voids[s] >> k) & 1
    t = me % 2
    for piece, values, scale in (("points", view.captured, 1.0 / v.total_points),
                                 ("tricks", view.tricks_won, 1.0 / v.num_tricks)):
        obs[o[piece]], obs[o[piece] + 1] = values[t] * scale, values[t ^ 1] * scale
    target = 1.0 / v.target
    sc = [min(max(x * target, -SCORE_CLIP), SCORE_CLIP) for x in view.scores]
    obs[o["scores"]], obs[o["scores"] + 1] = sc[t], sc[t ^ 1]
    return obs


def legal_to_mask(legal: int, num_actions: int) -> np.ndarray:
    """Bitmask of legal action ids -> bool array of length ``num_actions``."""
    raw = np.frombuffer(legal.to_bytes((num_actions + 7) // 8, "little"), dtype=np.uint8)
    return np.unpackbits(raw, count=num_actions, bitorder="little").astype(bool)


# ---------------------------------------------------------------------------------- networks
def _mlp(sizes: list[int]) -> nn.Sequential:
    layers: list[nn.Module] = []
    for a, b in itertools.pairwise(sizes):
        layers += [nn.Linear(a, b), nn.ReLU()]
    return nn.Sequential(*layers)


class ActorCritic(nn.Module):
    """Shared MLP trunk with a policy head (logits over all actions) and a value head."""

    def __init__(self, obs_size: int, num_actions: int, hidden: list[int]):
        super().__init__()
        self.trunk = _mlp([obs_size, *hidden])
        self.policy = nn.Linear(hidden[-1], num_actions)
        self.value = nn.Linear(hidden[-1], 1)
        nn.init.orthogonal_(self.policy.weight, 0.01)
        nn.init.zeros_(self.policy.bias)

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.trunk(obs)
        return self.policy(h), self.value(h).squeeze(-1)


class QNet(nn.Module):
    """DouZero-style Q(s, a): a state trunk, an action embedding, and a head over both."""

    def __init__(self, obs_size: int, num_actions: int, hidden: list[int], action_embed: int = 32):
        super().__init__()
        self.trunk = _mlp([obs_size, *hidden])
        self.embed = nn.Embedding(num_actions, action_embed)
        self.head = nn.Sequential(nn.Linear(hidden[-1] + action_embed, hidden[-1]), nn.ReLU(),
                                  nn.Linear(hidden[-1], 1))

    def forward(self, obs: torch.Tensor, actions: torch.Tensor) -> torch.Tensor:
        """Q of each (obs[i], actions[i]) pair."""
        return self.head(torch.cat([self.trunk(obs), self.embed(actions)], -1)).squeeze(-1)

    def q_legal(self, obs: torch.Tensor, masks: torch.Tensor) -> torch.Tensor:
        """(B, A) Q values, evaluated only on legal pairs; illegal entries are MASKED_LOGIT."""
        rows, acts = masks.nonzero(as_tuple=True)
        h = self.trunk(obs)[rows]
        q = self.head(torch.cat([h, self.embed(acts)], -1)).squeeze(-1)
        out = torch.full(masks.shape, MASKED_LOGIT, dtype=q.dtype)
        out[rows, acts] = q
        return out


def build_model(algo: str, obs_size: int, num_actions: int, spec: dict[str, Any]) -> nn.Module:
    """The network of ``algo`` ("ppo" or "dmc") from its ``model_spec``."""
    hidden = [int(h) for h in spec["hidden"]]
    if algo == "ppo":
        return ActorCritic(obs_size, num_actions, hidden)
    if algo == "dmc":
        return QNet(obs_size, num_actions, hidden, int(spec.get("action_embed", 32)))
    raise CheckpointError(f"unknown algo {algo!r} in checkpoint; expected one of {ALGOS}")


def masked_logits(logits: torch.Tensor, masks: torch.Tensor) -> torch.Tensor:
    return torch.where(masks, logits, torch.full_like(logits, MASKED_LOGIT))


# -------------------------------------------------------------------------------- checkpoints
def layout_rows(variant: Variant) -> list[list[Any]]:
    """The observation layout as stored in checkpoints: [[name, offset, [shape...]], ...]."""
    return [[name, off, list(shape)] for name, off, shape in observation_layout(variant).describe()]


def read_checkpoint(path: str | os.PathLike[str], variant: Variant | None = None) -> dict[str, Any]:
    """Load and validate a checkpoint; CheckpointError says what is wrong with it.

    Checks that it is a CrowsNest checkpoint of a known format version, that it is complete,
    and that its observation layout and action count match the code's for its variant (and,
    when ``variant`` is given, that it was trained for that variant).
    """
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise CheckpointError(f"no checkpoint file at {path!r}")
    try:
        data = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as err:  # pickle/zip errors differ by how the file is damaged
        kind = "truncated or corrupt" if _looks_like_torch(path) else "not a torch checkpoint (foreign file)"
        raise CheckpointError(f"cannot read checkpoint {path!r}: {kind}: {type(err).__name__}: {err}") from err
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CheckpointError(f"{path!r} is not a CrowsNest checkpoint (foreign file: no format={FORMAT!r})")
    if data.get("format_version") != FORMAT_VERSION:
        raise CheckpointError(f"{path!r} has checkpoint format version {data.get('format_version')!r}; "
                              f"this code reads version {FORMAT_VERSION}")
    missing = [k for k in ("algo", "model_spec", "model", "variant", "crow", "layout", "num_actions")
               if k not in data]
    if missing:
        raise CheckpointError(f"checkpoint {path!r} is incomplete: missing {missing}")
    try:
        own = get_variant(data["variant"], data["crow"])
    except ValueError as err:
        raise CheckpointError(f"checkpoint {path!r} names unknown rules: {err}") from err
    if variant is not None and (own.name, own.bird) != (variant.name, variant.bird):
        raise CheckpointError(f"checkpoint {path!r} was trained for variant {own.name!r} (crow={own.bird}); "
                              f"expected {variant.name!r} (crow={variant.bird})")
    if _norm(data["layout"]) != _norm(layout_rows(own)):
        raise CheckpointError(f"checkpoint {path!r} has another observation layout than this code's "
                              f"for {own.name!r}: {_layout_diff(data['layout'], layout_rows(own))}")
    if data["num_actions"] != layout_for(own).num_actions:
        raise CheckpointError(f"checkpoint {path!r} has {data['num_actions']} actions; "
                              f"{own.name!r} has {layout_for(own).num_actions}")
    return data


def _norm(rows: Any) -> list:
    return [[str(r[0]), int(r[1]), [int(x) for x in r[2]]] for r in rows]


def _layout_diff(saved: Any, code: list) -> str:
    a, b = _norm(saved), _norm(code)
    for x, y in zip(a, b):
        if x != y:
            return f"piece {x} in the checkpoint vs {y} in the code"
    return f"{len(a)} pieces in the checkpoint vs {len(b)} in the code"


def _looks_like_torch(path: str) -> bool:
    with open(path, "rb") as fh:
        head = fh.read(4)
    return head[:2] == b"PK" or head[:1] == b"\x80"


def model_from_checkpoint(data: dict[str, Any]) -> nn.Module:
    variant = get_variant(data["variant"], data["crow"])
    with torch.random.fork_rng(devices=[]):  # loading must not move the caller's torch RNG
        model = build_model(data["algo"], observation_layout(variant).size, data["num_actions"], data["model_spec"])
    try:
        model.load_state_dict(data["model"])
    except (RuntimeError, KeyError) as err:
        raise CheckpointError(f"checkpoint weights do not fit its model_spec: {err}") from err
    model.eval()
    return model


# ---------------------------------------------------------------------------------- the agent
class PolicyAgent:
    """Acts on a seat's view with a trained network: greedy by default, or sampling (PPO only).

    Works in the arena (``make_agent("checkpoint:PATH")``), in ``SingleSeatEnv`` as one of the
    ``others``, and as any seat of the AEC env via ``env.unwrapped.view(agent)``.
    """

    def __init__(self, model: nn.Module, algo: str, variant: Variant, greedy: bool = True,
                 seed: int | None = None, name: str = "learned"):
        self.model, self.algo, self.variant = model, algo, variant
        self.greedy = bool(greedy)
        self.name = name
        self.num_actions = layout_for(variant).num_actions
        self.gen = torch.Generator()
        self.reset(seed)

    @classmethod
    def from_checkpoint(cls, path: str, seed: int | None = None, greedy: bool | int = True,
                        variant: str | None = None, crow: bool = True) -> PolicyAgent:
        want = get_variant(variant, crow) if variant is not None else None
        data = read_checkpoint(path, want)
        own = get_variant(data["variant"], data["crow"])
        return cls(model_from_checkpoint(data), data["algo"], own, greedy=bool(greedy), seed=seed,
                   name=f"checkpoint:{path}")

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.gen.manual_seed(int(seed) & 0x7FFF_FFFF_FFFF_FFFF)

    def act(self, view: PlayerView) -> int:
        if view.variant is not self.variant and (view.variant.name, view.variant.bird) != (
                self.variant.name, self.variant.bird):
            raise ValueError(f"this agent was trained for {self.variant.name!r} (crow={self.variant.bird}), "
                             f"not {view.variant.name!r} (crow={view.variant.bird})")
        if not view.legal:
            raise ValueError(f"seat {view.seat} has no legal action in phase {view.phase.name}")
        if view.legal & (view.legal - 1) == 0:  # a forced move needs no network
            return view.legal.bit_length() - 1
        obs = torch.from_numpy(encode_view(view)).unsqueeze(0)
        mask = torch.from_numpy(legal_to_mask(view.legal, self.num_actions)).unsqueeze(0)
        with torch.no_grad():
            if self.algo == "ppo":
                scores = masked_logits(self.model(obs)[0], mask)[0]
            else:
                scores = self.model.q_legal(obs, mask)[0]
        if self.greedy or self.algo == "dmc":
            return int(torch.argmax(scores))
        return int(torch.multinomial(torch.softmax(scores, -1), 1, generator=self.gen))


__all__ = [
    "FORMAT", "FORMAT_VERSION", "ActorCritic", "CheckpointError", "PolicyAgent", "QNet", "build_model",
    "encode_view", "layout_rows", "legal_to_mask", "masked_logits", "model_from_checkpoint", "read_checkpoint",
]
