# `veletas match` and `veletas gate` end to end, with `veletas ratings` on what they write:
# run with cmake -DVELETAS=<binary> -DWORK=<scratch dir> -P arena_commands_test.cmake.
# Fails with a message on any mismatch.
macro(expect message)
  if(NOT (${ARGN}))
    message(FATAL_ERROR "${message}")
  endif()
endmacro()

# run(<args>...): runs veletas, leaving rc, out and err.
macro(run)
  execute_process(COMMAND "${VELETAS}" ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
endmacro()

# expect_usage_error(<expected part of stderr> <args>...): exit code 2 and the message.
macro(expect_usage_error expected)
  run(${ARGN})
  expect("${ARGN}: exit code ${rc}, expected 2 (${err})" rc EQUAL 2)
  string(FIND "${err}" "${expected}" pos)
  expect("${ARGN}: stderr lacks \"${expected}\": ${err}" NOT pos EQUAL -1)
endmacro()

file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(RUN "${WORK}/run")

# Bad input: exit code 2 and a message naming the problem.
expect_usage_error("--a: unknown player \"uct:x\": expected random, uct:N, uct:N:C or mcts:CKPT:N[:P]"
                   match --a uct:x --b random --games 2)
expect_usage_error("--b: player \"uct:0\": N (playouts per turn) must be in [1, 100000000]"
                   match --a random --b uct:0 --games 2)
expect_usage_error("veletas match: --games is required" match --a random --b uct:5)
expect_usage_error("veletas match: --games: Value 0 not in range" match --a random --b uct:5
                   --games 0)
expect_usage_error("${WORK}/none.ckpt" match --a random --b mcts:${WORK}/none.ckpt:8 --games 2)
expect_usage_error("--colour" match --a random --b uct:5 --games 2 --colour black)
expect_usage_error("--candidate: unknown player \"uct:many\"" gate --candidate uct:many
                   --best random --run ${RUN})
# A time per turn out of range, more games than threads, and a timed player outside `match`.
expect_usage_error("--a: player \"uct:0ms\": the time per turn T in Tms must be in [1, 600000] ms"
                   match --a uct:0ms --b random --games 2)
expect_usage_error("--b: player \"uct:-5ms\": the time per turn T in Tms must be in [1, 600000] ms"
                   match --a random --b uct:-5ms --games 2)
expect_usage_error("--a: player \"uct:600001ms\": the time per turn T in Tms must be in [1, 600000]"
                   match --a uct:600001ms --b random --games 2)
expect_usage_error("games in parallel (4) must not exceed threads (2)"
                   match --a uct:5ms --b random --games 2 --threads 2 --parallel 4)
expect_usage_error("is played by `veletas match` only" gate --candidate uct:20ms --best random
                   --run ${WORK}/gate_timed)

# A timed match: one game per thread, the record says the time control, the JSON the
# playouts per turn the timed player reached.
run(match --a uct:5ms --b random --games 4 --size 7 --threads 2 --json --out ${RUN})
expect("timed match: exit code ${rc}: ${err}" rc EQUAL 0)
string(JSON spec GET "${out}" players a spec)
string(JSON name GET "${out}" players a name)
string(JSON sims GET "${out}" a_timed simulations_per_turn)
expect("timed player is ${name} (${spec})" spec STREQUAL "uct:5ms" AND name STREQUAL "uct_5ms")
expect("timed player ran ${sims} playouts per turn" sims GREATER_EQUAL 1)
string(FIND "${err}" "2 in parallel, 2 threads" pos)
expect("the headline lacks one game per thread: ${err}" NOT pos EQUAL -1)

# A match with --json: one object with the totals and the Elo interval; files in RUN.
run(match --a uct:40 --b random --games 6 --size 7 --seed 3 --json --out ${RUN})
expect("match --json: exit code ${rc}: ${err}" rc EQUAL 0)
string(JSON games GET "${out}" games)
string(JSON a_wins GET "${out}" a_wins)
string(JSON b_wins GET "${out}" b_wins)
string(JSON elo GET "${out}" elo)
string(JSON ci_len LENGTH "${out}" elo_ci95)
string(JSON name GET "${out}" players a name)
expect("games ${games}, expected 6" games EQUAL 6)
math(EXPR total "${a_wins} + ${b_wins}")
expect("a_wins + b_wins = ${total}, expected 6" total EQUAL 6)
expect("elo_ci95 has ${ci_len} entries" ci_len EQUAL 2)
expect("player A is ${name}" name STREQUAL "uct_40")
set(match_file "${RUN}/matches/uct_40-vs-random.json")
set(records_file "${RUN}/matches/uct_40-vs-random.records.txt")
expect("no ${match_file}" EXISTS "${match_file}")
file(STRINGS "${records_file}" records)
list(LENGTH records n)
expect("${records_file} has ${n} lines, expected 6" n EQUAL 6)
# Seats alternate: A was first in games 0, 2, 4.
string(JSON seat GET "${out}" results 0 a_seat)
expect("game 0: a_seat ${seat}" seat STREQUAL "first")
string(JSON seat GET "${out}" results 1 a_seat)
expect("game 1: a_seat ${seat}" seat STREQUAL "second")

# Text output; a second match of the same players gets a new name instead of overwriting.
run(match --a uct:40 --b random --games 2 --size 7 --out ${RUN})
expect("match: exit code ${rc}: ${err}" rc EQUAL 0)
foreach(part "Elo uct_40 - random: " "likelihood of superiority of uct_40: "
        "uct_40-vs-random-2.json")
  string(FIND "${out}" "${part}" pos)
  expect("match output lacks \"${part}\": ${out}" NOT pos EQUAL -1)
endforeach()
expect_usage_error("exists; choose another --name" match --a uct:40 --b random --games 2
                   --size 7 --out ${RUN} --name uct_40-vs-random)

# The two matches of the same players pooled (veletas pool): 8 games; a match twice refused.
run(pool ${match_file} ${RUN}/matches/uct_40-vs-random-2.json --json)
expect("pool: exit code ${rc}: ${err}" rc EQUAL 0)
string(JSON games GET "${out}" games)
string(JSON pooled_a GET "${out}" a_wins)
string(JSON parts LENGTH "${out}" parts)
expect("pool: ${games} games, expected 8" games EQUAL 8)
expect("pool: ${parts} parts, expected 2" parts EQUAL 2)
expect("pool: A won ${pooled_a}, fewer than in the first match (${a_wins})"
       pooled_a GREATER_EQUAL a_wins)
expect_usage_error("the same match (uct_40-vs-random) as" pool ${match_file} ${match_file})

# The gate with UCT players through a config: 150 playouts per turn against 5 pass an SPRT
# with elo1 = 150 within a few batches.
file(WRITE "${WORK}/gate.yaml" "game:\n  size: 7\narena:\n  gate:\n    elo1: 150\n"
           "    batch_games: 10\n    max_games: 100\n")
run(gate --candidate uct:150 --best uct:5 --run ${RUN} --config ${WORK}/gate.yaml --json)
expect("gate: exit code ${rc}: ${err}" rc EQUAL 0)
string(JSON decision GET "${out}" decision)
expect("gate decision ${decision}: ${out}" decision STREQUAL "promote")
set(gate_file "${RUN}/matches/gate_uct_150-vs-uct_5.json")
expect("no ${gate_file}" EXISTS "${gate_file}")
file(READ "${gate_file}" gate_json)
string(JSON gate_decision GET "${gate_json}" gate decision)
expect("the match file's gate decision is ${gate_decision}" gate_decision STREQUAL "promote")
# Again: the decision is read back, nothing is played.
run(gate --candidate uct:150 --best uct:5 --run ${RUN} --config ${WORK}/gate.yaml --json)
string(JSON resumed GET "${out}" resumed)
expect("second gate call: resumed is ${resumed}" resumed STREQUAL "ON")

# Everything written is rated together.
run(ratings ${RUN})
expect("ratings: exit code ${rc}: ${err}" rc EQUAL 0)
string(REGEX MATCH "uct_40 +\\+[0-9]" m "${out}")
expect("uct_40 is not rated above random: ${out}" m)

# A neural player from a real (freshly initialised, tiny) checkpoint; its rules and size
# must match the match's.
file(WRITE "${WORK}/net.yaml"
     "game:\n  size: 7\nmodel:\n  blocks: 1\n  channels: 8\n  threads: 1\n")
run(init-model --config ${WORK}/net.yaml --out ${WORK}/g0.ckpt --seed 5)
expect("init-model: exit code ${rc}: ${err}" rc EQUAL 0)
run(match --a mcts:${WORK}/g0.ckpt:8 --b random --games 4 --config ${WORK}/net.yaml --json
    --out ${RUN})
expect("mcts match: exit code ${rc}: ${err}" rc EQUAL 0)
string(JSON name GET "${out}" players a name)
expect("the network's player is ${name}, expected gen_0" name STREQUAL "gen_0")
string(JSON calls GET "${out}" evaluate_calls)
expect("no network evaluations" calls GREATER 0)
expect_usage_error("g0.ckpt does not fit the match (standard 9x9): board size mismatch"
                   match --a mcts:${WORK}/g0.ckpt:8 --b random --games 2 --size 9)
# The network with a time per turn against UCT with the same time.
run(match --a mcts:${WORK}/g0.ckpt:5ms --b uct:5ms --games 2 --config ${WORK}/net.yaml
    --threads 2 --json --out ${RUN})
expect("timed mcts match: exit code ${rc}: ${err}" rc EQUAL 0)
string(JSON name GET "${out}" players a name)
string(JSON sims GET "${out}" a_timed simulations_per_turn)
expect("the timed network is ${name}, expected gen_0_5ms" name STREQUAL "gen_0_5ms")
expect("the timed network ran ${sims} simulations per turn" sims GREATER_EQUAL 1)
# One network at two inference precisions: two players, each named with its precision.
run(match --a mcts:${WORK}/g0.ckpt:8:int8 --b mcts:${WORK}/g0.ckpt:8:fp32 --games 2
    --config ${WORK}/net.yaml --json --out ${RUN})
expect("int8 vs fp32 match: exit code ${rc}: ${err}" rc EQUAL 0)
string(JSON name_a GET "${out}" players a name)
string(JSON name_b GET "${out}" players b name)
string(JSON spec_a GET "${out}" players a spec)
expect("precision players are ${name_a} and ${name_b}"
       name_a STREQUAL "gen_0_int8" AND name_b STREQUAL "gen_0_fp32")
expect("player a's spec is ${spec_a}" spec_a MATCHES ":8:int8$")
expect_usage_error("unknown inference precision \"fp16\""
                   match --a mcts:${WORK}/g0.ckpt:8:fp16 --b random --games 2)

# A ladder round from the command line: the network against the anchors (random, uct:5),
# then a second "generation" (a UCT player here) against it; every match is written once.
file(WRITE "${WORK}/ladder.yaml"
     "game:\n  size: 7\nmodel:\n  blocks: 1\n  channels: 8\n  threads: 1\narena:\n"
     "  simulations: 8\n  ladder:\n    uct_anchors: [5]\n    anchor_games: 4\n"
     "    games_vs_anchors: 4\n    games_vs_previous: 4\n")
set(LRUN "${WORK}/ladder_run")
run(ladder --run ${LRUN} --model ${WORK}/g0.ckpt --config ${WORK}/ladder.yaml --json)
expect("ladder: exit code ${rc}: ${err}" rc EQUAL 0)
string(JSON n LENGTH "${out}" matches)
expect("ladder round 1 played ${n} matches, expected 3" n EQUAL 3)
foreach(m anchors_random-vs-uct_5 ladder_gen_0-vs-random ladder_gen_0-vs-uct_5)
  expect("no ${m}.json" EXISTS "${LRUN}/matches/${m}.json")
endforeach()
run(ladder --run ${LRUN} --model uct:50 --previous ${WORK}/g0.ckpt --config ${WORK}/ladder.yaml
    --json)
expect("ladder round 2: exit code ${rc}: ${err}" rc EQUAL 0)
string(JSON existed GET "${out}" matches 0 existed)
expect("the anchor match was played again" existed STREQUAL "ON")
expect("no ladder_uct_50-vs-gen_0.json" EXISTS "${LRUN}/matches/ladder_uct_50-vs-gen_0.json")
string(JSON n LENGTH "${out}" ladder players)
expect("the ladder lists ${n} players, expected 4" n EQUAL 4)
expect_usage_error("--previous: unknown player \"uct:\"" ladder --run ${LRUN} --model uct:50
                   --previous uct:)

file(REMOVE_RECURSE "${WORK}")
