"""Game end at 300 (RULES.md 2.9, R7, R8), driven by the scripted crowsnest deal A.

Deal A with the dealer's partner declaring: made at 70 -> declarers +70, defenders +25;
set at 100 -> declarers -100, defenders +25. With dealer 0 the declarers are team 0.
"""

from __future__ import annotations

import pytest

from crowsnest_env.rules import IllegalActionError, Phase

from .conftest import (
    CROWSNEST_A_HANDS,
    CROWSNEST_A_NEST,
    act,
    deal,
    new_state,
    play_crowsnest_a,
)


@pytest.mark.parametrize("start, bid, end, winner", [
    ((230, 0), 70, (300, 25), 0),  # exactly 300 wins
    ((0, 290), 70, (70, 315), 1),  # the defenders may go out
    ((250, 290), 70, (320, 315), 0),  # both >= 300: the higher total wins
    ((-250, 290), 100, (-350, 315), 1),  # set declarers, negative total
])
def test_team_reaching_300_wins(start, bid, end, winner):
    """2.9: after a hand is scored a team with >= 300 wins; if both have, the higher total."""
    s = play_crowsnest_a(new_state("crowsnest", scores=start), bid)
    assert (tuple(s.scores), s.phase, s.winner) == (end, Phase.GAME_OVER, winner)
    assert s.legal_actions() == []
    with pytest.raises(IllegalActionError, match="GAME_OVER"):
        act(s, "pass")


@pytest.mark.parametrize("start, bid, end", [
    ((100, 100), 70, (170, 125)),
    ((-50, 0), 100, (-150, 25)),  # R7: no floor
    ((320, 0), 100, (220, 25)),  # over 300 before the hand does not count
])
def test_game_continues_below_300(start, bid, end):
    """2.9, R7: nobody at 300 after the hand -> the next hand is due, dealt by the next seat left."""
    s = play_crowsnest_a(new_state("crowsnest", dealer=0, scores=start), bid)
    assert (tuple(s.scores), s.phase, s.winner, s.dealer) == (end, Phase.DEAL, -1, 1)


def test_tie_at_300_plays_another_hand():
    """2.9, R8: both >= 300 and equal -> another whole hand (dealer rotates), then test again."""
    s = play_crowsnest_a(new_state("crowsnest", dealer=0, scores=(255, 300)), 70)
    assert (tuple(s.scores), s.phase, s.winner, s.dealer) == ((325, 325), Phase.DEAL, -1, 1)
    # Seat 1 deals; deal A moved one seat left: seat 3 (team 1) declares and makes 70.
    play_crowsnest_a(s, 70)
    assert [r.score_change for r in s.results] == [(70, 25), (25, 70)]
    assert (tuple(s.scores), s.phase, s.winner, s.hand_no) == ((350, 395), Phase.GAME_OVER, 1, 2)


def test_tie_broken_by_a_set_in_the_extra_hand():
    """2.9, R8: the extra hand is a normal hand: a set declaring team drops below its opponents."""
    s = play_crowsnest_a(new_state("crowsnest", dealer=3, scores=(275, 230)), 70)  # team 1 declares
    assert (tuple(s.scores), s.phase, s.winner, s.dealer) == ((300, 300), Phase.DEAL, -1, 0)
    play_crowsnest_a(s, 100)  # dealer 0: team 0 declares and is set
    assert (tuple(s.scores), s.phase, s.winner) == ((200, 325), Phase.GAME_OVER, 1)


def test_all_pass_does_not_end_the_game():
    """2.9: the end test runs only after a hand is scored; an all-pass redeal scores nothing."""
    s = deal(new_state("crowsnest", dealer=2, scores=(310, 0)), CROWSNEST_A_HANDS, CROWSNEST_A_NEST)
    act(s, "pass, pass, pass, pass")
    assert (s.phase, s.winner, s.dealer, tuple(s.scores)) == (Phase.DEAL, -1, 2, (310, 0))
