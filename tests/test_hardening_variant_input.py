"""Issue 18, variant files and ``Variant(...)``: every field is checked once, at construction, with
bounded sizes; YAML is read with limits (size, depth, no aliases); messages stay short; the CLIs
and replays that read rules say what is wrong in one line.
"""

from __future__ import annotations

import dataclasses
import json

import pytest
import yaml

import crowsnest_env
from crowsnest_env.observation import observation_layout
from crowsnest_env.record import replay
from crowsnest_env.rules import MAX_BIDS, get_variant, layout_for, quote
from crowsnest_env.variant_config import load_variant, variant_from_dict, variant_to_dict
from crowsnest_env.yamlfile import MAX_YAML_BYTES, MAX_YAML_DEPTH, parse_yaml
from tests._bad_input import CROWSNEST, MAX_MESSAGE, assert_one_error_line, custom_record, main_status, run, write_yaml

# ------------------------------------------------------------------ Variant(...) and variant files
BAD_FIELDS = [
    ("hand_size", 0, "hand_size"), ("hand_size", -9, "hand_size"), ("hand_size", 9.0, "hand_size"),
    ("nest_size", -1, "nest_size"), ("nest_size", 5.5, "nest_size"), ("target", 0, "target"),
    ("target", 10**9, "target"), ("bird_points", 10**9, "bird_points"), ("bird_points", -5, "bird_points"),
    ("bid_step", 0, "bid_step"), ("bid_step", -5, "bid_step"), ("bid_step", 2.5, "bid_step"),
    ("min_bid", 0, "min_bid"), ("min_bid", "70", "min_bid"), ("red_one_points", None, "red_one_points"),
    ("trick_bonus", 10**12, "trick_bonus"), ("name", ["x"] * 5, "name"), ("name", "../escape", "name"),
    ("name", "", "name"), ("bird", "yes", "bird"), ("bird_any_time", 1, "bird_any_time"),
    ("crow_option", "false", "crow_option"), ("ranks", "5678", "ranks"), ("ranks", (5, 5, 6), "distinct"),
    ("ranks", (5.0,), r"ranks\[0\]"), ("ranks", tuple(range(1, 40)), "ranks"), ("ranks", (), "ranks"),
    ("plain_order", (True,) * 10, r"plain_order\[0\]"), ("counters", ((5, 5.5),), r"counters\[5\]"),
    ("counters", (("5", 5),), "rank"), ("counters", ((5, -5),), r"counters\[5\]"),
    ("counters", ((5, 5), (5, 10)), "twice"), ("counters", 7, "counters"), ("bird_name", "crow", "bird_name"),
    ("bird_name", "B5", "another card"), ("bird_name", "R1", "another card"), ("bird_rank", "lowest", "bird_rank"),
    ("made_score", "bid", "made_score"),
]


@pytest.mark.parametrize(("field", "value", "named"), BAD_FIELDS, ids=[f"{f}={quote(v)}" for f, v, _ in BAD_FIELDS])
def test_variant_checks_every_field_at_construction(field, value, named):
    with pytest.raises(ValueError, match=named) as info:
        dataclasses.replace(CROWSNEST, **{field: value})
    assert len(str(info.value)) < MAX_MESSAGE


def test_variant_bounds_keep_the_action_layout_small():
    # a bird worth 10^9 would make a 200M-action layout: refused; the largest accepted one stays small
    with pytest.raises(ValueError, match="bird_points"):
        dataclasses.replace(CROWSNEST, bird_points=10**9)
    with pytest.raises(ValueError, match=f"at most {MAX_BIDS}"):
        dataclasses.replace(CROWSNEST, bid_step=1, min_bid=1, bird_points=1000, crow_option=False)
    big = dataclasses.replace(CROWSNEST, name="big", bid_step=1, min_bid=1000, bird_points=1000, crow_option=False)
    assert layout_for(big).num_actions < 400 and observation_layout(big).size < 2000
    # the no-Crow option is checked with the rules, not when crow=False is first asked for
    with pytest.raises(ValueError, match="crow_option: the no-Crow rules"):
        dataclasses.replace(CROWSNEST, min_bid=110)  # 120 points with the Crow, 100 without
    with pytest.raises(ValueError, match="crow_option"):
        dataclasses.replace(get_variant("partnership"), crow_option=True)
    # lists become tuples (a Variant is hashable: the engine caches its tables by it)
    assert dataclasses.replace(CROWSNEST, ranks=list(CROWSNEST.ranks)).ranks == CROWSNEST.ranks


def _bomb(levels: int = 8) -> str:
    """The 'billion laughs': each level a list of nine aliases of the level below, the last in ``name``."""
    lines = ['l0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, levels):
        lines.append(f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def test_variant_files_are_read_with_limits(tmp_path):
    rules = yaml.safe_dump({**variant_to_dict(CROWSNEST), "name": "custom"})
    cases = [
        ("name: x\nranks: [5, 6\n", "not valid YAML: expected ',' or ']'", "line 3"),
        (_bomb() + rules.replace("name: custom", "name: [*l7, *l7]"), "anchors and aliases", "line 1"),
        ("name: " + "[" * (MAX_YAML_DEPTH + 5) + "]" * (MAX_YAML_DEPTH + 5) + "\n", "nested more than", ""),
        ("name: !!python/object/apply:os.system [echo hi]\n", "not valid YAML", ""),
        ("- a list\n", "expected a mapping", ""),
        (rules.replace("bid_step: 5", "bid_step: 0"), "bid_step must be >= 1, got 0", ""),
        (rules.replace("hand_size: 9", "hand_size: 9.0"), "hand_size must be an integer", ""),
        (yaml.safe_dump({**variant_to_dict(CROWSNEST), "counters": [5, 10]}), "counters must map", ""),
    ]
    for text, named, where in cases:
        with pytest.raises(ValueError, match="rules.yaml") as info:
            load_variant(write_yaml(tmp_path, text))
        message = str(info.value)
        assert named in message and where in message and "\n" not in message and len(message) < MAX_MESSAGE, message
    big = tmp_path / "big.yaml"
    big.write_text("# " + "x" * MAX_YAML_BYTES + "\n")
    with pytest.raises(ValueError, match="larger than"):
        load_variant(big)
    (tmp_path / "bin.yaml").write_bytes(b"name: \xff\xfe\n")
    with pytest.raises(ValueError, match="not a text file"):
        load_variant(tmp_path / "bin.yaml")
    with pytest.raises(ValueError, match="cannot read"):
        load_variant(tmp_path / "absent.yaml")
    assert load_variant(write_yaml(tmp_path, rules)).name == "custom"


def test_a_bomb_inside_the_data_gives_a_short_message():
    """The 254 MB message: the bomb's object graph (what an alias-allowing loader builds) in a
    string field is quoted as a short prefix."""
    data = yaml.safe_load(_bomb())  # plain yaml: shared lists, 9**8 strings when printed in full
    with pytest.raises(ValueError, match="name must be") as info:
        variant_from_dict({**variant_to_dict(CROWSNEST), "name": data["l7"]})
    assert len(str(info.value)) < MAX_MESSAGE
    with pytest.raises(ValueError, match="aliases"):
        parse_yaml(_bomb(), "bomb.yaml")


def test_bad_variant_files_through_the_arena_and_training_clis(tmp_path, capsys):
    from agents.arena import main as arena_main
    from training.cli import main as train_main

    broken = write_yaml(tmp_path, "name: x\nranks: [5, 6\n", "broken.yaml")
    step0 = write_yaml(tmp_path, yaml.safe_dump(variant_to_dict(CROWSNEST)).replace("bid_step: 5", "bid_step: 0"),
                  "step0.yaml")
    proc = run("-m", "agents.arena", "--variant", broken, "--a", "random", "--b", "random", "--deals", "1",
               "--workers", "1", "--out", str(tmp_path / "r.json"), cwd=tmp_path)
    assert proc.returncode == 2
    assert_one_error_line(proc.stderr, "crowsnest-arena", "broken.yaml", "not valid YAML", "line 3")
    status, err = main_status(arena_main, ["--variant", step0, "--a", "random", "--b", "random", "--deals", "1",
                                     "--workers", "1", "--no-progress"], capsys)
    assert status == 2
    assert_one_error_line(err, "crowsnest-arena", "step0.yaml", "bid_step")
    for variant, named in ((broken, "not valid YAML"), (step0, "bid_step")):
        config = tmp_path / "cfg.yaml"
        config.write_text(yaml.safe_dump({"variant": variant, "total_steps": 100}))
        status, err = main_status(train_main, ["--config", str(config), "--out", str(tmp_path / "run"), "--no-eval"],
                            capsys)
        assert status == 2
        assert_one_error_line(err, "crowsnest-train", "variant", named)
    assert not (tmp_path / "r.json").exists() and not (tmp_path / "run").exists()


def test_replay_of_a_record_carrying_bad_rules(tmp_path):
    from agents.play.session import load_record

    rec = custom_record()
    assert replay(rec).variant.name == "short_game"  # JSON's string counter keys still read back
    for field, value in (("bid_step", 0), ("hand_size", -1), ("bird_points", 10**9), ("target", 0.5)):
        bad = {**rec, "rules": {**rec["rules"], field: value}}
        with pytest.raises(ValueError, match=field):
            crowsnest_env.replay(bad)
        path = tmp_path / f"{field}.json"
        path.write_text(json.dumps(bad))
        with pytest.raises(ValueError, match=field):
            load_record(str(path))  # the play app's --replay
    proc = run("-m", "agents.play", "--replay", str(tmp_path / "bid_step.json"))
    assert proc.returncode == 2 and "bid_step" in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
