# Installs the build into a scratch prefix and checks that everything the Debian package
# promises is there (packaging/README.md): the programs run, the samples, targets, desktop
# entry, icon and MIME type are in place and well-formed.
# Arguments: -DBUILD_DIR=... -DPREFIX=... -DGUI=ON|OFF

file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}"
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed: ${err}")
endif()

set(expected
    bin/strata-cli
    share/strata/samples/resnet_tiny.onnx
    share/strata/targets/host.json
    share/strata/targets/mncore2.json)
if(GUI)
  list(APPEND expected
       bin/strata bin/strata-layout
       share/applications/strata.desktop
       share/icons/hicolor/scalable/apps/strata.svg
       share/mime/packages/strata.xml)
endif()
foreach(f IN LISTS expected)
  if(NOT EXISTS "${PREFIX}/${f}")
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()

# The installed CLI works from its new home on an installed sample.
execute_process(COMMAND "${PREFIX}/bin/strata-cli" inspect --json "${PREFIX}/share/strata/samples/resnet_tiny.onnx"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "\"nodes\"")
  message(FATAL_ERROR "installed strata-cli inspect failed (${rc}): ${err}")
endif()

if(GUI)
  file(READ "${PREFIX}/share/applications/strata.desktop" desktop)
  foreach(key "Exec=strata %f" "Icon=strata" "MimeType=application/x-strata-project;")
    string(FIND "${desktop}" "${key}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "strata.desktop lacks '${key}'")
    endif()
  endforeach()
  file(READ "${PREFIX}/share/mime/packages/strata.xml" mime)
  if(NOT mime MATCHES "glob pattern=\"\\*\\.strata\"")
    message(FATAL_ERROR "strata.xml does not claim *.strata")
  endif()
endif()
