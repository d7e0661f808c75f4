#!/bin/bash
# P6 of preregistered.txt's fourth amendment (run from the repository root), after run3.sh.
set -e
D=docs/results/attempts/expert_card_play_partnership/arena
OUT=$D/p6_pimc_policy_pimc_auction_vs_pimc_s29.json
[ -f "$OUT" ] || crowsnest-arena --variant partnership --a "pimc?policy=learned,auction=heuristic" --b pimc \
  --deals 300 --seed 29 --workers 2 --no-progress --keep-deals --out "$OUT"
