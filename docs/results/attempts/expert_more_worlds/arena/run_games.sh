#!/bin/bash
# W1-W2 of preregistered.txt, in its order (run from the repository root).
D=docs/results/attempts/expert_more_worlds/arena
game() { crowsnest-arena --variant crowsnest --a "$1" --b pimc --deals 300 --seed "$2" --workers 2 --no-progress --out "$D/$3.json"; }
game 'expert?samples=96' 29 w1_expert_samples96_vs_pimc_s29
game 'expert?samples=96' 11 w2_expert_samples96_vs_pimc_s11
