"""Typed training configuration: YAML files in ``configs/`` map 1:1 onto :class:`Config`.

Unknown keys are an error naming the key (and where it sits); a value of the wrong type is
an error naming the field and the expected type. The resolved config (defaults filled in) is
written to the run directory as ``config.yaml``.
"""

from __future__ import annotations

import copy
import dataclasses
import math
import os
import re
import typing
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import yaml

from agents.networks import ALGOS
from crowsnest_env.atomic import atomic_write_text
from crowsnest_env.rules import Variant, quote
from crowsnest_env.table import EPISODES, REWARDS  # the env's episode options
from crowsnest_env.yamlfile import parse_yaml, read_yaml

BACKENDS = ("local", "ray")
DEVICES = ("auto", "cpu", "cuda")
BC_TARGETS = ("action", "values", "rollouts", "double_dummy")


class ConfigError(ValueError):
    """A config file that does not fit :class:`Config` (unknown key, wrong type, bad value)."""


TRAIN_PHASES = ("auction", "discard", "trump", "play")
"""the decision phases by name (``train_phases``; :class:`crowsnest_env.rules.Phase` members, lower case)"""


@dataclass
class OpponentMix:
    """Proportions of the opponent team drawn per episode (normalised; the learner holds one team)."""

    self_play: float = 0.5
    """the current policy (all four seats then produce training data)"""
    snapshot: float = 0.3
    """a past snapshot drawn uniformly from the pool (falls back to self_play while it is empty)"""
    heuristic: float = 0.2
    """the rule-based heuristic agent (agents.heuristic)"""
    random: float = 0.0
    """the uniform random agent"""
    agent: float = 0.0
    """the agent named by ``opponent_agent`` (any name the arena accepts), frozen: e.g. the target that
    ``crowsnest-exploit`` trains a best response against"""


@dataclass
class PPOArgs:
    """PPO hyper-parameters (CleanRL names where they exist)."""

    num_envs: int = 32
    """games stepped side by side (their decisions are batched through the network)"""
    rollout_workers: int = 2
    """with backend ray: Ray actors that each collect rollout_steps / rollout_workers per update"""
    rollout_steps: int = 4096
    """learner decisions collected per update (whole episodes; the last one may overshoot)"""
    learning_rate: float = 3e-4
    """Adam step size"""
    anneal_lr: bool = True
    """decay the learning rate linearly to zero over total_steps"""
    gamma: float = 1.0
    """discount per own decision (episodes are one hand: undiscounted)"""
    gae_lambda: float = 0.95
    """GAE lambda"""
    update_epochs: int = 4
    """passes over each rollout"""
    minibatch_size: int = 512
    """transitions per gradient step"""
    clip_coef: float = 0.2
    """PPO ratio clipping"""
    clip_vloss: bool = False
    """clip the value loss as in the PPO paper's code"""
    norm_adv: bool = True
    """normalise advantages per minibatch"""
    ent_coef: float = 0.01
    """entropy bonus (entropy over legal actions only)"""
    vf_coef: float = 0.5
    """value loss weight"""
    max_grad_norm: float = 0.5
    """gradient clipping"""
    target_kl: float = 0.0
    """stop the epochs early above this approximate KL (0 = never)"""
    hidden: list[int] = field(default_factory=lambda: [256, 256])
    """MLP trunk sizes"""
    prior: str = ""
    """a residual policy (agents.prior): the network sees the one-hot of this rule agent's action
    (``heuristic``, or ``heuristic?margin=0.05``) and adds prior_weight times it to its logits, so
    training starts from the rule agent's play; empty = none"""
    prior_weight: float = 6.0
    """the prior one-hot's weight in the logits (with prior)"""
    oracle_critic: bool = False
    """an oracle critic (PerfectDou, Suphx): in training the value network also reads the other hands
    and the nest; the policy still reads only its own observation, and agents never need the rest"""


@dataclass
class DMCArgs:
    """Deep Monte-Carlo (DouZero) hyper-parameters."""

    num_actors: int = 1
    """actors (processes, or Ray actors with backend ray) each collecting rollout_steps per call, one call in
    flight each (0 = collect in-process, deterministic)"""
    num_envs: int = 16
    """games per actor stepped side by side"""
    rollout_steps: int = 2048
    """learner decisions per actor message (and per in-process collection)"""
    batch_size: int = 256
    """transitions per gradient step"""
    learning_rate: float = 3e-4
    """Adam step size"""
    epsilon: float = 0.05
    """epsilon-greedy exploration of the acting learner seats"""
    gamma: float = 1.0
    """discount of the Monte-Carlo return"""
    max_grad_norm: float = 40.0
    """gradient clipping"""
    sync_interval: int = 1
    """learner updates between copies of the weights to the actors"""
    hidden: list[int] = field(default_factory=lambda: [256, 256])
    """state trunk sizes"""
    action_embed: int = 32
    """action embedding size"""


@dataclass
class Config:
    """One training run. ``algo`` picks the trainer; its section (``ppo`` or ``dmc``) applies."""

    name: str = "run"
    """run name (default output folder runs/<name>)"""
    algo: str = "ppo"
    """trainer: ppo | dmc"""
    seed: int = 1
    """seeds python random, numpy, torch and the deals"""
    variant: str = "crowsnest"
    """rules: a preset name (crowsnest_env.VARIANTS) or a variant YAML file (configs/rules/*.yaml format)"""
    crow: bool = True
    """play with the bird (False: 40-card option, crowsnest and tournament only)"""
    episode: str = "hand"
    """training episode, with the env's meaning: one scored hand, or a whole game to the target"""
    reward: str = "score"
    """the env's reward mode: score (score difference per hand / points per hand) or win (+-1 at the end)"""
    max_hands: int = 40
    """the env's max_hands: a game episode is truncated after this many scored hands (0 = no cap)"""
    max_redeals: int = 100
    """the env's max_redeals: all-pass deals in a row before the episode is truncated (0 = no cap)"""
    total_steps: int = 1_000_000
    """budget in learner decisions (env steps that produce training data); 0 with bc_decisions: the
    behaviour cloning alone (a distillation run)"""
    max_wall_time: float = 0.0
    """stop training after this many seconds (0 = no cap); evaluation time not included"""
    torch_threads: int = 1
    """torch.set_num_threads in the learner (1: on a 2-core box a second OpenMP thread costs more than it gives)"""
    device: str = "auto"
    """where the learner trains and the in-process rollout's batched forward passes run: auto (cuda when
    torch sees a GPU, else cpu) | cpu | cuda (an error where there is no CUDA); workers act on the cpu"""
    opponents: OpponentMix = field(default_factory=OpponentMix)
    """the opponent team's mix"""
    opponent_agent: str = ""
    """the fixed opponent of ``opponents.agent`` (an agent name: ``pimc``, ``learned``, ``checkpoint:PATH``, ...),
    one agent for both seats of its team, acting on its seats' views; the interval evaluations also play it
    (``eval/adp_vs_agent``). Empty: none (``opponents.agent`` must then be 0)"""
    more_opponent_agents: list[str] = field(default_factory=list)
    """further fixed opponents that share ``opponents.agent``'s episodes equally with ``opponent_agent``, one
    drawn per episode (e.g. a target and the best response that exploits it, so that a policy learns to beat
    the one without being exploited by the other); each checked as ``opponent_agent`` is. A name listed more
    than once (``opponent_agent`` counts) is one agent drawn that many times as often: ``opponent_agent: A`` with
    ``[A, A, A, B]`` plays B in a fifth of those episodes. The interval evaluations play ``opponent_agent`` only"""
    teacher_auction: float = 0.0
    """fraction of episodes whose learner-seat auction is bid by the heuristic (those bids are not
    trained on; the discard, trump and card play that follow are): keeps contracts, and so
    card-play data, flowing when the policy has learnt to pass everything"""
    teacher_train: bool = False
    """also train on those teacher bids (with the learner's log-prob and value of them), so the
    policy learns to bid from the bids that paid off"""
    train_phases: list[str] = field(default_factory=lambda: list(TRAIN_PHASES))
    """the phases the learner decides and trains on (``auction``, ``discard``, ``trump``, ``play``);
    in the others its seats are played by ``ppo.prior`` (or the heuristic) and nothing of them is
    recorded, their rewards going to the learner's latest decision: ``[auction]`` learns to bid
    for the rule agent's card play, with no exploration noise in that play"""
    bc_decisions: int = 0
    """behaviour-cloning warm start (ppo): heuristic decisions (heuristic-vs-heuristic games, all
    four seats) imitated before PPO starts; 0 = off, PPO from scratch"""
    bc_teacher: str = ""
    """the agent imitated by behaviour cloning (any agent name that plays from a seat's view, e.g.
    ``phase:base=heuristic?margin=0.05;play=pimc`` to distil the search's card play); empty = the
    prior (``ppo.prior``) or the heuristic. A teacher's games are split into 8 fixed shards
    played by ``ppo.rollout_workers`` processes, so the demonstrations do not depend on that count"""
    bc_behaviour: str = ""
    """DAgger (Ross, Gordon and Bagnell 2011): an agent (e.g. ``checkpoint:PATH`` of an earlier student)
    that plays ``bc_behaviour_share`` of the demonstration games' decisions instead of ``bc_teacher``,
    which labels them all, so the student also learns the teacher's choice in the positions its own
    play reaches; empty = the teacher plays every decision"""
    bc_behaviour_share: float = 1.0
    """with ``bc_behaviour``: the probability that it plays a decision (the teacher plays the rest)"""
    bc_epochs: int = 4
    """passes over the demonstrations"""
    bc_batch_size: int = 1024
    """decisions per behaviour-cloning gradient step"""
    bc_learning_rate: float = 1e-3
    """Adam step size of behaviour cloning (its own optimizer; PPO's starts fresh afterwards)"""
    bc_value: bool = True
    """also fit the value head to the Monte-Carlo returns of the demonstration games (weight ppo.vf_coef)"""
    bc_target: str = "action"
    """what is imitated: ``action`` (cross-entropy of the teacher's moves), ``values`` (where a search
    teacher valued its moves, e.g. ``pimc``'s card play, the policy head less the prior's bonus
    regresses on those values) or ``rollouts`` (the same on each card's score when the true deal is
    played out by the teacher in all four seats: the teacher's Q, a one-step improvement on it) or
    ``double_dummy`` (the same on each card's double-dummy value on the true deal: the mean over the
    deals that really arise, PIMC with the true posterior). A
    residual policy then leaves the prior's move only where it predicts more than ``ppo.prior_weight
    x bc_value_scale`` points over it (:mod:`training.bc`)"""
    bc_value_scale: float = 10.0
    """with ``bc_target: values``, ``rollouts`` or ``double_dummy``: the values' points per logit"""
    snapshot_interval: int = 10
    """updates between snapshots added to the opponent pool"""
    pool_size: int = 20
    """snapshots kept in the pool (oldest dropped)"""
    checkpoint_interval: int = 10
    """updates between checkpoints (and always at the end)"""
    eval_interval: int = 20
    """updates between arena evaluations during training (0 = none)"""
    eval_deals: int = 200
    """duplicate deals per opponent in each interval evaluation"""
    rate_snapshots: bool = True
    """at each evaluation, also play the previous evaluated snapshot and update openskill ratings"""
    final_eval_deals: int = 1000
    """duplicate deals per opponent in the final evaluation (0 = skip)"""
    eval_workers: int = 2
    """arena worker processes in the final evaluation"""
    eval_seed: int = 12345
    """arena seed (fixed deals, comparable across runs)"""
    log_interval: int = 1
    """updates between scalar logs"""
    progress: bool = True
    """tqdm progress bar"""
    backend: str = "local"
    """where rollouts run: local (DMC actor processes, PPO in the learner) | ray (DMC actors and PPO
    rollout workers as Ray actors)"""
    address: str = ""
    """Ray cluster address (HOST:PORT, ray://HOST:PORT, auto); empty starts a local Ray (backend ray only)"""
    ppo: PPOArgs = field(default_factory=PPOArgs)
    """PPO section"""
    dmc: DMCArgs = field(default_factory=DMCArgs)
    """DMC section"""

    def model_spec(self, algo: str | None = None) -> dict[str, Any]:
        """The network's ``model_spec`` for ``algo`` (default the config's): what checkpoints store and
        :func:`agents.networks.build_model` builds from."""
        if (algo or self.algo) == "ppo":
            if self.ppo.prior:
                return {"hidden": list(self.ppo.hidden), "prior": self.ppo.prior, "prior_weight": self.ppo.prior_weight}
            return {"hidden": list(self.ppo.hidden)}
        return {"hidden": list(self.dmc.hidden), "action_embed": self.dmc.action_embed}

    def episode_options(self) -> dict[str, Any]:
        """The env's episode options (crowsnest_env.Table / VectorEnv keyword arguments)."""
        return {"episode": self.episode, "reward": self.reward, "max_hands": self.max_hands or None,
                "max_redeals": self.max_redeals or None}

    def validate(self) -> Config:
        """Check every field's value (ConfigError naming the field and the value); returns self."""
        _choice("algo", self.algo, ALGOS)
        _choice("device", self.device, DEVICES)
        resolve_device(self.device)
        _choice("episode", self.episode, EPISODES)
        _choice("reward", self.reward, REWARDS)
        if not self.name or self.name in (".", "..") or any(c in self.name for c in "/\\\0"):
            raise ConfigError(f"name must be a non-empty folder name (no path separators), got {self.name!r}")
        from crowsnest_env.table import resolve_variant

        try:
            variant = resolve_variant(self.variant, self.crow)
        except ValueError as err:
            raise ConfigError(f"variant: {err}") from None
        for name in ("seed", "eval_seed"):
            _int_range(name, getattr(self, name), 0, 2**63 - 1)
        _int_range("total_steps", self.total_steps, 0)
        if self.total_steps == 0 and (self.algo != "ppo" or self.bc_decisions <= 0):
            raise ConfigError("total_steps 0 trains nothing: it is for a behaviour-cloning run alone "
                              "(algo ppo with bc_decisions > 0, e.g. distilling a bc_teacher into one network)")
        for name in ("torch_threads", "snapshot_interval", "pool_size",
                     "checkpoint_interval", "log_interval", "eval_workers", "bc_epochs", "bc_batch_size"):
            _int_range(name, getattr(self, name), 1)
        for name in ("max_hands", "max_redeals", "eval_interval", "eval_deals", "final_eval_deals", "bc_decisions"):
            _int_range(name, getattr(self, name), 0)
        _real("max_wall_time", self.max_wall_time, 0.0)
        _real("teacher_auction", self.teacher_auction, 0.0, 1.0)
        phases = self.train_phases
        if not phases or len(set(phases)) != len(phases) or not set(phases) <= set(TRAIN_PHASES):
            raise ConfigError(f"train_phases must be distinct names among {list(TRAIN_PHASES)}, at least one; "
                              f"got {phases!r}")
        if set(phases) != set(TRAIN_PHASES) and self.teacher_auction > 0:
            raise ConfigError("train_phases and teacher_auction both give the learner's seats a teacher; set one")
        _real("bc_learning_rate", self.bc_learning_rate, 0.0, positive=True)
        _choice("bc_target", self.bc_target, BC_TARGETS)
        _real("bc_value_scale", self.bc_value_scale, 0.0, positive=True)
        _real("bc_behaviour_share", self.bc_behaviour_share, 0.0, 1.0)
        if self.ppo.prior and self.algo != "ppo":
            raise ConfigError(f"ppo.prior (a residual policy) is for algo ppo, not {self.algo}")
        if self.ppo.oracle_critic and self.algo != "ppo":
            raise ConfigError(f"ppo.oracle_critic is for algo ppo, not {self.algo}")
        if self.bc_decisions > 0 and self.algo != "ppo":
            raise ConfigError(f"bc_decisions (behaviour cloning) is for algo ppo, not {self.algo}")
        self._validate_bc_teacher(variant)
        self._validate_bc_behaviour(variant)
        mix = asdict(self.opponents)
        for k, v in mix.items():
            _real(f"opponents.{k}", v, 0.0)
        if sum(mix.values()) <= 0:
            raise ConfigError(f"opponents proportions must have a positive sum, got {mix}")
        self._validate_opponent_agent(variant)
        self._validate_ppo()
        self._validate_dmc()
        from agents.checkpoint import validate_model_spec
        from crowsnest_env.observation import observation_layout
        from crowsnest_env.rules import layout_for

        obs, acts = observation_layout(variant).size, layout_for(variant).num_actions
        for algo in ALGOS:
            try:
                validate_model_spec(algo, self.model_spec(algo), obs, acts)
            except ValueError as err:
                raise ConfigError(f"{algo}: {err}") from None
        _choice("backend", self.backend, BACKENDS)
        if self.address and self.backend != "ray":
            raise ConfigError(f"address {self.address!r} needs backend: ray (backend is {self.backend})")
        if self.backend == "ray" and self.algo == "dmc" and self.dmc.num_actors < 1:
            raise ConfigError(f"backend ray runs DMC actors: it needs dmc.num_actors >= 1, got {self.dmc.num_actors}")
        return self

    def _validate_opponent_agent(self, variant: Variant) -> None:
        """``opponent_agent`` names one agent that can play ``variant`` from a seat's view, and is set exactly
        when ``opponents.agent`` is positive; so does each of ``more_opponent_agents``, which need it."""
        name, share = self.opponent_agent, self.opponents.agent
        if not isinstance(name, str):
            raise ConfigError(f"opponent_agent must be an agent name, got {name!r}")
        if self.more_opponent_agents and not name.strip():
            raise ConfigError(f"more_opponent_agents {self.more_opponent_agents} needs opponent_agent: they share its "
                              f"episodes (opponents.agent)")
        if share > 0 and not name.strip():
            raise ConfigError(f"opponents.agent is {share} but opponent_agent names no agent")
        if not name.strip():
            return
        if share <= 0:
            raise ConfigError(f"opponent_agent {name!r} is set but opponents.agent is 0: it would never play")
        problem = opponent_agent_problem(name, variant)
        if problem is not None:
            raise ConfigError(f"opponent_agent {name!r}: {problem}")
        for i, more in enumerate(self.more_opponent_agents):
            problem = opponent_agent_problem(more, variant) if more.strip() else "names no agent"
            if problem is not None:
                raise ConfigError(f"more_opponent_agents[{i}] {more!r}: {problem}")

    def _validate_bc_teacher(self, variant: Variant) -> None:
        name = self.bc_teacher
        if not isinstance(name, str):
            raise ConfigError(f"bc_teacher must be an agent name (or empty), got {name!r}")
        if not name.strip():
            if self.bc_target == "values":
                raise ConfigError("bc_target values needs a bc_teacher that values its moves (e.g. pimc's card play: "
                                  "phase:base=heuristic;play=pimc); the default teacher gives no values")
            return
        if self.bc_decisions <= 0:
            raise ConfigError(f"bc_teacher {name!r} is set but bc_decisions is 0: nothing would be imitated")
        problem = opponent_agent_problem(name, variant)
        if problem is not None:
            raise ConfigError(f"bc_teacher {name!r}: {problem}")
        if self.bc_target == "values":
            from agents import make_agent

            if not callable(getattr(make_agent(name, seed=0), "explain", None)):
                raise ConfigError(f"bc_target values needs a bc_teacher that values its moves (pimc, expert, or a "
                                  f"phase agent with one), and {name!r} gives none")

    def _validate_bc_behaviour(self, variant: Variant) -> None:
        name = self.bc_behaviour
        if not isinstance(name, str):
            raise ConfigError(f"bc_behaviour must be an agent name (or empty), got {name!r}")
        if not name.strip():
            return
        if self.bc_decisions <= 0:
            raise ConfigError(f"bc_behaviour {name!r} is set but bc_decisions is 0: nothing would be imitated")
        if self.bc_target != "action":
            raise ConfigError(f"bc_behaviour (DAgger) plays moves the teacher did not value: it needs bc_target "
                              f"action, not {self.bc_target!r}")
        problem = opponent_agent_problem(name, variant)
        if problem is not None:
            raise ConfigError(f"bc_behaviour {name!r}: {problem}")

    def _validate_ppo(self) -> None:
        a = self.ppo
        if not isinstance(a.prior, str):
            raise ConfigError(f"ppo.prior must be an agent name (or empty), got {a.prior!r}")
        if a.prior:
            from agents.prior import check_prior_weight, prior_options

            for key, check, value in (("prior", prior_options, a.prior), ("prior_weight", check_prior_weight,
                                                                          a.prior_weight)):
                try:
                    check(value)
                except ValueError as err:
                    raise ConfigError(f"ppo.{key}: {err}") from None
        for name in ("num_envs", "rollout_steps", "update_epochs", "minibatch_size"):
            _int_range(f"ppo.{name}", getattr(a, name), 1)
        _int_range("ppo.rollout_workers", a.rollout_workers, 1, 256)
        if a.minibatch_size > a.rollout_steps:
            raise ConfigError(f"ppo.minibatch_size ({a.minibatch_size}) must not exceed ppo.rollout_steps "
                              f"({a.rollout_steps})")
        _real("ppo.learning_rate", a.learning_rate, 0.0, positive=True)
        for name in ("gamma", "gae_lambda"):
            _real(f"ppo.{name}", getattr(a, name), 0.0, 1.0)
        for name in ("clip_coef", "max_grad_norm"):
            _real(f"ppo.{name}", getattr(a, name), 0.0, positive=True)
        for name in ("ent_coef", "vf_coef", "target_kl"):
            _real(f"ppo.{name}", getattr(a, name), 0.0)

    def _validate_dmc(self) -> None:
        a = self.dmc
        _int_range("dmc.num_actors", a.num_actors, 0, 256)
        for name in ("num_envs", "rollout_steps", "batch_size", "sync_interval"):
            _int_range(f"dmc.{name}", getattr(a, name), 1)
        if a.batch_size > a.rollout_steps:
            raise ConfigError(f"dmc.batch_size ({a.batch_size}) must not exceed dmc.rollout_steps ({a.rollout_steps})")
        _real("dmc.learning_rate", a.learning_rate, 0.0, positive=True)
        _real("dmc.max_grad_norm", a.max_grad_norm, 0.0, positive=True)
        for name in ("epsilon", "gamma"):
            _real(f"dmc.{name}", getattr(a, name), 0.0, 1.0)


def warm_start_teacher(cfg: Config) -> str:
    """The agent whose decisions the behaviour-cloning warm start imitates: ``bc_teacher``, else the
    prior (``ppo.prior``), else the heuristic (:func:`training.bc.collect_demonstrations`' default)."""
    return cfg.bc_teacher or cfg.ppo.prior or "heuristic"


def opponent_agent_problem(name: str, variant: Variant) -> str | None:
    """Why ``name`` cannot be a training opponent in ``variant`` (None if it can): one agent (not a team of
    two), that the arena can build and seat in these rules (:func:`agents.bench.agent_problem`: options,
    a checkpoint of these rules, a shipped policy, a legal first move), and that plays from a seat's view
    (the collector gives it no more)."""
    from agents import parse_team
    from agents.bench import agent_problem

    try:
        first, second = parse_team(name)
    except ValueError as err:
        return str(err)
    if first != second:
        return f"one agent plays both seats of the opponent team, not a team of two ({first!r} + {second!r})"
    return agent_problem(first, variant)  # a cheating reference (double_dummy) refuses to act on a view


def resolve_device(device: str) -> str:
    """``auto`` -> ``cuda`` when torch sees a GPU, else ``cpu``; ``cuda`` without one is a ConfigError."""
    import torch

    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if device == "cuda" and not torch.cuda.is_available():
        built = "built without CUDA" if torch.version.cuda is None else f"CUDA {torch.version.cuda}, but no GPU found"
        raise ConfigError(f"device cuda: torch {torch.__version__} sees no CUDA device here ({built}); "
                          f"use device: auto or cpu")
    return device


def _int_range(name: str, value: Any, lo: int, hi: int | None = None) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{name} must be an integer, got {type(value).__name__} {value!r}")
    if value < lo or (hi is not None and value > hi):
        bound = f">= {lo}" if hi is None else f"in [{lo}, {hi}]"
        raise ConfigError(f"{name} must be {bound}, got {value!r}")


def _real(name: str, value: Any, lo: float, hi: float | None = None, positive: bool = False) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ConfigError(f"{name} must be a finite number, got {value!r}")
    if value < lo or (positive and value <= lo) or (hi is not None and value > hi):
        bound = (f"> {lo}" if positive else f">= {lo}") if hi is None else f"in [{lo}, {hi}]"
        raise ConfigError(f"{name} must be {bound}, got {value!r}")


def _choice(name: str, value: str, valid: tuple[str, ...]) -> None:
    if value not in valid:
        raise ConfigError(f"{name} must be one of {', '.join(valid)}; got {value!r}")


_FLOAT_LITERAL = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)[eE][-+]?\d+")


def _convert(value: Any, tp: Any, where: str) -> Any:
    origin = typing.get_origin(tp)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if not isinstance(value, dict):
            raise ConfigError(f"{where} must be a mapping of {tp.__name__} fields, got {type(value).__name__}")
        return _build(tp, value, where + ".")
    if origin is list:
        (item,) = typing.get_args(tp)
        if not isinstance(value, list):
            raise ConfigError(f"{where} must be a list, got {type(value).__name__} {value!r}")
        return [_convert(v, item, f"{where}[{i}]") for i, v in enumerate(value)]
    if tp is float:
        if isinstance(value, str) and _FLOAT_LITERAL.fullmatch(value.strip()):
            value = float(value)  # YAML 1.1 reads 5e-5 (no dot) as a string
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(f"{where} must be a number, got {type(value).__name__} {value!r}")
        return float(value)
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"{where} must be an integer, got {type(value).__name__} {value!r}")
        return value
    if tp is bool or tp is str:
        if not isinstance(value, tp):
            raise ConfigError(f"{where} must be a {tp.__name__}, got {type(value).__name__} {value!r}")
        return value
    raise ConfigError(f"{where}: unsupported field type {tp!r}")


def _build(cls: type, data: dict[str, Any], prefix: str = "") -> Any:
    hints = typing.get_type_hints(cls)
    names = [f.name for f in dataclasses.fields(cls)]
    unknown = [k for k in data if k not in names]
    if unknown:
        where = f" in {prefix[:-1]}" if prefix else ""
        raise ConfigError(f"unknown config key {prefix}{unknown[0]!r}; valid keys{where}: {', '.join(names)}")
    kwargs = {k: _convert(v, hints[k], prefix + k) for k, v in data.items()}
    return cls(**kwargs)


def config_from_dict(data: dict[str, Any] | None) -> Config:
    """A validated :class:`Config` from a mapping (as read from YAML)."""
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"a config must be a mapping of fields, got {type(data).__name__}")
    return _build(Config, data).validate()


def load_config(path: str | os.PathLike[str], overrides: Sequence[str] = ()) -> Config:
    """Read a YAML config, then apply ``key=value`` overrides (dotted keys for sections:
    ``ppo.learning_rate=1e-4``; values parsed as YAML); ConfigError names the file and the key."""
    data = read_config_data(path, overrides)
    try:
        return config_from_dict(data)
    except ConfigError as err:
        raise ConfigError(f"{os.fspath(path)}: {err}") from None


def read_config_data(path: str | os.PathLike[str], overrides: Sequence[str] = ()) -> Any:
    """What a YAML config file holds (an empty file: an empty mapping), with ``key=value`` overrides applied;
    not yet checked against a dataclass (it may not even be a mapping). ConfigError names the file."""
    try:
        data = read_yaml(path)  # bounded: size, depth, no anchors/aliases; one-line errors
    except ValueError as err:
        raise ConfigError(str(err)) from None
    if data is None:  # an empty file: every field at its default
        data = {}
    try:
        return apply_overrides(data, overrides) if overrides else data
    except ConfigError as err:
        raise ConfigError(f"{os.fspath(path)}: {err}") from None


def section_from_dict(cls: type, data: Any, name: str) -> Any:
    """A dataclass ``cls`` from the mapping of config section ``name`` (unknown keys and wrong types named
    as ``name.key``, as for :class:`Config`'s own sections); its values are not range-checked here."""
    return _convert({} if data is None else data, cls, name)


def apply_overrides(data: Any, overrides: Sequence[str]) -> dict[str, Any]:
    """A copy of the config mapping ``data`` with each ``dotted.key=value`` set (value as YAML)."""
    if not isinstance(data, dict):
        raise ConfigError(f"a config is a mapping of fields, got {type(data).__name__}")
    out = copy.deepcopy(data)
    for item in overrides:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"override {item!r} must look like key=value (e.g. variant=tournament)")
        try:
            value = parse_yaml(raw, f"override {quote(item)}")
        except ValueError as err:
            raise ConfigError(str(err)) from None
        node = out
        parts = key.strip().split(".")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                raise ConfigError(f"override {item!r}: {part!r} is not a section")
        node[parts[-1]] = value
    return out


def config_to_dict(cfg: Config) -> dict[str, Any]:
    return asdict(cfg)


def save_config(cfg: Config, path: str | os.PathLike[str]) -> None:
    atomic_write_text(path, yaml.safe_dump(config_to_dict(cfg), sort_keys=False))
