#include "BenchEdits.h"

#include "schedule/Edits.h"

#include <algorithm>

namespace strata::bench {

std::optional<schedule::Schedule> oneBlockEdit(const schedule::Schedule& s, const target::Target& target) {
    for (std::size_t k = 0; k < s.blocks.size(); ++k) {
        const schedule::Block& b = s.blocks[(s.blocks.size() / 2 + k) % s.blocks.size()];
        const int mp = b.mp > 1 ? b.mp / 2 : std::min(2, target.maxMp());
        if (mp == b.mp) continue;
        if (auto edited = schedule::setMp(s, b.id, mp)) return std::move(edited).value();
    }
    return std::nullopt;
}

std::optional<schedule::Schedule> splitMiddleBlock(const schedule::Schedule& s, const ir::Graph& graph) {
    for (std::size_t k = 0; k < s.blocks.size(); ++k) {
        const schedule::Block& b = s.blocks[(s.blocks.size() / 2 + k) % s.blocks.size()];
        if (b.ops.size() < 2) continue;
        if (auto split = schedule::splitBlock(s, graph, b.id, b.ops[1])) return std::move(split).value();
    }
    return std::nullopt;
}

} // namespace strata::bench
