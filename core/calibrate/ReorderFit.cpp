#include "calibrate/ReorderFit.h"

#include "calibrate/Fit.h"

#include <algorithm>
#include <map>
#include <utility>

namespace strata::calibrate {

double fitReorderFarByteCycles(const std::vector<ReorderSample>& samples, double overheadCycles,
                               double perCycle, double privateCacheBytes) {
    if (!(perCycle > 0) || !(privateCacheBytes > 0))
        return 0;
    std::map<std::pair<double, double>, std::vector<double>> shapes;
    for (const ReorderSample& s : samples)
        if (s.boxBytes > privateCacheBytes && s.cycles > 0)
            shapes[{s.elements, s.boxBytes}].push_back(s.cycles);
    if (shapes.size() < kMinFarReorderShapes)
        return 0;
    std::vector<double> perByte;
    for (auto& [shape, cycles] : shapes) {
        const auto [elements, boxBytes] = shape;
        const double near = overheadCycles + elements / perCycle;
        perByte.push_back((median(std::move(cycles)) - near) / (boxBytes - privateCacheBytes));
    }
    return std::max(0.0, median(std::move(perByte)));
}

} // namespace strata::calibrate
