#!/usr/bin/env bash
# Sanitizer builds and fuzzing of everything that does not need Torch (issue 13); needs
# clang, libfuzzer-14-dev and libclang-rt-14-dev (scripts/debian-packages.txt). Torch-linked
# code is left out (-DVELETAS_WITH_TORCH=OFF): under ASan it is slow and its own findings
# are not ours.
#
#   1. ASan + UBSan (clang, -O1): every Torch-free unit test, and each fuzz target's seed
#      corpus replayed (ctest), then each fuzz target fuzzed for FUZZ_SECONDS (default 60).
#   ci: 1 as .ci/run runs it (asan, then fuzz, on one build).
#   2. TSan: the threaded code with fake evaluators: the batching evaluator and the UCT
#      player's threads (search_tests), the self-play engine (selfplay_tests), the arena,
#      gate and ladder (arena_tests), the training batch loader (training_data_tests).
#
# Usage: scripts/sanitize.sh [asan|tsan|fuzz|ci|all] (default all), from the repository root.
# Build trees: build-asan/, build-tsan/; fuzzing works in build-asan/fuzz-work/ (the seed
# corpora in fuzz/corpus/ are only read). Any sanitizer report fails the step.
set -euo pipefail
cd "$(dirname "$0")/.."
STEP=${1:-all}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
JOBS=${JOBS:-2}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}

# ccache when there is one (a local rerun); CI builds from scratch.
LAUNCHER=$(command -v ccache >/dev/null && echo -DCMAKE_CXX_COMPILER_LAUNCHER=ccache || true)

configure() {  # configure DIR SANITIZERS EXTRA...
  local dir=$1 sanitizers=$2
  shift 2
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -gline-tables-only" \
    -DCMAKE_CXX_COMPILER=clang++ -DVELETAS_WITH_TORCH=OFF -DVELETAS_WERROR=ON \
    -DVELETAS_WEB=OFF -DVELETAS_SANITIZE="$sanitizers" $LAUNCHER "$@" >/dev/null
}

asan() {
  configure build-asan address,undefined -DVELETAS_FUZZ=ON
  cmake --build build-asan -j "$JOBS"
  # A test that fails is run once more: Arena.ParallelBatchedGamesEqualSequentialPlay_NeuralVsUct
  # asserts a mean batch size that a slow ASan build under load sometimes misses (5.79 < 6).
  ctest --test-dir build-asan --output-on-failure -j "$JOBS" --repeat until-pass:2
}

ci() {
  asan
  fuzz
}

# Fuzzes one target (build-asan/fuzz/fuzz_NAME) for FUZZ_SECONDS in build-asan/fuzz-work/NAME/;
# a finding leaves its input in crashes/ and the target's name in fuzz-work/failed.
fuzz_one() {
  local target=$1 name=${1##*/fuzz_}
  local work=build-asan/fuzz-work/$name
  mkdir -p "$work/corpus" "$work/crashes"
  # A single allocation over 256 MB, 2 GB in all, or 10 s for one input is a finding.
  "$target" "$work/corpus" "fuzz/corpus/$name" -max_total_time="$FUZZ_SECONDS" -timeout=10 \
    -rss_limit_mb=2048 -malloc_limit_mb=256 -artifact_prefix="$work/crashes/" \
    -print_final_stats=1 >"$work/log" 2>&1 || echo "$name" >>build-asan/fuzz-work/failed
}

# Every fuzz target for FUZZ_SECONDS, JOBS at a time; prints each one's executions.
fuzz() {
  [ -d build-asan/fuzz ] || { configure build-asan address,undefined -DVELETAS_FUZZ=ON; cmake --build build-asan -j "$JOBS"; }
  rm -f build-asan/fuzz-work/failed
  mkdir -p build-asan/fuzz-work
  for target in build-asan/fuzz/fuzz_*; do
    [ -x "$target" ] || continue
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do sleep 1; done
    fuzz_one "$target" &
  done
  wait
  for target in build-asan/fuzz/fuzz_*; do
    [ -x "$target" ] || continue
    local name=${target##*/fuzz_} work=build-asan/fuzz-work/${target##*/fuzz_}
    echo "fuzz_$name: $(awk '/^stat::number_of_executed_units:/ {print $2}' "$work/log") executions in ${FUZZ_SECONDS} s, $(awk '/^stat::new_units_added:/ {print $2}' "$work/log") new inputs, $(ls "$work/corpus" | wc -l) in its corpus"
  done
  if [ -s build-asan/fuzz-work/failed ]; then
    for name in $(cat build-asan/fuzz-work/failed); do
      tail -60 "build-asan/fuzz-work/$name/log"
      echo "sanitize.sh: fuzz_$name found a problem; the input is in build-asan/fuzz-work/$name/crashes/" >&2
    done
    return 1
  fi
}

tsan() {
  configure build-tsan thread
  cmake --build build-tsan -j "$JOBS" --target search_tests selfplay_tests arena_tests \
    training_data_tests
  ctest --test-dir build-tsan --output-on-failure -j "$JOBS" \
    -R '^(BatchingEvaluator|Players|SelfplayEngine|SelfplayResume|Arena|ArenaJournalTest|GateTest|Ladder|BatchLoader)\.'
}

case "$STEP" in
  asan) asan ;;
  fuzz) fuzz ;;
  tsan) tsan ;;
  ci) ci ;;
  all) asan; fuzz; tsan ;;
  *) echo "usage: scripts/sanitize.sh [asan|tsan|fuzz|ci|all]" >&2; exit 2 ;;
esac
