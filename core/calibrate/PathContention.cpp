#include "calibrate/PathContention.h"

#include <algorithm>
#include <fmt/format.h>

namespace strata::calibrate {

void setPathContention(target::Target& target, const std::string& path,
                       const PathContentionFit& fit) {
    const std::string name = path + "_contention";
    target::TransferPath* listing = nullptr;
    for (target::TransferPath& p : target.paths)
        if (p.name == path)
            listing = &p;
    if (!(fit.bytesPerCycle > 0) || !listing) {
        std::erase_if(target.resources,
                      [&](const target::SharedResource& r) { return r.name == name; });
        for (target::TransferPath& p : target.paths)
            std::erase(p.resources, name);
        return;
    }
    auto resource = std::find_if(target.resources.begin(), target.resources.end(),
                                 [&](const target::SharedResource& r) { return r.name == name; });
    if (resource == target.resources.end())
        resource = target.resources.insert(target.resources.end(), target::SharedResource{name});
    resource->scope = target::Scope::Chip;
    resource->bytesPerCycle = fit.bytesPerCycle;
    resource->note =
        fmt::format("calibrated: '{}' transfers of 256 KiB and up on two cores at once "
                    "run {:.2f}x their time alone ({:.2f}x up to 64 KiB)",
                    path, fit.largeSlowdown, fit.smallSlowdown);
    if (std::find(listing->resources.begin(), listing->resources.end(), name) ==
        listing->resources.end())
        listing->resources.push_back(name);
}

} // namespace strata::calibrate
