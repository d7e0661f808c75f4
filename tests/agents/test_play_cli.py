"""``crowsnest-play`` on the command line: bad input is one clear line and exit status 2."""

from __future__ import annotations

import json

import pytest

from agents.play import main


@pytest.fixture(autouse=True)
def _config_in_tmp(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


def run_error(capsys, argv: list[str]) -> str:
    """The error of a bad command line: exactly one line on stderr (no usage block), exit status 2."""
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("crowsnest-play: error: "), err
    return err.strip()


def test_argparse_errors_are_one_line_too(capsys):
    """Issue 17: an unknown option or a bad value printed the whole usage block."""
    assert "unrecognized arguments: --colour" in run_error(capsys, ["--colour", "red"])
    assert "argument --seat: invalid choice: 7" in run_error(capsys, ["--seat", "7"])
    assert "argument --level: invalid choice: 'insane'" in run_error(capsys, ["--level", "insane"])
    assert "--hands must be at least 1" in run_error(capsys, ["--hands", "0"])
    assert "--trick-pause takes seconds or 'key'" in run_error(capsys, ["--trick-pause", "soon"])


def test_help_names_every_agent_and_level(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    out = " ".join(capsys.readouterr().out.split())
    for name in ("random", "heuristic", "pimc", "learned", "checkpoint:PATH", "phase:", "--level"):
        assert name in out, name
    for level, agent in (("easy", "phase:base=heuristic;play=random"), ("normal", "heuristic"), ("hard", "learned"),
                         ("expert", "expert")):
        assert f"{level} = {agent}" in out


def test_a_level_that_cannot_play_the_rules_is_refused_before_anything_is_saved(capsys, tmp_path, no_nocrow_policies):
    """Issue 17 bug 10: `learned` where no policy fits crashed mid-game after being saved."""
    err = run_error(capsys, ["--variant", "crowsnest_nocrow", "--level", "hard"])
    assert "Hard (learned) cannot play crowsnest_nocrow: no shipped policy" in err
    err = run_error(capsys, ["--variant", "tournament_nocrow", "--level", "expert"])
    assert "Expert (expert) cannot play tournament_nocrow" in err
    err = run_error(capsys, ["--variant", "dixie", "--partner", "phase:base=heuristic;play=checkpoint:"
                             "agents/policies/crowsnest.pt"])
    assert "cannot play dixie: this agent was trained for 'crowsnest'" in err
    assert not (tmp_path / "config").exists()


def test_saved_settings_that_no_longer_work_are_replaced_and_reported(tmp_path, no_nocrow_policies):
    """A settings file can never stop the app from starting."""
    from agents.play.cli import build_parser, first_game
    from agents.play.settings import settings_path

    settings_path().parent.mkdir(parents=True)
    settings_path().write_text(json.dumps({"variant": "crowsnest", "crow": False, "level": "hard", "seat": 9}))
    parser = build_parser()
    settings, game, notices = first_game(parser.parse_args(["--seed", "1"]), parser)
    assert (settings.variant_name, settings.level, settings.seat) == ("crowsnest_nocrow", "normal", 0)
    assert game.names == {1: "heuristic", 2: "heuristic", 3: "heuristic"}
    assert "saved setting seat=9 is not valid" in notices[0]
    assert "cannot be used (Hard (learned) cannot play crowsnest_nocrow" in notices[1]
    assert "playing crowsnest_nocrow at Normal instead" in notices[1]


def test_command_line_options_apply_to_one_run_only(tmp_path):
    """Issue 17 bug 8: command-line options were silently saved as the new defaults."""
    from agents.play.cli import build_parser, first_game
    from agents.play.settings import settings_path

    parser = build_parser()
    settings, game, _ = first_game(parser.parse_args(["--level", "easy", "--partner", "random", "--seed", "2",
                                                      "--trick-pause", "key", "--no-keep"]), parser)
    assert game.names == {1: "phase:base=heuristic;play=random", 2: "random", 3: "phase:base=heuristic;play=random"}
    assert game.labels == {1: "Easy", 2: "random", 3: "Easy"}
    assert settings.trick_pause is None and settings.keep_games is False
    assert not settings_path().exists()


def test_unknown_agent_and_variant(capsys):
    assert run_error(capsys, ["--partner", "alphazero"]).startswith("crowsnest-play: error: unknown agent 'alphazero'")
    assert "learned" in run_error(capsys, ["--partner", "alphazero"])  # the valid names include it
    assert "unknown variant 'whist'" in run_error(capsys, ["--variant", "whist"])
    assert "crow=False is only available" in run_error(capsys, ["--variant", "dixie_nocrow"])


def test_missing_and_foreign_checkpoints(capsys, tmp_path):
    assert "no checkpoint file" in run_error(capsys, ["--opponents", f"checkpoint:{tmp_path}/none.pt"])
    foreign = tmp_path / "foreign.pt"
    foreign.write_bytes(b"not a checkpoint at all")
    assert "foreign" in run_error(capsys, ["--opponents", f"checkpoint:{foreign}"])


def test_corrupt_and_missing_records(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{ half a record")
    assert "is not a JSON game record" in run_error(capsys, ["--replay", str(bad)])
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({"format": "crowsnest-record", "version": 1, "options": {"variant": "crowsnest"},
                                 "dealer": 0, "scores": [0, 0], "deals": [], "actions": [99999]}))
    assert "not a valid CrowsNest game record" in run_error(capsys, ["--replay", str(wrong)])
    assert "cannot read record" in run_error(capsys, ["--replay", str(tmp_path / "missing.json")])


def test_screenshot_needs_autoplay(capsys):
    assert "--screenshot needs --autoplay" in run_error(capsys, ["--screenshot", "x.svg"])


def test_autoplay_plays_a_hand_and_writes_the_final_table(tmp_path):
    shot = tmp_path / "table.svg"
    record = tmp_path / "game.json"
    main(["--autoplay", "--hands", "1", "--seed", "3", "--screenshot", str(shot), "--save", str(record)])
    svg = shot.read_text()
    assert svg.startswith("<svg") and "last&#160;hand:" in svg and "won&#160;by" in svg
    from agents.play.session import load_record

    rec = load_record(str(record))
    assert rec["options"]["max_hands"] == 1 and len(rec["deals"]) >= 1
    assert not (tmp_path / "config" / "crowsnest" / "settings.json").exists()  # autoplay leaves settings alone


def test_web_refuses_a_table_that_cannot_be_laid_before_serving(capsys, monkeypatch, no_nocrow_policies):
    import agents.play.web as web

    monkeypatch.setattr(web, "serve", lambda *a: pytest.fail("served a table that cannot be laid"))
    err = run_error(capsys, ["--web", "--variant", "crowsnest_nocrow", "--level", "hard"])
    assert "Hard (learned) cannot play crowsnest_nocrow" in err


def test_replay_sits_you_where_you_played(tmp_path, monkeypatch):
    from agents import make_agent
    from agents.play import app as app_mod
    from agents.play.session import Game
    from agents.play.settings import Settings

    game = Game(Settings(seat=2, speed=0), seed=3, max_hands=1)
    me = make_agent("heuristic", seed=0)  # in the person's seat
    while not game.done:
        if game.human_to_move():
            game.step(me.act(game.table.view(2)))
        else:
            game.agent_step()
    path = tmp_path / "mine.json"
    game.save(str(path))
    seen = {}
    monkeypatch.setattr(app_mod.PlayApp, "run", lambda self, **kw: seen.update(seat=self.replay.me))
    main(["--replay", str(path)])
    assert seen["seat"] == 2
    main(["--replay", str(path), "--seat", "1"])
    assert seen["seat"] == 1
