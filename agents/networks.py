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

    With ``oracle_size > 0`` the value is an *oracle critic* (PerfectDou's perfect-training
    imperfect-execution; Suphx's oracle guiding): a network of its own over the actor's input
    followed by ``oracle_size`` columns of what the seat cannot see
    (:func:`training.rollout.oracle_columns`), used only in training. The policy never reads
    those columns; given the actor's input alone (``actor_size`` wide, as every agent gives it)
    the value is NaN.
    """

    def __init__(self, obs_size: int, num_actions: int, hidden: list[int], prior_weight: float = 0.0,
                 oracle_size: int = 0):
        super().__init__()
        self.num_actions, self.prior_weight, self.oracle_size = num_actions, float(prior_weight), int(oracle_size)
        self.actor_size = obs_size + (num_actions if self.prior_weight else 0)
        self.trunk = _mlp([self.actor_size, *hidden])
        self.policy = nn.Linear(hidden[-1], num_actions)
        self.critic = _mlp([self.actor_size + self.oracle_size, *hidden]) if self.oracle_size else None
        self.value = nn.Linear(hidden[-1], 1)
        nn.init.orthogonal_(self.policy.weight, 0.01)
        nn.init.zeros_(self.policy.bias)

    def prior_bonus(self, obs: torch.Tensor) -> torch.Tensor:
        """What the prior adds to the policy head's logits: ``prior_weight`` x the one-hot of its
        action (the actor input's last columns); zeros without a prior."""
        if not self.prior_weight:
            return torch.zeros(obs.shape[:-1] + (self.num_actions,), dtype=obs.dtype, device=obs.device)
        return self.prior_weight * obs[..., self.actor_size - self.num_actions:self.actor_size]

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        x = obs[..., :self.actor_size] if self.oracle_size else obs
        h = self.trunk(x)
        logits = self.policy(h)
        if self.prior_weight:
            logits = logits + self.prior_bonus(x)
        if self.critic is None:
            return logits, self.value(h).squeeze(-1)
        if obs.shape[-1] != self.actor_size + self.oracle_size:  # an agent's input: no oracle columns
            return logits, torch.full(logits.shape[:-1], float("nan"), dtype=logits.dtype, device=logits.device)
        return logits, self.value(self.critic(obs)).squeeze(-1)


class PolicyEnsemble(nn.Module):
    """Several actor-critics for the same rules acting as one policy: the product of their
    policies (the mean of their log-probabilities; a masked softmax over it renormalises over the
    legal actions exactly as each member's own would) and the mean of their values.

    The members share one input (a residual policy's prior columns included), so they share the
    prior; each adds its own ``prior_weight`` times the prior's one-hot inside its logits. Built
    from ``{"members": [{"hidden": [..]}, ..], "prior": .., "prior_weight": ..}``, where a member
    may carry its own ``prior_weight`` in place of the shared one; the file is written by
    :mod:`training.ensemble`. It is an agent's network only: nothing trains it.
    """

    def __init__(self, members: list[ActorCritic]):
        super().__init__()
        if not members:
            raise ValueError("an ensemble needs at least one member")
        self.members = nn.ModuleList(members)
        first = members[0]
        self.num_actions, self.prior_weight, self.actor_size = first.num_actions, first.prior_weight, first.actor_size
        self.oracle_size = 0
        self._fused: _Fused | None = None

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        if not torch.is_grad_enabled():
            if self._fused is None or self._fused.stale():
                self._fused = _Fused(list(self.members))  # type: ignore[arg-type]
            return self._fused(obs)
        logps, values = [], []
        for member in self.members:
            logits, value = member(obs)
            logps.append(torch.log_softmax(logits, -1))
            values.append(value)
        return torch.stack(logps).mean(0), torch.stack(values).mean(0)

    def _apply(self, fn, recurse=True):  # .to(), .float(), ...: the fused pass is rebuilt from the moved weights
        self._fused = None
        return super()._apply(fn, recurse)

    def load_state_dict(self, state_dict, strict=True, assign=False):
        self._fused = None
        return super().load_state_dict(state_dict, strict=strict, assign=assign)


class _Fused:
    """:class:`PolicyEnsemble`'s forward pass without gradients, for agents: the members' first
    layers as one matrix (one product reads the input once for every member) and the rest as plain
    ``torch.nn.functional`` calls on the members' parameters, with no module dispatch. An agent's pass is
    dominated by per-call costs, not arithmetic: four crowsnest members through their modules took
    1.1 to 1.4x this (``benchmarks/bench_policies.py``). The same arithmetic, so the same values up to
    float rounding (a test holds the two equal). The later layers read the parameters themselves (an
    in-place change shows through); the joined first layers are a copy, rebuilt when one of those
    parameters changed in place (its version counter moved), after ``load_state_dict`` and after a
    move (``.to()``). A forward pass with gradients enabled runs the members' own modules."""

    def __init__(self, members: list[ActorCritic]):
        self.count = len(members)
        self.num_actions = members[0].num_actions
        # members by input width (one group when they share the prior); in each, the joined first
        # layer and, per member, its columns of it and its later layers (views of its parameters)
        self.groups: list[tuple[int, torch.Tensor, torch.Tensor, list[tuple[ActorCritic, slice, list[nn.Linear]]]]] = []
        by_input: dict[int, list[ActorCritic]] = {}
        for m in members:
            by_input.setdefault(m.actor_size, []).append(m)
        for actor_size, group in by_input.items():
            layers = [_linears(m.trunk) for m in group]
            w = torch.cat([ls[0].weight.detach() for ls in layers])
            b = torch.cat([ls[0].bias.detach() for ls in layers])
            spans, at = [], 0
            for m, ls in zip(group, layers):
                spans.append((m, slice(at, at + ls[0].out_features), ls[1:]))
                at += ls[0].out_features
            self.groups.append((actor_size, w, b, spans))
        self.copied = [p for m in members for p in _linears(m.trunk)[0].parameters()]
        self.versions = [p._version for p in self.copied]

    def stale(self) -> bool:
        """Whether a first-layer parameter changed in place since its copy was joined."""
        return any(p._version != v for p, v in zip(self.copied, self.versions))

    def __call__(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        F = torch.nn.functional
        logp_sum: torch.Tensor | None = None
        value_sum: torch.Tensor | None = None
        for actor_size, w, b, spans in self.groups:
            x = obs[..., :actor_size]
            first = torch.relu(F.linear(x, w, b))
            for m, span, later in spans:
                h = first[..., span]
                for lin in later:
                    h = torch.relu(F.linear(h, lin.weight, lin.bias))
                logits = F.linear(h, m.policy.weight, m.policy.bias)
                if m.prior_weight:
                    logits = logits + m.prior_weight * x[..., actor_size - self.num_actions:actor_size]
                logp = torch.log_softmax(logits, -1)
                if m.critic is None:
                    value = F.linear(h, m.value.weight, m.value.bias).squeeze(-1)
                elif obs.shape[-1] != actor_size + m.oracle_size:
                    value = torch.full(logits.shape[:-1], float("nan"), dtype=logits.dtype, device=logits.device)
                else:  # an oracle critic given its columns: the member's own critic reads them
                    value = m.value(m.critic(obs)).squeeze(-1)
                logp_sum = logp if logp_sum is None else logp_sum + logp
                value_sum = value if value_sum is None else value_sum + value
        assert logp_sum is not None and value_sum is not None
        return logp_sum / self.count, value_sum / self.count


def _linears(seq: nn.Sequential) -> list[nn.Linear]:
    return [m for m in seq if isinstance(m, nn.Linear)]


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
    if algo == "ppo":
        weight = float(spec.get("prior_weight", 0.0)) if spec.get("prior") else 0.0
        if "members" in spec:
            return PolicyEnsemble([ActorCritic(obs_size, num_actions, [int(h) for h in m["hidden"]],
                                               float(m.get("prior_weight", weight)) if weight else 0.0,
                                               int(m.get("oracle_size", 0))) for m in spec["members"]])
        return ActorCritic(obs_size, num_actions, [int(h) for h in spec["hidden"]], weight,
                           int(spec.get("oracle_size", 0)))
    hidden = [int(h) for h in spec["hidden"]]
    if algo == "dmc":
        return QNet(obs_size, num_actions, hidden, int(spec.get("action_embed", 32)))
    raise ValueError(f"unknown algo {algo!r}; expected one of {ALGOS}")


def masked_logits(logits: torch.Tensor, masks: torch.Tensor) -> torch.Tensor:
    return torch.where(masks, logits, torch.full_like(logits, MASKED_LOGIT))


__all__ = ["ALGOS", "MASKED_LOGIT", "ActorCritic", "PolicyEnsemble", "QNet", "build_model", "masked_logits"]
