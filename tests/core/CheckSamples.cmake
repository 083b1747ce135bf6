# Regenerates the bundled samples and fails unless they match the committed files byte for byte.
# Usage: cmake -DGENERATOR=... -DSAMPLES=... -DOUT=... -P CheckSamples.cmake
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
execute_process(COMMAND "${GENERATOR}" "${OUT}" RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "strata_make_samples failed with ${rc}")
endif()
foreach(name resnet_tiny.onnx mobilenet_tiny.onnx transformer_block.onnx)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files "${OUT}/${name}" "${SAMPLES}/${name}"
                  RESULT_VARIABLE differs)
  if(differs)
    message(FATAL_ERROR "samples/${name} differs from what samples/generator makes; regenerate it")
  endif()
endforeach()
message(STATUS "all samples match their generator")
