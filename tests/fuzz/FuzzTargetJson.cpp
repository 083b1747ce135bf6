// libFuzzer target: a target description parsed and validated.

#include "target/TargetLoader.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::vector<strata::Diagnostic> warnings;
    (void)strata::target::parseTarget(std::string_view(reinterpret_cast<const char*>(data), size),
                                      "fuzz.json", &warnings);
    return 0;
}
