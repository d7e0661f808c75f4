#!/bin/bash
# N1-N4 of preregistered.txt, in its order (run from the repository root).
D=docs/results/attempts/expert_more_worlds/arena
game() { crowsnest-arena --variant "$1" --a 'expert?nodes=200000' --b pimc --deals 300 --seed "$2" --workers 2 --no-progress --out "$D/$3.json"; }
game one_high 29 n1_one_high_expert_nodes200k_vs_pimc_s29
game one_high 11 n2_one_high_expert_nodes200k_vs_pimc_s11
game partnership 29 n3_partnership_expert_nodes200k_vs_pimc_s29
game partnership 11 n4_partnership_expert_nodes200k_vs_pimc_s11
