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
    forEachMainMemoryTransfer(
        program, target.mainMemory, working->capacityBytes,
        [&](compiler::InstrId id, const compiler::Transfer& t, const RecentRegions& recent) {
            const target::TransferPath& path = target.paths[steps[id].path];
            if (t.source.memory != target.mainMemory || !path.residentRowOverheadCycles ||
                path.rowOverheadCycles <= *path.residentRowOverheadCycles)
                return;
            const std::int64_t wanted = tiling::regionElements(t.region);
            const std::int64_t found = wanted > 0 ? recent.find(t.value.index, t.region).moved : 0;
            if (found > 0) {
                const double share = std::min(1.0, double(found) / double(wanted));
                steps[id].amount -= share * double(transferRows(t)) *
                                    (path.rowOverheadCycles - *path.residentRowOverheadCycles);
            }
        });
}

} // namespace strata::emulator
