#!/bin/bash
# The games added to preregistered.txt, in its order, after run_games.sh (run from the repository root).
D=docs/results/attempts/expert_inference_temperature/arena
game() { crowsnest-arena --variant "$1" --a "$2" --b pimc --deals 300 --seed "$3" --workers 2 --no-progress --out "$D/$4.json"; }
game partnership double_dummy 29 d1_partnership_double_dummy_vs_pimc_s29
game one_high double_dummy 29 d2_one_high_double_dummy_vs_pimc_s29
game one_high 'expert?inference=false,samples=48' 29 t7_one_high_expert_no_inference_48_vs_pimc_s29
game one_high 'expert?inference=false,samples=48' 11 t8_one_high_expert_no_inference_48_vs_pimc_s11
