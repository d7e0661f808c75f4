"""Self-play trainers (PPO, Deep Monte-Carlo), checkpoints, evaluation and reports.

``crowsnest-train --config configs/crowsnest_ppo.yaml [--out runs/NAME] [--resume]``; see
:mod:`training.cli`. The algorithm is the config's ``algo`` field.
"""
