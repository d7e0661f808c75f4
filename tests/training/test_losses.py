"""GAE, Monte-Carlo returns and the masked distribution against hand-computed values."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from training.losses import (
    MaskedCategorical,
    compute_gae,
    explained_variance,
    mc_returns,
    ppo_loss,
)


def test_gae_matches_hand_computation():
    # two trajectories laid end to end: [r=0, r=1] (done at t=1), then [r=2] (done at t=2)
    rewards = np.array([0.0, 1.0, 2.0], np.float32)
    values = np.array([0.5, 0.4, 1.0], np.float32)
    dones = np.array([0.0, 1.0, 1.0], np.float32)
    gamma, lam = 0.9, 0.8
    d1 = 1.0 - 0.4                    # last step of trajectory 1: no bootstrap
    d0 = 0.0 + 0.9 * 0.4 - 0.5
    a0 = d0 + gamma * lam * d1
    d2 = 2.0 - 1.0
    adv, ret = compute_gae(rewards, values, dones, gamma, lam)
    np.testing.assert_allclose(adv, [a0, d1, d2], rtol=1e-6)
    np.testing.assert_allclose(ret, [a0 + 0.5, d1 + 0.4, d2 + 1.0], rtol=1e-6)


def test_gae_bootstraps_last_value_when_not_done():
    adv, _ = compute_gae(np.array([1.0], np.float32), np.array([0.0], np.float32), np.array([0.0]), 0.5, 0.9,
                         last_value=2.0)
    assert adv[0] == pytest.approx(1.0 + 0.5 * 2.0)


def test_gae_with_lambda_one_is_monte_carlo_minus_value():
    rewards = np.array([0.0, 0.0, 1.5, 0.0, -1.0], np.float32)
    dones = np.array([0, 0, 1, 0, 1], np.float32)
    values = np.array([0.3, -0.2, 0.1, 0.7, 0.0], np.float32)
    _, ret = compute_gae(rewards, values, dones, 1.0, 1.0)
    np.testing.assert_allclose(ret, mc_returns(rewards, dones, 1.0), rtol=1e-6)
    np.testing.assert_allclose(mc_returns(rewards, dones, 1.0), [1.5, 1.5, 1.5, -1.0, -1.0])
    np.testing.assert_allclose(mc_returns(rewards, dones, 0.5), [0.375, 0.75, 1.5, -0.5, -1.0])


def test_masked_distribution_never_samples_masked_actions():
    torch.manual_seed(0)
    logits = torch.randn(64, 10) * 3
    logits[:, 0] = 50.0  # the most likely action is masked
    mask = torch.rand(64, 10) < 0.4
    mask[:, 0] = False
    mask[torch.arange(64), torch.randint(1, 10, (64,))] = True
    dist = MaskedCategorical(logits, mask)
    for _ in range(50):
        a = dist.sample()
        assert mask[torch.arange(64), a].all()
    assert torch.all(dist.probs[~mask] == 0)
    assert torch.isfinite(dist.log_prob(dist.sample())).all()


def test_masked_entropy_counts_legal_actions_only():
    logits = torch.zeros(2, 6)
    mask = torch.tensor([[1, 1, 1, 0, 0, 0], [1, 0, 0, 0, 0, 0]], dtype=torch.bool)
    ent = MaskedCategorical(logits, mask).entropy()
    assert ent[0].item() == pytest.approx(math.log(3), rel=1e-5)
    assert ent[1].item() == pytest.approx(0.0, abs=1e-6)
    assert torch.isfinite(ent).all()
    # masked logits that would dominate must not leak into the entropy
    logits2 = torch.tensor([[0.0, 0.0, 0.0, 100.0, -100.0, 3.0]])
    assert MaskedCategorical(logits2, mask[:1]).entropy().item() == pytest.approx(math.log(3), rel=1e-5)


def test_ppo_loss_is_value_loss_when_policy_unchanged_and_no_advantage():
    from agents.networks import ActorCritic

    torch.manual_seed(1)
    model = ActorCritic(8, 5, [16])
    obs, mask = torch.randn(4, 8), torch.ones(4, 5, dtype=torch.bool)
    with torch.no_grad():
        logits, values = model(obs)
        dist = MaskedCategorical(logits, mask)
        actions = dist.sample()
        logp = dist.log_prob(actions)
    returns = values + 1.0
    loss, stats = ppo_loss(model, obs, mask, actions, logp, torch.zeros(4), returns, values,
                           clip_coef=0.2, ent_coef=0.0, vf_coef=1.0, norm_adv=False)
    assert stats["policy_loss"] == pytest.approx(0.0, abs=1e-7)
    assert stats["approx_kl"] == pytest.approx(0.0, abs=1e-7)
    assert loss.item() == pytest.approx(0.5, rel=1e-5)


def test_explained_variance():
    y = np.array([1.0, 2.0, 3.0])
    assert explained_variance(y, y) == pytest.approx(1.0)
    assert explained_variance(np.full(3, 2.0), y) == pytest.approx(0.0)
