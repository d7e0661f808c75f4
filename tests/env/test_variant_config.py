"""configs/rules/*.yaml mirror the preset registry; the loader rejects bad files by name."""

from __future__ import annotations

import pathlib

import pytest
import yaml

from crowsnest_env.rules import PRESETS, get_variant
from crowsnest_env.variant_config import load_variant, variant_from_dict, variant_to_dict

RULES_DIR = pathlib.Path(__file__).parents[2] / "configs" / "rules"


@pytest.mark.parametrize("name", list(PRESETS))
def test_yaml_mirrors_preset(name):
    assert load_variant(RULES_DIR / f"{name}.yaml") == get_variant(name)


def test_every_yaml_is_a_preset():
    assert sorted(p.stem for p in RULES_DIR.glob("*.yaml")) == sorted(PRESETS)


def test_unknown_key_is_named(tmp_path):
    data = variant_to_dict(get_variant("dixie"))
    data["trump_bonus"] = 5
    path = tmp_path / "x.yaml"
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(ValueError, match=r"unknown key\(s\) \['trump_bonus'\]"):
        load_variant(path)


@pytest.mark.parametrize("change,match", [
    ({"bird_rank": "middle"}, "bird_rank must be one of"), ({"nest_size": 4}, "does not deal"),
    ({"plain_order": [5, 6]}, "permutation"), ({"counters": [5, 5]}, "counters must map"),
])
def test_bad_values_are_explained(change, match):
    data = {**variant_to_dict(get_variant("crowsnest")), **change}
    with pytest.raises(ValueError, match=match):
        variant_from_dict(data)


def test_missing_key():
    data = variant_to_dict(get_variant("crowsnest"))
    del data["hand_size"]
    with pytest.raises(ValueError, match=r"missing key\(s\) \['hand_size'\]"):
        variant_from_dict(data)
