#!/bin/sh
# The review's accuracy per level (docs/analysis.md, Measurements): for
# each level L, GAMES games of L,normal,L,normal dealt from the same SEED
# (so every level gets the same deals), each reviewed for seat 0; then
# each level's accuracy by points lost and by win chance lost, mean and
# spread over its games.
#
#   examples/accuracy_by_level.sh [GAMES [SEED [DEALS [DIR]]]]
#
# Defaults: 20 games, seed 1, 1000 guessed deals per decision, the folder
# accuracy-run. SPADES names the binary (default target/release/spades).
# A level whose record is already in DIR is not played again, and a review
# kept beside a record is read back, so a second run only summarises.
set -eu
SPADES=${SPADES:-target/release/spades}
GAMES=${1:-20}
SEED=${2:-1}
DEALS=${3:-1000}
DIR=${4:-accuracy-run}
LEVELS="hard normal easy random"
mkdir -p "$DIR"

for L in $LEVELS; do
    if [ ! -s "$DIR/$L.jsonl" ]; then
        nice -n 10 "$SPADES" sim --seats "$L,normal,$L,normal" --games "$GAMES" \
            --seed "$SEED" --record "$DIR/$L.jsonl" >"$DIR/$L.sim.txt"
    fi
    K=1
    while [ "$K" -le "$GAMES" ]; do
        nice -n 10 "$SPADES" analyze "$DIR/$L.jsonl" --game "$K" --seat 0 --json \
            --iterations "$DEALS" --no-all-seen >"$DIR/$L.$K.json"
        K=$((K + 1))
    done
done

# One line a level: games, then the mean and the (sample) standard
# deviation of each figure over them, then the lowest and the highest.
printf '%-7s %5s  %-26s %s\n' level games "accuracy (lowest-highest)" "by win chance"
for L in $LEVELS; do
    for K in $(seq 1 "$GAMES"); do
        jq -r '"\(.accuracy) \(.win_chance_accuracy)"' "$DIR/$L.$K.json"
    done | awk -v level="$L" '
        $1 != "null" { n++; a += $1; aa += $1 * $1; c += $2; cc += $2 * $2
                       if (n == 1 || $1 < lo) lo = $1; if (n == 1 || $1 > hi) hi = $1 }
        END {
            sa = n > 1 ? sqrt((aa - a * a / n) / (n - 1)) : 0
            sc = n > 1 ? sqrt((cc - c * c / n) / (n - 1)) : 0
            printf "%-7s %5d  %5.1f ± %4.1f (%4.1f-%5.1f)  %5.1f ± %4.1f\n",
                level, n, a / n, sa, lo, hi, c / n, sc
        }'
done
