#!/usr/bin/env bash
# Hostile workers, round 2: a worker with valid credentials of its own attacks Redis's own
# resources while a learner and two honest workers train the tiny preset, against a real
# redis-server with Debian's redis.conf and the config and users of `veletas cluster setup`
# as docs/CLUSTER.md sets them up (maxmemory 128 MiB to keep
# the attacks small; maxclients 64, Redis's default being 10,000 less the file limit, so
# that the attacker fills it with few connections):
# - connections: it holds every connection Redis will give (max clients), and an honest
#   worker is restarted meanwhile: it waits and retries (it once exited taking the refusal
#   for bad credentials), the learner closes the attacker's connections (more than its share)
#   and `cluster status` gets in and names it;
# - failed logins to shift blame: refused commands, then 1,200 failed AUTH under made-up
#   names and a few under an honest worker's name, on its own logged-in connection and on one
#   that never logged in: the refusals are counted against it alone, the failed logins of no
#   session by the name tried, blaming nobody;
# - replies never read: 40,000 pipelined LRANGE of the network, never read: Redis closes the
#   connection (output buffer limit or client eviction) long before maxmemory, and `cluster
#   status --redis-log` names the reader from Redis's log;
# - tasks taken with NOACK: all through the run (its gates included) it reads the tasks stream
#   of the earlier design with XREADGROUP ... NOACK in a loop: refused (the learner hands tasks
#   to each worker in a key of its own; no worker may run stream group commands), counted
#   against it, and no task is taken;
# - huge consumer names: 40 XREADGROUP with new consumer names of 4 MiB (160 MiB against a
#   maxmemory of 128 MiB): refused, Redis's memory stays far below maxmemory, no consumer kept;
# - a full Redis: with the learner paused, it fills Redis with entries until every write is
#   refused (OOM); the honest workers keep their games in their spools and retry, saying why;
#   the learner, resumed, drains it and goes on.
# Checked at the end: the run finishes, every honest game is in the run exactly once, no
# honest process exited (both workers still run and stop cleanly), `cluster status` names the
# attacker and no honest worker.
# Usage: cluster_hostile_test.sh VELETAS CONFIG WORK_DIR
set -u
VELETAS=$1
CONFIG=$2
WORK=$3
NAME=hostile
MAXMEMORY=$((128 << 20))
REDIS_ARGS="--maxclients 64"
HOSTILE="/usr/bin/python3 $(dirname "$0")/hostile_client.py"
source "$(dirname "$0")/e2e_lib.sh"
e2e_setup w1 w2 evil
sed -i 's/^  generations: 2$/  generations: 3/; s/^  games_per_generation: 8$/  games_per_generation: 16/' "$WORK/run.yaml"
evil() { $HOSTILE "$PORT" "vz:$NAME:evil" "$(pass evil)" "$@"; }
status() {
  "$VELETAS" cluster status --redis "$URL" --run "$NAME" --redis-auth "$SETUP/learner.auth" \
    --redis-log "$WORK/redis.log" >"$WORK/status.out" 2>&1 ||
    fail "cluster status: $(cat "$WORK/status.out")"
}
wait_log() {  # $1 = file, $2 = pattern (grep -E), $3 = what; fails after 240 s
  for _ in $(seq 1 2400); do
    grep -qE "$2" "$1" 2>/dev/null && return 0
    sleep 0.1
  done
  fail "timed out waiting for $3 ($2 in $1)"
}
start_learner
start_worker 1
start_worker 2
# Tasks taken with NOACK, all through the run.
$HOSTILE "$PORT" "vz:$NAME:evil" "$(pass evil)" noack "vz:$NAME:tasks" >"$WORK/noack.out" 2>&1 &
NOACK=$!
PIDS+=("$NOACK")
wait_for "$RUN/samples/iter_0000/*.vzs*" "the first self-play games"

# Huge consumer names: 40 of 4 MiB, refused before anything is kept.
evil consumers "vz:$NAME:tasks" 40 4 >"$WORK/consumers.out" 2>&1 || fail "consumers: $(cat "$WORK/consumers.out")"
cat "$WORK/consumers.out"
grep -q "^consumers: 40 of 40 names of 4 MiB refused" "$WORK/consumers.out" || fail "a huge consumer name was taken"
used=$(cli INFO memory | tr -d '\r' | sed -n 's/^used_memory://p')
echo "huge consumer names: Redis's used memory $used bytes (maxmemory $MAXMEMORY)"
[ "$used" -lt $((MAXMEMORY / 4)) ] || fail "huge consumer names filled Redis: $used bytes"
[ "$(cli EXISTS "vz:$NAME:tasks")" = 0 ] || fail "a tasks stream exists"
status
grep -qE "^refused by Redis \(ACL LOG\) by worker: evil ([4-9][0-9]|[0-9]{3,})" "$WORK/status.out" ||
  fail "the huge consumer names are not counted against evil: $(grep refused "$WORK/status.out")"
# The run is held in its first generation until the attacks are made (the tiny preset
# finishes in seconds): worker 1 paused, worker 2 stopped and restarted below; both go on
# for the attack on memory.
kill -STOP "$W1"

# Blame: refused commands and failed logins on its own connection, then failed logins of no
# session under made-up names and an honest worker's.
evil logins 1200 "vz:$NAME:w1" 3 || fail "logins"
evil anonymous 200 "vz:$NAME:w2" 3 || fail "anonymous logins"

# Connections: all it can get, held; an honest worker restarted meanwhile. The learner, which
# closes them within 5 s, is paused until the restarted worker has been refused.
kill -STOP "$LEARNER"
$HOSTILE "$PORT" "vz:$NAME:evil" "$(pass evil)" connections 1000 >"$WORK/connections.out" 2>&1 &
HOLDER=$!
PIDS+=("$HOLDER")
wait_log "$WORK/connections.out" "max number of clients" "the attacker to reach max clients"
held=$(grep -c "held$" "$WORK/connections.out")
kill -TERM "$W2"
wait "$W2" || fail "worker 2 did not stop cleanly: $(tail -3 "$WORK/worker2.log")"
# The connection it freed is the attacker's too.
for _ in $(seq 1 2400); do
  [ "$(grep -c "held$" "$WORK/connections.out")" -gt "$held" ] && break
  sleep 0.1
done
grep "held" "$WORK/connections.out" | tail -1
restarts=$(grep -c "connected to redis" "$WORK/worker2.log")
start_worker 2
wait_log "$WORK/worker2.log" "Redis is at its connection limit" "worker 2 to be refused a connection"
kill -CONT "$LEARNER"
status  # waits for a free connection (the learner closes the attacker's)
wait_log "$WORK/learner.log" "worker evil held [0-9]+ connections" "the learner to close them"
for _ in $(seq 1 2400); do
  [ "$(grep -c "connected to redis" "$WORK/worker2.log")" -gt "$restarts" ] && break
  sleep 0.1
done
[ "$(grep -c "connected to redis" "$WORK/worker2.log")" -gt "$restarts" ] ||
  fail "worker 2 did not get in again: $(tail -5 "$WORK/worker2.log")"
kill -0 "$W2" || fail "worker 2 exited: $(tail -5 "$WORK/worker2.log")"
kill -STOP "$W2"
kill -9 "$HOLDER"
wait "$HOLDER" 2>/dev/null
grep -h "connection limit" "$WORK"/worker2.log | head -1

# Replies never read: the network, 40,000 times.
network=$(cli HGET "vz:$NAME:current" id)
[ -n "$network" ] || fail "no network published"
$HOSTILE "$PORT" "vz:$NAME:evil" "$(pass evil)" unread "vz:$NAME:model:$network" 40000 >"$WORK/unread.out" 2>&1 &
READER=$!
peak=0
while kill -0 "$READER" 2>/dev/null; do
  used=$(cli INFO memory | tr -d '\r' | sed -n 's/^used_memory://p')
  [ "${used:-0}" -gt "$peak" ] && peak=$used
  sleep 0.05
done
cat "$WORK/unread.out"
grep -q "closed by Redis" "$WORK/unread.out" || fail "Redis kept the unread replies: $(cat "$WORK/unread.out")"
echo "unread replies: Redis's used memory peaked at $peak bytes (maxmemory $MAXMEMORY)"
[ "$peak" -lt "$MAXMEMORY" ] || fail "unread replies filled Redis: $peak bytes"
grep -qE "(output buffer limits|Evicting client).*user=vz:$NAME:evil" "$WORK/redis.log" ||
  fail "Redis's log does not name the reader: $(tail -5 "$WORK/redis.log")"
grep -E "(output buffer limits|Evicting client).*user=vz:$NAME:evil" "$WORK/redis.log" | head -1 |
  sed 's/.*\(Evicting client\|Client\)/\1/' | cut -c1-60
status
grep -qE "^connections closed by Redis for unread replies \(from its log $WORK/redis.log\) by worker: evil [1-9][0-9]*$" \
  "$WORK/status.out" || fail "the reader is not named: $(grep -i "closed" "$WORK/status.out")"
grep "^connections closed by Redis" "$WORK/status.out"

# A full Redis: the learner paused, the attacker fills Redis until it refuses (OOM) and keeps
# it full until an honest worker has been refused.
kill -STOP "$LEARNER"
kill -CONT "$W1" "$W2"
refused_before=$(cat "$WORK"/worker[12].log | grep -c "Redis is full")
$HOSTILE "$PORT" "vz:$NAME:evil" "$(pass evil)" flood "vz:$NAME:results:evil" 1 >"$WORK/flood.out" 2>&1 &
FLOOD=$!
PIDS+=("$FLOOD")
for _ in $(seq 1 2400); do
  [ "$(cat "$WORK"/worker[12].log | grep -c "Redis is full")" -gt "$refused_before" ] && break
  sleep 0.1
done
kill -TERM "$FLOOD"
wait "$FLOOD"
cat "$WORK/flood.out"
[ "$(cat "$WORK"/worker[12].log | grep -c "Redis is full")" -gt "$refused_before" ] ||
  fail "no honest worker was refused"
grep -h "Redis is full" "$WORK"/worker[12].log | head -1
kill -CONT "$LEARNER"

wait_learner
grep -q "finished: trained 3 generations" "$WORK/learner.log" || fail "the run did not finish"
check_iterations 3 16
kill -0 "$W1" || fail "worker 1 exited: $(tail -5 "$WORK/worker1.log")"
kill -0 "$W2" || fail "worker 2 exited: $(tail -5 "$WORK/worker2.log")"
grep -q "Redis takes commands again" "$WORK"/worker[12].log || fail "no worker recovered from the full Redis"
status
cat "$WORK/status.out"
kill -TERM "$NOACK"
wait "$NOACK"
cat "$WORK/noack.out"
grep -qE "^noack: [0-9]+ reads, [1-9][0-9]* refused \(NOPERM\), 0 entries taken$" "$WORK/noack.out" ||
  fail "the NOACK reader took tasks or was not refused: $(cat "$WORK/noack.out")"
# The gates' games were handed out and played by the honest workers alone.
grep -q "^  match gate_" "$WORK/audit.out" || fail "no gate match in the audit: $(cat "$WORK/audit.out")"
grep -E "^  match .*evil" "$WORK/audit.out" && fail "the attacker played arena games"
grep -qE "^  match gate_.* w[12] " "$WORK/audit.out" || fail "no gate game by an honest worker"
grep -q "^arena tasks handed out by the learner: " "$WORK/status.out" || fail "status shows no hand-outs"
kill -TERM "$W1" "$W2"
wait "$W1" || fail "worker 1 did not stop cleanly"
wait "$W2" || fail "worker 2 did not stop cleanly"
# The attacker named, no honest worker blamed.
# Of its 1,208 refusals, those the log still held when the learner read it (it keeps 1,024;
# the 203 failed logins of no session came in between): hundreds.
grep -qE "^refused by Redis \(ACL LOG\) by worker: evil [0-9]{3,}" "$WORK/status.out" ||
  fail "the refusals are not counted against evil"
grep -E "^(refused by Redis|connections closed|workers holding|rejected entries by worker).* w[12] " \
  "$WORK/status.out" && fail "an honest worker is blamed"
grep -qE "^failed logins of no worker's session .*: ([0-9]+), under workers' names: w2 3$" \
  "$WORK/status.out" || fail "failed logins of no session are not counted apart"
grep -q "^connections closed by the learner (more than 8 at once) by worker: evil [1-9]" \
  "$WORK/status.out" || fail "the connections' holder is not named"
grep -q "^rejected entries by worker: evil [1-9]" "$WORK/status.out" ||
  fail "the flood is not counted against evil"
grep -q "quarantined worker w" "$WORK/status.out" && fail "an honest worker was quarantined"
echo "cluster hostile workers: ok"
