"""The learned agent: :class:`PolicyAgent` acts on a seat's view with a trained network.

The networks are in :mod:`agents.networks`, the checkpoint format in :mod:`agents.checkpoint`,
and the observation it encodes is the reference :func:`crowsnest_env.observation.encode_view`.
"""

from __future__ import annotations

import torch
from torch import nn

from crowsnest_env.observation import action_mask, encode_view
from crowsnest_env.rules import PlayerView, Variant, get_variant, layout_for

from .checkpoint import checkpoint_variant, model_from_checkpoint, read_checkpoint
from .networks import masked_logits


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
        own = checkpoint_variant(data)  # partnership, dixie: no bird, and no crow=False option either
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
        mask = torch.from_numpy(action_mask(view.legal, self.num_actions).view(bool).copy()).unsqueeze(0)
        with torch.no_grad():
            if self.algo == "ppo":
                scores = masked_logits(self.model(obs)[0], mask)[0]
            else:
                scores = self.model.q_legal(obs, mask)[0]  # type: ignore[operator]  # a QNet
        if self.greedy or self.algo == "dmc":
            return int(torch.argmax(scores))
        return int(torch.multinomial(torch.softmax(scores, -1), 1, generator=self.gen))


__all__ = ["PolicyAgent"]
