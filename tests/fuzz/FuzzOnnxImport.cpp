// libFuzzer target: ONNX import from bytes, through structural checks, op validation, onnx's
// checker, constant folding and shape inference, and IR construction. Any crash, hang or
// sanitizer report is a finding; a diagnostic is the expected outcome for bad bytes.

#include "model/OnnxImporter.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    (void)strata::model::importOnnxBytes({reinterpret_cast<const std::byte*>(data), size},
                                         "fuzz.onnx", "");
    return 0;
}
