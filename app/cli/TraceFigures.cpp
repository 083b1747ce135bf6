#include "TraceFigures.h"

#include <fmt/format.h>

namespace strata::cli {

std::string duration(std::int64_t ps) {
    const double v = double(ps);
    if (v >= 1e9) return fmt::format("{:.3f} ms", v / 1e9);
    if (v >= 1e6) return fmt::format("{:.3f} us", v / 1e6);
    return fmt::format("{:.1f} ns", v / 1e3);
}

nlohmann::ordered_json blocksJson(const trace::TraceSummary& summary) {
    nlohmann::ordered_json blocks = nlohmann::ordered_json::array();
    for (const auto& b : summary.blocks)
        blocks.push_back({{"id", b.block},
                          {"time_ns", ns(b.timePs)},
                          {"transfer_ns", ns(b.transferPs)},
                          {"compute_ns", ns(b.computePs)},
                          {"stall_ns", ns(b.stallPs)},
                          {"dram_bytes", b.dramBytes}});
    return blocks;
}

} // namespace strata::cli
