#!/bin/bash
# int8 evaluations/s at batch 64 (quick-7x7 network, 2 threads): idle, then with a second
# veletas bench nn (2 threads, same policy) running throughout; libgomp ACTIVE vs PASSIVE.
cd "$(dirname "$0")/.."; B=${VELETAS:-build/app/veletas}; C=${CONFIG:-configs/quick-7x7.yaml}
rate() { "$B" bench nn --config $C --precisions $1 --seconds 1 --max-batch 64 2>/dev/null | awk -v p=$1 '$1==64 && $2==p {print $3}'; }
for policy in ACTIVE PASSIVE; do
  export OMP_WAIT_POLICY=$policy
  for prec in int8 fp32; do
    idle=$(rate $prec)
    bash -c "while true; do '$B' bench nn --config $C --precisions $prec --seconds 1 --max-batch 64 >/dev/null 2>&1; done" &
    comp=$!
    sleep 2
    loaded=$(rate $prec)
    kill $comp; pkill -P $comp 2>/dev/null; sleep 0.5; pkill -f "seconds 1 --max-batch 64" 2>/dev/null; wait 2>/dev/null
    echo "OMP_WAIT_POLICY=$policy $prec batch 64: idle $idle/s, sharing with a second veletas $loaded/s, kept $(echo "scale=2; $loaded/$idle" | bc)"
  done
done
