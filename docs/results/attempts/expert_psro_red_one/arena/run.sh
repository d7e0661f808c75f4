#!/bin/bash
# P0-P6 of preregistered.txt (from the repository root); P0 alone: ./run.sh p0, P1-P5: ./run.sh a2, P6: ./run.sh p6
set -e
D=docs/results/attempts/expert_psro_red_one
A1=docs/results/attempts/expert_br_auction_red_one_mixed/train/auction.pt
BR1=docs/results/attempts/expert_auction_exploitability_red_one/best_response.pt
BR2=$D/br2/best_response.pt
A2=$D/train/auction.pt
game() { # out a b seed
  [ -f $D/arena/$1.json ] || crowsnest-arena --variant red_one --a "$2" --b "$3" --deals 300 --seed $4 \
    --workers 2 --no-progress --keep-deals --out $D/arena/$1.json
}
if [ "${1:-all}" = all ] || [ "$1" = p0 ]; then
  game p0_br2_calls_in_expert_vs_expert_a1_s20200101 "phase:base=expert;auction=checkpoint:$BR2" "expert?bidder=checkpoint:$A1" 20200101
fi
if [ "${1:-all}" = all ] || [ "$1" = a2 ]; then
  game p1_expert_a2_vs_pimc_s29 "expert?bidder=checkpoint:$A2" pimc 29
  game p2_expert_a2_vs_pimc_s11 "expert?bidder=checkpoint:$A2" pimc 11
  game p3_br1_calls_in_expert_vs_expert_a2_s20200101 "phase:base=expert;auction=checkpoint:$BR1" "expert?bidder=checkpoint:$A2" 20200101
  game p4_br2_calls_in_expert_vs_expert_a2_s20200101 "phase:base=expert;auction=checkpoint:$BR2" "expert?bidder=checkpoint:$A2" 20200101
  game p5_expert_a2_vs_heuristic_s2026 "expert?bidder=checkpoint:$A2" heuristic 2026
fi
if [ "${1:-all}" = all ] || [ "$1" = p6 ]; then
  game p6_br2_calls_in_expert_vs_expert_s20200101 "phase:base=expert;auction=checkpoint:$BR2" expert 20200101
fi
