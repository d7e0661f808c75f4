"""Issue 18, export: ``python -m training.export`` never writes over its input (by any path) nor over
a training checkpoint, and a bad input file is one error line naming it.
"""

from __future__ import annotations

import os

import pytest

from agents.checkpoint import read_checkpoint
from tests._bad_input import assert_one_error_line, main_status, run, training_checkpoint


@pytest.fixture
def run_folder(tmp_path):
    folder = tmp_path / "run"
    folder.mkdir()
    training_checkpoint(folder / "checkpoint.pt")
    (tmp_path / "other").mkdir()
    training_checkpoint(tmp_path / "other" / "checkpoint.pt")
    os.symlink(folder / "checkpoint.pt", tmp_path / "link.pt")
    os.link(folder / "checkpoint.pt", tmp_path / "hard.pt")
    return folder


def test_export_never_writes_over_its_input_or_a_training_checkpoint(run_folder, tmp_path, capsys, monkeypatch):
    from training.export import main

    monkeypatch.chdir(tmp_path)
    src = "run/checkpoint.pt"
    before = {p: (tmp_path / p).read_bytes() for p in (src, "other/checkpoint.pt")}
    for dst, named in [(src, "is the input"), ("run/../run/checkpoint.pt", "is the input"),
                       (str(tmp_path / src), "is the input"), ("./run//checkpoint.pt", "is the input"),
                       ("link.pt", "is the input"), ("hard.pt", "is the input"),
                       ("other/checkpoint.pt", "training checkpoint"), ("run", "folder")]:
        status, err = main_status(main, [src, dst], capsys)
        assert status == 2, (dst, err)
        assert_one_error_line(err, "python -m training.export", repr(dst), named)
    assert {p: (tmp_path / p).read_bytes() for p in before} == before  # nothing lost: the run can resume
    assert sorted(os.listdir(tmp_path / "run")) == ["checkpoint.pt"]  # nor a temp file left
    # an agent file may be rewritten, and read back as one
    assert main_status(main, [src, "agent.pt"], capsys)[0] == 0
    assert main_status(main, [src, "agent.pt"], capsys)[0] == 0
    assert "optimizer" not in read_checkpoint("agent.pt")


def test_export_cli_same_file_and_garbage_input_are_one_line(run_folder, tmp_path):
    src = str(run_folder / "checkpoint.pt")
    before = (run_folder / "checkpoint.pt").read_bytes()
    garbage = tmp_path / "garbage.pt"
    garbage.write_bytes(bytes(range(256)) * 8)
    truncated = tmp_path / "truncated.pt"
    truncated.write_bytes(before[: len(before) // 2])
    code = ("import sys\nfrom training.export import main\n"
            "for argv in sys.argv[1:]:\n    print(main(argv.split('|')), file=sys.stderr)\n")
    proc = run("-c", code, f"{src}|{src}", f"{garbage}|{tmp_path / 'out.pt'}", f"{truncated}|{tmp_path / 'out.pt'}")
    out = proc.stderr.splitlines()
    assert proc.returncode == 0 and out[1::2] == ["2", "2", "2"], proc.stderr
    for line, named in zip(out[0::2], ("is the input checkpoint", "not a torch checkpoint", "truncated or corrupt")):
        assert_one_error_line(line, "python -m training.export", named)
    assert (run_folder / "checkpoint.pt").read_bytes() == before and not (tmp_path / "out.pt").exists()


def test_export_sets_a_residual_policys_prior_weight_and_refuses_it_elsewhere(run_folder, tmp_path, capsys):
    """``--prior-weight W``: the exported residual policy plays with weight W (a value-fitted policy's
    departure threshold); a network without a prior, or a weight out of range, is one error line."""
    import torch

    from agents.checkpoint import make_payload, model_from_checkpoint, write_checkpoint
    from agents.networks import build_model
    from crowsnest_env.observation import observation_layout
    from crowsnest_env.rules import get_variant, layout_for
    from training.export import main

    variant = get_variant("crowsnest", True)
    spec = {"hidden": [8], "prior": "heuristic", "prior_weight": 3.0}
    model = build_model("ppo", observation_layout(variant).size, layout_for(variant).num_actions, spec)
    residual = tmp_path / "residual.pt"
    write_checkpoint(residual, make_payload(algo="ppo", model=model, model_spec=spec, variant=variant,
                                            optimizer=torch.optim.Adam(model.parameters())))
    before = residual.read_bytes()
    assert main_status(main, [str(residual), str(tmp_path / "w9.pt"), "--prior-weight", "9"], capsys)[0] == 0
    data = read_checkpoint(str(tmp_path / "w9.pt"))
    assert data["model_spec"] == {**spec, "prior_weight": 9.0}
    assert model_from_checkpoint(data).prior_weight == 9.0
    for k, v in model.state_dict().items():  # the same weights
        assert torch.equal(data["model"][k], v)
    assert residual.read_bytes() == before
    for src, weight, named in [(str(run_folder / "checkpoint.pt"), "9", "not a residual policy"),
                               (str(residual), "0", "prior_weight must be a number in"),
                               (str(residual), "nan", "prior_weight must be a number in")]:
        status, err = main_status(main, [src, str(tmp_path / "bad.pt"), "--prior-weight", weight], capsys)
        assert status == 2, err
        assert_one_error_line(err, "python -m training.export", named)
    assert not (tmp_path / "bad.pt").exists()


def test_export_evaluate_writes_a_runs_evaluation_of_the_recalibrated_file(tmp_path, capsys):
    """``--evaluate DIR``: the exported file is played as a run's final evaluation (random and the
    heuristic, and the heuristic's own margin on the same deals), its report saying where the file
    came from and the weight set at export; a bad ``--deals`` is refused before anything is written."""
    import json

    import torch

    from agents.checkpoint import make_payload, write_checkpoint
    from agents.networks import build_model
    from crowsnest_env.observation import observation_layout
    from crowsnest_env.rules import get_variant, layout_for
    from training.export import main

    variant = get_variant("red_one", True)
    spec = {"hidden": [8], "prior": "heuristic?margin=0.05", "prior_weight": 3.0}
    model = build_model("ppo", observation_layout(variant).size, layout_for(variant).num_actions, spec)
    residual = tmp_path / "run" / "checkpoint.pt"
    residual.parent.mkdir()
    write_checkpoint(residual, make_payload(algo="ppo", model=model, model_spec=spec, variant=variant,
                                            optimizer=torch.optim.Adam(model.parameters())))
    folder = tmp_path / "eval"
    status, _ = main_status(main, [str(residual), str(tmp_path / "w2.pt"), "--prior-weight", "2", "--evaluate",
                                   str(folder), "--deals", "2", "--seed", "5", "--workers", "1"], capsys)
    assert status == 0
    assert sorted(p.name for p in folder.iterdir()) == ["arena.png", "baseline.json", "eval.json", "report.md"]
    results = json.loads((folder / "eval.json").read_text())
    assert sorted(results) == ["heuristic", "random"]
    assert {r["deals"] for r in results.values()} == {2} and {r["seed"] for r in results.values()} == {5}
    assert results["heuristic"]["a"].endswith("w2.pt") and results["heuristic"]["variant"] == "red_one"
    report = (folder / "report.md").read_text()
    assert "run `run`" in report and "prior weight 2 (set at export)" in report and "Strong and robust?" in report
    status, err = main_status(main, [str(residual), str(tmp_path / "w4.pt"), "--evaluate", str(tmp_path / "no"),
                                     "--deals", "0"], capsys)
    assert status == 2 and not (tmp_path / "w4.pt").exists() and not (tmp_path / "no").exists()
    assert_one_error_line(err, "python -m training.export", "--deals must be positive")
