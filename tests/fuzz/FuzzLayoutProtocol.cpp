// libFuzzer target: the layout helper's request, as strata-layout reads it from stdin.

#include "layout/LayoutProtocol.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    auto request =
        strata::layout::decodeRequest(std::string_view(reinterpret_cast<const char*>(data), size));
    if (request)
        (void)strata::layout::encodeRequest(*request);
    return 0;
}
