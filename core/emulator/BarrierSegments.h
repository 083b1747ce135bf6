#pragma once
// Every core's stream cut at its barriers: segment s of every core runs after segment s - 1 of
// every core has, so a transfer of an earlier segment precedes, on any core, one of a later.

#include "compiler/Program.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace strata::emulator {

// Per core, its segments, each the instructions between two of its barriers (barriers left out).
std::vector<std::vector<std::vector<compiler::InstrId>>>
barrierSegments(const compiler::Program& program);

// Calls `visit(id, transfer, core, segment)` for every transfer of `program`: segment by segment,
// each core's in its stream's order.
template <class Visit>
void forEachTransferInBarrierOrder(const compiler::Program& program, Visit visit) {
    const auto segments = barrierSegments(program);
    std::size_t count = 0;
    for (const auto& core : segments)
        count = std::max(count, core.size());
    for (std::size_t s = 0; s < count; ++s)
        for (std::uint32_t c = 0; c < segments.size(); ++c)
            if (s < segments[c].size())
                for (const compiler::InstrId id : segments[c][s])
                    if (const auto* t =
                            std::get_if<compiler::Transfer>(&program.instructions[id].body))
                        visit(id, *t, c, s);
}

} // namespace strata::emulator
