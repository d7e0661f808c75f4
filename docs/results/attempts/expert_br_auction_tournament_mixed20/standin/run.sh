#!/bin/bash
# After the preregistered games (not part of their rule): the auctions with the fast stand-in's play (the shipped
# tournament policy's discard, trump and cards), 2000 duplicate deals, seed 777 (the deals of
# ../../expert_bid_cap_tournament/screen/, where the shipped file scored +13.0 against pimc's auction and -9.3
# against the BR's calls). Each auction against pimc's auction and against the BR's calls.
set -e
A=docs/results/attempts
D=$A/expert_br_auction_tournament_mixed20/standin
BR=$A/expert_auction_exploitability_tournament/best_response.pt
declare -A FILE=([br]=$BR [m50]=$A/expert_br_auction_tournament_mixed/train/auction.pt
  [m20]=$A/expert_br_auction_tournament_mixed20/train/auction.pt)
declare -A OPP=([pimc]="phase:base=learned;auction=heuristic?margin=0" [br]="phase:base=learned;auction=checkpoint:$BR")
for arm in br m50 m20; do
  for o in pimc br; do
    [ "$arm" = br ] && [ "$o" = br ] && continue
    f=$D/${arm}_vs_$o.json
    [ -f "$f" ] || crowsnest-arena --variant tournament --a "phase:base=learned;auction=checkpoint:${FILE[$arm]}" \
      --b "${OPP[$o]}" --deals 2000 --seed 777 --workers 1 --no-progress --keep-deals --out "$f" > /dev/null
  done
done
# then the stand-in on the preregistered games' own deals (300 each): N3's, N1's and N2's
[ -f "$D/br_vs_m20_s20200101.json" ] || crowsnest-arena --variant tournament --a "phase:base=learned;auction=checkpoint:$BR" \
  --b "phase:base=learned;auction=checkpoint:${FILE[m20]}" --deals 300 --seed 20200101 --workers 1 --no-progress \
  --keep-deals --out "$D/br_vs_m20_s20200101.json" > /dev/null
for s in 29 11; do
  [ -f "$D/m20_vs_pimc_s$s.json" ] || crowsnest-arena --variant tournament \
    --a "phase:base=learned;auction=checkpoint:${FILE[m20]}" --b "${OPP[pimc]}" --deals 300 --seed $s --workers 1 \
    --no-progress --keep-deals --out "$D/m20_vs_pimc_s$s.json" > /dev/null
done
