#!/usr/bin/env bash
# End-to-end test of `veletas pipeline` with the tiny preset: the run is killed with
# SIGKILL in the middle several times (as soon as given files appear), resumed with the
# same command each time, and the finished run is checked: every generation trained once,
# every gate decided once and recorded, every self-play iteration holds exactly its games,
# the ratings and the report exist, no temporary file is left, running the command again
# changes nothing, and a second process cannot start on a run that is in use.
# Usage: pipeline_kill_resume_test.sh VELETAS CONFIG WORK_DIR
set -u
VELETAS=$1
CONFIG=$2
WORK=$3
RUN="$WORK/run"
rm -rf "$WORK"
mkdir -p "$WORK"
fail() { echo "FAIL: $*" >&2; exit 1; }

# Starts the pipeline in the background, kills it with SIGKILL once $1 exists (or when it
# ends by itself), and reports which happened; counts the kills in $kills.
kills=0
run_until() {
  local marker=$1
  "$VELETAS" pipeline --config "$CONFIG" --run "$RUN" >>"$WORK/out.log" 2>>"$WORK/err.log" &
  local pid=$!
  for _ in $(seq 1 3000); do
    if compgen -G "$marker" >/dev/null; then
      kill -9 "$pid" 2>/dev/null && {
        wait "$pid" 2>/dev/null
        kills=$((kills + 1))
        echo "killed at $marker"
        return 0
      }
    fi
    if ! kill -0 "$pid" 2>/dev/null; then break; fi
    sleep 0.01
  done
  wait "$pid"
  local rc=$?
  echo "ended by itself (rc $rc) before $marker"
  [ $rc -eq 0 ] || fail "pipeline failed with rc $rc: $(tail -5 "$WORK/err.log")"
}

run_until "$RUN/samples/iter_0000/samples_0.vzs"
run_until "$RUN/models/gen_0001.ckpt"
run_until "$RUN/matches/gate_gen_1*.json"
run_until "$RUN/samples/iter_0001/samples_*.vzs"
run_until "$RUN/matches/ladder_gen_2*.json"
# The first three markers are each followed by whole stages, so those kills always land; a
# run that ended by itself before them would test no resume at all.
[ "$kills" -ge 3 ] || fail "only $kills of the 5 kills landed"
# What a writer killed before its rename leaves behind (whether or not a kill above hit one).
echo "half a checkpoint" >"$RUN/models/gen_0009.ckpt.tmp.999999"
"$VELETAS" pipeline --config "$CONFIG" --run "$RUN" >>"$WORK/out.log" 2>>"$WORK/err.log" ||
  fail "final resume failed: $(tail -5 "$WORK/err.log")"
grep -q "gen_0009.ckpt.tmp.999999: removed" "$WORK/out.log" || fail "stale temporary not reported"

/usr/bin/python3 - "$RUN" <<'PY' || exit 1
import glob, json, os, struct, sys
run = sys.argv[1]
def fail(msg):
    print("FAIL:", msg, file=sys.stderr); sys.exit(1)
state = json.load(open(os.path.join(run, "state.json")))
if state["stage"] != "finished": fail("run not finished: %s" % state["stage"])
gens = [g["generation"] for g in state["generations"]]
if gens != [1, 2]: fail("generations recorded %s, expected [1, 2]" % gens)
for g in state["generations"]:
    if g["gated_against"] < 0 or g["gate_games"] <= 0: fail("generation %d not gated" % g["generation"])
best = 0
for g in state["generations"]:
    gate = json.load(open(glob.glob(os.path.join(run, "matches", "gate_gen_%d-vs-*.json" % g["generation"]))[0]))
    decision = gate["gate"]["decision"]
    if (decision == "promote") != g["promoted"]: fail("state and gate file disagree for gen %d" % g["generation"])
    if g["gated_against"] != best: fail("gen %d gated against %d, best was %d" % (g["generation"], g["gated_against"], best))
    if g["promoted"]: best = g["generation"]
if state["best_generation"] != best: fail("best generation %d, expected %d" % (state["best_generation"], best))
if len(glob.glob(os.path.join(run, "matches", "gate_*.json"))) != 2: fail("expected exactly 2 gate matches")
for it in (0, 1):
    games = 0
    for f in glob.glob(os.path.join(run, "samples", "iter_%04d" % it, "*.vzs")):
        head = open(f, "rb").read(24)
        games += struct.unpack("<I", head[20:24])[0]
    if games != 8: fail("iteration %d holds %d games, expected 8" % (it, games))
if glob.glob(os.path.join(run, "**", "*.tmp.*"), recursive=True): fail("temporary files left behind")
if glob.glob(os.path.join(run, "**", "*.part"), recursive=True): fail("journals left behind")
for f in ("models/gen_0000.ckpt", "models/gen_0001.ckpt", "models/gen_0002.ckpt", "ratings.json",
          "ratings.png", "config.resolved.yaml", "train/metrics.jsonl"):
    if not os.path.exists(os.path.join(run, f)): fail("missing " + f)
steps = [json.loads(l)["step"] for l in open(os.path.join(run, "train", "metrics.jsonl"))]
if steps != sorted(set(steps)): fail("metrics steps repeat or go back: %s" % steps)
PY

strip_time() { sed -E 's/"(elapsed|cpu)_seconds": [0-9.e+-]*/"\1_seconds": X/g' "$RUN/state.json"; }
before=$(strip_time)
"$VELETAS" pipeline --config "$CONFIG" --run "$RUN" >"$WORK/again.log" 2>&1 || fail "rerun failed"
grep -q "the run is finished" "$WORK/again.log" || fail "rerun did not say the run is finished"
[ "$before" = "$(strip_time)" ] || fail "rerunning a finished run changed its state"
# While another process holds the run's lock, a second pipeline refuses to start.
if command -v flock >/dev/null; then
  flock "$RUN/.lock" "$VELETAS" pipeline --config "$CONFIG" --run "$RUN" >"$WORK/locked.log" 2>&1
  rc=$?
  [ $rc -eq 1 ] || fail "a locked run started anyway (rc $rc)"
  grep -q "in use by another veletas process" "$WORK/locked.log" || fail "no lock message"
fi
"$VELETAS" report "$RUN" >"$WORK/report.log" 2>&1 || fail "report failed"
for f in report/elo.png report/losses.png report/speed.png report/gate.png report/summary.txt \
         train/training_loss.png ratings.png; do
  [ -s "$RUN/$f" ] || fail "report did not write $f"
done
grep -q "wrote $RUN/report/gate.png" "$RUN/report/summary.txt" || fail "summary names no gate.png"
# A generation whose self-play the saving session played itself (none resumed from files)
# counts its network evaluations; games resumed from a killed session's files carry none.
/usr/bin/python3 - "$RUN" <<'PY' || exit 1
import json, os, re, sys
run = sys.argv[1]
last = {}
for line in open(os.path.join(run, "logs", "pipeline.log")):
    m = re.search(r"gen (\d+) self-play: \d+ games by gen \d+ \((\d+) resumed\)", line)
    if m: last[int(m.group(1))] = int(m.group(2))
state = json.load(open(os.path.join(run, "state.json")))
if sorted(last) != [1, 2]: sys.exit("FAIL: self-play lines for generations %s" % sorted(last))
for g in state["generations"]:
    if last[g["generation"]] == 0 and g["selfplay_network_evaluations"] <= 0:
        sys.exit("FAIL: gen %d played its games but counted no evaluations" % g["generation"])
PY
# The initial network's games say nothing of where the next network should resign.
grep -q "resignation: not calibrated on the initial network's games" "$RUN/logs/pipeline.log" ||
  fail "resignation calibrated on the initial network's games"
grep -Eq "^ +2 +8 " "$RUN/report/summary.txt" || fail "report has no line for generation 2"
# Ratings that cannot be written are an error of the report, not "no ratings yet".
rm "$RUN/ratings.json" && mkdir -p "$RUN/ratings.json/x"
"$VELETAS" report "$RUN" >"$WORK/report2.log" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "report with an unwritable ratings.json: rc $rc"
grep -q "ratings.json" "$WORK/report2.log" || fail "report did not name ratings.json"
resumed=$(grep -c '^resuming' "$WORK/out.log")
[ "$resumed" -ge "$kills" ] || fail "$kills kills but only $resumed resumed sessions"
echo "ok: $kills kills, $resumed resumed sessions"
