#include "emulator/BarrierSegments.h"

namespace strata::emulator {

std::vector<std::vector<std::vector<compiler::InstrId>>>
barrierSegments(const compiler::Program& program) {
    std::vector<std::vector<std::vector<compiler::InstrId>>> out(program.streams.size());
    for (std::size_t c = 0; c < program.streams.size(); ++c) {
        out[c].emplace_back();
        for (const compiler::InstrId id : program.streams[c]) {
            if (std::holds_alternative<compiler::Barrier>(program.instructions[id].body))
                out[c].emplace_back();
            else
                out[c].back().push_back(id);
        }
    }
    return out;
}

} // namespace strata::emulator
