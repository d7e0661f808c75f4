"""The networks of the learned agents: an actor-critic (PPO) and a Q network (DMC).

They live in ``agents`` (not ``training``) so that agents never import the trainers;
``training`` builds, trains and saves them, :mod:`agents.checkpoint` rebuilds them from a file.
"""

from __future__ import annotations

import itertools
from typing import Any

import torch
from torch import nn

ALGOS = ("ppo", "dmc")
MASKED_LOGIT = -1e9  # finite, so masked entries give 0 probability without NaNs in the entropy


def _mlp(sizes: list[int]) -> nn.Sequential:
    layers: list[nn.Module] = []
    for a, b in itertools.pairwise(sizes):
        layers += [nn.Linear(a, b), nn.ReLU()]
    return nn.Sequential(*layers)


class ActorCritic(nn.Module):
    """Shared MLP trunk with a policy head (logits over all actions) and a value head.

    With ``prior_weight > 0`` (a residual policy, :mod:`agents.prior`) the input is the
    observation followed by ``num_actions`` columns, the one-hot of the prior agent's action, and
    ``prior_weight`` times those columns is added to the logits.
    """

    def __init__(self, obs_size: int, num_actions: int, hidden: list[int], prior_weight: float = 0.0):
        super().__init__()
        self.num_actions, self.prior_weight = num_actions, float(prior_weight)
        self.trunk = _mlp([obs_size + (num_actions if self.prior_weight else 0), *hidden])
        self.policy = nn.Linear(hidden[-1], num_actions)
        self.value = nn.Linear(hidden[-1], 1)
        nn.init.orthogonal_(self.policy.weight, 0.01)
        nn.init.zeros_(self.policy.bias)

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.trunk(obs)
        logits = self.policy(h)
        if self.prior_weight:
            logits = logits + self.prior_weight * obs[..., -self.num_actions:]
        return logits, self.value(h).squeeze(-1)


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
        out = torch.full(masks.shape, MASKED_LOGIT, dtype=q.dtype, device=q.device)
        out[rows, acts] = q
        return out


def build_model(algo: str, obs_size: int, num_actions: int, spec: dict[str, Any]) -> nn.Module:
    """The network of ``algo`` ("ppo" or "dmc") from its ``model_spec``."""
    hidden = [int(h) for h in spec["hidden"]]
    if algo == "ppo":
        weight = float(spec.get("prior_weight", 0.0)) if spec.get("prior") else 0.0
        return ActorCritic(obs_size, num_actions, hidden, weight)
    if algo == "dmc":
        return QNet(obs_size, num_actions, hidden, int(spec.get("action_embed", 32)))
    raise ValueError(f"unknown algo {algo!r}; expected one of {ALGOS}")


def masked_logits(logits: torch.Tensor, masks: torch.Tensor) -> torch.Tensor:
    return torch.where(masks, logits, torch.full_like(logits, MASKED_LOGIT))


__all__ = ["ALGOS", "MASKED_LOGIT", "ActorCritic", "QNet", "build_model", "masked_logits"]
