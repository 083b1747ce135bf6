#include "tiling/Region.h"

#include <algorithm>
#include <cassert>

namespace strata::tiling {

Region fullRegion(const ir::Shape& shape) {
    Region region;
    region.reserve(shape.size());
    for (std::int64_t d : shape) region.push_back({0, d});
    return region;
}

std::uint64_t regionBytes(const Region& region, ir::DType dtype) {
    return static_cast<std::uint64_t>(regionElements(region)) * ir::dtypeSize(dtype);
}

std::int64_t regionElements(const Region& region) {
    std::int64_t n = 1;
    for (const Interval& i : region) n *= i.size();
    return n;
}

bool regionEmpty(const Region& region) {
    return std::any_of(region.begin(), region.end(),
                       [](const Interval& i) { return i.size() == 0; });
}

Region regionUnion(const Region& a, const Region& b) {
    assert(a.size() == b.size());
    // An empty region adds nothing; its bounds must not stretch the other's.
    if (regionEmpty(a)) return b;
    if (regionEmpty(b)) return a;
    Region out(a.size());
    for (std::size_t d = 0; d < a.size(); ++d)
        out[d] = {std::min(a[d].begin, b[d].begin), std::max(a[d].end, b[d].end)};
    return out;
}

bool regionContains(const Region& outer, const Region& inner) {
    if (outer.size() != inner.size()) return false;
    if (regionEmpty(inner)) return true;
    for (std::size_t d = 0; d < outer.size(); ++d)
        if (inner[d].begin < outer[d].begin || inner[d].end > outer[d].end) return false;
    return true;
}

std::string regionToString(const Region& region) {
    if (region.empty()) return "scalar";
    std::string out;
    for (std::size_t d = 0; d < region.size(); ++d) {
        if (d) out += 'x';
        out += '[' + std::to_string(region[d].begin) + ',' + std::to_string(region[d].end) + ')';
    }
    return out;
}

} // namespace strata::tiling
