#pragma once
// A small two-core target and constant data for the runtime's model tests.

#include "target/Target.h"

#include <cstdint>
#include <string>

namespace strata::test {

// Two cores, each with `scratchBytes` of working memory, loading and storing over one bus.
inline target::Target twoCoreTarget(const std::string& name, std::uint64_t scratchBytes) {
    target::Target t;
    t.name = name;
    t.source = "test";
    t.clockHz = 1e9;
    t.coresPerGroup = 2;
    for (std::size_t c = 0; c < t.throughput.perCycle.size(); ++c)
        t.throughput.perCycle[c] = 1;
    t.workingMemory = "scratch";
    t.mainMemory = "dram";
    t.memories = {{"dram", target::MemoryKind::Dram, target::Scope::Chip, 1ull << 24, ""},
                  {"scratch", target::MemoryKind::Sram, target::Scope::Core, scratchBytes, ""}};
    t.resources = {{"bus", target::Scope::Chip, 16, ""}};
    t.paths = {{"load", "dram", "scratch", 16, 10, 4, {"bus"}, false, ""},
               {"store", "scratch", "dram", 16, 10, 4, {"bus"}, false, ""}};
    return t;
}

// `count` small values of a fixed pattern times `scale`, comma-separated, for ONNX text
// initializers.
inline std::string patternValues(std::int64_t count, float scale) {
    std::string text;
    for (std::int64_t i = 0; i < count; ++i)
        text += (i ? ", " : "") + std::to_string(scale * float((i * 37) % 23 - 11));
    return text;
}

} // namespace strata::test
