#!/bin/bash
# The games of preregistered.txt, in its order (run from the repository root).
set -e
D=docs/results/attempts/expert_card_play_partnership/arena
run() { [ -f "$D/$1.json" ] || crowsnest-arena --variant partnership --a "$2" --b pimc --deals 300 --seed 29 \
  --workers 2 --no-progress --keep-deals --out "$D/$1.json"; }
run p0_expert_vs_pimc_s29 expert
run p1_expert_pimc_trump_vs_pimc_s29 "phase:base=expert;discard=pimc"
run p2_expert_no_inference_vs_pimc_s29 "expert?inference=false"
