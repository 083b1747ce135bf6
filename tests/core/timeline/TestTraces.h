#pragma once
// Small traces for the timeline tests.

#include "trace/Trace.h"

#include <algorithm>
#include <cstdint>
#include <random>

namespace strata::timeline::testing {

inline trace::Event event(std::int64_t start, std::int64_t end, trace::EventKind kind, std::uint32_t core,
                          std::int32_t block, std::uint16_t path = trace::kNoPath, std::uint32_t id = 0,
                          std::uint64_t bytes = 0) {
    trace::Event e;
    e.startPs = start;
    e.endPs = end;
    e.kind = kind;
    e.core = core;
    e.block = block;
    e.path = path;
    e.id = id;
    e.bytes = bytes;
    return e;
}

// `count` events per core on `cores` cores: a stream of back-to-back computes and waits with
// random lengths and gaps, and overlapping transfers on two paths; shuffled so nothing relies on
// the trace's order.
inline trace::Trace randomTrace(std::uint32_t cores, std::size_t count, unsigned seed) {
    trace::Trace t;
    t.cores = static_cast<int>(cores);
    t.paths = {{"load", "dram", "sram"}, {"store", "sram", "dram"}};
    std::mt19937 rng(seed);
    std::uniform_int_distribution<std::int64_t> length(0, 5'000);
    std::uniform_int_distribution<std::int64_t> gap(0, 800);
    std::uniform_int_distribution<int> pick(0, 9);
    std::uint32_t id = 0;
    for (std::uint32_t core = 0; core < cores; ++core) {
        std::int64_t now = 0;
        for (std::size_t i = 0; i < count; ++i) {
            const int p = pick(rng);
            const std::int32_t block = static_cast<std::int32_t>(i / 50);
            if (p < 3) { // a transfer overlapping whatever comes next
                const auto path = static_cast<std::uint16_t>(p % 2);
                const std::int64_t start = now + gap(rng);
                t.events.push_back(event(start, start + 3 * length(rng), trace::EventKind::Transfer, core,
                                         block, path, id++, 4096));
                continue;
            }
            const std::int64_t start = now + gap(rng);
            const std::int64_t end = start + length(rng);
            t.events.push_back(event(start, end, p < 8 ? trace::EventKind::Compute : trace::EventKind::Wait,
                                     core, block, trace::kNoPath, id++, 128));
            now = end;
        }
    }
    std::shuffle(t.events.begin(), t.events.end(), rng);
    return t;
}

} // namespace strata::timeline::testing
