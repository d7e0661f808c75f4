#!/bin/bash
# The games added to preregistered.txt after run_games.sh (run from the repository root), with the games of
# ../../expert_br_auction_one_high_mixed/arena/preregistered.txt between D2 and C1 (its file came first; T7-T8: run_t7_t8.sh).
D=docs/results/attempts/expert_inference_temperature/arena
M=docs/results/attempts/expert_br_auction_one_high_mixed
BR=$PWD/$M/train/best_response.pt
game() { crowsnest-arena --variant "$1" --a "$2" --b "$3" --deals 300 --seed "$4" --workers 2 --no-progress --out "$5.json"; }
game partnership double_dummy pimc 29 $D/d1_partnership_double_dummy_vs_pimc_s29
game one_high double_dummy pimc 29 $D/d2_one_high_double_dummy_vs_pimc_s29
game one_high "expert?bidder=checkpoint:$BR" pimc 29 $M/arena/m1_expert_br_mixed_vs_pimc_s29
game one_high "expert?bidder=checkpoint:$BR" pimc 11 $M/arena/m2_expert_br_mixed_vs_pimc_s11
game one_high "expert?bidder=checkpoint:$BR" heuristic 2026 $M/arena/m5_expert_br_mixed_vs_heuristic_s2026
game partnership expert pimc 7331 $D/c1_partnership_expert_vs_pimc_s7331
game partnership 'expert?temperature=0.25' pimc 7331 $D/c2_partnership_expert_t025_vs_pimc_s7331
game partnership expert pimc 4242 $D/c3_partnership_expert_vs_pimc_s4242
game partnership 'expert?temperature=0.25' pimc 4242 $D/c4_partnership_expert_t025_vs_pimc_s4242
