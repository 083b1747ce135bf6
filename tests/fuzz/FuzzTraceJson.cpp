// libFuzzer target: a trace in Strata's Chrome trace-event JSON, parsed and validated.

#include "trace/TraceJson.h"
#include "trace/TraceValidate.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    auto loaded = strata::trace::parseTraceJson(
        std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.json");
    if (loaded)
        (void)strata::trace::validateTrace(loaded->trace);
    return 0;
}
