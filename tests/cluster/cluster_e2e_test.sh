#!/usr/bin/env bash
# End to end: the tiny preset trained by a learner (`veletas pipeline` with a `cluster`
# section, no local self-play) and two `veletas worker` processes, through a real
# redis-server started here with the config and users of `veletas cluster setup` on a free
# loopback port. Each worker logs in as its own ACL user (`veletas cluster add-worker`). During the run:
# kill -9 of a worker in the middle of its games (restarted later: it sends its spool and its
# task is taken back by the learner meanwhile), kill -9 of the learner (restarted: goes on), kill -9 of
# redis-server (restarted from its AOF: everyone reconnects, workers resend from their
# spools), and a hostile worker with credentials of its own writing garbage, truncated and
# oversized entries and a decompression bomb into its own streams, an entry in another
# worker's name, dropping its own stream and using up its ids, a memory flood, a heartbeat of
# made-up figures, arena results for games it does not hold, and trying what its user may not
# do. A third one sends an honest worker's game again under fresh ids, padded. Checked at
# the end: generations advanced, gate and ladder games were played by the workers, every
# self-play iteration holds exactly its games and every game id is in the run once, the bad
# entries were rejected and counted, and the worker user cannot do more than it needs.
# A game with a forged policy target is caught by the spot check, which checks every position
# here, and so are a fourth worker's forged root value in an otherwise honest game and a second
# hostile worker's false resignation (the winner resigning, the game's outcome turned around);
# all three are quarantined and no honest worker is. No game of any match
# was played by a hostile worker (`cluster audit`), and the copied game is stored once.
# Usage: cluster_e2e_test.sh VELETAS CONFIG WORK_DIR FORGE (tests/cluster/forge_entry.cpp)
set -u
VELETAS=$1
CONFIG=$2
WORK=$3
FORGE=$4
NAME=e2e
source "$(dirname "$0")/e2e_lib.sh"
e2e_setup w1 w2 evil liar copycat forger
# The hostile worker has valid credentials of its own.
wcli() { redis-cli -p "$PORT" --user "vz:$NAME:evil" --pass "$(pass evil)" --no-auth-warning "$@"; }
sed -i 's/^  generations: 2$/  generations: 3/; s/^  games_per_generation: 8$/  games_per_generation: 12/' "$WORK/run.yaml"
echo "  spot_check_fraction: 1" >>"$WORK/run.yaml"  # the cluster section comes last
echo "  task_max_seconds: 20" >>"$WORK/run.yaml"

# A hostile worker's game with forged targets (played with a made-up network, and the first
# sample's target moved to its least likely action), a second one's false resignation and an
# entry in an honest worker's name, sent before the honest workers start so that the
# learner's first read judges them.
start_learner
network=""
for _ in $(seq 1 12000); do
  network=$(cli HGET "vz:$NAME:current" id 2>/dev/null)
  [ -n "$network" ] && break
  sleep 0.01
done
[ -n "$network" ] || fail "the learner published no network"
"$FORGE" target "$network" "$WORK/forged.vze" evil || fail "forging an entry"
wcli -x XADD "vz:$NAME:results:evil" '*' e <"$WORK/forged.vze" >/dev/null || fail "XADD forged"
"$FORGE" resign "$network" "$WORK/resigned.vze" liar || fail "forging a resignation"
lcli() { redis-cli -p "$PORT" --user "vz:$NAME:liar" --pass "$(pass liar)" --no-auth-warning "$@"; }
lcli -x XADD "vz:$NAME:results:liar" '*' e <"$WORK/resigned.vze" >/dev/null || fail "XADD resigned"
# Impersonation: a game whose entry names an honest worker, sent on the hostile one's stream.
"$FORGE" target "$network" "$WORK/impostor.vze" w1 || fail "forging an impostor's entry"
wcli -x XADD "vz:$NAME:results:evil" '*' e <"$WORK/impostor.vze" >/dev/null || fail "XADD impostor"
# A decompression bomb: a 3 KB entry whose sample file declares 256 MiB.
"$FORGE" bomb "$network" "$WORK/bomb.vze" evil || fail "forging a bomb"
wcli -x XADD "vz:$NAME:results:evil" '*' e <"$WORK/bomb.vze" >/dev/null || fail "XADD bomb"
# Its own heartbeat with made-up figures (its only heartbeat key: see the NOPERM list below).
wcli SET "vz:$NAME:worker:evil" '{"state":"playing\u0001","games_per_second":200803,"selfplay_games":999999}' \
  >/dev/null || fail "SET its own heartbeat"
for _ in $(seq 1 4800); do  # the learner judges them (at most 240 s)
  grep -q "worker liar quarantined" "$WORK/learner.log" &&
    grep -q "from worker evil: forged: the entry names worker \"w1\"" "$WORK/learner.log" && break
  sleep 0.05
done
grep -q "from worker evil: forged: the entry names worker \"w1\"" "$WORK/learner.log" ||
  fail "the impostor's entry was not rejected: $(grep evil "$WORK/learner.log" | tail -5)"
grep -q "from worker evil: .*declares 268435456 bytes of samples, more than the limit" \
  "$WORK/learner.log" || fail "the bomb was not rejected: $(grep evil "$WORK/learner.log" | tail -5)"
# What a worker may do to its own stream only: drop it (MAXLEN 0), then use up its ids.
lcli XADD "vz:$NAME:results:liar" MAXLEN 0 '*' e "x" >/dev/null || fail "XADD MAXLEN 0"
lcli XADD "vz:$NAME:results:liar" 18446744073709551615-18446744073709551615 e "x" >/dev/null ||
  fail "XADD the largest id"
case "$(lcli XADD "vz:$NAME:results:liar" '*' e "x" 2>&1)" in
  *ERR*) ;; *) fail "XADD after the largest id was taken" ;;
esac
# A memory flood: 400 MB in entries of 1 MB into its own stream, past Redis's maxmemory (256
# MiB here): each is taken (the learner rejects and drops them as they come) or refused (OOM);
# all of it is drained before the honest workers start.
head -c 1000000 /dev/zero | tr '\0' y >"$WORK/mb"
taken=0
refused=0
for _ in $(seq 1 400); do
  out=$(wcli -x XADD "vz:$NAME:results:evil" '*' e <"$WORK/mb" 2>&1)
  case "$out" in
    *OOM*) refused=$((refused + 1)) ;;
    *[0-9]-[0-9]*) taken=$((taken + 1)) ;;
    *) fail "flood: $out" ;;
  esac
done
echo "flood of 400 MB: $taken entries taken, $refused refused (OOM)"
for _ in $(seq 1 4800); do  # at most 240 s
  [ "$(cli XLEN "vz:$NAME:results:evil")" -le 1 ] && break
  sleep 0.05
done
[ "$(cli XLEN "vz:$NAME:results:evil")" -le 1 ] || fail "the flood was not drained"
start_worker 1
start_worker 2

# A worker killed in the middle of its games; its spool stays for its restart.
wait_for "$RUN/samples/iter_0000/*.vzs*" "the first self-play games"
kill -9 "$W1" && echo "killed worker 1 during self-play"
# Duplicates: an honest game (the newest one spooled by either worker, played by the first
# network, so never stale in the first two generations) sent again by another worker with
# credentials of its own, under three fresh ids and padded with white space.
copied=""
for _ in $(seq 1 4800); do
  for f in $(ls -r "$WORK"/w[12]/outbox/*.s.vze 2>/dev/null); do
    cp "$f" "$WORK/copied.vze" 2>/dev/null && copied=1 && break
  done
  [ -n "$copied" ] && break
  sleep 0.05
done
[ -n "$copied" ] || fail "no spooled game to copy"
"$FORGE" copy "$WORK/copied.vze" "$WORK/copy" copycat 3 || fail "copying a game"
ccli() { redis-cli -p "$PORT" --user "vz:$NAME:copycat" --pass "$(pass copycat)" --no-auth-warning "$@"; }
for i in 1 2 3; do
  last_copy=$(ccli -x XADD "vz:$NAME:results:copycat" '*' e <"$WORK/copy.$i") || fail "XADD copy $i"
done
# A forged value target: the same honest game from a fourth worker, one root value turned.
"$FORGE" value "$WORK/copied.vze" "$WORK/value.vze" forger || fail "forging a value"
redis-cli -p "$PORT" --user "vz:$NAME:forger" --pass "$(pass forger)" --no-auth-warning \
  -x XADD "vz:$NAME:results:forger" '*' e <"$WORK/value.vze" >/dev/null || fail "XADD forged value"
# Garbage from a worker with valid credentials, into its own streams.
wcli XADD "vz:$NAME:results:evil" '*' e "garbage" >/dev/null || fail "XADD garbage"
wcli XADD "vz:$NAME:results:evil" '*' e "VZCE$(printf '\001\000\000\000\001')tru" >/dev/null
head -c 4195000 /dev/zero | tr '\0' x >"$WORK/big"  # over max_entry_bytes, within Redis's limit
wcli -x XADD "vz:$NAME:arena:evil" '*' e <"$WORK/big" >/dev/null || fail "XADD oversized"
head -c 6000000 /dev/zero | tr '\0' x >"$WORK/huge"  # over Redis's proto-max-bulk-len
case "$(wcli -x XADD "vz:$NAME:arena:evil" '*' e <"$WORK/huge" 2>&1)" in
  *-*) fail "Redis took a 6 MB entry" ;;
esac
# What a worker's user may not do (issue 29's attacks among them): NOPERM.
set -f  # the commands hold '*'
for cmd in "SET vz:$NAME:config x" "XADD vz:$NAME:tasks * t x" "DEL vz:$NAME:current" \
  "SET vz:$NAME:results:evil x" "DEL vz:$NAME:results:evil" "XTRIM vz:$NAME:results:evil MAXLEN 0" \
  "XADD vz:$NAME:results:w1 MAXLEN 0 * e x" "XADD vz:$NAME:results:w1 * e x" \
  "SET vz:$NAME:worker:w1 {}" "SET vz:$NAME:worker:ghost {}" "SET vz:$NAME:junk x" \
  "XADD vz:$NAME:junk * e x" "XADD vz:$NAME:results:ghost * e x" "SADD vz:$NAME:workers ghost" \
  "XREADGROUP GROUP learner x STREAMS vz:$NAME:results:w1 >" "XRANGE vz:$NAME:results:evil - +" \
  "XAUTOCLAIM vz:$NAME:results:w1 learner x 0 0-0" "KEYS *" "FLUSHALL" \
  "XAUTOCLAIM vz:$NAME:tasks workers evil 0 0-0" "XCLAIM vz:$NAME:tasks workers evil 0 0-1" \
  "XACK vz:$NAME:tasks workers 0-1" "XREADGROUP GROUP workers evil COUNT 1 NOACK STREAMS vz:$NAME:tasks >" \
  "HMGET vz:$NAME:task:w1 id t" "HSET vz:$NAME:task:evil id x" "DEL vz:$NAME:task:evil" \
  "DEL vz:$NAME:task:w1"; do
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
case "$(redis-cli -p "$PORT" ping 2>&1)" in *NOAUTH*) ;; *) fail "the default user is open after a restart" ;; esac

# A worker killed in the middle of an arena task; the learner takes the task back after the
# lease and the other worker plays its games.
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

# Arena results for games it does not hold: the hostile worker is handed a task (as any idle
# worker is: its heartbeat names none), posts wins for A for every other game of the match
# under it and for its own games under a task nobody holds, and never plays its task, though
# its heartbeat names it (the learner takes it back after cluster.task_max_seconds at most).
wcli SET "vz:$NAME:worker:evil" '{"state":"waiting"}' >/dev/null || fail "SET its heartbeat"
# A task is its id (a stream id) on the first line and its JSON on the second; anything else
# (nothing handed yet, or a message of redis-cli's own on stderr) is read again.
evil_task=""
for _ in $(seq 1 1200); do
  wcli --raw HMGET "vz:$NAME:task:evil" id t >"$WORK/task.raw" 2>"$WORK/task.err"
  if sed -n 1p "$WORK/task.raw" | grep -qE '^[0-9]+-[0-9]+$' &&
    sed -n 2p "$WORK/task.raw" | grep -q '^{'; then
    evil_task=$(sed -n 1p "$WORK/task.raw")
    break
  fi
  sleep 0.1
done
[ -n "$evil_task" ] ||
  fail "the hostile worker was handed no task: $(cat "$WORK/task.raw" "$WORK/task.err")"
wcli SET "vz:$NAME:worker:evil" "{\"state\":\"playing\",\"games_per_second\":200803,\"task\":\"$evil_task\"}" \
  >/dev/null || fail "SET its heartbeat"
sed -n 2p "$WORK/task.raw" >"$WORK/task.json"
posted=$("$FORGE" arena "$WORK/task.json" "$evil_task" "$WORK/arena" evil 16) || fail "forging arena results"
for i in $(seq 1 "$posted"); do
  wcli -x XADD "vz:$NAME:arena:evil" '*' e <"$WORK/arena.$i" >/dev/null || fail "XADD arena result"
done
echo "the hostile worker took task $evil_task and posted $posted results it does not hold"

wait_learner
grep -q "finished: trained 3 generations" "$WORK/learner.log" || fail "the run did not finish"

# Every game id once; every iteration exactly its games.
check_iterations 3 12
/usr/bin/python3 - "$RUN" <<'PY' || exit 1
import glob, json, os, sys
run = sys.argv[1]
def fail(msg):
    print("FAIL:", msg, file=sys.stderr); sys.exit(1)
state = json.load(open(os.path.join(run, "state.json")))
if [g["generation"] for g in state["generations"]] != [1, 2, 3]: fail("generations %s" % state["generations"])
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
  grep -q "task $taken of worker w2 taken back" "$WORK/learner.log" ||
    fail "task $taken of the killed worker was not taken back"
fi
grep -q "lost Redis" "$WORK"/worker*.log || fail "no worker noticed the Redis restart"
# Arena results it did not hold: rejected; no game of any match is the hostile worker's.
grep -q "task $evil_task of worker evil taken back" "$WORK/learner.log" ||
  fail "the hostile worker's task $evil_task was not taken back"
[ "$(cli XRANGE "vz:$NAME:dead" - + | grep -c "^not held: ")" -ge 1 ] ||
  fail "no arena result was rejected as not held"
grep -q "^  match .* evil [0-9]" "$WORK/audit.out" && fail "a hostile worker's game in a match: $(cat "$WORK/audit.out")"
grep -q "rejected entry .* from worker evil" "$WORK/learner.log" || fail "hostile entries not logged"
# Redis's ACL LOG is kept in memory (the restart above emptied it): one more refused command.
case "$(wcli DEL "vz:$NAME:results:evil" 2>&1)" in *NOPERM*) ;; *) fail "DEL allowed" ;; esac
"$VELETAS" cluster status --redis "$URL" --run "$NAME" --redis-auth "$SETUP/learner.auth" \
  >"$WORK/status.out" || fail "cluster status"
grep -q "refused by Redis (ACL LOG) by worker: evil [1-9][0-9]* (newest: " \
  "$WORK/status.out" || fail "refused commands: $(cat "$WORK/status.out")"
# The counters are Redis hash increments: those of the last second before this test kills
# Redis (appendfsync everysec) can be lost, and with a faster network the garbage is often
# judged in that second, so only "counted at all" is certain here; every hostile entry's
# rejection is checked in the learner's log above.
grep -q "rejected [1-9]" "$WORK/status.out" || fail "rejections not counted: $(cat "$WORK/status.out")"
grep -q "oversized 1" "$WORK/status.out" || fail "oversized entry not counted: $(cat "$WORK/status.out")"
# Alive: worker 1 and the hostile worker's own heartbeat (its figures are its claim; what the
# learner counted of it is beside them).
grep -q "workers registered: 6, alive: 2" "$WORK/status.out" || fail "status: $(cat "$WORK/status.out")"
grep -q "^  evil .*200803.00" "$WORK/status.out" || fail "status: $(cat "$WORK/status.out")"
grep -q "^accepted entries by worker: .*evil" "$WORK/status.out" && fail "evil's entries accepted"
# The copied game: at most one copy stored, the others duplicates (the learner's log), none
# rejected; Redis's counters can miss the last second before its kill. On a loaded machine
# the copies can reach the learner only after their network's games went stale (the
# generation they belong to was filled by the honest workers first); then they are refused
# as stale, which keeps them out as well. Either way every copy was read and settled: the
# learner's group has read past the last copy and holds none pending.
cli --raw XINFO GROUPS "vz:$NAME:results:copycat" >"$WORK/copycat.groups" ||
  fail "XINFO GROUPS: $(cat "$WORK/copycat.groups")"
delivered=$(awk 'p { print; exit } $0 == "last-delivered-id" { p = 1 }' "$WORK/copycat.groups")
pending=$(awk 'p { print; exit } $0 == "pending" { p = 1 }' "$WORK/copycat.groups")
newest=$(printf '%s\n%s\n' "$delivered" "$last_copy" | sort -t- -k1,1n -k2,2n | tail -1)
[ "$pending" = 0 ] && [ -n "$delivered" ] && [ "$newest" = "$delivered" ] ||
  fail "the copies were not all read and settled: $(cat "$WORK/copycat.groups"), last copy $last_copy"
grep -q "self-play: duplicates by worker: .*copycat [1-9]" "$WORK/learner.log" ||
  echo "the copies came after their generation: refused as stale"
grep -q "^accepted entries by worker: .*copycat [2-9]" "$WORK/status.out" &&
  fail "a game stored twice: $(cat "$WORK/status.out")"
grep -q "^rejected entries by worker: .*copycat" "$WORK/status.out" && fail "a copy was rejected"
grep -q "rejected entries by worker: evil [1-9]" "$WORK/status.out" || fail "status: $(cat "$WORK/status.out")"
[ "$(cli XLEN "vz:$NAME:dead")" -ge 1 ] || fail "no dead letters"
# The forged target: caught, its worker quarantined and named; no honest worker quarantined.
grep -q "worker evil quarantined (spot check: the policy target" "$WORK/learner.log" ||
  fail "the forged target was not caught: $(grep -i "spot\|evil" "$WORK/learner.log" | tail -5)"
grep -q "quarantined worker evil: spot check" "$WORK/status.out" || fail "status: $(cat "$WORK/status.out")"
grep -q "worker liar quarantined (spot check: resigned where the learner's search" \
  "$WORK/learner.log" || fail "the false resignation was not caught: $(grep liar "$WORK/learner.log")"
grep -q "quarantined worker liar: spot check: resigned" "$WORK/status.out" ||
  fail "status: $(cat "$WORK/status.out")"
grep -q "worker forger quarantined (spot check: the root value" "$WORK/learner.log" ||
  fail "the forged value was not caught: $(grep forger "$WORK/learner.log")"
grep -q "quarantined worker forger: spot check: the root value" "$WORK/status.out" ||
  fail "status: $(cat "$WORK/status.out")"
grep -q "quarantined worker w" "$WORK/status.out" && fail "an honest worker was quarantined"
grep -q "spot checks so far: [1-9][0-9]* positions" "$WORK/learner.log" || fail "no spot checks counted"
echo "cluster end to end: ok"
