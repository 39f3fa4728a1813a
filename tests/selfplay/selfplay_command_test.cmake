# `veletas selfplay` end to end with a tiny network: run with cmake -DVELETAS=<binary>
# -DWORK=<scratch dir> -P selfplay_command_test.cmake. Fails with a message on any mismatch.
macro(expect message)
  if(NOT (${ARGN}))
    message(FATAL_ERROR "${message}")
  endif()
endmacro()

file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(net "model:\n  blocks: 1\n  channels: 8\n  head_channels: 8\n  value_hidden: 16\n  threads: 1\n")
file(WRITE "${WORK}/tiny.yaml" "game:\n  size: 7\n${net}"
     "selfplay:\n  threads: 2\n  games_in_flight: 2\n  full_simulations: 12\n"
     "  cheap_simulations: 4\n  games_per_file: 2\n"
     "evaluator:\n  max_batch: 16\n  max_wait_us: 100\n")
file(WRITE "${WORK}/nine.yaml" "game:\n  size: 9\n${net}")

execute_process(COMMAND "${VELETAS}" init-model --config "${WORK}/tiny.yaml" --out "${WORK}/g0.ckpt"
                RESULT_VARIABLE rc ERROR_VARIABLE err)
expect("init-model: exit code ${rc}: ${err}" rc EQUAL 0)

# Five games in files of two: samples_0, samples_1 (two games each) and samples_2 (one).
execute_process(COMMAND "${VELETAS}" selfplay --config "${WORK}/tiny.yaml" --model "${WORK}/g0.ckpt"
                        --games 5 --out "${WORK}/out"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
expect("selfplay: exit code ${rc}: ${err}" rc EQUAL 0)
foreach(k 0 1 2)
  expect("samples_${k}.vzs not written: ${out} ${err}" EXISTS "${WORK}/out/samples_${k}.vzs")
endforeach()
expect("samples_3.vzs written" NOT EXISTS "${WORK}/out/samples_3.vzs")
string(REGEX MATCH "games +5 in" m "${out}")
expect("summary does not report 5 games: ${out}" m)
foreach(line "samples " "turns/game" "evaluations" "batch " "cache hit rate" "resignations"
        "wins " "first player" "swap rate")
  string(FIND "${out}" "${line}" pos)
  expect("summary lacks \"${line}\": ${out}" NOT pos EQUAL -1)
endforeach()
# Not a terminal: plain progress lines only, no carriage returns.
string(FIND "${err}" "\r" pos)
expect("carriage return in non-terminal output: ${err}" pos EQUAL -1)

# Again with one file removed: only its two games are played.
file(READ "${WORK}/out/samples_0.vzs" before HEX)
file(REMOVE "${WORK}/out/samples_1.vzs")
execute_process(COMMAND "${VELETAS}" selfplay --config "${WORK}/tiny.yaml" --model "${WORK}/g0.ckpt"
                        --games 5 --out "${WORK}/out"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
expect("resume: exit code ${rc}: ${err}" rc EQUAL 0)
string(REGEX MATCH "games +2 in[^\n]*3 more resumed" m "${out}")
expect("resume did not play exactly the 2 missing games: ${out}" m)
expect("samples_1.vzs not rewritten" EXISTS "${WORK}/out/samples_1.vzs")
file(READ "${WORK}/out/samples_0.vzs" after HEX)
expect("samples_0.vzs changed on resume" before STREQUAL after)

# A checkpoint of another board size: exit code 2 naming both files.
execute_process(COMMAND "${VELETAS}" init-model --config "${WORK}/nine.yaml" --out "${WORK}/nine.ckpt"
                RESULT_VARIABLE rc)
execute_process(COMMAND "${VELETAS}" selfplay --config "${WORK}/tiny.yaml" --model "${WORK}/nine.ckpt"
                        --games 1 --out "${WORK}/out9"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
expect("mismatched model: exit code ${rc}, expected 2: ${err}" rc EQUAL 2)
string(FIND "${err}" "nine.ckpt does not fit" pos)
expect("mismatch not explained: ${err}" NOT pos EQUAL -1)

# A truncated checkpoint, a missing option, a bad number: exit code 2.
file(READ "${WORK}/g0.ckpt" head LIMIT 100)
file(WRITE "${WORK}/cut.ckpt" "${head}")
execute_process(COMMAND "${VELETAS}" selfplay --config "${WORK}/tiny.yaml" --model "${WORK}/cut.ckpt"
                        --games 1 --out "${WORK}/outc"
                RESULT_VARIABLE rc ERROR_VARIABLE err)
expect("truncated model: exit code ${rc}, expected 2: ${err}" rc EQUAL 2)
string(FIND "${err}" "cut.ckpt" pos)
expect("truncated model not named: ${err}" NOT pos EQUAL -1)
execute_process(COMMAND "${VELETAS}" selfplay --config "${WORK}/tiny.yaml" --model "${WORK}/g0.ckpt"
                        --out "${WORK}/out"
                RESULT_VARIABLE rc ERROR_VARIABLE err)
expect("missing --games: exit code ${rc}, expected 2" rc EQUAL 2)
execute_process(COMMAND "${VELETAS}" selfplay --config "${WORK}/tiny.yaml" --model "${WORK}/g0.ckpt"
                        --games 0 --out "${WORK}/out"
                RESULT_VARIABLE rc ERROR_VARIABLE err)
expect("--games 0: exit code ${rc}, expected 2" rc EQUAL 2)
string(FIND "${err}" "--games" pos)
expect("--games 0 not named: ${err}" NOT pos EQUAL -1)

file(REMOVE_RECURSE "${WORK}")
