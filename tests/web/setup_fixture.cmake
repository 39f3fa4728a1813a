# The browser tests' fixture (CTest fixture `web_browser`, run before them): a small real
# network exported as a user would (veletas init-model with configs/tiny.yaml, veletas
# export, scripts/export_onnx.py), a short match's records (veletas match), and
# puppeteer-core installed from npm into the build tree (kept while its version is right).
#
# cmake -DVELETAS=... -DSOURCE_DIR=... -DOUT=... -DNPM_DIR=... -DPUPPETEER_VERSION=...
#       -P setup_fixture.cmake
foreach(v VELETAS SOURCE_DIR OUT NPM_DIR PUPPETEER_VERSION)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "setup_fixture.cmake: -D${v}=... is missing")
  endif()
endforeach()

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  message(STATUS "${what}: ok")
endfunction()

file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
set(config ${SOURCE_DIR}/configs/tiny.yaml)
run("veletas init-model" ${VELETAS} init-model --config ${config} --out ${OUT}/g0.ckpt --seed 5)
run("veletas export" ${VELETAS} export --model ${OUT}/g0.ckpt --out ${OUT}/model)
run("scripts/export_onnx.py" /usr/bin/python3 ${SOURCE_DIR}/scripts/export_onnx.py ${OUT}/model)
run("veletas match" ${VELETAS} match --config ${config} --a uct:40 --b random --games 4
    --out ${OUT}/run --name web-test --seed 3)

set(package ${NPM_DIR}/node_modules/puppeteer-core/package.json)
set(installed "")
if(EXISTS ${package})
  file(READ ${package} text)
  string(JSON installed ERROR_VARIABLE ignored GET "${text}" version)
endif()
if(NOT installed STREQUAL PUPPETEER_VERSION)
  find_program(NPM npm REQUIRED)
  run("npm install puppeteer-core@${PUPPETEER_VERSION}" ${NPM} install --no-save --no-audit
      --no-fund --ignore-scripts --prefix ${NPM_DIR} puppeteer-core@${PUPPETEER_VERSION})
endif()
