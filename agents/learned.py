"""The learned agent: :class:`PolicyAgent` acts on a seat's view with a trained network.

The networks are in :mod:`agents.networks`, the checkpoint format in :mod:`agents.checkpoint`,
and the observation it encodes is the reference :func:`crowsnest_env.observation.encode_view`.
"""

from __future__ import annotations

import os

import numpy as np
import torch
from torch import nn

from crowsnest_env.observation import action_mask, encode_view
from crowsnest_env.rules import PlayerView, Variant, get_variant, layout_for

from .checkpoint import CheckpointError, checkpoint_variant, model_from_checkpoint, other_rules, read_checkpoint
from .networks import masked_logits
from .prior import make_prior, prior_columns
from .specs import parse_bool


class PolicyAgent:
    """Acts on a seat's view with a trained network: greedy by default, or sampling (PPO only).

    Works in the arena (``make_agent("checkpoint:PATH")``), in ``SingleSeatEnv`` as one of the
    ``others``, and as any seat of the AEC env via ``env.unwrapped.view(agent)``.
    """

    def __init__(self, model: nn.Module, algo: str, variant: Variant, greedy: bool | int | str = True,
                 seed: int | None = None, name: str = "learned", prior: str | None = None):
        self.model, self.algo, self.variant = model, algo, variant
        self.prior = make_prior(prior) if prior else None  # a residual policy's rule agent (agents.prior)
        if (self.prior is not None) != bool(getattr(model, "prior_weight", 0.0)):
            raise ValueError(f"{name}: a prior ({prior!r}) needs a network built with prior columns, and back")
        self.greedy = parse_bool("greedy", greedy)
        self.name = name
        self.num_actions = layout_for(variant).num_actions
        self.gen = torch.Generator()
        self.reset(seed)

    @classmethod
    def from_checkpoint(cls, path: str, seed: int | None = None, greedy: bool | int | str = True,
                        variant: str | None = None, crow: bool = True) -> PolicyAgent:
        greedy = parse_bool("greedy", greedy)  # before the file is read
        want = get_variant(variant, crow) if variant is not None else None
        data = read_checkpoint(path, want)
        own = checkpoint_variant(data)  # partnership, dixie: no bird, and no crow=False option either
        return cls(model_from_checkpoint(data), data["algo"], own, greedy=greedy, seed=seed,
                   name=f"checkpoint:{path}", prior=data["model_spec"].get("prior"))

    def encode(self, view: PlayerView) -> np.ndarray:
        """The network's input for ``view``: :func:`encode_view`, and with a prior the one-hot of
        the prior agent's action after it (the one place this is built outside the trainers)."""
        obs = encode_view(view)
        if self.prior is None:
            return obs
        return np.concatenate([obs, prior_columns([self.prior.act(view)], self.num_actions)[0]])

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.gen.manual_seed(int(seed) & 0x7FFF_FFFF_FFFF_FFFF)

    def policy_for(self, variant: Variant) -> PolicyAgent:
        """This policy, checked to play ``variant`` (an actor-critic: its probabilities are used)."""
        if variant != self.variant:
            raise ValueError(f"this agent was trained for {self.variant.name!r}, not {variant.name!r}"
                             f"{other_rules(self.variant, variant)}")
        if self.algo != "ppo":
            raise ValueError(f"{self.name}: a {self.algo} network has no action probabilities to infer with")
        return self

    def _check_view(self, view: PlayerView) -> None:
        if view.variant is not self.variant and view.variant != self.variant:
            raise ValueError(f"this agent was trained for {self.variant.name!r}, not {view.variant.name!r}"
                             f"{other_rules(self.variant, view.variant)}")
        if not view.legal:
            raise ValueError(f"seat {view.seat} has no legal action in phase {view.phase.name}")

    def _scores(self, obs: np.ndarray, masks: np.ndarray) -> torch.Tensor:
        """The network's scores of every action for a batch of encoded views and their (writable,
        bool) legal masks, illegal actions masked: one forward pass."""
        o, m = torch.from_numpy(obs), torch.from_numpy(masks)
        with torch.no_grad():
            if self.algo == "ppo":
                return masked_logits(self.model(o)[0], m)
            return self.model.q_legal(o, m)  # type: ignore[operator]  # a QNet

    def act(self, view: PlayerView) -> int:
        self._check_view(view)
        if view.legal & (view.legal - 1) == 0:  # a forced move needs no network
            return view.legal.bit_length() - 1
        # a batch of one: the observation as a view, the shared read-only mask copied (torch writes)
        mask = action_mask(view.legal, self.num_actions).view(bool)[None].copy()
        scores = self._scores(self.encode(view)[None], mask)[0]
        if self.greedy or self.algo == "dmc":
            return int(torch.argmax(scores))
        return int(torch.multinomial(torch.softmax(scores, -1), 1, generator=self.gen))

    def greedy_actions(self, views: list[PlayerView]) -> list[int]:
        """The greedy action for each view, in one batched forward pass (forced moves skip the
        network): what :meth:`act` plays with ``greedy`` on, for many seats or worlds at once."""
        out = [-1] * len(views)
        ask: list[int] = []
        for i, v in enumerate(views):
            self._check_view(v)
            if v.legal & (v.legal - 1) == 0:
                out[i] = v.legal.bit_length() - 1
            else:
                ask.append(i)
        if ask:
            obs = np.stack([self.encode(views[i]) for i in ask])
            masks = np.stack([action_mask(views[i].legal, self.num_actions).view(bool) for i in ask])
            for i, a in zip(ask, torch.argmax(self._scores(obs, masks), -1).tolist()):
                out[i] = a
        return out


POLICY_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "policies")
"""Where the shipped policies live: ``<variant name>.pt`` (weights only), with their reports."""

POLICY_DIR_ENV = "CROWSNEST_POLICY_DIR"
"""An environment variable naming another folder of ``<variant name>.pt`` files for ``learned``
(your own policies, or a folder without some variant's); processes started from this one see it."""


def policy_dir() -> str:
    return os.environ.get(POLICY_DIR_ENV) or POLICY_DIR


def shipped_policy(variant: Variant) -> str:
    """The path of the shipped policy for ``variant``; CheckpointError if there is none."""
    folder = policy_dir()
    path = os.path.join(folder, f"{variant.name}.pt")
    if not os.path.isfile(path):
        have = sorted(f[:-3] for f in os.listdir(folder) if f.endswith(".pt")) if os.path.isdir(folder) else []
        where = "" if folder == POLICY_DIR else f" in {POLICY_DIR_ENV}={folder}"
        raise CheckpointError(f"no shipped policy for variant {variant.name!r}{where} "
                              f"(shipped: {', '.join(have) or 'none'}); train one with crowsnest-train and use "
                              "checkpoint:PATH")
    return path


class LearnedAgent:
    """``learned``: the shipped policy of the variant being played, loaded on first use (so one
    name serves every variant); ``learned?variant=NAME`` pins the variant and fails at once if
    it has no policy, and a view of any other variant is refused."""

    name = "learned"

    def __init__(self, seed: int | None = None, variant: str | None = None, greedy: bool | int | str = True):
        self.seed, self.greedy = seed, parse_bool("greedy", greedy)
        self.pinned = get_variant(variant) if variant is not None else None
        self.agent: PolicyAgent | None = None
        if self.pinned is not None:
            self._load(self.pinned)

    def _load(self, variant: Variant) -> PolicyAgent:
        path = shipped_policy(variant)
        self.agent = PolicyAgent.from_checkpoint(path, seed=self.seed, greedy=self.greedy)
        if self.agent.variant != variant:
            raise CheckpointError(f"shipped policy {path!r} was trained for {self.agent.variant.name!r}, "
                                  f"not {variant.name!r}{other_rules(self.agent.variant, variant)}")
        self.agent.name = "learned"
        return self.agent

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.seed = seed
        if self.agent is not None:
            self.agent.reset(seed)

    def policy_for(self, variant: Variant) -> PolicyAgent:
        """The shipped policy of ``variant`` (loaded on first use)."""
        agent = self.agent
        if agent is None or agent.variant != variant:
            if self.pinned is not None and self.pinned != variant:
                raise ValueError(f"learned?variant={self.pinned.name} cannot play {variant.name!r}")
            agent = self._load(variant)
            agent.reset(self.seed)
        return agent.policy_for(variant)

    def act(self, view: PlayerView) -> int:
        agent = self.agent
        if agent is None or agent.variant != view.variant:
            if self.pinned is not None:
                raise ValueError(f"learned?variant={self.pinned.name} cannot play {view.variant.name!r}")
            agent = self._load(view.variant)
            agent.reset(self.seed)
        return agent.act(view)


__all__ = ["POLICY_DIR", "POLICY_DIR_ENV", "policy_dir", "LearnedAgent", "PolicyAgent", "shipped_policy"]
