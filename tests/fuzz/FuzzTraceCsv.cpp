// libFuzzer target: a trace in CSV, parsed and validated with its line numbers.

#include "trace/TraceCsvReader.h"
#include "trace/TraceValidate.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    auto loaded = strata::trace::parseTraceCsv(
        std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.csv");
    if (loaded)
        (void)strata::trace::validateTrace(loaded->trace,
                                           {.lines = &loaded->lines, .file = "fuzz.csv"});
    return 0;
}
