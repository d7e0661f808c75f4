#!/bin/bash
# The games of preregistered.txt, in its order (run from the repository root). M is the run's final checkpoint,
# exported: python -m training.export runs/tournament_mixed_br20/checkpoint.pt $M
set -e
A=docs/results/attempts
D=$A/expert_br_auction_tournament_mixed20/arena
M=$A/expert_br_auction_tournament_mixed20/train/auction.pt
BR=$A/expert_auction_exploitability_tournament/best_response.pt
run() { [ -f "$D/$1.json" ] || crowsnest-arena --variant tournament --a "$2" --b "$3" --deals 300 --seed "$4" \
  --workers 2 --no-progress --out "$D/$1.json"; }
run n1_expert_mixed20_vs_pimc_s29 "expert?bidder=checkpoint:$M" pimc 29
run n2_expert_mixed20_vs_pimc_s11 "expert?bidder=checkpoint:$M" pimc 11
run n3_br_calls_in_expert_vs_expert_mixed20_s20200101 "phase:base=expert;auction=checkpoint:$BR" \
  "expert?bidder=checkpoint:$M" 20200101
run n4_expert_mixed20_vs_heuristic_s2026 "expert?bidder=checkpoint:$M" heuristic 2026
# the amendment's diagnostic (after N1-N4)
run d1_br_calls_vs_mixed20_no_inference_s20200101 "phase:base=expert?inference=false;auction=checkpoint:$BR" \
  "expert?inference=false,bidder=checkpoint:$M" 20200101
