# Edits a copy of the layer table in three ways the checker must refuse (a link removed from a
# row, a target missing, rows out of dependency order), and checks that the unedited copy passes.
file(READ ${DOC} doc)
function(expect_check text want_fail what)
  file(WRITE ${WORK}/architecture_copy.md "${text}")
  execute_process(COMMAND ${PYTHON} ${CHECKER} ${WORK}/architecture_copy.md ${LINKS}
                          --with-torch ${WITH_TORCH}
                  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
  if(want_fail AND rc EQUAL 0)
    message(FATAL_ERROR "the checker accepted ${what}")
  elseif(NOT want_fail AND NOT rc EQUAL 0)
    message(FATAL_ERROR "the checker refused the unedited table: ${err}")
  endif()
  if(want_fail AND NOT err MATCHES "veletas_")
    message(FATAL_ERROR "the checker's error for ${what} names no target: ${err}")
  endif()
endfunction()

expect_check("${doc}" FALSE "")
string(REPLACE "| `veletas_play` | `play/` | search, rules, util |"
               "| `veletas_play` | `play/` | rules, util |" edited "${doc}")
if(edited STREQUAL doc)
  message(FATAL_ERROR "the play row was not found in ${DOC}")
endif()
expect_check("${edited}" TRUE "a row with a link missing")
string(REGEX REPLACE "\\| `veletas_data` \\|[^\n]*\n" "" edited "${doc}")
expect_check("${edited}" TRUE "a table without veletas_data")
string(REGEX MATCH "\\| `veletas_rules` \\|[^\n]*\n" rules_row "${doc}")
string(REPLACE "${rules_row}" "" edited "${doc}")
string(APPEND edited "${rules_row}")
expect_check("${edited}" TRUE "veletas_rules listed after the targets that link it")
