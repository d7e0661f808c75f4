#!/bin/bash
# The games of preregistered.txt, in its order (run from the repository root).
set -e
D=docs/results/attempts/ceiling_by_side/arena
for RS in crowsnest:29 crowsnest:11 one_high:29 partnership:29; do
  R=${RS%:*}; S=${RS#*:}
  for ARM in both defence declarer; do
    OUT=$D/c_${R}_${ARM}_s${S}.json
    [ -f "$OUT" ] && continue
    if [ "$ARM" = both ]; then A="double_dummy?bid_margin=0"; else A="double_dummy?bid_margin=0,sees=$ARM"; fi
    crowsnest-arena --variant "$R" --a "$A" --b pimc --deals 300 --seed "$S" --workers 2 --no-progress --out "$OUT"
  done
done
