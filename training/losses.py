"""The pieces of the update rules, importable and tested on their own.

- :class:`MaskedCategorical`: a categorical over logits with illegal actions masked out;
  its entropy sums over legal actions only.
- :func:`compute_gae`: generalised advantage estimation over concatenated trajectories.
- :func:`ppo_loss`: the clipped PPO objective (CleanRL's form) on one minibatch.
- :func:`mc_returns` and :func:`dmc_loss`: Deep Monte-Carlo targets and regression.
"""

from __future__ import annotations

import numpy as np
import torch
from torch.distributions import Categorical

from agents.networks import MASKED_LOGIT, ActorCritic, QNet


class MaskedCategorical(Categorical):
    """Categorical over ``logits`` where ``mask`` is False gets probability 0.

    Masked logits are set to a large finite negative number (not -inf, which turns the
    entropy's ``p * log p`` into NaN); the entropy only sums over legal actions.
    """

    def __init__(self, logits: torch.Tensor, mask: torch.Tensor):
        self.mask = mask.bool()
        super().__init__(logits=torch.where(self.mask, logits, torch.full_like(logits, MASKED_LOGIT)))

    def entropy(self) -> torch.Tensor:
        p_log_p = self.probs * self.logits
        return -torch.where(self.mask, p_log_p, torch.zeros_like(p_log_p)).sum(-1)


def compute_gae(rewards: np.ndarray, values: np.ndarray, dones: np.ndarray, gamma: float, lam: float,
                last_value: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Advantages and returns (= advantages + values) for trajectories laid end to end.

    ``dones[t] = 1`` marks step t as the last of its trajectory: nothing is bootstrapped
    across it. ``last_value`` bootstraps the final step when it is not done.
    """
    T = len(rewards)
    adv = np.zeros(T, dtype=np.float32)
    last = 0.0
    for t in range(T - 1, -1, -1):
        nonterminal = 1.0 - float(dones[t])
        next_value = last_value if t == T - 1 else float(values[t + 1])
        delta = rewards[t] + gamma * next_value * nonterminal - values[t]
        last = delta + gamma * lam * nonterminal * last
        adv[t] = last
    return adv, adv + values.astype(np.float32)


def mc_returns(rewards: np.ndarray, dones: np.ndarray, gamma: float) -> np.ndarray:
    """Discounted Monte-Carlo return of each step within its trajectory."""
    out = np.zeros(len(rewards), dtype=np.float32)
    g = 0.0
    for t in range(len(rewards) - 1, -1, -1):
        if dones[t]:
            g = 0.0
        g = float(rewards[t]) + gamma * g
        out[t] = g
    return out


def explained_variance(pred: np.ndarray, target: np.ndarray) -> float:
    var = float(np.var(target))
    return float("nan") if var == 0 else 1.0 - float(np.var(target - pred)) / var


def ppo_loss(model: ActorCritic, obs: torch.Tensor, masks: torch.Tensor, actions: torch.Tensor,
             old_logprobs: torch.Tensor, advantages: torch.Tensor, returns: torch.Tensor,
             old_values: torch.Tensor, *, clip_coef: float, ent_coef: float, vf_coef: float,
             clip_vloss: bool = False, norm_adv: bool = True) -> tuple[torch.Tensor, dict[str, float]]:
    """Clipped surrogate + value loss - entropy bonus on one minibatch; also its statistics."""
    logits, values = model(obs)
    dist = MaskedCategorical(logits, masks)
    logprob = dist.log_prob(actions)
    entropy = dist.entropy()
    logratio = logprob - old_logprobs
    ratio = logratio.exp()
    with torch.no_grad():
        approx_kl = ((ratio - 1) - logratio).mean().item()
        clipfrac = ((ratio - 1.0).abs() > clip_coef).float().mean().item()
    if norm_adv and len(advantages) > 1:
        advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
    pg_loss = torch.max(-advantages * ratio, -advantages * ratio.clamp(1 - clip_coef, 1 + clip_coef)).mean()
    if clip_vloss:
        v_clipped = old_values + (values - old_values).clamp(-clip_coef, clip_coef)
        v_loss = 0.5 * torch.max((values - returns) ** 2, (v_clipped - returns) ** 2).mean()
    else:
        v_loss = 0.5 * ((values - returns) ** 2).mean()
    ent = entropy.mean()
    loss = pg_loss - ent_coef * ent + vf_coef * v_loss
    stats = {"policy_loss": pg_loss.item(), "value_loss": v_loss.item(), "entropy": ent.item(),
             "approx_kl": approx_kl, "clipfrac": clipfrac}
    return loss, stats


def dmc_loss(model: QNet, obs: torch.Tensor, actions: torch.Tensor, returns: torch.Tensor) -> torch.Tensor:
    """Mean squared error between Q(s, a) and the Monte-Carlo return."""
    return ((model(obs, actions) - returns) ** 2).mean()
