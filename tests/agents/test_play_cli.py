"""``crowsnest-play`` on the command line: bad input is one clear line and exit status 2."""

from __future__ import annotations

import json

import pytest

from agents.play import main


@pytest.fixture(autouse=True)
def _config_in_tmp(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


def run_error(capsys, argv: list[str]) -> str:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err.strip().splitlines()[-1]


def test_unknown_agent_and_variant(capsys):
    assert run_error(capsys, ["--partner", "alphazero"]).startswith("crowsnest-play: error: unknown agent 'alphazero'")
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
    assert svg.startswith("<svg") and "scored" in svg and "won&#160;by" in svg
    from agents.play.session import load_record

    rec = load_record(str(record))
    assert rec["options"]["max_hands"] == 1 and len(rec["deals"]) >= 1
    assert not (tmp_path / "config" / "crowsnest" / "settings.json").exists()  # autoplay leaves settings alone
