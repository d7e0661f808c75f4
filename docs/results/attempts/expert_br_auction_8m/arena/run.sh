#!/bin/bash
# The games of preregistered.txt, in its order, then the shipped expert replayed on the same deals at today's
# code (the preregistration's "replayed at today's code if the code version moved"). Run from the repository root.
set -e
D=docs/results/attempts/expert_br_auction_8m/arena
BR=docs/results/attempts/expert_br_auction_8m/best_response.pt
for S in 29 11; do
  OUT=$D/g_expert_br8m_vs_pimc_s${S}.json
  [ -f "$OUT" ] || crowsnest-arena --variant crowsnest --a "expert?bidder=checkpoint:$BR" --b pimc --deals 300 \
    --seed "$S" --workers 2 --no-progress --out "$OUT"
done
for S in 29 11; do
  OUT=$D/r_expert_shipped_vs_pimc_s${S}.json
  [ -f "$OUT" ] || crowsnest-arena --variant crowsnest --a expert --b pimc --deals 300 \
    --seed "$S" --workers 2 --no-progress --out "$OUT"
done
