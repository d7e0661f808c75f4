"""The controllers that act in rollouts: per algorithm, the learner's and a past snapshot's.

| algo | learner (its decisions become transitions)          | snapshot (an opponent from the pool) |
|------|-----------------------------------------------------|--------------------------------------|
| ppo  | :func:`ppo_learner`: samples; keeps log-prob, value | :func:`ppo_snapshot`: samples        |
| dmc  | :func:`dmc_learner`: epsilon-greedy over legal Q    | :func:`dmc_greedy`: argmax legal Q   |

Each is a batched :class:`~training.rollout.NetController`: numpy observations and masks in, numpy
actions out, the network's forward pass on ``device`` (the learner's device in the learner's own
collection; workers act on the CPU). Random choices come from torch's global generators, seeded by
the trainer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import numpy as np
import torch
from torch import nn

from agents.networks import ActorCritic, QNet, masked_logits

from .config import Config
from .losses import MaskedCategorical
from .rollout import NetController

Extras = dict[str, np.ndarray]


def ppo_learner(model: ActorCritic, device: str = "cpu") -> NetController:
    """Samples from the masked policy; stores log-prob and value with each transition."""
    dev = torch.device(device)

    def act(obs: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, Extras]:
        with torch.no_grad():
            logits, value = model(torch.from_numpy(obs).to(dev))
            dist = MaskedCategorical(logits, torch.from_numpy(masks).to(dev))
            action = dist.sample()
            return action.cpu().numpy(), {"logprob": dist.log_prob(action).cpu().numpy(), "value": value.cpu().numpy()}

    def score(obs: np.ndarray, masks: np.ndarray, actions: np.ndarray) -> Extras:
        with torch.no_grad():
            logits, value = model(torch.from_numpy(obs).to(dev))
            dist = MaskedCategorical(logits, torch.from_numpy(masks).to(dev))
            logprob = dist.log_prob(torch.from_numpy(actions).to(dev))
            return {"logprob": logprob.cpu().numpy(), "value": value.cpu().numpy()}

    return NetController(act, "self_play", score)


def ppo_snapshot(model: nn.Module, device: str = "cpu") -> NetController:
    """A past policy, sampling like the learner (no transitions kept)."""
    dev = torch.device(device)

    def act(obs: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, Extras]:
        with torch.no_grad():
            logits = masked_logits(model(torch.from_numpy(obs).to(dev))[0], torch.from_numpy(masks).to(dev))
            return torch.multinomial(torch.softmax(logits, -1), 1).squeeze(-1).cpu().numpy(), {}

    return NetController(act, "snapshot")


def dmc_learner(model: QNet, epsilon: float, device: str = "cpu") -> NetController:
    """Epsilon-greedy over Q of the legal actions (the exploration drawn on the CPU, whatever the device)."""
    dev = torch.device(device)

    def act(obs: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, Extras]:
        m = torch.from_numpy(masks)
        with torch.no_grad():
            greedy = model.q_legal(torch.from_numpy(obs).to(dev), m.to(dev)).argmax(-1).cpu()
        explore = torch.rand(len(obs)) < epsilon
        if explore.any():
            greedy[explore] = torch.multinomial(m[explore].float(), 1).squeeze(-1)
        return greedy.numpy(), {}

    return NetController(act, "self_play", score=lambda obs, masks, actions: {})


def dmc_greedy(model: QNet, device: str = "cpu") -> NetController:
    """A past Q network, acting greedily."""
    dev = torch.device(device)

    def act(obs: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, Extras]:
        with torch.no_grad():
            q = model.q_legal(torch.from_numpy(obs).to(dev), torch.from_numpy(masks).to(dev))
            return q.argmax(-1).cpu().numpy(), {}

    return NetController(act, "snapshot")


def learner_policy(cfg: Config, model: nn.Module, device: str = "cpu") -> NetController:
    """The learner's controller for ``cfg.algo``."""
    if cfg.algo == "ppo":
        return ppo_learner(cast(ActorCritic, model), device)
    return dmc_learner(cast(QNet, model), cfg.dmc.epsilon, device)


def snapshot_policy(cfg: Config, device: str = "cpu") -> Callable[[nn.Module], NetController]:
    """How a past snapshot of ``cfg.algo`` plays: the opponent pool's ``make_snapshot``."""
    def make(model: nn.Module) -> NetController:
        model = model.to(device)
        if cfg.algo == "ppo":
            return ppo_snapshot(model, device)
        return dmc_greedy(cast(QNet, model), device)

    return make


__all__ = ["dmc_greedy", "dmc_learner", "learner_policy", "ppo_learner", "ppo_snapshot", "snapshot_policy"]
