#!/bin/bash
# A screen with the fast stand-in (the shipped tournament policy's discard, trump and cards; only the auction
# differs): expert's tournament auction with bid_cap X against (1) the best response's calls, (2) pimc's auction,
# (3) the heuristic. 2000 duplicate deals a game, seed 777 (a seed no decision of this folder uses later).
set -e
A=docs/results/attempts
D=$A/expert_bid_cap_tournament/screen
TA=agents/policies/expert/tournament_auction.pt
BR=$A/expert_auction_exploitability_tournament/best_response.pt
declare -A OPP=([br]="phase:base=learned;auction=checkpoint:$BR" [pimc]="phase:base=learned;auction=heuristic?margin=0"
  [heuristic]="heuristic")
for x in none 0 5 10 -5; do
  if [ "$x" = none ]; then me="phase:base=learned;auction=checkpoint:$TA"
  else me="phase:base=learned;auction=pimc?bid_cap=$x,bidder=checkpoint:$TA"; fi
  for o in br pimc heuristic; do
    f=$D/cap_${x}_vs_$o.json
    [ -f "$f" ] || crowsnest-arena --variant tournament --a "$me" --b "${OPP[$o]}" --deals 2000 --seed 777 \
      --workers 1 --no-progress --keep-deals --out "$f" > /dev/null
  done
done
