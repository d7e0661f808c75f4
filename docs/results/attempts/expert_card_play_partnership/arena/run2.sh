#!/bin/bash
# The games of preregistered.txt's second amendment, in its order (run from the repository root).
set -e
D=docs/results/attempts/expert_card_play_partnership/arena
run() { [ -f "$D/$1.json" ] || crowsnest-arena --variant partnership --a "$2" --b pimc --deals 300 --seed 29 \
  --workers 2 --no-progress --keep-deals --out "$D/$1.json"; }
run p5_pimc_policy_vs_pimc_s29 "pimc?policy=learned"
run p3_expert_no_exact_vs_pimc_s29 "expert?exact=0"
run p4_expert_16_worlds_vs_pimc_s29 "expert?samples=16"
