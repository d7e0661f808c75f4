#!/bin/bash
# The games of preregistered.txt, in its order (run from the repository root).
D=docs/results/attempts/expert_inference_temperature/arena
game() { crowsnest-arena --variant "$1" --a "$2" --b pimc --deals 300 --seed "$3" --workers 2 --no-progress --out "$D/$4.json"; }
game one_high 'expert?temperature=0.25' 29 t1_one_high_expert_t025_vs_pimc_s29
game one_high 'expert?inference=false' 29 t2_one_high_expert_no_inference_vs_pimc_s29
game one_high 'expert?temperature=0.25' 11 t3_one_high_expert_t025_vs_pimc_s11
game one_high 'expert?inference=false' 11 t4_one_high_expert_no_inference_vs_pimc_s11
game partnership 'expert?temperature=0.25' 29 t5_partnership_expert_t025_vs_pimc_s29
game partnership 'expert?temperature=0.25' 11 t6_partnership_expert_t025_vs_pimc_s11
