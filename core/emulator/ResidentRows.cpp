#include "emulator/ResidentRows.h"

#include "emulator/RecentRegions.h"
#include "emulator/TransferRows.h"

#include <algorithm>

namespace strata::emulator {

void chargeResidentRows(const compiler::Program& program, const target::Target& target,
                        std::vector<Step>& steps) {
    const bool any = std::any_of(target.paths.begin(), target.paths.end(), [](const auto& p) {
        return p.residentRowOverheadCycles.has_value();
    });
    const target::MemorySpace* working = target.findMemory(target.workingMemory);
    if (!any || !working)
        return;
    for (const std::vector<compiler::InstrId>& stream : program.streams) {
        std::uint64_t moved = 0;
        RecentRegions recent(working->capacityBytes);
        for (const compiler::InstrId id : stream) {
            const auto* t = std::get_if<compiler::Transfer>(&program.instructions[id].body);
            if (!t)
                continue;
            const bool load = t->source.memory == target.mainMemory;
            const bool store = t->destination.memory == target.mainMemory;
            if ((!load && !store) || !t->value.valid()) {
                moved += t->bytes;
                continue;
            }
            recent.evict(moved);
            const target::TransferPath& path = target.paths[steps[id].path];
            if (load && path.residentRowOverheadCycles &&
                path.rowOverheadCycles > *path.residentRowOverheadCycles) {
                const std::int64_t wanted = tiling::regionElements(t->region);
                const std::int64_t found =
                    wanted > 0 ? recent.find(t->value.index, t->region).moved : 0;
                if (found > 0) {
                    const double share = std::min(1.0, double(found) / double(wanted));
                    steps[id].amount -= share * double(transferRows(*t)) *
                                        (path.rowOverheadCycles - *path.residentRowOverheadCycles);
                }
            }
            moved += t->bytes;
            recent.add(t->value.index, &t->region, store, moved);
        }
    }
}

} // namespace strata::emulator
