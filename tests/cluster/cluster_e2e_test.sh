#!/usr/bin/env bash
# End to end: the tiny preset trained by a learner (`veletas pipeline` with a `cluster`
# section, no local self-play) and two `veletas worker` processes, through a real
# redis-server started here (AOF on) on a free loopback port. The workers log in as an ACL
# user with the minimal rights of docs/CLUSTER.md (password from a file). During the run:
# kill -9 of a worker in the middle of its games (restarted later: it sends its spool and its
# task is taken over meanwhile), kill -9 of the learner (restarted: goes on), kill -9 of
# redis-server (restarted from its AOF: everyone reconnects, workers resend from their
# spools), and a hostile client writing garbage, truncated and oversized entries. Checked at
# the end: generations advanced, gate and ladder games were played by the workers, every
# self-play iteration holds exactly its games and every game id is in the run once, the bad
# entries were rejected and counted, and the worker user cannot do more than it needs.
# Usage: cluster_e2e_test.sh VELETAS CONFIG WORK_DIR
set -u
VELETAS=$1
CONFIG=$2
WORK=$3
RUN="$WORK/run"
NAME=e2e
rm -rf "$WORK"
mkdir -p "$WORK/redis"
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null; done
  wait 2>/dev/null
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*" >&2
  for f in "$WORK"/*.log; do echo "== $f" >&2; tail -20 "$f" >&2; done
  exit 1
}
command -v redis-server >/dev/null || fail "redis-server is not installed (apt-get install redis-server)"
PORT=$(/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
URL="redis://127.0.0.1:$PORT"
cli() { redis-cli -p "$PORT" "$@"; }
wcli() { redis-cli -p "$PORT" --user vz-worker --pass workerpw --no-auth-warning "$@"; }

start_redis() {
  redis-server --port "$PORT" --bind 127.0.0.1 --dir "$WORK/redis" --appendonly yes \
    --appendfsync everysec --save "" --proto-max-bulk-len 8mb \
    --aclfile "$WORK/redis/users.acl" --logfile "$WORK/redis.log" &
  REDIS_PID=$!
  PIDS+=("$REDIS_PID")
  for _ in $(seq 1 200); do
    [ "$(cli ping 2>/dev/null)" = "PONG" ] && return 0
    sleep 0.05
  done
  fail "redis-server did not start"
}
touch "$WORK/redis/users.acl"
start_redis
# The workers' user: read the run's config and networks, add results, keep a heartbeat,
# take and acknowledge tasks, see the queue's length. Nothing else.
cli ACL SETUSER vz-worker reset on '>workerpw' resetchannels \
  +ping +auth +get +hmget +llen +lrange +set +del +xadd \
  "%R~vz:$NAME:config" "%R~vz:$NAME:current" "%R~vz:$NAME:model:*" \
  "%W~vz:$NAME:results:*" "%RW~vz:$NAME:worker:*" \
  "(+xreadgroup +xack +xautoclaim +xclaim ~vz:$NAME:tasks)" \
  "(+xlen %R~vz:$NAME:results:selfplay)" >/dev/null || fail "ACL SETUSER"
cli ACL SAVE >/dev/null
echo "vz-worker workerpw" >"$WORK/worker.auth"
chmod 600 "$WORK/worker.auth"

cat "$CONFIG" >"$WORK/run.yaml"
cat >>"$WORK/run.yaml" <<EOF
cluster:
  redis: $URL
  run: $NAME
  task_timeout_seconds: 3
  heartbeat_seconds: 0.5
  spool_grace_seconds: 1
  arena_games_per_task: 2
EOF
sed -i 's/^  generations: 2$/  generations: 3/; s/^  games_per_generation: 8$/  games_per_generation: 12/' "$WORK/run.yaml"

start_worker() {  # $1 = number
  "$VELETAS" worker --redis "$URL" --run "$NAME" --dir "$WORK/w$1" --id "w$1" \
    --redis-auth "$WORK/worker.auth" --threads 1 --device cpu >>"$WORK/worker$1.log" 2>&1 &
  eval "W$1=$!"
  PIDS+=("$!")
}
start_learner() {
  "$VELETAS" pipeline --config "$WORK/run.yaml" --run "$RUN" >>"$WORK/learner.log" 2>&1 &
  LEARNER=$!
  PIDS+=("$LEARNER")
}
wait_for() {  # $1 = glob, $2 = what; fails after 240 s
  for _ in $(seq 1 4800); do
    compgen -G "$1" >/dev/null && return 0
    sleep 0.05
  done
  fail "timed out waiting for $2 ($1)"
}

start_worker 1
start_worker 2
start_learner

# A worker killed in the middle of its games; its spool stays for its restart.
wait_for "$RUN/samples/iter_0000/*.vzs*" "the first self-play games"
kill -9 "$W1" && echo "killed worker 1 during self-play"
# Garbage from a client that has the workers' rights.
wcli XADD "vz:$NAME:results:selfplay" '*' w evil e "garbage" >/dev/null || fail "XADD garbage"
wcli XADD "vz:$NAME:results:selfplay" '*' w evil e "VZCE$(printf '\001\000\000\000\001')tru" >/dev/null
head -c 6000000 /dev/zero | tr '\0' x >"$WORK/big"
wcli -x XADD "vz:$NAME:results:arena" '*' w evil e <"$WORK/big" >/dev/null || fail "XADD oversized"
# What the workers' user may not do.
set -f  # the commands hold '*'
for cmd in "SET vz:$NAME:config x" "XADD vz:$NAME:tasks * t x" "DEL vz:$NAME:current" \
  "XREADGROUP GROUP learner x STREAMS vz:$NAME:results:selfplay >" "XRANGE vz:$NAME:results:selfplay - +" \
  "KEYS *" "FLUSHALL"; do
  out=$(wcli $cmd 2>&1)
  case "$out" in *NOPERM*) ;; *) fail "the worker user may run '$cmd': $out" ;; esac
done
set +f

# The learner killed in the middle of the first gate (played by the workers).
wait_for "$RUN/matches/gate_gen_1*.json*" "the first gate"
kill -9 "$LEARNER" && echo "killed the learner during the gate"
sleep 1
start_learner
start_worker 1  # resends its spool, takes back its own task

# redis-server killed in the middle of the second iteration's self-play, restarted from its AOF.
wait_for "$RUN/samples/iter_0001/*.vzs*" "the second self-play"
kill -9 "$REDIS_PID" && echo "killed redis-server"
sleep 2
start_redis
echo "restarted redis-server from its AOF"

# A worker killed in the middle of an arena task; the other one takes the task over.
wait_for "$RUN/matches/gate_gen_2*.json*" "the second gate"
taken=""
for _ in $(seq 1 3000); do
  taken=$(grep -o "task [0-9]*-[0-9]*: " "$WORK/worker2.log" | tail -1 | cut -d' ' -f2 | tr -d :)
  if [ -n "$taken" ] && ! grep -q "task $taken done" "$WORK/worker2.log"; then break; fi
  taken=""
  sleep 0.02
done
[ -n "$taken" ] || fail "worker 2 never took a task"
kill -9 "$W2" && echo "killed worker 2 during task $taken"

for _ in $(seq 1 2400); do
  kill -0 "$LEARNER" 2>/dev/null || break
  sleep 0.1
done
kill -0 "$LEARNER" 2>/dev/null && fail "the learner did not finish in 240 s"
wait "$LEARNER" || fail "the learner failed: $(tail -5 "$WORK/learner.log")"
grep -q "finished: trained 3 generations" "$WORK/learner.log" || fail "the run did not finish"

# Every game id once; every iteration exactly its games.
"$VELETAS" cluster audit "$RUN" >"$WORK/audit.out" || fail "audit: $(cat "$WORK/audit.out")"
grep -q "^$RUN: 36 self-play games in .* (36 with a game id, 0 stored twice)" "$WORK/audit.out" ||
  fail "audit: $(cat "$WORK/audit.out")"
/usr/bin/python3 - "$RUN" <<'PY' || exit 1
import glob, json, os, struct, sys
run = sys.argv[1]
def fail(msg):
    print("FAIL:", msg, file=sys.stderr); sys.exit(1)
state = json.load(open(os.path.join(run, "state.json")))
if [g["generation"] for g in state["generations"]] != [1, 2, 3]: fail("generations %s" % state["generations"])
for it in range(3):
    games = 0
    for f in glob.glob(os.path.join(run, "samples", "iter_%04d" % it, "*.vzs")):
        games += struct.unpack("<I", open(f, "rb").read(24)[20:24])[0]
    if games != 12: fail("iteration %d holds %d games, expected 12" % (it, games))
    if glob.glob(os.path.join(run, "samples", "iter_%04d" % it, "*.part")): fail("journal left in iteration %d" % it)
for g in state["generations"]:
    if g["gate_games"] <= 0: fail("generation %d not gated" % g["generation"])
matches = glob.glob(os.path.join(run, "matches", "*.json"))
if not any("ladder_gen_3" in m for m in matches): fail("no ladder round of gen 3: %s" % matches)
PY
# The workers played the arena: the learner has no local self-play and no local arena.
grep -q "task .*gate_gen_1" "$WORK"/worker*.log || fail "no worker played the first gate"
grep -q "task .*ladder_gen_" "$WORK"/worker*.log || fail "no worker played a ladder match"
grep -q "self-play: 12 games by gen .* from [12] workers" "$WORK/learner.log" || fail "self-play lines"
grep -q "local [0-9]" "$WORK/learner.log" && fail "the learner played locally"
if ! grep -q "task $taken done" "$WORK/worker2.log"; then
  grep -q "took over task $taken" "$WORK/worker1.log" || fail "task $taken of the killed worker was not taken over"
fi
grep -q "lost Redis" "$WORK"/worker*.log || fail "no worker noticed the Redis restart"
grep -q "rejected entry .* from worker evil" "$WORK/learner.log" || fail "hostile entries not logged"
"$VELETAS" cluster status --redis "$URL" --run "$NAME" >"$WORK/status.out" || fail "cluster status"
# The counters are Redis hash increments: those of the last second before this test kills
# Redis (appendfsync everysec) can be lost, and with a faster network the garbage is often
# judged in that second, so only "counted at all" is certain here; every hostile entry's
# rejection is checked in the learner's log above.
grep -q "rejected [1-9]" "$WORK/status.out" || fail "rejections not counted: $(cat "$WORK/status.out")"
grep -q "oversized 1" "$WORK/status.out" || fail "oversized entry not counted: $(cat "$WORK/status.out")"
grep -q "workers alive: 1" "$WORK/status.out" || fail "status: $(cat "$WORK/status.out")"
echo "cluster end to end: ok"
