"""Config YAML maps 1:1 onto the dataclass: unknown keys and wrong types are named errors."""

from __future__ import annotations

import glob
import os

import pytest
import yaml

from training.config import (
    Config,
    ConfigError,
    config_from_dict,
    load_config,
    save_config,
)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.mark.parametrize("path", sorted(glob.glob(os.path.join(ROOT, "configs", "*.yaml"))))
def test_shipped_configs_load(path):
    if os.path.basename(path) == "exploit.yaml":  # crowsnest-exploit's: a training config plus its exploit: section
        from training.exploit import load_exploit

        cfg = load_exploit("heuristic", path).cfg
        assert cfg.opponent_agent == "heuristic" and cfg.opponents.agent == 1.0
    else:
        cfg = load_config(path)
    assert cfg.algo in ("ppo", "dmc")


@pytest.mark.parametrize("path", sorted(glob.glob(os.path.join(ROOT, "configs", "*.yaml"))
                                         + glob.glob(os.path.join(ROOT, "configs", "policies", "*.yaml"))))
def test_the_agent_files_a_shipped_config_names_are_in_the_tree(path):
    """A config's teachers and opponents by file (``checkpoint:PATH`` in ``bc_teacher``,
    ``opponent_agent``, ``ppo.prior``) resolve from the repository root: moving a record folder
    must not leave a shipped policy's recipe pointing at nothing."""
    import re

    from training.exploit import load_exploit

    cfg = load_exploit("heuristic", path).cfg if os.path.basename(path) == "exploit.yaml" else load_config(path)
    named = " ".join((cfg.bc_teacher, cfg.bc_behaviour, cfg.opponent_agent, *cfg.more_opponent_agents, cfg.ppo.prior))
    for rel in re.findall(r"checkpoint:([^;,?\s]+)", named):
        where = os.path.relpath(path, ROOT)
        assert os.path.isfile(os.path.join(ROOT, rel)), f"{where} names {rel}, which is not in the tree"


def test_unknown_top_level_key_is_named(tmp_path):
    p = tmp_path / "bad.yaml"
    p.write_text("algo: ppo\nlearning_rat: 0.1\n")
    with pytest.raises(ConfigError, match="unknown config key 'learning_rat'") as err:
        load_config(p)
    assert "bad.yaml" in str(err.value)


def test_unknown_nested_key_is_named():
    with pytest.raises(ConfigError, match=r"unknown config key ppo\.'?gama"):
        config_from_dict({"ppo": {"gama": 0.9}})
    with pytest.raises(ConfigError, match="opponents.*'selfplay'"):
        config_from_dict({"opponents": {"selfplay": 1.0}})


@pytest.mark.parametrize("data,field", [
    ({"total_steps": "many"}, "total_steps"),
    ({"total_steps": 1.5}, "total_steps"),
    ({"crow": 1}, "crow"),
    ({"ppo": {"hidden": 64}}, "ppo.hidden"),
    ({"ppo": {"hidden": [64, "x"]}}, r"ppo.hidden\[1\]"),
    ({"dmc": {"epsilon": True}}, "dmc.epsilon"),
    ({"ppo": 3}, "ppo"),
])
def test_wrong_types_are_named(data, field):
    with pytest.raises(ConfigError, match=field):
        config_from_dict(data)


def test_bad_values():
    with pytest.raises(ConfigError, match="algo"):
        config_from_dict({"algo": "a2c"})
    with pytest.raises(ConfigError, match="unknown variant"):
        config_from_dict({"variant": "bridge"})
    with pytest.raises(ConfigError, match="opponents"):
        config_from_dict({"opponents": {"self_play": 0, "snapshot": 0, "heuristic": 0}})


def test_int_accepted_for_float_and_round_trip(tmp_path):
    cfg = config_from_dict({"ppo": {"learning_rate": 1}, "max_wall_time": 5})
    assert cfg.ppo.learning_rate == 1.0 and isinstance(cfg.ppo.learning_rate, float)
    save_config(cfg, tmp_path / "config.yaml")
    again = load_config(tmp_path / "config.yaml")
    assert again == cfg
    assert set(yaml.safe_load((tmp_path / "config.yaml").read_text())) == set(Config.__dataclass_fields__)


def test_overrides_set_fields_and_sections(tmp_path):
    import pathlib

    from training.config import ConfigError, load_config

    tiny = pathlib.Path(__file__).parents[2] / "configs" / "tiny_ppo.yaml"
    cfg = load_config(tiny, ["variant=dixie", "ppo.learning_rate=5e-5", "opponents.random=0.25", "max_hands=0"])
    assert (cfg.variant, cfg.ppo.learning_rate, cfg.opponents.random, cfg.max_hands) == ("dixie", 5e-5, 0.25, 0)
    assert cfg.episode_options()["max_hands"] is None
    for bad, match in [("variant", "key=value"), ("ppo.lr=1", "unknown config key"), ("seed=x", "seed"),
                       ("variant.x=1", "variant")]:
        with pytest.raises(ConfigError, match=match):
            load_config(tiny, [bad])


@pytest.mark.parametrize(("data", "match"), [
    ({"opponents": {"agent": 0.5}}, "opponents.agent is 0.5 but opponent_agent names no agent"),
    ({"opponent_agent": "heuristic"}, "opponent_agent 'heuristic' is set but opponents.agent is 0"),
    ({"opponents": {"agent": 1.0}, "opponent_agent": "nosuch"}, "opponent_agent 'nosuch': unknown agent"),
    ({"opponents": {"agent": 1.0}, "opponent_agent": "heuristic+random"}, "not a team of two"),
    ({"opponents": {"agent": 1.0}, "opponent_agent": "double_dummy"}, "it cannot play from one seat's view"),
    ({"opponents": {"agent": 1.0}, "opponent_agent": "learned", "crow": False}, "no shipped policy"),
    ({"opponents": {"agent": 1.0}, "opponent_agent": "pimc?samples=0"}, "samples"),
    ({"opponents": {"agent": -1.0}, "opponent_agent": "random"}, "opponents.agent must be >= 0"),
    ({"opponents": {"agent": 1.0}, "opponent_agent": "random", "more_opponent_agents": ["nosuch"]},
     r"more_opponent_agents\[0\] 'nosuch': unknown agent"),
    ({"opponents": {"agent": 1.0}, "opponent_agent": "random", "more_opponent_agents": ["random", "  "]},
     r"more_opponent_agents\[1\] '  ': names no agent"),
    ({"opponents": {"agent": 1.0}, "opponent_agent": "random", "more_opponent_agents": ["heuristic+random"]},
     "not a team of two"),
    ({"more_opponent_agents": ["random"]}, "more_opponent_agents \\['random'\\] needs opponent_agent"),
    ({"opponents": {"agent": 1.0}, "opponent_agent": "random", "more_opponent_agents": "heuristic"},
     "more_opponent_agents must be a list"),
])
def test_the_opponent_agent_is_checked_against_the_rules(data, match, no_nocrow_policies):
    with pytest.raises(ConfigError, match=match):
        config_from_dict(data)


def test_an_opponent_agent_of_other_rules_is_refused_and_a_fitting_one_loads():
    import os

    dixie = os.path.join(ROOT, "agents", "policies", "dixie.pt")
    with pytest.raises(ConfigError, match="trained for 'dixie', not the arena's 'crowsnest'"):
        config_from_dict({"opponents": {"agent": 1.0}, "opponent_agent": f"checkpoint:{dixie}"})
    cfg = config_from_dict({"variant": "dixie", "opponents": {"agent": 1.0, "self_play": 0.0},
                            "opponent_agent": f"checkpoint:{dixie}"})
    assert cfg.opponent_agent.endswith("dixie.pt") and cfg.opponents.agent == 1.0
