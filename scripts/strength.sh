#!/usr/bin/env bash
# Measures a preset the way issue 14's done-when asks: trains it from zero with
# `veletas pipeline` (its own time budget), then plays the best network, with the preset's
# arena settings, 200-game matches against fixed UCT anchors and prints each Elo with its
# 95% interval. Run it on a quiet machine: the pipeline's budget is wall time.
#
# Usage: scripts/strength.sh CONFIG RUN_DIR [ANCHOR ...]
#   e.g. scripts/strength.sh configs/quick-7x7.yaml runs/q7 uct:10000 uct:100000
# Environment: VELETAS (default build/app/veletas), GAMES (default 200).
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 CONFIG RUN_DIR [ANCHOR ...]" >&2
  exit 2
fi
CONFIG=$1
RUN=$2
shift 2
ANCHORS=("$@")
[ ${#ANCHORS[@]} -gt 0 ] || ANCHORS=(uct:1000 uct:10000)
VELETAS=${VELETAS:-build/app/veletas}
GAMES=${GAMES:-200}

start=$(date +%s)
"$VELETAS" pipeline --config "$CONFIG" --run "$RUN"
echo "pipeline: $(($(date +%s) - start)) s wall"
"$VELETAS" report "$RUN" | sed -n '1,40p'

best=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["best_generation"])' \
  "$RUN/state.json")
ckpt=$(printf '%s/models/gen_%04d.ckpt' "$RUN" "$best")
[ -f "$ckpt" ] || { echo "no checkpoint $ckpt" >&2; exit 1; }
sims=$("$VELETAS" config --check "$CONFIG" --print |
  awk '/^arena:/ {a = 1; next} /^[^ ]/ {a = 0} a && $1 == "simulations:" {print $2}')
echo "best network: generation $best ($ckpt), $sims simulations per move"
for anchor in "${ANCHORS[@]}"; do
  echo "== gen $best against $anchor, $GAMES games"
  "$VELETAS" match --config "$CONFIG" --a "mcts:$ckpt:$sims" --b "$anchor" --games "$GAMES" \
    --out "$RUN/strength" --name "best-vs-${anchor//:/-}" --a-name "gen$best" --b-name "${anchor//:/_}"
done
