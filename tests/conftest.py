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
