#!/bin/bash
# T7-T8 of preregistered.txt (run from the repository root).
D=docs/results/attempts/expert_inference_temperature/arena
game() { crowsnest-arena --variant one_high --a "$1" --b pimc --deals 300 --seed "$2" --workers 2 --no-progress --out "$D/$3.json"; }
game 'expert?inference=false,samples=48,auction=heuristic' 29 t7_one_high_expert_no_inference_48_vs_pimc_s29
game 'expert?inference=false,samples=48,auction=heuristic' 11 t8_one_high_expert_no_inference_48_vs_pimc_s11
