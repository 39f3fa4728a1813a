# Writes the browser page's list of shipped networks: OUT/networks.json and OUT/NAME/model.json
# + model.onnx for every folder NETWORKS/NAME/ with a card.json (docs/USAGE.md, "Shipping a
# network"). The page's Network menu reads the list (web/page/networks.js). Folders without a
# card.json are skipped; a card without name, rules, size or generation fails the build.
#
# cmake -DNETWORKS=DIR -DOUT=DIR -P networks.cmake
foreach(v NETWORKS OUT)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "networks.cmake: -D${v}=... is missing")
  endif()
endforeach()

file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
set(entries "")
file(GLOB cards LIST_DIRECTORIES false ${NETWORKS}/*/card.json)
list(SORT cards)
foreach(card IN LISTS cards)
  get_filename_component(dir ${card} DIRECTORY)
  get_filename_component(folder ${dir} NAME)
  file(READ ${card} text)
  foreach(key name rules size generation)
    string(JSON ${key} ERROR_VARIABLE err GET "${text}" ${key})
    if(err)
      message(FATAL_ERROR "${card}: ${key}: ${err}")
    endif()
  endforeach()
  if(NOT name STREQUAL folder)
    message(FATAL_ERROR "${card}: name \"${name}\" is not the folder's name \"${folder}\"")
  endif()
  # The results as the card has them (opponent, games, wins, losses, elo ...).
  string(JSON results ERROR_VARIABLE err GET "${text}" results)
  if(err)
    set(results "[]")
  endif()
  file(COPY ${dir}/model.json ${dir}/model.onnx DESTINATION ${OUT}/${name})
  set(entry "{\"name\": \"${name}\", \"rules\": \"${rules}\", \"size\": ${size}, ")
  string(APPEND entry "\"generation\": ${generation}, \"results\": ${results}}")
  list(APPEND entries "${entry}")
endforeach()
list(JOIN entries ",\n  " joined)
file(WRITE ${OUT}/networks.json "{\"networks\": [\n  ${joined}\n]}\n")
list(LENGTH entries count)
message(STATUS "the page's shipped networks: ${count} (from ${NETWORKS})")
