#!/bin/bash
# The confirmation games of preregistered.txt's third amendment, then run2.sh (run from the repository root).
set -e
D=docs/results/attempts/expert_card_play_partnership/arena
run() { [ -f "$D/$1.json" ] || crowsnest-arena --variant partnership --a "$2" --b pimc --deals 300 --seed 11 \
  --workers 2 --no-progress --keep-deals --out "$D/$1.json"; }
run c1_expert_no_inference_vs_pimc_s11 "expert?inference=false"
run c2_expert_vs_pimc_s11 expert
bash $D/run2.sh
