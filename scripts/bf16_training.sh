#!/usr/bin/env bash
# Issue 27's bf16 training against fp32, in one run: `veletas bench train` with both
# precisions interleaved in every round (quick-7x7 and quick-10x10), then the loss curve:
# one fresh network trained on the same sample files for the same steps in fp32 and in bf16
# (training.precision), in chunks of CHUNK steps taken in turn (so both see the same machine
# load; same seed, so the same batches), and the last metrics line of each.
#
# Usage: scripts/bf16_training.sh SAMPLES [CHUNKS] [CHUNK]
#   e.g. scripts/bf16_training.sh /work/runs/q7a/samples 4 150  (a quick-7x7 run's samples;
#   only read)
# Environment: VELETAS (default build/app/veletas), SECONDS_BENCH (bench train --seconds,
# default 60), ROUNDS (default 3), OUT (default a temporary folder), BENCH=0 (the loss
# curve only).
set -euo pipefail
if [ $# -lt 1 ]; then
  echo "usage: $0 SAMPLES [CHUNKS] [CHUNK]" >&2
  exit 2
fi
SAMPLES=$1
CHUNKS=${2:-4}
CHUNK=${3:-150}
VELETAS=${VELETAS:-build/app/veletas}
SECONDS_BENCH=${SECONDS_BENCH:-60}
ROUNDS=${ROUNDS:-3}
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT"
[ "${BENCH:-1}" = 0 ] || for config in configs/quick-7x7.yaml configs/quick-10x10.yaml; do
  echo "== bench train $config"
  "$VELETAS" bench train --config "$config" --seconds "$SECONDS_BENCH" --rounds "$ROUNDS" \
    --precisions fp32 bf16
done

echo "== loss curve: configs/quick-7x7.yaml, $SAMPLES, $CHUNKS x $CHUNK steps per precision"
"$VELETAS" init-model --config configs/quick-7x7.yaml --out "$OUT/init.ckpt" --seed 27 >/dev/null
for p in fp32 bf16; do
  mkdir -p "$OUT/$p"
  sed "s/^training:\$/training:\n  precision: $p/" configs/quick-7x7.yaml >"$OUT/$p.yaml"
  cp "$OUT/init.ckpt" "$OUT/$p/gen_0.ckpt"
done
summary() {  # the last metrics line and the mean samples/s of the lines after line $2
  python3 - "$1" "$2" <<'PY'
import json, sys
lines = [json.loads(x) for x in open(sys.argv[1])]
new, m = lines[int(sys.argv[2]):], lines[-1]
rate = sum(x["samples_per_second"] for x in new) / len(new)
print("step %d policy %.4f value %.4f aux %.4f total %.4f; this chunk %.1f samples/s"
      % (m["step"], m["loss_policy"], m["loss_value"], m["loss_aux"], m["loss_total"], rate))
PY
}
for ((k = 1; k <= CHUNKS; k++)); do
  for p in fp32 bf16; do
    before=0
    [ ! -f "$OUT/$p/metrics.jsonl" ] || before=$(wc -l <"$OUT/$p/metrics.jsonl")
    "$VELETAS" train --config "$OUT/$p.yaml" --model "$OUT/$p/gen_$((k - 1)).ckpt" \
      --data "$SAMPLES" --out "$OUT/$p/gen_$k.ckpt" --steps "$CHUNK" >/dev/null
    echo "$p chunk $k: $(summary "$OUT/$p/metrics.jsonl" "$before")"
  done
done
echo "work folder: $OUT"
