#!/usr/bin/env bash
# Redis restarted without its data in the middle of a generation (a power cut that took its
# AOF, or a new Redis machine with the same users.acl): the learner notices (the run's epoch
# key is gone), registers its workers and publishes its networks and config again; the
# workers reconnect and send again every game the learner has not stored, which they kept in
# their spools however long ago Redis took it. Checked: the run finishes, every iteration
# holds exactly its games and every game is in the run once, and at the moment of the loss
# the workers' spools held every game queued in Redis.
# Usage: cluster_data_loss_test.sh VELETAS CONFIG WORK_DIR
set -u
VELETAS=$1
CONFIG=$2
WORK=$3
NAME=loss
source "$(dirname "$0")/e2e_lib.sh"
e2e_setup w1 w2
sed -i 's/^  games_per_generation: 8$/  games_per_generation: 12/' "$WORK/run.yaml"
start_worker 1
start_worker 2
start_learner

# The learner stops reading in the middle of the first self-play; the workers go on sending.
wait_for "$RUN/samples/iter_0000/*.vzs*" "the first self-play games"
kill -STOP "$LEARNER"
queued=0
for _ in $(seq 1 2400); do
  queued=$(($(cli XLEN "vz:$NAME:results:w1") + $(cli XLEN "vz:$NAME:results:w2")))
  [ "$queued" -ge 3 ] && break
  sleep 0.1
done
[ "$queued" -ge 3 ] || fail "the workers queued $queued games in 240 s"
sleep 2  # long past what was once a 1-second spool grace period
queued=$(($(cli XLEN "vz:$NAME:results:w1") + $(cli XLEN "vz:$NAME:results:w2")))
spooled=$(find "$WORK/w1/outbox" "$WORK/w2/outbox" -name '*.s.vze' | wc -l)
echo "queued in Redis: $queued games; in the workers' spools: $spooled"
[ "$spooled" -ge "$queued" ] || fail "the spools hold $spooled games, Redis queued $queued"

# Redis loses everything but its users (users.acl is the setup's file).
kill -9 "$REDIS_PID" && echo "killed redis-server"
rm -rf "${WORK:?}/redis"/*
start_redis
echo "restarted redis-server without its data"
[ "$(cli EXISTS "vz:$NAME:epoch")" = 0 ] || fail "the run's epoch survived"
case "$(redis-cli -p "$PORT" ping 2>&1)" in *NOAUTH*) ;; *) fail "the default user is open after a restart" ;; esac
kill -CONT "$LEARNER"

wait_learner
grep -q "finished: trained 2 generations" "$WORK/learner.log" || fail "the run did not finish"
grep -q "Redis has lost the run's data" "$WORK/learner.log" || fail "the learner did not notice the loss"
check_iterations 2 12
[ "$(cli EXISTS "vz:$NAME:epoch")" = 1 ] || fail "the run's epoch was not set again"
echo "cluster data loss: ok"
