"""``expert`` and ``double_dummy`` (issue 15, goals 5 and 6): legal play in every rule set, and
``double_dummy`` seated only by a driver that hands it the whole state."""

from __future__ import annotations

import inspect
import math
import random

import pytest

from agents import make_agent
from agents.arena import run_pairing
from agents.deal_sets import RULE_SETS
from agents.expert import AUCTION_FILES, ExpertAgent
from agents.pimc import PIMCAgent
from crowsnest_env.rules import Phase, get_variant, new_game, player_view
from crowsnest_env.table import Table

# small budgets: the point is legality and the plumbing (policy, inference, exact tail), not strength
EXPERT = "expert?samples=3,nodes=400,exact=2,min_samples=1"
DOUBLE_DUMMY = "double_dummy?nodes=3000,exact=3"


@pytest.mark.parametrize("name", RULE_SETS)
def test_expert_and_double_dummy_play_legally_in_every_rule_set(name):
    variant = get_variant(name)
    expert, dd = make_agent(EXPERT, seed=1), make_agent(DOUBLE_DUMMY, seed=2)
    table = Table(variant, episode="hand", observe=False)
    table.reset(11)
    expert.reset(3)
    dd.reset(4)
    phases = set()
    while not table.done:
        seat = table.to_move
        if seat % 2 == 0:  # team 0: expert from its seat's view
            view = table.view(seat)
            action = expert.act(view)
        else:  # team 1: double_dummy sees the whole state
            view = player_view(table.state, seat)
            action = dd.act_seeing_all(table.state)
        assert view.legal >> action & 1, f"{view.layout.name(action)} illegal for seat {seat} in {view.phase.name}"
        phases.add(view.phase)
        table.step(action)
    assert Phase.PLAY in phases


def test_the_arena_seats_double_dummy_and_it_refuses_a_view():
    dd = make_agent("double_dummy", seed=0)
    assert dd.sees_all_hands
    table = Table("crowsnest", episode="hand", observe=False)
    table.reset(0)
    with pytest.raises(ValueError, match="sees all four hands"):
        dd.act(table.view())
    p = run_pairing(DOUBLE_DUMMY, "heuristic", deals=3, seed=5)
    assert p["deals"] == 3 and p["a"] == DOUBLE_DUMMY


def test_expert_plays_with_the_policy_of_the_rules():
    """expert's auction is the shipped policy of the rule set played, as learned's is."""
    expert = make_agent("expert?samples=2,nodes=200,min_samples=1", seed=0)
    learned = make_agent("learned", seed=0)
    for name in ("tournament", "crowsnest_nocrow"):
        table = Table(name, episode="hand", observe=False)
        table.reset(3)
        view = table.view()
        assert view.phase is Phase.AUCTION
        assert expert.act(view) == learned.act(view)


def test_expert_takes_every_pimc_option():
    """agents/expert.py promises that every option of pimc can be set on expert: hold the two
    signatures together, so a new pimc option is not silently refused by expert."""
    pimc = set(inspect.signature(PIMCAgent.__init__).parameters)
    expert = set(inspect.signature(ExpertAgent.__init__).parameters)
    assert pimc == expert
    assert make_agent("expert?keep=5").keep == 5.0


def test_expert_searches_from_its_rule_sets_trick_unless_told():
    """expert's default first searched trick is FROM_TRICK's for the rule set played (the shipped
    policy plays the tricks before it), 0 elsewhere; from_trick=N, or another policy, sets one
    trick for every rule set."""
    from agents.expert import FROM_TRICK

    assert FROM_TRICK["crowsnest"] == 3
    views = {}
    for rule_set in ("crowsnest", "tournament"):
        state = new_game(get_variant(rule_set), rng=random.Random(5), dealer=0)
        views[rule_set] = player_view(state, 0)
    default, told = make_agent("expert"), make_agent("expert?from_trick=2")
    other_policy = make_agent("expert?policy=heuristic,inference=false")
    assert default.first_searched_trick(views["crowsnest"]) == 3
    assert default.first_searched_trick(views["tournament"]) == 0
    assert {told.first_searched_trick(v) for v in views.values()} == {2}
    assert {other_policy.first_searched_trick(v) for v in views.values()} == {0}


def test_expert_leaves_crowsnests_first_tricks_to_the_policy():
    """In crowsnest expert's card in tricks 1 to 3 is the shipped policy's, searched from trick 4."""
    expert = make_agent("expert?samples=2,nodes=200,min_samples=1", seed=4)
    learned = make_agent("learned", seed=4)
    rng = random.Random(9)
    state = new_game(get_variant("crowsnest"), rng=rng, dealer=1)
    checked = searched = 0
    while state.hand_no == 0:
        if state.phase is Phase.DEAL:
            state.deal_random(rng)
            continue
        view = player_view(state, state.to_move)
        action, scores = expert.explain(view)
        if state.phase is Phase.PLAY and state.trick_no < 3:
            assert scores is None and action == learned.act(view)
            checked += 1
        elif state.phase is Phase.PLAY and scores is not None:
            searched += 1
        state.apply(action)
    assert checked == 12 and searched > 0


def _auction_views(rule_set: str, deals: int = 6) -> list:
    """Every auction view of a few fresh deals, their auctions bid by the heuristic."""
    views, heuristic = [], make_agent("heuristic", seed=0)
    for d in range(deals):
        state = new_game(get_variant(rule_set), rng=random.Random(d), dealer=d % 4)
        while state.phase is Phase.AUCTION:
            view = player_view(state, state.to_move)
            views.append(view)
            state.apply(heuristic.act(view))
    return views


def test_pimc_bidder_option_bids_and_leaves_the_rest_alone():
    from crowsnest_env.agent import RandomAgent

    pimc, plain = make_agent("pimc?bidder=random", seed=3), make_agent("pimc", seed=3)
    assert pimc.auction == "bidder" and isinstance(pimc.bidder, RandomAgent)
    same = RandomAgent(seed=3)
    for view in _auction_views("crowsnest"):
        assert pimc.act(view) == same.act(view)
    # the discard and trump stay the guide's (the heuristic), as in plain pimc
    table = Table("crowsnest", episode="hand", observe=False)
    table.reset(2)
    while table.state.phase is Phase.AUCTION:
        table.step(plain.act(table.view()))
    assert table.state.phase is Phase.DISCARD
    assert pimc.act(table.view()) == plain.act(table.view())
    for bad, why in (("pimc?bidder=pimc", "bidder must name another agent that is not a search"),
                     ("pimc?bidder=random,auction=search", "name two auctions"),
                     ("pimc?auction=bidder", "needs bidder= an agent"),
                     ("pimc?bidder=nobody", "unknown agent")):
        with pytest.raises(ValueError, match=why):
            make_agent(bad)


def test_bid_cap_lets_a_bidders_call_stand_only_up_to_the_rules_limit_plus_the_cap():
    """``bid_cap=X``: the bidder's call where it bids at most the heuristic rule's limit (at ``bid_margin``)
    plus X, a pass above it; the cap never turns a pass into a bid, and expert keeps its rule set's file."""
    from agents.expert import auction_file
    from agents.heuristic import bid_limit

    file = f"checkpoint:{auction_file('tournament')}"
    bidder = make_agent(file, seed=0)
    views = [v for v in _auction_views("tournament", 40) if v.legal & 1]
    calls = [bidder.act(v) for v in views]
    for cap in (-5, 0, 10):
        capped = make_agent(f"pimc?bid_cap={cap},bidder={file}", seed=0)
        expert = make_agent(f"expert?bid_cap={cap}", seed=0)
        for view, call in zip(views, calls):
            over = call != 0 and view.layout.bid_value(call) > bid_limit(view, 0.0) + cap
            assert capped.act(view) == (0 if over else call) == expert.act(view)
    over_zero = sum(c != 0 and v.layout.bid_value(c) > bid_limit(v, 0.0) for v, c in zip(views, calls))
    assert 0 < over_zero < sum(c != 0 for c in calls)  # the file bids past the limit on some calls, not all
    assert make_agent("expert", seed=0).bid_cap is None and make_agent("expert?bid_cap=none").bid_cap is None
    # the rule's own auction never bids past its limit: a cap of 0 or more leaves pimc's calls as they are
    plain, capped_pimc = make_agent("pimc", seed=0), make_agent("pimc?bid_cap=0", seed=0)
    assert [plain.act(v) for v in views] == [capped_pimc.act(v) for v in views]
    with pytest.raises(ValueError, match="bid_cap must be a finite number"):
        make_agent("expert?bid_cap=high")


def test_expert_bids_with_its_rule_sets_auction_file_unless_told():
    """In the rule sets of AUCTION_FILES expert's calls are their file's policy (a best response to pimc's
    auction); elsewhere, or with any auction option, the auction given (pimc's by default)."""
    from agents.expert import AUCTION_FILES, auction_file

    assert set(AUCTION_FILES) == {"crowsnest", "red_one", "tournament", "buckeye", "tournament_nocrow",
                                  "crowsnest_nocrow", "dixie", "one_high"}
    expert = make_agent("expert", seed=0)
    told = [make_agent(name, seed=0) for name in ("expert?auction=heuristic", "expert?bid_margin=0")]
    pimc = make_agent("pimc", seed=0)
    for rule_set in AUCTION_FILES:
        bidder = make_agent(f"checkpoint:{auction_file(rule_set)}", seed=0)
        assert bidder.variant == get_variant(rule_set)  # each file was trained for its rule set
        views = _auction_views(rule_set, 20)
        file_calls = [bidder.act(v) for v in views]
        assert [expert.act(v) for v in views] == file_calls
        for agent in told:
            assert [agent.act(v) for v in views] == [pimc.act(v) for v in views]
        assert file_calls != [pimc.act(v) for v in views]  # the file is not pimc's auction under another name
    for view in _auction_views("partnership"):
        assert expert.act(view) == pimc.act(view)


def test_expert_refuses_an_auction_file_of_other_rules(monkeypatch):
    import agents.expert as expert_module
    from agents.checkpoint import CheckpointError

    monkeypatch.setattr(expert_module, "AUCTION_FILES", {"crowsnest": "../tournament.pt"})
    expert = make_agent("expert", seed=0)
    with pytest.raises(CheckpointError, match="trained for 'tournament', not 'crowsnest'"):
        expert.act(_auction_views("crowsnest", 1)[0])


def _play_view(rule_set: str, seed: int):
    """The view of the first seat to play a card whose partner is not the declarer (so its calls are weighed)."""
    heuristic = make_agent("heuristic", seed=seed)
    table = Table(rule_set, episode="hand", observe=False)
    table.reset(seed)
    while table.state.phase is not Phase.PLAY:
        table.step(heuristic.act(table.view()))
    while table.view().partner == table.state.declarer:
        table.step(heuristic.act(table.view()))
    return table.view()


def test_expert_weighs_its_partners_calls_by_its_own_auction():
    """Policy-based inference models the partner's calls with expert's trained auction (a partnership
    knows its bidding) and every other weighed decision with the policy; partner_calls=false, pimc
    and expert with pimc's auction weigh everything by the policy."""
    import torch

    from agents._sampler import sample_world
    from agents.expert import auction_file
    from agents.inference import world_log_likelihoods

    view = _play_view("crowsnest", 4)
    expert = make_agent("expert", seed=0)
    callers = expert.inference_callers(view)
    assert list(callers) == [view.partner]
    assert callers[view.partner].variant == view.variant
    file_policy = make_agent(f"checkpoint:{auction_file('crowsnest')}", seed=0)
    theirs = file_policy.model.state_dict()
    mine = callers[view.partner].model.state_dict()
    assert mine.keys() == theirs.keys() and all(torch.equal(mine[k], theirs[k]) for k in mine)  # that file's weights
    for name in ("expert?partner_calls=false", "expert?auction=heuristic", "pimc?policy=learned,inference=true",
                 "expert?auction=policy"):
        assert make_agent(name, seed=0).inference_callers(view) == {}, name
    rng = random.Random(1)
    worlds = [sample_world(view, rng) for _ in range(6)]
    policy = expert._policy(view)
    plain = world_log_likelihoods(view, worlds, policy)
    # the same network for the partner: the same likelihoods; expert's auction: other ones
    assert world_log_likelihoods(view, worlds, policy, callers={view.partner: policy}) == pytest.approx(plain)
    partner_only = world_log_likelihoods(view, worlds, policy, callers=callers)
    assert partner_only != pytest.approx(plain)
    expert_small = make_agent(EXPERT, seed=0)
    assert expert_small.inference_callers(view) and expert_small.act(view) in view.legal_actions()
    with pytest.raises(ValueError, match="partner_calls must be true, false or always"):
        make_agent("expert?partner_calls=maybe")


def test_partner_calls_always_weighs_the_partners_calls_by_the_heuristics_rule():
    """partner_calls=always: where the auction is the heuristic's rule (expert in the rule sets
    without a trained auction), the partner's calls are weighed by that rule, p = 1 for its call
    and 0 for the others before the floor's mix; the default leaves them to the policy."""
    from agents._sampler import sample_world
    from agents.heuristic import HeuristicAgent
    from agents.inference import _Rule, world_log_likelihoods

    view = _play_view("partnership", 4)
    assert "partnership" not in AUCTION_FILES
    agent = make_agent("expert?partner_calls=always", seed=0)
    callers = agent.inference_callers(view)
    assert list(callers) == [view.partner] and callers[view.partner] is agent.bidder
    assert isinstance(agent.bidder, HeuristicAgent) and agent.bidder.margin == 0.0  # pimc's auction
    assert make_agent("expert", seed=0).inference_callers(view) == {}
    assert make_agent("expert?partner_calls=false", seed=0).inference_callers(view) == {}
    rng = random.Random(1)
    worlds = [sample_world(view, rng) for _ in range(6)]
    policy = agent._policy(view)
    assert world_log_likelihoods(view, worlds, policy, callers=callers) != pytest.approx(
        world_log_likelihoods(view, worlds, policy))
    # the rule's arithmetic, on a real auction decision
    table = Table("partnership", episode="hand", observe=False)
    table.reset(4)
    first = table.view()
    n = first.legal.bit_count()
    assert n > 1
    rule = _Rule(agent.bidder)
    call = agent.bidder.act(first)
    rule.add(0, first, call)
    rule.add(1, first, next(a for a in first.legal_actions() if a != call))
    out = [0.0, 0.0]
    rule.log_likelihoods(out, 0.05)
    assert out == pytest.approx([math.log(0.95 + 0.05 / n), math.log(0.05 / n)])
    assert make_agent(EXPERT + ",partner_calls=always", seed=0).act(view) in view.legal_actions()
