#!/bin/bash
# The games of preregistered.txt, in its order (run from the repository root). M is the run's final checkpoint,
# exported: python -m training.export runs/red_one_mixed_br/checkpoint.pt $M
set -e
A=docs/results/attempts
D=$A/expert_br_auction_red_one_mixed/arena
M=$A/expert_br_auction_red_one_mixed/train/auction.pt
BR=$A/expert_auction_exploitability_red_one/best_response.pt
run() { [ -f "$D/$1.json" ] || crowsnest-arena --variant red_one --a "$2" --b "$3" --deals 300 --seed "$4" \
  --workers 2 --no-progress --keep-deals --out "$D/$1.json"; }
run r1_expert_mixed_vs_pimc_s29 "expert?bidder=checkpoint:$M" pimc 29
run r2_expert_mixed_vs_pimc_s11 "expert?bidder=checkpoint:$M" pimc 11
run r3_br_calls_in_expert_vs_expert_mixed_s20200101 "phase:base=expert;auction=checkpoint:$BR" \
  "expert?bidder=checkpoint:$M" 20200101
run r4_expert_mixed_vs_heuristic_s2026 "expert?bidder=checkpoint:$M" heuristic 2026
