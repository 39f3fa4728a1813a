#!/usr/bin/env bash
# The crafted inputs of issue 13, run as written against the built binary. Each must end in
# a clear error naming the file, option or key (exit 2 for bad input), with no crash, no
# hang and no unbounded allocation, nothing lost and nothing written outside the directory
# given (or, for the engine, a search bounded by its node budget).
# Usage: crafted_inputs_test.sh VELETAS CONFIG WORK CASE
set -u
VELETAS=$1
CONFIG=$2
CASE=$4
WORK="$3/$CASE"
rm -rf "$WORK"
mkdir -p "$WORK"
cd "$WORK" || exit 1
fail() { echo "FAIL ($CASE): $*" >&2; exit 1; }
# expect CODE COMMAND...: runs COMMAND (5 minutes at most) with its output in out and err.
expect() {
  local want=$1
  shift
  timeout 300 "$@" >out 2>err
  local code=$?
  [ "$code" -eq "$want" ] || fail "exit $code, expected $want: $*; stderr: $(head -c 3000 err)"
}
# says TEXT: the standard error of the last command holds TEXT.
says() { grep -qF -- "$1" err || fail "stderr lacks \"$1\": $(head -c 3000 err)"; }
# Only these files exist under the current directory (the test's inputs and outputs).
only_files() {
  local found
  found=$(find . -mindepth 1 \( -type f -o -type l \) ! -name out ! -name err | sort | tr '\n' ' ')
  [ "$found" = "$* " ] || fail "files: $found; expected: $*"
}

case "$CASE" in
deep_match_record)
  # 1. A 200 KB match record nesting 100,000 arrays: skipped with its name (it crashed the
  # reader's error message), and with no other match the run has no ratings: exit 2.
  mkdir -p run/matches
  python3 -c "n = 100000; open('run/matches/x.json', 'w').write('{\"format\": ' + '[' * n + ']' * n + '}')"
  expect 2 "$VELETAS" ratings run
  says "skipped run/matches/x.json: arrays and objects nest deeper than 64 levels"
  says "no readable match records in run/matches (1 skipped)"
  ;;
sample_file_claims)
  # 2. An 83-byte sample file claiming 5,000,000 samples in a 1 GiB payload, and a self-play
  # journal entry holding it: under a 1.5 GB address-space limit (1 GiB would not fit) train
  # skips the file by name and selfplay drops the entry by name, instead of std::bad_alloc.
  python3 - <<'PY'
import ctypes, ctypes.util, struct
# The files' checksum: XXH3 64 (util::Checksum64), from the libxxhash the build links.
xxhash = ctypes.CDLL(ctypes.util.find_library("xxhash") or "libxxhash.so.0")
xxhash.XXH3_64bits.restype = ctypes.c_uint64
xxhash.XXH3_64bits.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
def xxh3(b):
    return xxhash.XXH3_64bits(b, len(b))
payload = b"\x28" * 19
h = b"VELZSMPL" + struct.pack("<IBBHIIQQQQ", 3, 0, 7, 0, 5000000, 1, 1 << 30, len(payload), 0, xxh3(payload))
h += struct.pack("<Q", xxh3(h))
f = h + payload
assert len(f) == 83
import os
os.makedirs("data", exist_ok=True)
os.makedirs("selfplay", exist_ok=True)
open("data/samples_0.vzs", "wb").write(f)
open("selfplay/samples_0.vzs.part", "wb").write(b"VZJ3" + struct.pack("<QIQ", 0, len(f), xxh3(f)) + f)
PY
  "$VELETAS" init-model --config "$CONFIG" --out g0.ckpt >/dev/null || fail "init-model"
  expect 2 bash -c "ulimit -v 1500000 && exec \"$VELETAS\" train --config \"$CONFIG\" --model g0.ckpt --data data --out g1.ckpt"
  says "samples_0.vzs: corrupt header: a payload of 1073741824 bytes cannot come from 19 compressed bytes"
  says "no usable sample data in data"
  expect 0 bash -c "ulimit -v 1500000 && exec \"$VELETAS\" selfplay --config \"$CONFIG\" --model g0.ckpt --games 2 --out selfplay"
  says "selfplay/samples_0.vzs.part: entry 1 (byte 0): corrupt header"
  [ -f selfplay/samples_0.vzs ] || fail "the self-play file was not written"
  ;;
match_long_names)
  # 4. Player names that make a match name of 304 characters: refused before any game is
  # played (all results were lost at the end), nothing written.
  a=$(printf 'a%.0s' $(seq 150))
  b=$(printf 'b%.0s' $(seq 150))
  expect 2 "$VELETAS" match --a random --b random --games 4 --size 7 --out out_dir --a-name "$a" --b-name "$b"
  says "is longer than 200 characters (304); choose a shorter one with --name"
  grep -q "/4 games" err && fail "games were played: $(cat err)"
  [ ! -e out_dir ] || fail "out_dir was created"
  ;;
non_utf8_paths)
  # 5. A checkpoint and a run directory whose names hold the byte 0xE9: refused up front
  # (the match played, then failed to save; the pipeline could never get past training).
  "$VELETAS" init-model --config "$CONFIG" --out g0.ckpt >/dev/null || fail "init-model"
  bad_ckpt=$(printf 'g\xe9.ckpt')
  cp g0.ckpt "$bad_ckpt"
  expect 2 "$VELETAS" match --config "$CONFIG" --a "mcts:$bad_ckpt:4" --b random --games 2 --out m
  says "player A checkpoint \"g\xE9.ckpt\": the path is not valid UTF-8 (byte 0xE9 at offset 1)"
  grep -q "/2 games" err && fail "games were played: $(cat err)"
  bad_run=$(printf 'run\xe9')
  expect 2 "$VELETAS" pipeline --config "$CONFIG" --run "$bad_run"
  says "the path is not valid UTF-8 (byte 0xE9"
  [ ! -e "$bad_run" ] || fail "the run directory was created"
  ;;
escaping_prefix)
  # 6. A prefix that leaves --out: refused, nothing written anywhere (it wrote ../escaped_0.vzs,
  # which a resumed run replayed and overwrote).
  "$VELETAS" init-model --config "$CONFIG" --out g0.ckpt >/dev/null || fail "init-model"
  mkdir samples
  expect 2 "$VELETAS" selfplay --config "$CONFIG" --model g0.ckpt --games 4 --out samples --prefix ../escaped
  says "sample file prefix \"../escaped\" starts with '.'"
  only_files ./g0.ckpt
  ;;
config_directory)
  # 7. A directory given as a config: an error, not a config of defaults.
  mkdir dir.yaml
  expect 2 "$VELETAS" config --check dir.yaml
  says "dir.yaml: is a directory, expected a file"
  expect 2 "$VELETAS" pipeline --config dir.yaml --run run
  says "dir.yaml: is a directory, expected a file"
  [ ! -e run ] || fail "the run directory was created"
  ;;
yaml_key_not_scalar)
  # 8. A key that is a list: an error naming the file and line, exit 2 (was "yaml-cpp: bad
  # conversion", exit 1).
  printf 'game:\n  [a, b]: 1\n' >d8.yaml
  expect 2 "$VELETAS" config --check d8.yaml
  says "d8.yaml:2: a key of game is not a word"
  ;;
engine_node_budget)
  # 9. genmove visits 100000000: the search stops at the node budget (20,000 nodes here; by
  # default a quarter of the memory), says so on stderr and plays a move.
  printf 'setoption max_nodes 20000\ngenmove visits 100000000\nquit\n' >commands
  expect 0 bash -c "\"$VELETAS\" engine --uct 1000 --size 7 <commands"
  says "genmove: the search stopped early: its tree reached the node budget of 20000 nodes"
  grep -qE '^= [a-g][1-7]' out || fail "no move: $(cat out)"
  ;;
*)
  fail "unknown case"
  ;;
esac
echo "ok: $CASE"
