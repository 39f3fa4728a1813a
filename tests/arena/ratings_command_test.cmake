# `veletas ratings` end to end: run with cmake -DVELETAS=<binary> -DDATA=<fixture run dir>
# -DWORK=<scratch dir> -P ratings_command_test.cmake. Fails with a message on any mismatch.
# expect(MESSAGE CONDITION...): fails with MESSAGE unless the if() condition holds.
macro(expect message)
  if(NOT (${ARGN}))
    message(FATAL_ERROR "${message}")
  endif()
endmacro()

file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/empty_run")

# A run without matches: a clear message and exit code 2.
execute_process(COMMAND "${VELETAS}" ratings "${WORK}/empty_run"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
expect("empty run: exit code ${rc}, expected 2" rc EQUAL 2)
string(FIND "${err}" "no matches" pos)
expect("empty run: unexpected message: ${err}" NOT pos EQUAL -1)

# A missing run directory: exit code 2.
execute_process(COMMAND "${VELETAS}" ratings "${WORK}/missing"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
expect("missing run: exit code ${rc}, expected 2" rc EQUAL 2)

# The fixture: gen_1 beat random 3-1, gen_2 and gen_1 drew 2-2, and corrupt.json is
# truncated. With one virtual game per pair, gen_1 = 400 log10(3.5 / 1.5) = +147.2 and
# gen_2 = gen_1 (their 2-2 with the symmetric prior pulls neither way).
file(COPY "${DATA}/matches" DESTINATION "${WORK}/run")
execute_process(COMMAND "${VELETAS}" ratings "${WORK}/run"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
expect("fixture run: exit code ${rc}: ${err}" rc EQUAL 0)
string(FIND "${err}" "corrupt.json" pos)
expect("the corrupt file is not reported: ${err}" NOT pos EQUAL -1)
string(REGEX MATCH "gen_1 +\\+147\\.2" m "${out}")
expect("gen_1 is not at +147.2: ${out}" m)
string(REGEX MATCH "gen_2 +\\+147\\.2" m "${out}")
expect("gen_2 is not at +147.2: ${out}" m)
string(REGEX MATCH "random +\\+0\\.0 +fixed anchor" m "${out}")
expect("random is not the fixed anchor: ${out}" m)
expect("ratings.json not written" EXISTS ${WORK}/run/ratings.json)
expect("ratings.png not written" EXISTS ${WORK}/run/ratings.png)
file(READ "${WORK}/run/ratings.json" json)
string(JSON n LENGTH "${json}" players)
expect("ratings.json lists ${n} players, expected 3" n EQUAL 3)
string(JSON skipped LENGTH "${json}" skipped_files)
expect("ratings.json lists ${skipped} skipped files, expected 1" skipped EQUAL 1)
file(READ "${WORK}/run/ratings.png" magic LIMIT 8 HEX)
expect("ratings.png is not a PNG (starts ${magic})" magic STREQUAL "89504e470d0a1a0a")

# Without matplotlib (a package that cannot be imported shadows it) ratings.json is still
# written and the command succeeds; the missing chart is a warning saying what to install.
file(MAKE_DIRECTORY "${WORK}/nompl/hide/matplotlib")
file(WRITE "${WORK}/nompl/hide/matplotlib/__init__.py" "raise ImportError('hidden by the test')\n")
file(COPY "${DATA}/matches" DESTINATION "${WORK}/nompl/run")
execute_process(COMMAND ${CMAKE_COMMAND} -E env "PYTHONPATH=${WORK}/nompl/hide"
                        "${VELETAS}" ratings "${WORK}/nompl/run"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
expect("no matplotlib: exit code ${rc}, expected 0: ${err}" rc EQUAL 0)
expect("no matplotlib: ratings.json not written" EXISTS ${WORK}/nompl/run/ratings.json)
expect("no matplotlib: a ratings.png appeared" NOT EXISTS ${WORK}/nompl/run/ratings.png)
string(FIND "${err}" "python3-matplotlib" pos)
expect("no matplotlib: the warning does not say what to install: ${err}" NOT pos EQUAL -1)
string(FIND "${out}" "ratings.png" pos)
expect("no matplotlib: ratings.png claimed written: ${out}" pos EQUAL -1)

# A failed write (ratings.json cannot replace a directory of that name) is a failure, exit 1,
# not bad input.
file(MAKE_DIRECTORY "${WORK}/unwritable")
file(COPY "${DATA}/matches" DESTINATION "${WORK}/unwritable")
file(MAKE_DIRECTORY "${WORK}/unwritable/ratings.json/x")
execute_process(COMMAND "${VELETAS}" ratings "${WORK}/unwritable"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
expect("unwritable ratings.json: exit code ${rc}, expected 1: ${err}" rc EQUAL 1)
string(FIND "${err}" "ratings.json" pos)
expect("unwritable ratings.json: the file is not named: ${err}" NOT pos EQUAL -1)

# --json prints the same document.
execute_process(COMMAND "${VELETAS}" ratings "${WORK}/run" --json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
expect("--json: exit code ${rc}" rc EQUAL 0)
string(JSON format GET "${out}" format)
expect("--json: format is ${format}" format STREQUAL "veletas-ratings")

file(REMOVE_RECURSE "${WORK}")
