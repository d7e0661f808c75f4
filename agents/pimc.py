"""Perfect-Information Monte-Carlo search: sample the hidden cards, solve each deal, average.

- Play: for each decision, ``samples`` deals consistent with the seat's view are drawn
  (:mod:`agents._sampler`); each is solved double-dummy (:mod:`agents._solver`): exactly when
  at most ``exact`` tricks are left, else by iterative deepening over whole tricks within
  ``nodes`` search nodes, the full remaining hand when affordable, else a static estimate at
  the horizon. A move's value in a deal is the seat's team's (own score change - other team's)
  for the resulting points, which counts the bid being made or set; the move with the best
  mean wins, ties broken by the heuristic's choice. ``time_limit`` (seconds, off by default so
  that play never depends on the machine's load) stops sampling early (after ``min_samples``);
  ``from_trick`` leaves the first tricks to the guide (the heuristic, or the policy).
  ``value=rollouts`` (with ``policy=`` a trained policy) values a card in each world by the
  policy playing the hand out in every seat (:mod:`agents.rollouts`) instead of the solve.
  ``keep`` (points, default 0) keeps the guide's card (the heuristic's, or the policy's) unless
  the best mean beats it by more.
- The default budget (16 worlds, 20,000 nodes each) costs about 14 ms of one core per searched
  card in crowsnest; the compiled solver made it affordable (the pure-Python solver's 8 worlds
  of 3,000 nodes cost about 50 ms). More worlds, deeper horizons and exact solves from earlier
  tricks did not measurably help further (README, *Figures*).
- Bidding, nest discard and trump: the heuristic's rules (:mod:`agents.heuristic`), bidding
  with ``bid_margin`` 0 instead of the heuristic's 0.1 (a bid up to the hand's estimated points:
  PIMC's play makes more contracts than the heuristic's; against the heuristic, 1000 deals at
  seed 0, +29.3 a deal where the heuristic's margin gave +9.8; ``bid_margin=0.1`` is the
  heuristic's auction); or, with ``policy=NAME`` (any agent name, e.g. ``checkpoint:PATH``),
  that agent's: a learned policy bids, discards and names trump, and its card breaks ties
  between equally valued cards (``auction=heuristic`` keeps the heuristic's bidding with a policy).
  ``auction=search`` bids on the hand's value searched over sampled deals (:mod:`agents.search_bid`;
  measured 18 to 27 points a deal worse than the heuristic's auction against ``pimc``).
  ``bidder=NAME`` (any agent name that is not a search, e.g. ``checkpoint:PATH``) bids instead of
  all of these (``auction=bidder``), while the rest of the agent stays as it is. ``bid_cap=X`` (points)
  lets a trained bidder's bid stand only up to the heuristic rule's limit for the seat (its estimate at
  ``bid_margin``, moved by the partner's calls) plus X, and passes above it (a price that a bidder driving
  the auction up cannot push this seat past).
  With ``inference=true`` each world is weighted by how likely that policy makes the other seats'
  calls and cards (:mod:`agents.inference`); :mod:`agents.expert` is that combination.
  ``declarer_calls=N`` (0 by default) weighs a declarer's calls as well where this seat is not the
  declarer, over N draws of which of its cards came from the nest. Where this
  agent's own bidder is another trained policy (``bidder=checkpoint:PATH``, ``expert``'s trained
  auction), the partner's calls are weighed by that bidder, as a partnership knows its own bidding
  (``partner_calls=false``: by the ``policy=`` network, as every other decision;
  ``partner_calls=always``: by the heuristic's rule too, where that is this agent's auction).
"""

from __future__ import annotations

import math
import numbers
import random
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from crowsnest_env.agent import Agent
from crowsnest_env.rules import CardSet, Phase, PlayerView, iter_cards

from ._eval import outcome, power
from ._sampler import sample_world
from ._solver import DoubleDummy
from .heuristic import HeuristicAgent, bid_limit, choose_card
from .specs import parse_bool

VALUES = ("double_dummy", "rollouts")
"""how ``pimc`` values a card in a sampled world: solved double-dummy (:func:`solve_world`), or
played out by the ``policy=`` network in every seat (:func:`agents.rollouts.rollout_values`)"""

AUCTIONS = ("heuristic", "policy", "search", "bidder")
"""who bids for ``pimc``: the heuristic's rules with ``bid_margin``, the ``policy=`` agent, the
``bidder=`` agent, or the hand's value searched over sampled deals (:mod:`agents.search_bid`, options ``bid_worlds``,
``bid_nodes``, ``bid_threshold``, ``bid_bias``: unset, :class:`agents.search_bid.SearchBidder`'s defaults)"""


def count_option(name: str, value: object, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < low:
        raise ValueError(f"pimc option {name} must be an integer >= {low}, got {value!r}")
    return int(value)


def number_option(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        raise ValueError(f"pimc option {name} must be a finite number, got {value!r}")
    return float(value)


def solve_world(view: PlayerView, hands: list[CardSet], nest_points: int, nodes: int,
                exact_tricks: int, try_exact: bool = False) -> dict[int, int]:
    """Each legal card's (own team's score change - other team's) in one world (all hands known):
    an exact double-dummy solve when at most ``exact_tricks`` tricks are left (or, with
    ``try_exact``, when one finishes within ``nodes`` search nodes), else the deepest trick horizon
    that fits in ``nodes`` (a static estimate past it)."""
    dd = DoubleDummy(view.cards, view.trump, nest_points)
    args = (hands, view.leader, view.trick, view.trick_no, view.tricks_won[0])
    left = view.variant.num_tricks - view.trick_no
    vals = dd.values(*args) if left <= exact_tricks else dd.values_within(*args, nodes) if try_exact else None
    if vals is None:
        vals = dd.deepening(*args, nodes)
    v, decl_team = view.variant, view.declarer % 2
    off = view.layout.play_offset
    return {c: outcome(v, decl_team, view.bid, view.captured[0] + vals[c], view.team)
            for c in iter_cards(view.legal >> off)}


def pick_card(view: PlayerView, scores: dict[int, float], preferred: Callable[[], int]) -> int:
    """The card with the best score; a tie goes to ``preferred()`` (a card id) when it is among
    the best, else to the card that gives away the fewest points and the least power."""
    best = max(scores.values())
    top = [c for c, s in scores.items() if s >= best - 1e-9]
    if len(top) == 1:
        return top[0]
    choice = preferred()
    if choice in top:
        return choice
    cards = view.cards
    return min(top, key=lambda c: (cards.points[c], power(cards, view.trump, c), c))


class PIMCAgent:
    """Sampling + double-dummy search in the play; heuristic auction, discard and trump."""

    name = "pimc"

    def __init__(self, seed: int | None = None, samples: int = 16, nodes: int = 20000, exact: int = 0,
                 time_limit: float | None = None, min_samples: int = 4, trump_bias: float = 1.0,
                 from_trick: int = 0, policy: Agent | None = None, inference: bool | str = False,
                 temperature: float = 1.0, bid_margin: float = 0.0, auction: str | None = None,
                 keep: float = 0.0, bid_worlds: int | None = None, bid_nodes: int | None = None,
                 bid_threshold: float | None = None, bid_bias: float | None = None, value: str = "double_dummy",
                 bidder: Agent | None = None, partner_calls: bool | str = True, declarer_calls: int = 0,
                 bid_cap: float | None = None):
        self.rng = random.Random(seed)
        self.samples = count_option("samples", samples, 1)
        self.nodes = count_option("nodes", nodes, 1)
        self.exact = count_option("exact", exact, 0)  # tricks left at which every world is solved exactly
        # Off by default: a wall-clock budget makes the play depend on machine load.
        if time_limit in (None, "", "none", "None"):
            self.time_limit = None
        else:
            self.time_limit = number_option("time_limit", time_limit)
            if self.time_limit <= 0:
                raise ValueError(f"pimc option time_limit must be > 0 seconds (or none), got {time_limit!r}")
        self.min_samples = count_option("min_samples", min_samples, 1)
        self.trump_bias = number_option("trump_bias", trump_bias)
        if self.trump_bias < 0:
            raise ValueError(f"pimc option trump_bias must be >= 0, got {trump_bias!r}")
        self.from_trick = count_option("from_trick", from_trick, 0)  # earlier tricks are played by the guide
        # The auction's safety margin (a share of the hand's points kept below the estimate): the heuristic
        # keeps 0.1 for its own card play; PIMC makes more contracts, so it bids on the estimate itself.
        self.heuristic = HeuristicAgent(seed=seed, margin=number_option("bid_margin", bid_margin))
        if policy is not None and not callable(getattr(policy, "act", None)):
            raise ValueError(f"pimc option policy must be an agent (by name: make_agent('pimc?policy=NAME')), "
                             f"got {policy!r}")
        self.policy: Agent | None = policy
        self.guide: Agent = self.policy if self.policy is not None else self.heuristic
        # who bids: the guide (default), or the heuristic with bid_margin while a policy does the rest
        if auction is not None and auction not in AUCTIONS:
            raise ValueError(f"pimc option auction must be one of {list(AUCTIONS)}, got {auction!r}")
        if auction == "policy" and self.policy is None:
            raise ValueError("pimc option auction=policy needs policy= an agent")
        if bidder is not None and not callable(getattr(bidder, "act", None)):
            raise ValueError(f"pimc option bidder must be an agent (by name: make_agent('pimc?bidder=NAME')), "
                             f"got {bidder!r}")
        if auction == "bidder" and bidder is None:
            raise ValueError("pimc option auction=bidder needs bidder= an agent")
        if bidder is not None and auction not in (None, "bidder"):
            raise ValueError(f"pimc options bidder= and auction={auction} name two auctions; give one")
        if bidder is not None:
            auction = "bidder"
        self.auction = auction or ("policy" if self.policy is not None else "heuristic")
        # a trained bidder's bid stands only up to the heuristic rule's limit (bid_margin) plus bid_cap points;
        # above it this seat passes (None: no cap). The rule's own auction never bids above its limit.
        self.bid_cap = None if bid_cap in (None, "", "none", "None") else number_option("bid_cap", bid_cap)
        self.bidder: Agent = {"policy": self.policy, "bidder": bidder}.get(  # type: ignore[assignment]
            self.auction, self.heuristic)
        # the search auction's options, checked where given (SearchBidder holds their defaults)
        given = {name: value for name, value in (("bid_worlds", bid_worlds), ("bid_nodes", bid_nodes),
                                                 ("bid_threshold", bid_threshold), ("bid_bias", bid_bias))
                 if value is not None}
        if given and self.auction != "search":
            raise ValueError(f"pimc option(s) {', '.join(given)} apply only with auction=search "
                             f"(this agent's auction is {self.auction})")
        if self.auction == "search":
            from .search_bid import SearchBidder

            counts = ("bid_worlds", "bid_nodes")
            search: dict[str, Any] = {name[len("bid_"):]: count_option(name, value, 1) if name in counts
                                      else number_option(name, value) for name, value in given.items()}
            self.bidder = SearchBidder(seed=seed, **search)
        self.inference = parse_bool("inference", inference)  # weigh worlds by the policy's likelihood
        # ... the partner's calls by our own bidder: where it is trained (true), also where it is the
        # heuristic's rule ("always"), or never (false: by the policy, as the other seats' calls)
        if isinstance(partner_calls, str) and partner_calls.strip().lower() == "always":
            self.partner_calls: bool | str = "always"
        else:
            try:
                self.partner_calls = parse_bool("partner_calls", partner_calls)
            except ValueError:
                raise ValueError(f"pimc option partner_calls must be true, false or always, "
                                 f"got {partner_calls!r}") from None
        self.temperature = number_option("temperature", temperature)
        if self.inference and (self.policy is None or not hasattr(self.policy, "policy_for")):
            raise ValueError("pimc option inference needs policy= a trained policy (learned or checkpoint:PATH)")
        # draws of the nest a declarer (not this seat) picked up, over which inference weighs its calls (0: not)
        self.declarer_calls = count_option("declarer_calls", declarer_calls, 0)
        if self.declarer_calls and not self.inference:
            raise ValueError("pimc option declarer_calls weighs worlds for inference: it needs inference=true")
        if self.temperature < 0:
            raise ValueError(f"pimc option temperature must be >= 0, got {temperature!r}")
        if value not in VALUES:
            raise ValueError(f"pimc option value must be one of {list(VALUES)}, got {value!r}")
        if value == "rollouts" and (self.policy is None or not hasattr(self.policy, "policy_for")):
            raise ValueError("pimc option value=rollouts needs policy= a trained policy (learned or checkpoint:PATH)")
        self.value = value
        # points by which the best card's mean must beat the guide's card before the search leaves
        # it: 0 plays the best mean; more keeps the guide's play where the search is not clearly
        # better (a teacher whose departures from the guide are the clear ones)
        self.keep = number_option("keep", keep)
        if self.keep < 0:
            raise ValueError(f"pimc option keep must be >= 0 points, got {keep!r}")

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng.seed(seed)
            self.heuristic.reset(seed)
            if self.bidder is not self.heuristic and self.bidder is not self.policy:
                self.bidder.reset(seed)
            if self.policy is not None:
                self.policy.reset(seed)

    def bidder_for(self, view: PlayerView) -> Agent:
        """The agent that makes this seat's calls in the auction."""
        return self.bidder

    def capped(self, view: PlayerView, action: int) -> int:
        """``action`` (a call), or a pass where ``bid_cap`` is set, pass is legal and the call bids more than
        the heuristic rule's limit for this seat (:func:`agents.heuristic.bid_limit`) plus ``bid_cap``."""
        if self.bid_cap is None or action == 0 or not view.legal & 1:
            return action
        limit = bid_limit(view, self.heuristic.margin, self.heuristic.support) + self.bid_cap
        return 0 if view.layout.bid_value(action) > limit else action

    def first_searched_trick(self, view: PlayerView) -> int:
        """The first trick (0-based) whose cards the search chooses; the guide plays those before it."""
        return self.from_trick

    def act(self, view: PlayerView) -> int:
        """A legal action: searched in the play, the guide's (heuristic or policy) elsewhere."""
        return self.explain(view)[0]

    def explain(self, view: PlayerView) -> tuple[int, dict[int, float] | None]:
        """The action :meth:`act` takes, and the searched mean value of each legal play (by
        action id) when it searched; None when the guide chose or the move was forced."""
        if view.phase is Phase.AUCTION and view.legal:
            return self.capped(view, self.bidder_for(view).act(view)), None
        if view.phase is not Phase.PLAY or not view.legal or view.trick_no < self.first_searched_trick(view):
            return self.guide.act(view), None
        off = view.layout.play_offset
        legal = view.legal >> off
        if legal & (legal - 1) == 0:
            return off + legal.bit_length() - 1, None
        scores = self.card_scores(view)
        return off + self._pick(view, scores), {off + c: v for c, v in scores.items()}

    def card_scores(self, view: PlayerView) -> dict[int, float]:
        """Mean (team score change - other team's) of each legal card over sampled deals (with
        ``inference``, weighted by how likely the policy makes the other seats' actions in each)."""
        legal = list(iter_cards(view.legal >> view.layout.play_offset))
        worlds, weights = self.weighted_worlds(view)
        per_world: Iterable[dict[int, float]]
        if self.value == "rollouts":  # every world at once, in batched forward passes
            from .rollouts import rollout_values

            per_world = rollout_values(view, worlds, self._policy(view))
        else:
            per_world = self._solved(view, worlds)
        totals = dict.fromkeys(legal, 0.0)
        mass = 0.0
        for values, w in zip(per_world, weights):
            for c, v in values.items():
                totals[c] += w * v
            mass += w
        return {c: t / mass for c, t in totals.items()}

    def weighted_worlds(self, view: PlayerView, rng: random.Random | None = None
                        ) -> tuple[list[tuple[list[CardSet], CardSet]], list[float]]:
        """``samples`` deals of the hidden cards consistent with ``view`` (drawn with ``rng``, the agent's
        own by default) and each one's weight: 1 each, or with ``inference`` the normalised weights of
        :func:`agents.inference.world_weights` (how likely the policy makes the other seats' actions)."""
        rng = self.rng if rng is None else rng
        worlds = [sample_world(view, rng, trump_bias=self.trump_bias) for _ in range(self.samples)]
        if not self.inference:
            return worlds, [1.0] * len(worlds)
        from .inference import world_log_likelihoods, world_weights

        return worlds, world_weights(world_log_likelihoods(view, worlds, self._policy(view),
                                                           callers=self.inference_callers(view),
                                                           declarer_calls=self.declarer_calls, rng=rng),
                                     self.temperature)

    def _policy(self, view: PlayerView) -> Any:
        """The trained policy that inference and rollouts use, checked for the rules played."""
        return self.policy.policy_for(view.variant)  # type: ignore[union-attr]

    def inference_callers(self, view: PlayerView) -> dict[int, Any]:
        """The seats whose calls inference weighs with another model than ``policy=``'s: the
        partner's, by this agent's own bidder where that is a trained policy other than the guide
        (``partner_calls``), and with ``partner_calls=always`` also where it is the heuristic's rule
        (p = 1 for its call); none otherwise."""
        bidder = self.bidder_for(view)
        if not self.partner_calls or bidder is self.policy:
            return {}
        if hasattr(bidder, "policy_for"):
            return {view.partner: bidder.policy_for(view.variant)}
        if self.partner_calls == "always" and isinstance(bidder, HeuristicAgent):
            return {view.partner: bidder}
        return {}

    def _solved(self, view: PlayerView, worlds: list[tuple[list[CardSet], CardSet]]) -> Iterator[dict[int, float]]:
        """Each world's card values solved double-dummy, one world at a time; with ``time_limit``,
        none after the limit once ``min_samples`` are done."""
        start = time.perf_counter()
        for n, (hands, nest) in enumerate(worlds, start=1):
            yield {c: float(v) for c, v in solve_world(view, hands, view.cards.count_points(nest | view.discards),
                                                        self.nodes, self.exact).items()}
            if (self.time_limit is not None and n >= self.min_samples
                    and time.perf_counter() - start > self.time_limit):
                return

    def _pick(self, view: PlayerView, scores: dict[int, float]) -> int:
        def preferred() -> int:
            return (choose_card(view) if self.policy is None
                    else self.policy.act(view) - view.layout.play_offset)

        if self.keep > 0:
            guide = preferred()  # asked once: a policy guide's forward pass is not repeated for the tie-break
            if scores[guide] >= max(scores.values()) - self.keep:
                return guide
            return pick_card(view, scores, lambda: guide)
        return pick_card(view, scores, preferred)
