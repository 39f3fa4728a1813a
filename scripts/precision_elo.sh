#!/usr/bin/env bash
# Issue 27's Elo of the inference precisions: one network at int8 and bf16 against itself at
# fp32, 200-game matches at equal simulations and at equal time (the faster precision gets
# more simulations in proportion to self-play's searches/s: pass the ratios measured in one
# `veletas bench selfplay` run per precision, docs/RESULTS.md). Prints each result and Elo
# with its 95% interval (`veletas match`'s own text).
#
# Usage: scripts/precision_elo.sh CONFIG CKPT [SIMS] [INT8_RATIO] [BF16_RATIO]
#   e.g. scripts/precision_elo.sh configs/quick-7x7.yaml networks/standard-7x7/model.ckpt 64 1.50 1.66
# Environment: VELETAS (default build/app/veletas), GAMES (default 200), SEED (default 27),
# OUT (default a temporary folder).
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 CONFIG CKPT [SIMS] [INT8_RATIO] [BF16_RATIO]" >&2
  exit 2
fi
CONFIG=$1
CKPT=$2
SIMS=${3:-64}
INT8=${4:-1.50}
BF16=${5:-1.66}
VELETAS=${VELETAS:-build/app/veletas}
GAMES=${GAMES:-200}
SEED=${SEED:-27}
OUT=${OUT:-$(mktemp -d)}
scaled() { python3 -c "import sys; print(round(int(sys.argv[1]) * float(sys.argv[2])))" "$1" "$2"; }
for a in "int8:$SIMS" "bf16:$SIMS" "int8:$(scaled "$SIMS" "$INT8")" "bf16:$(scaled "$SIMS" "$BF16")"; do
  p=${a%%:*}
  n=${a##*:}
  echo "== $p at $n simulations against fp32 at $SIMS"
  "$VELETAS" match --config "$CONFIG" --a "mcts:$CKPT:$n:$p" --b "mcts:$CKPT:$SIMS:fp32" \
    --a-name "${p}_$n" --b-name "fp32_$SIMS" --games "$GAMES" --seed "$SEED" --out "$OUT" 2>/dev/null |
    grep -E "^(${p}_$n|Elo)"
done
