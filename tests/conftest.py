"""Shared fixtures: variant/crow combinations used across the suite."""

from __future__ import annotations

import pytest

from crowsnest_env.rules import VARIANTS

#: every variant, plus the 40-card "no Crow" option where it exists
VARIANT_OPTIONS = [(v, True) for v in VARIANTS] + [("crowsnest", False), ("tournament", False)]
VARIANT_IDS = [f"{v}{'' if crow else '-nocrow'}" for v, crow in VARIANT_OPTIONS]


@pytest.fixture(params=VARIANT_OPTIONS, ids=VARIANT_IDS)
def variant_option(request):
    return request.param


@pytest.fixture
def no_nocrow_policies(tmp_path_factory, monkeypatch):
    """A policy folder (CROWSNEST_POLICY_DIR, seen by subprocesses too) holding every shipped
    policy but the no-Crow ones: the tests of what happens where ``learned`` has no policy do not
    depend on which policies happen to ship."""
    import os

    from agents.learned import POLICY_DIR, POLICY_DIR_ENV
    from crowsnest_env.rules import NO_CROW_SUFFIX

    folder = tmp_path_factory.mktemp("policies")
    for name in os.listdir(POLICY_DIR):
        if name.endswith(".pt") and not name.endswith(NO_CROW_SUFFIX + ".pt"):
            os.symlink(os.path.join(POLICY_DIR, name), folder / name)
    monkeypatch.setenv(POLICY_DIR_ENV, str(folder))
    return folder
