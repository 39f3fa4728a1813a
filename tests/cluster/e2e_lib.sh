# Shared by the cluster's end-to-end tests (sourced): a real redis-server on a free loopback
# port with Debian's redis.conf and the config and users of `veletas cluster setup`, the
# learner (`veletas pipeline` with a `cluster` section) and `veletas worker` processes, each
# logged to $WORK/*.log.
# Before sourcing set VELETAS, CONFIG (the preset to train), WORK (a directory made anew) and
# NAME (the run's name in Redis), optionally MAXMEMORY (bytes, default 256 MiB) and
# REDIS_ARGS (more redis-server options); then call e2e_setup WORKER... and start the processes.
RUN="$WORK/run"
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
SETUP="$WORK/setup"
pass() { cut -d' ' -f2 "$SETUP/$1.auth"; }
cli() { redis-cli -p "$PORT" --user vz-admin --pass "$(pass admin)" --no-auth-warning "$@"; }

# Redis as docs/CLUSTER.md sets it up: Debian's redis.conf, then the setup's include (here in
# a config of the test's own that includes both, in that order); the options given on the
# command line (a free port, the test's directory and log, in the foreground) come after both.
DEBIAN_REDIS_CONF=/etc/redis/redis.conf
start_redis() {
  if [ -r "$DEBIAN_REDIS_CONF" ]; then
    printf 'include %s\ninclude %s\n' "$DEBIAN_REDIS_CONF" "$SETUP/redis-veletas.conf" >"$WORK/redis.conf"
  else
    [ -n "${REDIS_CONF_NOTED:-}" ] ||
      echo "note: $DEBIAN_REDIS_CONF is not readable here: Redis runs with the setup's include alone"
    REDIS_CONF_NOTED=1
    printf 'include %s\n' "$SETUP/redis-veletas.conf" >"$WORK/redis.conf"
  fi
  redis-server "$WORK/redis.conf" --port "$PORT" --bind 127.0.0.1 --dir "$WORK/redis" \
    --save "" --logfile "$WORK/redis.log" --daemonize no --pidfile "$WORK/redis.pid" \
    ${REDIS_ARGS:-} &
  REDIS_PID=$!
  PIDS+=("$REDIS_PID")
  for _ in $(seq 1 200); do
    [ "$(cli ping 2>/dev/null)" = "PONG" ] && return 0
    sleep 0.05
  done
  fail "redis-server did not start"
}
# The documented setup (users.acl with the default user off, the limits, the credentials
# files), Redis started, a user per worker named in "$@", and $WORK/run.yaml: CONFIG with
# the run's cluster section.
e2e_setup() {
  "$VELETAS" cluster setup --run "$NAME" --dir "$SETUP" --maxmemory "${MAXMEMORY:-$((256 << 20))}" >/dev/null ||
    fail "cluster setup"
  [ "$(stat -c %a "$SETUP/learner.auth")" = 600 ] || fail "learner.auth is not 0600"
  start_redis
  for w in "$@"; do
    "$VELETAS" cluster add-worker "$w" --run "$NAME" --dir "$SETUP" --redis "$URL" >/dev/null ||
      fail "cluster add-worker $w"
  done
  case "$(redis-cli -p "$PORT" ping 2>&1)" in *NOAUTH*) ;; *) fail "the default user is open" ;; esac
  cat "$CONFIG" >"$WORK/run.yaml"
  cat >>"$WORK/run.yaml" <<EOC
cluster:
  redis: $URL
  run: $NAME
  auth_file: $SETUP/learner.auth
  task_timeout_seconds: 3
  heartbeat_seconds: 0.5
  arena_games_per_task: 2
EOC
}
start_worker() {  # $1 = number
  "$VELETAS" worker --redis "$URL" --run "$NAME" --dir "$WORK/w$1" \
    --redis-auth "$SETUP/w$1.auth" --threads 1 --device cpu >>"$WORK/worker$1.log" 2>&1 &
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
wait_learner() {  # fails unless the learner finishes its run within 240 s
  for _ in $(seq 1 2400); do
    kill -0 "$LEARNER" 2>/dev/null || break
    sleep 0.1
  done
  kill -0 "$LEARNER" 2>/dev/null && fail "the learner did not finish in 240 s"
  wait "$LEARNER" || fail "the learner failed: $(tail -5 "$WORK/learner.log")"
}
# Every game id once and each of the first $1 iterations holding exactly $2 games.
check_iterations() {
  "$VELETAS" cluster audit "$RUN" >"$WORK/audit.out" || fail "audit: $(cat "$WORK/audit.out")"
  local total=$(($1 * $2))
  grep -q "^$RUN: $total self-play games in .* ($total with a game id, 0 stored twice)" \
    "$WORK/audit.out" || fail "audit: $(cat "$WORK/audit.out")"
  /usr/bin/python3 - "$RUN" "$1" "$2" <<'PY' || exit 1
import glob, os, struct, sys
run, iterations, per = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
for it in range(iterations):
    games = 0
    for f in glob.glob(os.path.join(run, "samples", "iter_%04d" % it, "*.vzs")):
        games += struct.unpack("<I", open(f, "rb").read(24)[20:24])[0]
    if games != per:
        print("FAIL: iteration %d holds %d games, expected %d" % (it, games, per), file=sys.stderr)
        sys.exit(1)
    if glob.glob(os.path.join(run, "samples", "iter_%04d" % it, "*.part")):
        print("FAIL: journal left in iteration %d" % it, file=sys.stderr)
        sys.exit(1)
PY
}
